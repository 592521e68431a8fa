//! A step's expressions read only steps it runs after: `steps.X.output` read by a step that
//! does not wait for X (through `needs`, `parallel_steps`, a branch or a decision tree) sees
//! `undefined` whenever X has not run yet.

use std::borrow::Cow;

use rustc_hash::{FxHashMap, FxHashSet};

use super::context::{field, LintContext, Token, V};
use super::expressions::{collect_strings, locate};
use super::rules;
use crate::expr::Template;
use crate::json::pointer_tokens;

pub fn check(cx: &mut LintContext<'_>) {
    let reads = step_reads(cx);
    if reads.is_empty() {
        return;
    }
    let order = Order::of(cx.resolved);
    for read in reads {
        if order.runs_after(&read.reader, &read.step) {
            continue;
        }
        let span = locate(cx, &read.pointer, &read.text, read.offset, read.len);
        cx.report_at(
            rules::UNWAITED_STEP_READ,
            &read.pointer,
            span,
            format!(
                "step `{}` reads `steps.{}` but does not run after `{}`",
                read.reader, read.step, read.step
            ),
        );
        cx.help(format!(
            "add `{}` to the `needs` of `{}`",
            read.step, read.reader
        ));
    }
}

/// `steps.STEP` read inside the step `reader`'s own fields.
struct Read {
    reader: String,
    step: String,
    pointer: String,
    text: String,
    offset: usize,
    len: usize,
}

fn step_reads(cx: &LintContext<'_>) -> Vec<Read> {
    // Only the steps whose text names `steps` at all are walked (most read no other step).
    let text = cx.document.text();
    let own_steps = cx.own().get("steps");
    let mut strings = Vec::new();
    for entry in cx
        .document
        .root()
        .get("steps")
        .and_then(|s| s.as_map())
        .unwrap_or_default()
    {
        let written = text
            .get(entry.value.span().start..entry.value.span().end)
            .unwrap_or("");
        if !written.contains("steps") {
            continue;
        }
        // Read from the tree, the step is this entry's value; a JSON view is looked up (by
        // hash, not by a scan of every step for each).
        let step = match cx.own() {
            V::Node(_) => Some(V::Node(&entry.value)),
            V::Json(_) => own_steps.and_then(|s| s.get(entry.key.as_str())),
        };
        let Some(step) = step else {
            continue;
        };
        let mut path = vec![Token::Key("steps"), Token::Key(&entry.key)];
        collect_strings(step, &mut path, &mut strings);
    }
    let mut reads = Vec::new();
    for (pointer, text) in strings {
        let tokens = pointer_tokens(&pointer);
        let [steps, reader, ..] = tokens.as_slice() else {
            continue;
        };
        if steps != "steps" {
            continue;
        }
        let Ok(template) = Template::parse(&text) else {
            continue;
        };
        for expr in template.expressions() {
            for (path, range) in expr.paths() {
                let [root, step, ..] = path.as_slice() else {
                    continue;
                };
                // Another own step that exists (unknown names are `unknown-step-reference`'s;
                // imported ones are ordered by their own document).
                if root != "steps" || step == reader || step.contains('.') || !cx.has_step(step) {
                    continue;
                }
                reads.push(Read {
                    reader: reader.clone(),
                    step: step.clone(),
                    pointer: pointer.clone(),
                    text: text.clone(),
                    offset: range.start,
                    len: range.len(),
                });
            }
        }
    }
    reads
}

/// What each step runs after, by every ordering edge of the flow (`crate::flow`): `needs`, a
/// parallel step after its members, a branch's target after the step that branches, and a step
/// a decision tree routes to after the steps the tree's conditions read. Branches that loop back
/// count too, so a read across a loop is not reported. Built from the data directly: the typed
/// model and the flow of a 5,000-step document cost several times the rest of the check, on
/// every keystroke.
struct Order<'v> {
    after: FxHashMap<&'v str, Vec<Cow<'v, str>>>,
}

impl<'v> Order<'v> {
    fn of(resolved: V<'v>) -> Order<'v> {
        let mut after: FxHashMap<&str, Vec<Cow<'v, str>>> = FxHashMap::default();
        let steps = field(resolved, "steps").and_then(V::as_object);
        for (name, step) in steps.into_iter().flatten() {
            let before = after.entry(name).or_default();
            before.extend(names(field(step, "needs")));
            before.extend(names(field(step, "parallel_steps")));
            for branch in field(step, "branches")
                .and_then(V::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(target) = field(branch, "then").and_then(V::as_str) {
                    after.entry(target).or_default().push(Cow::Borrowed(name));
                }
            }
        }
        let trees = field(resolved, "decision_trees").and_then(V::as_object);
        for tree in trees.into_iter().flatten().map(|(_, tree)| tree) {
            let (read, routes) = tree_reads_and_routes(tree);
            for route in routes {
                after
                    .entry(route)
                    .or_default()
                    .extend(read.iter().cloned().map(Cow::Owned));
            }
        }
        Order { after }
    }

    /// Whether `reader` runs after `step` (a chain of ordering edges from one to the other).
    fn runs_after(&self, reader: &str, step: &str) -> bool {
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        let mut stack: Vec<&str> = vec![reader];
        while let Some(unit) = stack.pop() {
            for before in self.after.get(unit).into_iter().flatten() {
                if before == step {
                    return true;
                }
                if seen.insert(before) {
                    stack.push(before);
                }
            }
        }
        false
    }
}

/// The strings of a list, borrowed.
fn names(list: Option<V<'_>>) -> impl Iterator<Item = Cow<'_, str>> {
    list.and_then(V::as_array)
        .into_iter()
        .flatten()
        .filter_map(V::as_str)
        .map(Cow::Borrowed)
}

/// The steps a decision tree's conditions read, and the names its branches and terminals route
/// to (steps among them).
fn tree_reads_and_routes(tree: V<'_>) -> (Vec<String>, Vec<&str>) {
    let mut read = Vec::new();
    let mut routes = Vec::new();
    for node in values(field(tree, "nodes")) {
        let condition = field(node, "condition").and_then(V::as_str);
        if let Some(Ok(template)) = condition.map(Template::parse) {
            for expr in template.expressions() {
                for (path, _) in expr.paths() {
                    if let [root, step, ..] = path.as_slice() {
                        if root == "steps" {
                            read.push(step.clone());
                        }
                    }
                }
            }
        }
        for branch in field(node, "branches")
            .and_then(V::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(next) = field(branch, "next").and_then(V::as_str) {
                routes.push(next);
            }
        }
    }
    for terminal in values(field(tree, "terminals")) {
        if let Some(action) = field(terminal, "action").and_then(V::as_str) {
            routes.push(action);
        }
    }
    (read, routes)
}

/// The values of an object.
fn values(object: Option<V<'_>>) -> impl Iterator<Item = V<'_>> {
    object
        .and_then(V::as_object)
        .into_iter()
        .flatten()
        .map(|(_, value)| value)
}

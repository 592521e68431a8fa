//! What a lint rule sees: the document (for places) and the resolved frontmatter (for meaning),
//! and where it reports.

use std::cell::OnceCell;
use std::fmt;

use rustc_hash::FxHashSet;

use super::rules::LintRule;
pub use super::view::{Obj, V};
use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::json::{entry_at, push_index, push_token};
use crate::source::Span;

pub struct LintContext<'d> {
    pub document: &'d Document,
    /// The document's own frontmatter (its tree, or a JSON view made for the lint call).
    own: V<'d>,
    /// The frontmatter with imports merged: names defined by imports resolve against this.
    pub resolved: V<'d>,
    diagnostics: Vec<Diagnostic>,
    /// The resolved steps' names, made on the first [`LintContext::has_step`]: rules ask it for
    /// every `needs`, branch and expression, of a map serde_json hashes with SipHash.
    step_set: OnceCell<FxHashSet<&'d str>>,
}

impl<'d> LintContext<'d> {
    pub fn new(document: &'d Document, own: V<'d>, resolved: V<'d>) -> Self {
        LintContext {
            document,
            own,
            resolved,
            diagnostics: Vec::new(),
            step_set: OnceCell::new(),
        }
    }

    /// The file's own frontmatter: what rules walk, so every finding has a place in this file.
    pub fn own(&self) -> V<'d> {
        self.own
    }

    /// Reports `rule` at the value at `pointer`.
    pub fn report(&mut self, rule: LintRule, pointer: &str, message: impl Into<String>) {
        let span = self.document.span_at(pointer);
        self.report_at(rule, pointer, span, message);
    }

    /// Reports `rule` at the key of the entry at `pointer` (for named things: steps, nodes).
    pub fn report_key(&mut self, rule: LintRule, pointer: &str, message: impl Into<String>) {
        let span = entry_at(self.document.root(), pointer)
            .map_or_else(|| self.document.span_at(pointer), |entry| entry.key_span());
        self.report_at(rule, pointer, span, message);
    }

    pub fn report_at(
        &mut self,
        rule: LintRule,
        pointer: &str,
        span: Span,
        message: impl Into<String>,
    ) {
        let diagnostic = Diagnostic::new(rule.severity, rule.code, message).with_path(pointer);
        self.diagnostics
            .push(self.document.locate(diagnostic, span));
    }

    /// Adds a hint to the last reported diagnostic.
    pub fn help(&mut self, help: impl Into<String>) {
        if let Some(last) = self.diagnostics.last_mut() {
            last.help = Some(help.into());
        }
    }

    pub fn finish(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// Names of the steps the resolved document defines (own and imported).
    pub fn step_names(&self) -> Vec<&'d str> {
        object(field(self.resolved, "steps"))
            .map(|steps| steps.keys().collect())
            .unwrap_or_default()
    }

    pub fn has_step(&self, name: &str) -> bool {
        let resolved = self.resolved;
        self.step_set
            .get_or_init(|| {
                object(field(resolved, "steps"))
                    .map(|steps| steps.keys().collect())
                    .unwrap_or_default()
            })
            .contains(name)
    }
}

/// `value` as an object, if it is one.
pub fn object(value: Option<V<'_>>) -> Option<Obj<'_>> {
    value.and_then(V::as_object)
}

/// The member `key` of `value`, if it is an object with one.
pub fn field<'v>(value: V<'v>, key: &str) -> Option<V<'v>> {
    value.get(key)
}

/// A place in the document, its JSON Pointer written only when asked ([`At::pointer`], or
/// `Display`): rules walk every step and item, and report at few of them; writing a pointer for
/// each cost more than the rules' own work (docs/perf.md, "The check, round two").
#[derive(Clone, Copy)]
pub enum At<'a> {
    /// A place whose pointer is already written.
    Pointer(&'a str),
    /// The member or item `token` of the field `field` of the place `parent`.
    Child(&'a At<'a>, &'a str, Token<'a>),
}

impl At<'_> {
    /// The document's root.
    pub const ROOT: At<'static> = At::Pointer("");

    /// The place's JSON Pointer.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// The pointer of the member `field` of this place.
    pub fn push(&self, field: &str) -> String {
        let mut out = self.pointer();
        push_token(&mut out, field);
        out
    }

    fn write(&self, out: &mut String) {
        match *self {
            At::Pointer(pointer) => out.push_str(pointer),
            At::Child(parent, field, token) => {
                parent.write(out);
                push_token(out, field);
                match token {
                    Token::Key(key) => push_token(out, key),
                    Token::Index(i) => push_index(out, i),
                }
            }
        }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pointer())
    }
}

/// Entries of the object at `field` of `value`, with their places under `parent`.
pub fn entries<'a>(
    value: V<'a>,
    parent: &'a At<'a>,
    field: &'a str,
) -> impl Iterator<Item = (At<'a>, &'a str, V<'a>)> + Clone {
    object(value.get(field))
        .into_iter()
        .flatten()
        .map(move |(key, item)| {
            let at = At::Child(parent, field, Token::Key(key));
            (at, key, item)
        })
}

/// Items of the array at `field` of `value`, with their places under `parent`.
pub fn items<'a>(
    value: V<'a>,
    parent: &'a At<'a>,
    field: &'a str,
) -> impl Iterator<Item = (At<'a>, V<'a>)> + Clone {
    value
        .get(field)
        .and_then(V::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(move |(i, item)| (At::Child(parent, field, Token::Index(i)), item))
}

/// The closest of `known` to `name`, as a help text.
pub fn did_you_mean<'k>(name: &str, known: impl IntoIterator<Item = &'k str>) -> Option<String> {
    let known: Vec<&str> = known.into_iter().collect();
    crate::schema::closest(name, known.iter().copied())
        .map(|close| format!("did you mean `{close}`?"))
        .or_else(|| {
            (!known.is_empty() && known.len() <= 12)
                .then(|| format!("defined: {}", known.join(", ")))
        })
}

/// Every value matching `pattern` in `value`, with its pointer. The pattern is a JSON Pointer in
/// which a `*` token stands for every key of an object or every item of an array:
/// `/steps/*/retry/max_attempts`.
pub fn places<'v>(value: V<'v>, pattern: &str) -> Places<'v> {
    // Each level's places: (its parent's position in the level before, the token reaching it).
    let mut levels: Vec<Vec<(usize, Token<'v>)>> = Vec::new();
    let mut current: Vec<V<'v>> = vec![value];
    for token in pattern.split('/').skip(1) {
        let mut reached = Vec::with_capacity(current.len());
        let mut next = Vec::with_capacity(current.len());
        for (parent, here) in current.iter().enumerate() {
            if let Some(map) = here.as_object() {
                if token == "*" {
                    for (key, child) in map {
                        reached.push((parent, Token::Key(key)));
                        next.push(child);
                    }
                } else if let Some((key, child)) = map.get_key_value(token) {
                    reached.push((parent, Token::Key(key)));
                    next.push(child);
                }
            } else if let Some(list) = here.as_array().filter(|_| token == "*") {
                for (i, child) in list.iter().enumerate() {
                    reached.push((parent, Token::Index(i)));
                    next.push(child);
                }
            }
        }
        levels.push(reached);
        current = next;
    }
    Places {
        levels,
        found: current,
    }
}

/// What [`places`] found: the values, and how each was reached, so a pointer is written only for
/// a value a rule reports (most are fine, and writing theirs cost more than the search).
pub struct Places<'v> {
    /// Each level's places: (its parent's position in the level before, the token reaching it).
    levels: Vec<Vec<(usize, Token<'v>)>>,
    found: Vec<V<'v>>,
}

impl<'v> Places<'v> {
    /// Each value found, in document order, with its place.
    pub fn iter(&self) -> impl Iterator<Item = (Place<'_, 'v>, V<'v>)> {
        self.found.iter().enumerate().map(|(at, found)| {
            let place = Place {
                levels: &self.levels,
                at,
            };
            (place, *found)
        })
    }
}

/// Where one value [`places`] found is.
#[derive(Clone, Copy)]
pub struct Place<'p, 'v> {
    levels: &'p [Vec<(usize, Token<'v>)>],
    at: usize,
}

impl Place<'_, '_> {
    /// The value's JSON Pointer.
    pub fn pointer(&self) -> String {
        pointer_of(self.levels, self.at)
    }
}

/// A token of a pointer: a key of an object or an index of an array.
#[derive(Clone, Copy)]
pub enum Token<'v> {
    Key(&'v str),
    Index(usize),
}

/// The pointer of the place at position `at` of the last of `levels`.
fn pointer_of(levels: &[Vec<(usize, Token<'_>)>], mut at: usize) -> String {
    let mut tokens = Vec::with_capacity(levels.len());
    for level in levels.iter().rev() {
        let (parent, token) = level[at];
        tokens.push(token);
        at = parent;
    }
    tokens.reverse();
    pointer_from(&tokens)
}

/// The JSON Pointer the `tokens` spell, from the root.
pub fn pointer_from(tokens: &[Token<'_>]) -> String {
    let mut pointer = String::new();
    for token in tokens {
        match *token {
            Token::Key(key) => push_token(&mut pointer, key),
            Token::Index(i) => push_index(&mut pointer, i),
        }
    }
    pointer
}

/// Whether a string is empty or only white space: it names nothing.
pub fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// A value as a message shows it: strings in backticks, numbers and booleans as written.
pub fn shown(value: V<'_>) -> String {
    if let Some(text) = value.as_str() {
        return format!("`{text}`");
    }
    if value.as_array().is_some() {
        return "a list".to_owned();
    }
    if value.is_object() {
        return "an object".to_owned();
    }
    value.json().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{pointer_push, pointer_push_index};
    use proptest::prelude::*;

    proptest! {
        /// A place writes the pointer the eager `pointer_push` chain wrote before it, escapes
        /// included (`~`, `/` in step names).
        #[test]
        fn a_place_writes_the_pointer_its_tokens_spell(
            key in "[a-z~/]{0,6}", inner in "[a-z~/]{1,6}", index in 0usize..12,
        ) {
            let value = serde_json::json!({ "steps": { key.clone(): { inner.clone(): vec![0; 12] } } });
            let base = At::Pointer("/doc");
            let (step, _, step_value) = entries(V::Json(&value), &base, "steps").next().expect("one step");
            let expected_step = pointer_push(&pointer_push("/doc", "steps"), &key);
            prop_assert_eq!(step.pointer(), expected_step.clone());
            prop_assert_eq!(step.to_string(), expected_step.clone());
            prop_assert_eq!(step.push("needs"), pointer_push(&expected_step, "needs"));
            let (item, _) = items(step_value, &step, &inner).nth(index).expect("an item");
            prop_assert_eq!(
                item.pointer(),
                pointer_push_index(&pointer_push(&expected_step, &inner), index)
            );
        }
    }
}

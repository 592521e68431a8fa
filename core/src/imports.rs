//! Import resolution (spec §2.2): loads every `imports[]` entry through a [`Loader`], namespaces
//! what it defines under its `as`, and merges the result under the current file.
//!
//! Precedence, most specific first: the current file, then imports with later ones overriding
//! earlier ones. Named collections (`steps`, `decision_trees`, `nodes`) are namespaced: an
//! imported step `gather` becomes `as.gather`, and the references to it inside the imported file
//! (`needs`, `parallel_steps`, `branches[].then`, decision-tree `next`, `depends_on`, edge
//! `from`/`to`) are rewritten to match, and so are its expressions' step reads (`steps.gather`
//! becomes `steps['as.gather']`), wherever they are written. Edges are concatenated. Every other section is merged
//! deeply: objects key by key, anything else replaced by the more specific value.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::lint::rules::{self, LintRule};
use crate::loader::{LoadError, Loader};
use crate::source::LineCol;
use crate::validate::validate;

/// The deepest chain of imports followed before giving up.
pub const MAX_IMPORT_DEPTH: usize = 32;
/// The most files one resolution loads.
pub const MAX_IMPORTED_FILES: usize = 256;

/// Sections that belong to the importing file alone.
const IDENTITY: &[&str] = &["spec_version", "name", "description", "imports"];

/// A document with its imports merged in.
#[derive(Debug, Clone)]
pub struct Resolved<'d> {
    /// The merged frontmatter, without `imports`: the document's own frontmatter, borrowed,
    /// when it has no `imports` (nothing to merge, and a copy of a large document is costly).
    pub value: Cow<'d, Value>,
    /// Ids of the files loaded, in load order.
    pub files: Vec<String>,
    /// For each import entry of the root document: the names it contributed, namespaced.
    pub contributed: Vec<Contribution>,
    /// Problems with the imports (files that cannot be loaded or are invalid, cycles,
    /// conflicts), each with the JSON Pointer of the `imports` entry it is about.
    pub diagnostics: Vec<Diagnostic>,
}

/// What one import entry brought in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contribution {
    /// The entry's position in `imports`.
    pub index: usize,
    /// The entry's `as`.
    pub alias: String,
    /// The file was found, valid, and merged.
    pub loaded: bool,
    /// The names of the steps it added, namespaced (`alias.step`), sorted.
    pub steps: Vec<String>,
    /// The other top-level sections it added to, in file order.
    pub sections: Vec<String>,
}

struct Resolver<'l> {
    loader: &'l dyn Loader,
    /// Files already resolved, by id: a diamond loads its shared file once.
    done: HashMap<String, Result<Value, String>>,
    files: Vec<String>,
}

/// Resolves the imports of `document`, whose id (for relative references) is `id`.
pub fn resolve<'d>(document: &'d Document, id: &str, loader: &dyn Loader) -> Resolved<'d> {
    resolve_own(document, document.json(), id, loader)
}

/// [`resolve`] with the document's own frontmatter as JSON given (a view made for one call,
/// [`Document::json_for_call`], so that resolving does not make the document keep one).
pub fn resolve_own<'d>(
    document: &Document,
    own: &'d Value,
    id: &str,
    loader: &dyn Loader,
) -> Resolved<'d> {
    if own.get("imports").is_none() {
        // Merging the own sections into an empty object gives them back as they are.
        return Resolved {
            value: Cow::Borrowed(own),
            files: Vec::new(),
            contributed: Vec::new(),
            diagnostics: Vec::new(),
        };
    }
    let mut resolver = Resolver {
        loader,
        done: HashMap::new(),
        files: Vec::new(),
    };
    let mut diagnostics = Vec::new();
    let mut contributed = Vec::new();
    let mut merged = Value::Object(Map::new());
    let mut chain = vec![id.to_owned()];
    let entries = import_entries(own);
    for (position, entry) in entries.iter().enumerate() {
        let pointer = format!("/imports/{}", entry.index);
        let refused = Contribution {
            index: entry.index,
            alias: entry.alias.clone(),
            ..Contribution::default()
        };
        if let Some(problem) = alias_problem(&entries[..position], entry) {
            let at = format!("{pointer}/as");
            let message = problem.message(|index| line_of(document, index));
            let diagnostic = Diagnostic::error(problem.rule().code, message).with_path(&at);
            diagnostics.push(document.locate(diagnostic, document.span_at(&at)));
            contributed.push(refused);
            continue;
        }
        if let Some(why) = crate::loader::unsupported_reference(&entry.reference) {
            let at = format!("{pointer}/ref");
            let diagnostic = Diagnostic::new(
                rules::UNSUPPORTED_IMPORT_REF.severity,
                rules::UNSUPPORTED_IMPORT_REF.code,
                format!(
                    "import `{}` is {why}; it contributes nothing",
                    entry.reference
                ),
            )
            .with_path(&at)
            .with_help("copy the file into the project and import it by a relative path");
            diagnostics.push(document.locate(diagnostic, document.span_at(&at)));
            contributed.push(refused);
            continue;
        }
        match resolver.import(id, &entry.reference, &mut chain) {
            Ok(value) => {
                let namespaced = namespace(&value, &entry.alias);
                let contribution = contribution(entry.index, &entry.alias, &namespaced);
                // Steps nothing here refers to are a library left unused: not run (lint says
                // `unused-import`); other sections merge in and apply.
                if contribution.sections.is_empty() && !refers_to(own, &entry.alias) {
                    contributed.push(contribution);
                    continue;
                }
                contributed.push(contribution);
                merge(&mut merged, namespaced);
            }
            Err(message) => {
                let at = format!("{pointer}/ref");
                let diagnostic =
                    Diagnostic::error(rules::UNRESOLVED_REFERENCE.code, message).with_path(&at);
                diagnostics.push(document.locate(diagnostic, document.span_at(&at)));
                contributed.push(refused);
            }
        }
    }
    merge(&mut merged, own_sections(own));
    Resolved {
        value: Cow::Owned(merged),
        files: resolver.files,
        contributed,
        diagnostics,
    }
}

struct ImportEntry {
    /// Position in `imports` (entries without a string `ref` and `as` are skipped, and are
    /// schema errors).
    index: usize,
    reference: String,
    alias: String,
}

fn import_entries(json: &Value) -> Vec<ImportEntry> {
    json.get("imports")
        .and_then(Value::as_array)
        .map(|entries| {
            entries
                .iter()
                .enumerate()
                .filter_map(|(index, entry)| {
                    Some(ImportEntry {
                        index,
                        reference: entry.get("ref")?.as_str()?.to_owned(),
                        alias: entry.get("as")?.as_str()?.to_owned(),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What is wrong with an entry's `as`.
enum AliasProblem<'a> {
    /// Not `[A-Za-z_][A-Za-z0-9_-]*`.
    NotPlain(&'a str),
    /// The same alias as the earlier entry at this index.
    Repeated(&'a str, usize),
}

impl AliasProblem<'_> {
    fn rule(&self) -> LintRule {
        match self {
            AliasProblem::NotPlain(_) => rules::INVALID_IMPORT_ALIAS,
            AliasProblem::Repeated(..) => rules::DUPLICATE_IMPORT_ALIAS,
        }
    }

    /// The message; `line_of` gives the line of the entry at an index.
    fn message(&self, line_of: impl Fn(usize) -> u32) -> String {
        match self {
            AliasProblem::NotPlain(alias) => format!(
                "import alias `{alias}` is not a plain name: it must start with a letter or `_` and go on with letters, digits, `_` or `-`"
            ),
            AliasProblem::Repeated(alias, first) => format!(
                "import alias `{alias}` is already used by the import on line {}",
                line_of(*first)
            ),
        }
    }
}

/// Whether `alias` can prefix imported names: a letter or `_`, then letters, digits, `_`, `-`.
/// A `.` would make `a.b.step` ambiguous with nested imports; spaces and other characters
/// cannot be written in a `needs` list or an expression path.
pub(crate) fn is_plain_alias(alias: &str) -> bool {
    let mut chars = alias.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The problem with `entry`'s alias, given the entries before it.
fn alias_problem<'a>(before: &[ImportEntry], entry: &'a ImportEntry) -> Option<AliasProblem<'a>> {
    if !is_plain_alias(&entry.alias) {
        return Some(AliasProblem::NotPlain(&entry.alias));
    }
    before
        .iter()
        .find(|earlier| earlier.alias == entry.alias)
        .map(|earlier| AliasProblem::Repeated(&entry.alias, earlier.index))
}

/// The line and column of the `as` of the import entry at `index`.
fn place_of_alias(document: &Document, index: usize) -> LineCol {
    let span = document.span_at(&format!("/imports/{index}/as"));
    document.line_index().line_col(document.text(), span.start)
}

fn line_of(document: &Document, index: usize) -> u32 {
    place_of_alias(document, index).line
}

impl Resolver<'_> {
    /// The fully resolved value of the file `reference` imported from `from`.
    fn import(
        &mut self,
        from: &str,
        reference: &str,
        chain: &mut Vec<String>,
    ) -> Result<Value, String> {
        let id =
            self.loader
                .resolve(from, reference)
                .map_err(|LoadError { message, .. }| {
                    format!("cannot import `{reference}`: {message}")
                })?;
        if let Some(start) = chain.iter().position(|c| *c == id) {
            let mut cycle: Vec<&str> = chain[start..].iter().map(String::as_str).collect();
            cycle.push(&id);
            return Err(format!("import cycle: {}", cycle.join(" -> ")));
        }
        if let Some(done) = self.done.get(&id) {
            return done.clone();
        }
        if chain.len() > MAX_IMPORT_DEPTH {
            return Err(format!("imports nest deeper than {MAX_IMPORT_DEPTH} files"));
        }
        if self.files.len() >= MAX_IMPORTED_FILES {
            return Err(format!("more than {MAX_IMPORTED_FILES} files imported"));
        }
        chain.push(id.clone());
        let result = self.load_and_resolve(&id, reference, chain);
        chain.pop();
        self.done.insert(id, result.clone());
        result
    }

    fn load_and_resolve(
        &mut self,
        id: &str,
        reference: &str,
        chain: &mut Vec<String>,
    ) -> Result<Value, String> {
        let text = self.loader.load(id).map_err(|LoadError { message, .. }| {
            format!("cannot import `{reference}`: {message}")
        })?;
        self.files.push(id.to_owned());
        let report = validate(&text);
        let first = report.first_error(id);
        let Some(document) = report.document.filter(|_| report.valid) else {
            return Err(format!("imported file `{reference}` is invalid: {first}"));
        };
        let mut merged = Value::Object(Map::new());
        let entries = import_entries(document.json());
        for (position, entry) in entries.iter().enumerate() {
            if let Some(problem) = alias_problem(&entries[..position], entry) {
                let place = place_of_alias(&document, entry.index);
                return Err(format!(
                    "imported file `{reference}` is invalid: {id}:{}:{}: {}",
                    place.line,
                    place.column,
                    problem.message(|index| line_of(&document, index))
                ));
            }
            // What the imported file cannot import contributes nothing there either (its own
            // lint says so).
            if crate::loader::unsupported_reference(&entry.reference).is_some() {
                continue;
            }
            let value = self
                .import(id, &entry.reference, chain)
                .map_err(|message| format!("in `{reference}`: {message}"))?;
            let namespaced = namespace(&value, &entry.alias);
            if contribution(entry.index, &entry.alias, &namespaced)
                .sections
                .is_empty()
                && !refers_to(document.json(), &entry.alias)
            {
                continue;
            }
            merge(&mut merged, namespaced);
        }
        merge(&mut merged, own_sections(document.json()));
        Ok(merged)
    }
}

/// Whether the document's own steps or decision trees name something of the import `alias`
/// (`alias.step` in a `needs`, a branch, a tree, or an expression's `steps['alias.step']`).
pub(crate) fn refers_to(own: &Value, alias: &str) -> bool {
    let prefix = format!("{alias}.");
    ["steps", "decision_trees"].iter().any(|section| {
        own.get(*section)
            .is_some_and(|value| mentions(value, &prefix))
    })
}

/// Whether a string under `value` holds `prefix`.
fn mentions(value: &Value, prefix: &str) -> bool {
    match value {
        Value::String(text) => text.contains(prefix),
        Value::Array(items) => items.iter().any(|item| mentions(item, prefix)),
        Value::Object(map) => map.values().any(|item| mentions(item, prefix)),
        _ => false,
    }
}

/// The document's frontmatter without the sections that identify it.
fn own_sections(json: &Value) -> Value {
    match json {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "imports")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Deep merge: `over` wins; objects merge key by key; workflow `edges` (a list of connections,
/// not a setting) are concatenated.
pub(crate) fn merge(base: &mut Value, over: Value) {
    match (base, over) {
        (Value::Object(base), Value::Object(over)) => {
            for (key, value) in over {
                if key == "edges" {
                    if let (Some(Value::Array(existing)), Value::Array(more)) =
                        (base.get_mut(&key), &value)
                    {
                        existing.extend(more.iter().cloned());
                        continue;
                    }
                }
                match base.get_mut(&key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        merge(existing, value)
                    }
                    _ => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (base, over) => *base = over,
    }
}

/// An imported file's value as seen from the importer: identity dropped, named things prefixed.
fn namespace(value: &Value, alias: &str) -> Value {
    let Value::Object(map) = value else {
        return Value::Object(Map::new());
    };
    let steps: BTreeSet<String> = keys(map.get("steps"));
    let nodes: BTreeSet<String> = keys(map.get("nodes"));
    let rename = |names: &BTreeSet<String>, name: &str| -> String {
        if names.contains(name) {
            format!("{alias}.{name}")
        } else {
            name.to_owned()
        }
    };
    let mut out = Map::new();
    for (section, content) in map {
        if IDENTITY.contains(&section.as_str()) {
            continue;
        }
        let rewritten = match section.as_str() {
            "steps" => prefix_keys(content, alias, |step| {
                rewrite_list(step, "needs", |n| rename(&steps, n));
                rewrite_list(step, "parallel_steps", |n| rename(&steps, n));
                if let Some(Value::Array(branches)) = step.get_mut("branches") {
                    for branch in branches {
                        rewrite_field(branch, "then", |n| rename(&steps, n));
                    }
                }
            }),
            "decision_trees" => prefix_keys(content, alias, |tree| {
                let mut local = keys(tree.get("nodes"));
                local.extend(keys(tree.get("terminals")));
                if let Some(Value::Object(tree_nodes)) = tree.get_mut("nodes") {
                    for node in tree_nodes.values_mut() {
                        if let Some(Value::Array(branches)) = node.get_mut("branches") {
                            for branch in branches {
                                rewrite_field(branch, "next", |n| {
                                    if local.contains(n) {
                                        n.to_owned()
                                    } else {
                                        rename(&steps, n)
                                    }
                                });
                            }
                        }
                    }
                }
            }),
            "nodes" => prefix_keys(content, alias, |node| {
                rewrite_list(node, "depends_on", |n| rename(&nodes, n));
            }),
            "edges" => {
                let mut edges = content.clone();
                if let Value::Array(items) = &mut edges {
                    for edge in items {
                        rewrite_field(edge, "from", |n| rename(&nodes, n));
                        rewrite_field(edge, "to", |n| rename(&nodes, n));
                    }
                }
                edges
            }
            _ => content.clone(),
        };
        out.insert(section.clone(), rewritten);
    }
    let mut out = Value::Object(out);
    // Its expressions read its own steps: `steps.a` in the imported file is `steps['as.a']` here.
    rename_step_reads_in(&mut out, &|name| {
        steps.contains(name).then(|| format!("{alias}.{name}"))
    });
    out
}

/// Renames the steps every `{{ }}` template under `value` reads.
fn rename_step_reads_in(value: &mut Value, rename: &dyn Fn(&str) -> Option<String>) {
    match value {
        Value::String(text) if text.contains("{{") => {
            if let Some(renamed) = crate::expr::rename_step_reads(text, rename) {
                *text = renamed;
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rename_step_reads_in(item, rename)),
        Value::Object(map) => map
            .values_mut()
            .for_each(|item| rename_step_reads_in(item, rename)),
        _ => {}
    }
}

fn keys(value: Option<&Value>) -> BTreeSet<String> {
    crate::sorting::set_of(
        value
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|map| map.keys().cloned()),
    )
}

fn prefix_keys(content: &Value, alias: &str, mut fix: impl FnMut(&mut Value)) -> Value {
    let Value::Object(map) = content else {
        return content.clone();
    };
    Value::Object(
        map.iter()
            .map(|(key, value)| {
                let mut value = value.clone();
                fix(&mut value);
                (format!("{alias}.{key}"), value)
            })
            .collect(),
    )
}

fn rewrite_list(target: &mut Value, field: &str, rename: impl Fn(&str) -> String) {
    if let Some(Value::Array(items)) = target.get_mut(field) {
        for item in items {
            if let Value::String(name) = item {
                *name = rename(name);
            }
        }
    }
}

fn rewrite_field(target: &mut Value, field: &str, rename: impl Fn(&str) -> String) {
    if let Some(Value::String(name)) = target.get_mut(field) {
        *name = rename(name);
    }
}

fn contribution(index: usize, alias: &str, namespaced: &Value) -> Contribution {
    let map = namespaced.as_object();
    Contribution {
        index,
        alias: alias.to_owned(),
        loaded: true,
        steps: keys(map.and_then(|m| m.get("steps"))).into_iter().collect(),
        sections: map
            .map(|m| m.keys().filter(|k| *k != "steps").cloned().collect())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::MemoryLoader;
    use serde_json::json;

    fn doc(text: &str) -> Document {
        Document::parse(text).document.expect("parses")
    }

    const MAIN: &str = "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - ref: ./shared/policies.logic.md\n    as: policies\n  - ref: ./shared/research.logic.md\n    as: research\nreasoning:\n  strategy: cot\nsteps:\n  report:\n    needs: [research.gather]\n---\n";

    fn loader() -> MemoryLoader {
        MemoryLoader::new()
            .with(
                "shared/policies.logic.md",
                "---\nspec_version: \"1.0\"\nname: policies\nreasoning:\n  strategy: react\n  max_iterations: 4\n---\n",
            )
            .with(
                "shared/research.logic.md",
                "---\nspec_version: \"1.0\"\nname: research\nreasoning:\n  strategy: tot\n  max_iterations: 9\nsteps:\n  gather: {}\n  rank:\n    needs: [gather]\n---\n",
            )
    }

    #[test]
    fn a_document_without_imports_resolves_to_its_own_frontmatter_borrowed() {
        let text =
            "---\nspec_version: \"1.0\"\nname: alone\nsteps:\n  a: {}\n  b: {needs: [a]}\n---\n";
        let document = doc(text);
        let resolved = resolve(&document, "main.logic.md", &MemoryLoader::new());
        assert!(matches!(resolved.value, Cow::Borrowed(_)));
        assert_eq!(*resolved.value, *document.json());
        assert!(resolved.files.is_empty() && resolved.contributed.is_empty());
        assert!(resolved.diagnostics.is_empty());
        // With an `imports` list (even an empty one) the merge runs and drops the list.
        let listed =
            doc("---\nspec_version: \"1.0\"\nname: alone\nimports: []\nsteps:\n  a: {}\n---\n");
        let merged = resolve(&listed, "main.logic.md", &MemoryLoader::new());
        assert!(matches!(merged.value, Cow::Owned(_)));
        assert_eq!(
            *merged.value,
            json!({"spec_version": "1.0", "name": "alone", "steps": {"a": {}}})
        );
    }

    #[test]
    fn edges_concatenate_and_nodes_are_namespaced() {
        let main = "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - {ref: team.logic.md, as: team}\nnodes:\n  lead: {logic_ref: ./lead.logic.md}\nedges:\n  - {from: lead, to: team.writer}\n---\n";
        let team = "---\nspec_version: \"1.0\"\nname: team\nnodes:\n  writer: {logic_ref: ./w.logic.md}\n  editor: {logic_ref: ./e.logic.md, depends_on: [writer]}\nedges:\n  - {from: writer, to: editor}\n---\n";
        let loader = MemoryLoader::new().with("team.logic.md", team);
        let document = doc(main);
        let resolved = resolve(&document, "main.logic.md", &loader);
        assert!(
            resolved.diagnostics.is_empty(),
            "{:?}",
            resolved.diagnostics
        );
        let v = &resolved.value;
        assert_eq!(
            v["edges"],
            json!([{"from": "team.writer", "to": "team.editor"}, {"from": "lead", "to": "team.writer"}])
        );
        assert_eq!(
            v["nodes"]["team.editor"]["depends_on"],
            json!(["team.writer"])
        );
    }

    #[test]
    fn namespaces_steps_and_applies_precedence() {
        let document = doc(MAIN);
        let resolved = resolve(&document, "main.logic.md", &loader());
        assert!(
            resolved.diagnostics.is_empty(),
            "{:?}",
            resolved.diagnostics
        );
        let v = &resolved.value;
        assert_eq!(
            v["reasoning"],
            json!({"strategy": "cot", "max_iterations": 9})
        );
        assert_eq!(
            v["steps"]["research.rank"]["needs"],
            json!(["research.gather"])
        );
        assert!(v["steps"]["report"].is_object());
        assert!(v.get("imports").is_none());
        assert_eq!(v["name"], "main");
        assert_eq!(
            resolved.contributed[1].steps,
            ["research.gather", "research.rank"]
        );
    }

    #[test]
    fn missing_file_is_reported_at_the_import_entry() {
        let document = doc(MAIN);
        let resolved = resolve(&document, "main.logic.md", &MemoryLoader::new());
        assert_eq!(resolved.diagnostics.len(), 2);
        let d = &resolved.diagnostics[0];
        assert_eq!(d.path, "/imports/0/ref");
        assert_eq!((d.line, d.column), (5, 10));
        assert!(
            d.message.contains("./shared/policies.logic.md"),
            "{}",
            d.message
        );
    }

    #[test]
    fn cycles_are_errors_and_diamonds_are_fine() {
        let a =
            "---\nspec_version: \"1.0\"\nname: a\nimports:\n  - {ref: b.logic.md, as: b}\n---\n";
        let loader = MemoryLoader::new()
            .with("b.logic.md", "---\nspec_version: \"1.0\"\nname: b\nimports:\n  - {ref: a.logic.md, as: a}\n---\n")
            .with("a.logic.md", a);
        let document = doc(a);
        let resolved = resolve(&document, "a.logic.md", &loader);
        assert!(
            resolved.diagnostics[0]
                .message
                .contains("a.logic.md -> b.logic.md -> a.logic.md"),
            "{}",
            resolved.diagnostics[0].message
        );

        let top = "---\nspec_version: \"1.0\"\nname: top\nimports:\n  - {ref: l.logic.md, as: l}\n  - {ref: r.logic.md, as: r}\n---\n";
        // `metadata` makes each import used though nothing refers to its steps (merged: applied).
        let shared =
            "---\nspec_version: \"1.0\"\nname: s\nsteps:\n  x: {}\nmetadata: {m: 1}\n---\n";
        let side = |name: &str| {
            format!("---\nspec_version: \"1.0\"\nname: {name}\nimports:\n  - {{ref: s.logic.md, as: s}}\n---\n")
        };
        let loader = MemoryLoader::new()
            .with("s.logic.md", shared)
            .with("l.logic.md", side("l"))
            .with("r.logic.md", side("r"));
        let document = doc(top);
        let resolved = resolve(&document, "top.logic.md", &loader);
        assert!(
            resolved.diagnostics.is_empty(),
            "{:?}",
            resolved.diagnostics
        );
        assert!(resolved.value["steps"]["l.s.x"].is_object());
        assert!(resolved.value["steps"]["r.s.x"].is_object());
        assert_eq!(
            resolved.files.iter().filter(|f| *f == "s.logic.md").count(),
            1
        );
    }

    #[test]
    fn invalid_imported_file_is_named_with_its_error() {
        let loader = MemoryLoader::new()
            .with("shared/policies.logic.md", "---\nname: x\n---\n")
            .with(
                "shared/research.logic.md",
                "---\nspec_version: \"1.0\"\nname: r\n---\n",
            );
        let document = doc(MAIN);
        let resolved = resolve(&document, "main.logic.md", &loader);
        assert_eq!(resolved.diagnostics.len(), 1);
        assert!(
            resolved.diagnostics[0].message.contains("is invalid"),
            "{}",
            resolved.diagnostics[0].message
        );
    }

    /// `(code, path, line, column)` of each diagnostic.
    fn places(diagnostics: &[Diagnostic]) -> Vec<(&str, &str, u32, u32)> {
        diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.path.as_str(), d.line, d.column))
            .collect()
    }

    /// A document importing `one.logic.md` (step `first`) and `two.logic.md` (step `second`);
    /// each has `metadata` too, so it is used (merged) though nothing refers to its step.
    fn two_imports(first_alias: &str, second_alias: &str) -> (Document, MemoryLoader) {
        let text = format!(
            "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - ref: one.logic.md\n    as: {first_alias}\n  - ref: two.logic.md\n    as: {second_alias}\n---\n"
        );
        let loader = MemoryLoader::new()
            .with(
                "one.logic.md",
                "---\nspec_version: \"1.0\"\nname: one\nsteps:\n  first: {}\nmetadata: {m: 1}\n---\n",
            )
            .with(
                "two.logic.md",
                "---\nspec_version: \"1.0\"\nname: two\nsteps:\n  second: {}\nmetadata: {m: 2}\n---\n",
            );
        (doc(&text), loader)
    }

    #[test]
    fn a_repeated_alias_is_an_error_at_the_second_as() {
        let (document, loader) = two_imports("shared", "shared");
        let resolved = resolve(&document, "main.logic.md", &loader);
        assert_eq!(
            places(&resolved.diagnostics),
            [("duplicate-import-alias", "/imports/1/as", 8, 9)]
        );
        assert_eq!(
            resolved.diagnostics[0].message,
            "import alias `shared` is already used by the import on line 6"
        );
        // The first import keeps the namespace; the second is not merged under it.
        assert_eq!(
            keys(resolved.value.get("steps")),
            ["shared.first".to_owned()].into()
        );
        assert_eq!(
            resolved
                .contributed
                .iter()
                .map(|c| c.loaded)
                .collect::<Vec<_>>(),
            [true, false]
        );
    }

    #[test]
    fn an_alias_that_is_not_a_plain_name_is_an_error_at_its_as() {
        for alias in [
            "\"\"",
            "a.b",
            "\"two words\"",
            "1st",
            "-lead",
            "a/b",
            "\"tab\\there\"",
            "ünïcode",
            "\"policies \"",
        ] {
            let (document, loader) = two_imports("ok", alias);
            let resolved = resolve(&document, "main.logic.md", &loader);
            assert_eq!(
                places(&resolved.diagnostics),
                [("invalid-import-alias", "/imports/1/as", 8, 9)],
                "{alias}"
            );
            assert!(
                resolved.diagnostics[0]
                    .message
                    .ends_with("is not a plain name: it must start with a letter or `_` and go on with letters, digits, `_` or `-`"),
                "{alias}: {}",
                resolved.diagnostics[0].message
            );
            assert_eq!(
                keys(resolved.value.get("steps")),
                ["ok.first".to_owned()].into()
            );
        }
        for alias in [
            "policies",
            "message_contract",
            "_private",
            "retry-defaults",
            "v2",
            "A",
        ] {
            let (document, loader) = two_imports("ok", alias);
            let resolved = resolve(&document, "main.logic.md", &loader);
            assert!(
                resolved.diagnostics.is_empty(),
                "{alias}: {:?}",
                resolved.diagnostics
            );
        }
    }

    #[test]
    fn alias_problems_inside_an_imported_file_fail_that_import() {
        let main = "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - ref: mid.logic.md\n    as: mid\n---\n";
        let mid = "---\nspec_version: \"1.0\"\nname: mid\nimports:\n  - {ref: leaf.logic.md, as: x}\n  - {ref: leaf.logic.md, as: x}\n---\n";
        let bad = "---\nspec_version: \"1.0\"\nname: mid\nimports:\n  - {ref: leaf.logic.md, as: a.b}\n---\n";
        let leaf = "---\nspec_version: \"1.0\"\nname: leaf\nsteps:\n  s: {}\n---\n";
        for (text, message) in [
            (mid, "imported file `mid.logic.md` is invalid: mid.logic.md:6:30: import alias `x` is already used by the import on line 5"),
            (bad, "imported file `mid.logic.md` is invalid: mid.logic.md:5:30: import alias `a.b` is not a plain name: it must start with a letter or `_` and go on with letters, digits, `_` or `-`"),
        ] {
            let loader = MemoryLoader::new()
                .with("mid.logic.md", text)
                .with("leaf.logic.md", leaf);
            let document = doc(main);
            let resolved = resolve(&document, "main.logic.md", &loader);
            assert_eq!(
                places(&resolved.diagnostics),
                [("unresolved-reference", "/imports/0/ref", 5, 10)]
            );
            assert_eq!(resolved.diagnostics[0].message, message);
        }
    }

    #[test]
    fn entries_keep_their_index_when_an_earlier_one_is_malformed() {
        let main = "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - ref: gone.logic.md\n  - ref: missing.logic.md\n    as: m\n---\n";
        let document = doc(main);
        let resolved = resolve(&document, "main.logic.md", &MemoryLoader::new());
        assert_eq!(
            places(&resolved.diagnostics),
            [("unresolved-reference", "/imports/1/ref", 6, 10)]
        );
        assert_eq!(resolved.contributed[0].index, 1);
    }

    fn plain_name(alias: &str) -> bool {
        let mut chars = alias.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    }

    proptest::proptest! {
        /// Any list of aliases: each entry whose alias is not a plain name gets
        /// `invalid-import-alias`, each later repeat of a plain alias `duplicate-import-alias`, both
        /// at that entry's `as`; exactly the other entries are merged, under their alias.
        #[test]
        fn aliases_are_checked_entry_by_entry(
            aliases in proptest::collection::vec("[ab_.1 -]{0,3}", 1..7)
        ) {
            let mut text = String::from("---\nspec_version: \"1.0\"\nname: main\nimports:\n");
            let mut loader = MemoryLoader::new();
            for (index, alias) in aliases.iter().enumerate() {
                text.push_str(&format!("  - ref: f{index}.logic.md\n    as: \"{alias}\"\n"));
                loader = loader.with(
                    &format!("f{index}.logic.md"),
                    format!("---\nspec_version: \"1.0\"\nname: f\nsteps:\n  s{index}: {{}}\nmetadata: {{m: {index}}}\n---\n"),
                );
            }
            text.push_str("---\n");
            let document = doc(&text);
            let resolved = resolve(&document, "main.logic.md", &loader);

            let mut expected = Vec::new();
            let mut steps = BTreeSet::new();
            let mut seen = BTreeSet::new();
            for (index, alias) in aliases.iter().enumerate() {
                let at = format!("/imports/{index}/as");
                let line = 6 + 2 * index as u32;
                if !plain_name(alias) {
                    expected.push(("invalid-import-alias".to_owned(), at, line));
                } else if !seen.insert(alias.clone()) {
                    expected.push(("duplicate-import-alias".to_owned(), at, line));
                } else {
                    steps.insert(format!("{alias}.s{index}"));
                }
            }
            let found: Vec<(String, String, u32)> = resolved
                .diagnostics
                .iter()
                .map(|d| (d.code.clone(), d.path.clone(), d.line))
                .collect();
            proptest::prop_assert_eq!(found, expected);
            proptest::prop_assert_eq!(keys(resolved.value.get("steps")), steps);
        }
    }
}

//! What can be typed at the cursor: keys from the schema with their spec description, enum
//! values, the names a reference may take (steps, tree nodes, workflow and DRTL nodes, `std.*`
//! rules), files to import, and inside `{{ }}` the variables, members, operators and methods.

mod context;
mod expr;
mod names;

use logicmd::analysis::{detect, Kind};
use logicmd::source::Span;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::schema_docs::{self, Seg};
use crate::workspace::{FileAnalysis, Workspace};

pub(crate) use context::Slot;
pub(crate) use expr::{
    counter_schema, descend, inputs_schema, json_type, output_schema, required_fields,
    step_output_schema,
};

/// What a completion item is, for its icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A key of a mapping.
    Property,
    /// An enum value or a literal.
    Value,
    /// A step, node or tree node name.
    Reference,
    /// A variable of an expression.
    Variable,
    /// A field of an output or input.
    Field,
    /// A method or property of a value.
    Method,
    /// An operator.
    Operator,
    /// A file.
    File,
    /// A directory.
    Folder,
    /// A verification rule id.
    Rule,
}

/// One completion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CompletionItem {
    /// What the list shows.
    pub label: String,
    /// What it is.
    pub kind: ItemKind,
    /// A short note beside the label (a type, a step's kind).
    pub detail: Option<String>,
    /// Markdown shown when the item is selected.
    pub documentation: Option<String>,
    /// The text that replaces `replace`.
    pub insert: String,
    /// The range replaced: the word already typed.
    pub replace: Span,
    /// What the editor matches against the text in `replace`, when not the label (an item
    /// that replaces more than its own name).
    pub filter: Option<String>,
}

/// The completions at `offset` of the file `id`.
pub fn completion(workspace: &mut Workspace, id: &str, offset: usize) -> Vec<CompletionItem> {
    let Some(text) = workspace.text(id) else {
        return Vec::new();
    };
    if offset > text.len() || !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let kind = detect(&text, Some(id));
    let file = workspace.recent_parsed(id);
    let sections = file
        .as_deref()
        .filter(|f| std::sync::Arc::ptr_eq(&f.text, &text))
        .and_then(FileAnalysis::document)
        .map(|d| d.sections());
    let yaml_start = match sections {
        Some(sections) if kind == Kind::Logic => {
            let inside = sections.yaml.start <= offset && offset <= sections.yaml.end;
            inside.then_some(sections.yaml.start)
        }
        _ => yaml_region(&text, kind, offset),
    };
    let Some(yaml_start) = yaml_start else {
        return Vec::new();
    };
    let Some(cx) = context::at(&text, yaml_start, offset) else {
        return Vec::new();
    };
    let replace = Span::new(offset - cx.typed_len, offset);
    let request = Request {
        id,
        kind,
        cx: &cx,
        file: file.as_deref(),
        replace,
    };
    let items = match &cx.slot {
        Slot::Key => keys(&request, &cx.path),
        Slot::Value => values(&request, workspace),
        Slot::Expression(expression) => expr::complete(&request, workspace, expression),
    };
    // What editors keep as the person types (the letters typed, in order), best matches first;
    // within a rank, the order chosen above.
    let typed = &text[replace.start..replace.end];
    let rank = |item: &CompletionItem| {
        let label = crate::shortlist::matches(typed, &item.label);
        let filter = item
            .filter
            .as_deref()
            .and_then(|filter| crate::shortlist::matches(typed, filter));
        label.into_iter().chain(filter).min()
    };
    let mut ranked: Vec<(u8, CompletionItem)> = items
        .into_iter()
        .filter_map(|item| rank(&item).map(|r| (r, item)))
        .collect();
    ranked.sort_by_key(|(r, _)| *r);
    ranked.into_iter().map(|(_, item)| item).collect()
}

/// What a completion is asked for.
pub(crate) struct Request<'a> {
    pub id: &'a str,
    pub kind: Kind,
    pub cx: &'a context::Context,
    pub file: Option<&'a FileAnalysis>,
    pub replace: Span,
}

impl Request<'_> {
    pub(crate) fn item(
        &self,
        label: impl Into<String>,
        kind: ItemKind,
        detail: Option<String>,
        documentation: Option<String>,
    ) -> CompletionItem {
        let label = label.into();
        CompletionItem {
            insert: label.clone(),
            label,
            kind,
            detail,
            documentation,
            replace: self.replace,
            filter: None,
        }
    }
}

/// Where the YAML the cursor may be in starts: the frontmatter of a LOGIC.md file (`None` in
/// its body or on its delimiters), a DRTL file's start.
fn yaml_region(text: &str, kind: Kind, offset: usize) -> Option<usize> {
    if kind == Kind::Drtl {
        return Some(0);
    }
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.len();
    let first_end = body.find('\n')? + 1;
    if body[..first_end].trim_end() != "---" {
        return None;
    }
    let start = skipped + first_end;
    let mut at = start;
    for line in text[start..].split_inclusive('\n') {
        if matches!(line.trim_end(), "---" | "...") {
            return (offset >= start && offset <= at).then_some(start);
        }
        at += line.len();
    }
    (offset >= start).then_some(start)
}

/// The data the siblings of the cursor's mapping describe (`type: gate` picks a DRTL node's
/// properties).
fn sibling_instance(cx: &context::Context) -> Value {
    let mut map = Map::new();
    for (key, value) in &cx.siblings {
        let value = value.trim_matches(['"', '\'']);
        map.insert(key.clone(), Value::String(value.to_owned()));
    }
    Value::Object(map)
}

/// Keys of the mapping at `path` that are not written yet.
fn keys(request: &Request<'_>, path: &[Seg]) -> Vec<CompletionItem> {
    let instance = sibling_instance(request.cx);
    let Some(found) = schema_docs::at(request.kind, path, None) else {
        return Vec::new();
    };
    let root = schema_docs::root(request.kind);
    schema_docs::properties(root, found.resolved, Some(&instance))
        .into_iter()
        .filter(|(name, _)| !request.cx.siblings.iter().any(|(key, _)| key == name))
        .map(|(name, schema)| {
            let mut child = path.to_vec();
            child.push(Seg::Key(name.to_owned()));
            let found = schema_docs::at(request.kind, &child, Some(&instance_at(path, &instance)));
            let (detail, documentation) = match found {
                Some(found) => (
                    Some(schema_docs::type_name(&found)),
                    key_documentation(request.kind, &found, path.is_empty().then_some(name)),
                ),
                None => (
                    None,
                    schema
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                ),
            };
            let mut item = request.item(name, ItemKind::Property, detail, documentation);
            item.insert = format!("{name}: ");
            item
        })
        .collect()
}

/// The sibling instance placed at `path` inside an otherwise empty document, so that the
/// schema's conditional branches see it where they look.
fn instance_at(path: &[Seg], instance: &Value) -> Value {
    let mut value = instance.clone();
    for seg in path.iter().rev() {
        value = match seg {
            Seg::Key(key) => {
                let mut map = Map::new();
                map.insert(key.clone(), value);
                Value::Object(map)
            }
            Seg::Index(_) => Value::Array(vec![value]),
        };
    }
    value
}

/// A key's documentation: its description, type and spec section.
pub(crate) fn key_documentation(
    kind: Kind,
    found: &schema_docs::Found<'_>,
    root_key: Option<&str>,
) -> Option<String> {
    let mut lines = Vec::new();
    if let Some(description) = schema_docs::description(found) {
        lines.push(description.to_owned());
    }
    let section = root_key
        .and_then(|key| schema_docs::root_section(kind, key))
        .or_else(|| schema_docs::section(kind, found.definition.or(found.within)));
    if let Some(section) = section {
        lines.push(format!("Spec: {section}"));
    }
    (!lines.is_empty()).then(|| lines.join("\n\n"))
}

/// Values at the cursor: names a reference may take, enum values, files, or (for a new list
/// item of mappings) the item's keys.
fn values(request: &Request<'_>, workspace: &mut Workspace) -> Vec<CompletionItem> {
    let path = &request.cx.path;
    let mut items = names::for_path(request, workspace, path);
    if let Some(found) = schema_docs::at(request.kind, path, None) {
        for value in schema_docs::enum_values(found.resolved) {
            let label = schema_docs::plain(value);
            let mut item = request.item(
                &label,
                ItemKind::Value,
                Some(schema_docs::type_name(&found)),
                None,
            );
            item.insert = scalar_text(value);
            items.push(item);
        }
        if found.resolved.get("type").and_then(Value::as_str) == Some("boolean") {
            for literal in ["true", "false"] {
                items.push(request.item(
                    literal,
                    ItemKind::Value,
                    Some("boolean".to_owned()),
                    None,
                ));
            }
        }
        let is_object = found.resolved.get("type").and_then(Value::as_str) == Some("object")
            || found.resolved.get("properties").is_some();
        if is_object && matches!(path.last(), Some(Seg::Index(_))) {
            items.extend(keys(request, path));
        }
    }
    items
}

/// A value as YAML writes it: strings plain when they are plain words, else quoted.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) if is_plain_word(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A word every YAML reader reads back as the same string (letters, digits, `_`, `-`, `.`,
/// not a number, boolean or null of any YAML version).
pub(crate) fn is_plain_word(text: &str) -> bool {
    let first = text.chars().next();
    first.is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "nan" | "inf"
        )
}

#[cfg(test)]
mod tests;

//! What the thing under the cursor is: a key's description, type and spec section; a step's
//! (or node's) description, needs and output schema where it is named; an expression's type;
//! and the rule and reason of a diagnostic there.

use logicmd::analysis::Kind;
use logicmd::source::Span;
use logicmd::yaml::ValuePlaces;
use serde::Serialize;
use serde_json::Value;

use crate::completion::key_documentation;
use crate::completion::step_output_schema;
use crate::expr_at::{expressions, members_of, regions};
use crate::expr_type::{chain, innermost, type_of, written, Scope};
use crate::locate::place;
use crate::schema_docs::{self, Seg};
use crate::symbols::{Definition, SymbolKind};
use crate::workspace::{FileAnalysis, Workspace};

/// A hover card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hover {
    /// Markdown.
    pub markdown: String,
    /// The range it is about.
    pub span: Span,
}

/// The hover at `offset` of `id`.
pub fn hover(workspace: &mut Workspace, id: &str, offset: usize) -> Option<Hover> {
    let file = workspace.analysis(id)?;
    let mut parts: Vec<String> = Vec::new();
    let mut span = None;
    if let Some((markdown, at)) = symbol_hover(workspace, &file, offset) {
        parts.push(markdown);
        span = Some(at);
    } else if let Some((markdown, at)) = expression_hover(workspace, &file, offset) {
        parts.push(markdown);
        span = Some(at);
    } else if let Some((markdown, at)) = key_hover(&file, offset) {
        parts.push(markdown);
        span = Some(at);
    }
    for diagnostic in workspace.raw_diagnostics(id).iter() {
        let Some(at) = diagnostic.span else { continue };
        if at.start <= offset && offset <= at.end {
            if let Some(rule) = logicmd::lint::rules::ALL
                .iter()
                .find(|r| r.code == diagnostic.code)
            {
                parts.push(format!(
                    "**`{}`** ({}) — {}\n\nWhy: {}",
                    rule.code,
                    rule.severity.as_str(),
                    rule.summary,
                    rule.reason
                ));
                span.get_or_insert(at);
            }
        }
    }
    parts.dedup();
    (!parts.is_empty()).then(|| Hover {
        markdown: parts.join("\n\n---\n\n"),
        span: span.unwrap_or(Span::empty(offset)),
    })
}

/// On a name that defines or references a step, a node or a tree node: what it is.
fn symbol_hover(
    workspace: &mut Workspace,
    file: &FileAnalysis,
    offset: usize,
) -> Option<(String, Span)> {
    let symbols = file.symbols();
    if let Some(definition) = symbols.definition_at(offset) {
        return Some((describe(file, definition), definition.span));
    }
    let reference = symbols.reference_at(offset)?;
    if let Some(definition) = symbols.resolve(reference) {
        return Some((describe(file, definition), reference.span));
    }
    let (target, definition) = crate::navigation::imported(workspace, file, &reference.name)?;
    Some((describe(&target, &definition), reference.span))
}

/// A definition as markdown: what it is and what it says.
pub(crate) fn describe(file: &FileAnalysis, definition: &Definition) -> String {
    let noun = definition.kind.noun();
    let mut out = format!("**{noun} `{}`**", definition.name);
    if file.id.contains('/') || definition.kind == SymbolKind::Import {
        out.push_str(&format!(" — `{}`", file.id));
    }
    let Some(value) = file.json_at(&definition.pointer) else {
        return out;
    };
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    if let Some(description) = text("description") {
        out.push_str(&format!("\n\n{description}"));
    }
    match definition.kind {
        SymbolKind::Step => {
            let needs = string_list(value.get("needs"));
            if !needs.is_empty() {
                out.push_str(&format!("\n\nneeds: {}", code_list(&needs)));
            }
            if let Some(schema) = value.get("output_schema") {
                out.push_str(&format!("\n\noutput: {}", schema_summary(schema)));
            }
        }
        SymbolKind::TreeNode => {
            if let Some(condition) = text("condition") {
                out.push_str(&format!("\n\ncondition: `{condition}`"));
            }
        }
        SymbolKind::Terminal => {
            if let Some(action) = text("action") {
                out.push_str(&format!("\n\naction: `{action}`"));
            }
            if let Some(message) = text("message") {
                out.push_str(&format!("\n\n{message}"));
            }
        }
        SymbolKind::WorkflowNode => {
            if let Some(reference) = text("logic_ref") {
                out.push_str(&format!("\n\nruns `{reference}`"));
            }
            let depends = string_list(value.get("depends_on"));
            if !depends.is_empty() {
                out.push_str(&format!("\n\ndepends on: {}", code_list(&depends)));
            }
        }
        SymbolKind::DrtlNode => {
            if let Some(kind) = text("type") {
                out.push_str(&format!("\n\ntype: `{kind}`"));
            }
            for key in ["model", "prompt_ref", "condition", "output_key"] {
                if let Some(v) = text(key) {
                    out.push_str(&format!("\n\n{key}: `{v}`"));
                }
            }
        }
        SymbolKind::InputField => {
            if let Some(kind) = text("type") {
                out.push_str(&format!("\n\ntype: `{kind}`"));
            }
            if value.get("required") == Some(&Value::Bool(true)) {
                out.push_str(" (required)");
            }
        }
        SymbolKind::Import => {
            if let Some(reference) = text("ref") {
                out.push_str(&format!("\n\nimports `{reference}`"));
            }
        }
        SymbolKind::Tree => {
            if let Some(root) = text("root") {
                out.push_str(&format!("\n\nroot: `{root}`"));
            }
        }
    }
    out
}

fn string_list(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn code_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An output schema in one line: `{ findings: array of object (required), confidence: number }`.
fn schema_summary(schema: &Value) -> String {
    let required = crate::completion::required_fields(schema);
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return format!("`{}`", crate::completion::json_type(schema));
    };
    let fields: Vec<String> = properties
        .iter()
        .map(|(name, field)| {
            let mark = if required.contains(&name.as_str()) {
                " (required)"
            } else {
                ""
            };
            format!("`{name}`: {}{mark}", crate::completion::json_type(field))
        })
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

/// Inside a `{{ }}` of a string: the expression under the cursor and its type.
fn expression_hover(
    workspace: &mut Workspace,
    file: &FileAnalysis,
    offset: usize,
) -> Option<(String, Span)> {
    let source = file.source()?;
    let at = place(source.root(), offset)?;
    if at.key.is_some() {
        return None;
    }
    let value = at.node.as_str()?;
    let places = ValuePlaces::new(source.text(), at.node, value);
    let inner = value_offset(&places, value, offset)?;
    regions(value)
        .iter()
        .find(|r| r.start <= inner && inner <= r.end)?;
    let parsed = expressions(value)?;
    let expr = parsed
        .iter()
        .find(|e| e.span.start <= inner && inner <= e.span.end)?;
    let node = innermost(expr, inner)?;
    let step = match at.path.as_slice() {
        [Seg::Key(steps), Seg::Key(step), ..] if steps == "steps" => Some(step.as_str()),
        _ => None,
    };
    file.parsed.as_ref()?;
    let imported = members_of(expr, "steps")
        .into_iter()
        .filter(|(name, _)| name.contains('.'))
        .filter_map(|(name, _)| {
            let schema = step_output_schema(workspace, file, &name)?;
            Some((name, schema))
        })
        .collect();
    let scope = Scope {
        file,
        step,
        imported,
    };
    let shown = chain(node).map_or_else(|| value[node.span.clone()].to_owned(), |c| written(&c));
    let kind = type_of(node, &scope)
        .unwrap_or_else(|| "unknown (not declared in the document)".to_owned());
    let span = places.span(node.span.start, node.span.len());
    Some((format!("`{shown}`: {kind}"), span))
}

/// The offset in `value` (placed by `places`) of the file offset `offset`.
fn value_offset(places: &ValuePlaces<'_>, value: &str, offset: usize) -> Option<usize> {
    let file_offset = |i: usize| places.span(i, 0).start;
    let (mut low, mut high) = (0usize, value.len());
    if offset < file_offset(0) || offset > file_offset(value.len()) {
        return None;
    }
    while low < high {
        let middle = (low + high).div_ceil(2);
        if file_offset(middle) <= offset {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    Some(low)
}

/// On a key: its description, type and spec section.
fn key_hover(file: &FileAnalysis, offset: usize) -> Option<(String, Span)> {
    let source = file.source()?;
    let at = place(source.root(), offset)?;
    let entry = at.key?;
    // The data picks a DRTL node's conditional branches; the LOGIC.md schema has none, so a
    // document's JSON is not made for it.
    let data = match file.kind {
        Kind::Drtl => file.json(),
        Kind::Logic => None,
    };
    let found = schema_docs::at(file.kind, &at.path, data.as_deref())?;
    let root_key = (at.path.len() == 1).then(|| entry.key.as_str());
    let mut markdown = format!("**`{}`**: {}", entry.key, schema_docs::type_name(&found));
    if let Some(documentation) = key_documentation(file.kind, &found, root_key) {
        markdown.push_str(&format!("\n\n{documentation}"));
    }
    Some((markdown, entry.key_span()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MemoryFiles;

    const LIB: &str = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  helper:\n    description: Helps\n    output_schema:\n      type: object\n      properties:\n        found: {type: array, items: {type: string}}\n---\n";

    /// An imported step's output is typed from the file that defines it, as completion reads it.
    #[test]
    fn an_imported_steps_output_has_its_type() {
        let text = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    needs: [lib.helper]\n    verification:\n      check: \"{{ steps['lib.helper'].output.found.length > 0 }}\"\n      on_fail: retry\n---\n";
        let mut workspace = Workspace::new(MemoryFiles::new().with("lib.logic.md", LIB).shared());
        workspace.open("m.logic.md", text.to_owned());
        let offset = text.find("found").expect("found") + 2;
        let found = hover(&mut workspace, "m.logic.md", offset).map(|h| h.markdown);
        assert_eq!(
            found.as_deref(),
            Some("`steps['lib.helper'].output.found`: array of string")
        );
    }
}

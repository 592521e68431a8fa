//! Diagnostics as an editor shows them: exactly what `logicmd lint` reports (and `logicmd
//! check` for a DRTL topology without errors), each with its place, the tags editors render
//! (faded for what does nothing), and related places (the other end of a duplicate, the steps
//! of a cycle, the step a did-you-mean names).

use logicmd::diagnostic::Diagnostic;
use logicmd::json::node_at;
use logicmd::source::Span;
use serde::Serialize;

use crate::workspace::FileAnalysis;
use crate::Location;

/// How an editor may render a diagnostic besides its severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tag {
    /// What it marks does nothing (an unused import, a tree node nothing reaches): faded.
    Unnecessary,
    /// What it marks is deprecated: struck through.
    Deprecated,
}

/// Another place a diagnostic is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// Where.
    pub location: Location,
    /// What is there, for a person to read.
    pub message: String,
}

/// A diagnostic of a file, placed for an editor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IdeDiagnostic {
    /// The diagnostic exactly as `lint` (or `check`) reports it.
    pub diagnostic: Diagnostic,
    /// Its byte range in the file (the start of its line when it has no span).
    pub span: Span,
    /// How to render it besides its severity.
    pub tags: Vec<Tag>,
    /// The other places it is about.
    pub related: Vec<Related>,
}

/// Rules whose finding marks something that has no effect.
const UNNECESSARY: &[&str] = &["unused-import", "unreachable-tree-node", "unreachable"];

/// Rules whose finding marks a deprecated construct. LOGIC.md v1.0 and DRTL v0.1.1 deprecate
/// nothing, so no rule reports one yet (docs/decisions.md, "Language server: tags").
const DEPRECATED: &[&str] = &[];

/// The tags of a diagnostic with this code.
pub fn tags_of(code: &str) -> Vec<Tag> {
    let mut tags = Vec::new();
    if UNNECESSARY.contains(&code) {
        tags.push(Tag::Unnecessary);
    }
    if DEPRECATED.contains(&code) {
        tags.push(Tag::Deprecated);
    }
    tags
}

/// The file's diagnostics (`raw`, as checked) placed for an editor.
pub fn placed(file: &FileAnalysis, raw: &[Diagnostic]) -> Vec<IdeDiagnostic> {
    raw.iter()
        .map(|diagnostic| IdeDiagnostic {
            span: span_of(file, diagnostic),
            tags: tags_of(&diagnostic.code),
            related: related(file, diagnostic),
            diagnostic: diagnostic.clone(),
        })
        .collect()
}

/// A diagnostic's span, or the place its line and column name.
fn span_of(file: &FileAnalysis, diagnostic: &Diagnostic) -> Span {
    if let Some(span) = diagnostic.span {
        return span;
    }
    if diagnostic.line == 0 {
        return Span::empty(0);
    }
    let index = file.line_index();
    let start = index
        .line_start(diagnostic.line as usize - 1)
        .unwrap_or(file.text.len());
    let line = index.line_text(&file.text, diagnostic.line as usize - 1);
    let column: usize = line
        .chars()
        .take(diagnostic.column.saturating_sub(1) as usize)
        .map(char::len_utf8)
        .sum();
    Span::empty(start + column)
}

/// The related places of a diagnostic, found in the file (never by reading its message, except
/// a cycle's path, which the message is the only record of).
fn related(file: &FileAnalysis, diagnostic: &Diagnostic) -> Vec<Related> {
    let Some(source) = file.source() else {
        return Vec::new();
    };
    let symbols = file.symbols();
    let here = |span: Span, message: String| Related {
        location: Location {
            file: file.id.clone(),
            span,
        },
        message,
    };
    let mut found = Vec::new();
    match diagnostic.code.as_str() {
        "step-cycle" | "node-cycle" => {
            let kind = if diagnostic.code == "step-cycle" {
                crate::symbols::SymbolKind::Step
            } else {
                crate::symbols::SymbolKind::WorkflowNode
            };
            let path = diagnostic
                .message
                .rsplit_once(": ")
                .map(|(_, path)| path)
                .unwrap_or_default();
            let names: Vec<&str> = path.split(" -> ").collect();
            for pair in names.windows(2) {
                if let Some(definition) = symbols.definition(kind, pair[0]) {
                    found.push(here(
                        definition.span,
                        format!("`{}` waits for `{}`", pair[0], pair[1]),
                    ));
                }
            }
        }
        "duplicate-name" | "duplicate-dependency" | "duplicate-import-alias" => {
            if let Some(earlier) = earlier_same_item(source, &diagnostic.path) {
                found.push(here(earlier, "first used here".to_owned()));
            }
        }
        "tool-allowed-and-denied" => {
            if let Some(allowed) = allowed_twin(source, &diagnostic.path) {
                found.push(here(allowed, "allowed here".to_owned()));
            }
        }
        _ => {}
    }
    if let Some(topology) = file.topology() {
        found.extend(
            finding_path(topology, diagnostic)
                .into_iter()
                .filter_map(|(node, next)| {
                    let definition =
                        symbols.definition(crate::symbols::SymbolKind::DrtlNode, &node)?;
                    let message = match next {
                        Some(next) => format!("`{node}` leads to `{next}`"),
                        None => format!("`{node}` is on the path"),
                    };
                    Some(here(definition.span, message))
                }),
        );
    }
    if let Some(name) = diagnostic
        .help
        .as_deref()
        .and_then(logicmd::fix::suggested_name)
    {
        if let Some(definition) = symbols.any_definition(name) {
            found.push(here(definition.span, format!("`{name}` is defined here")));
        }
    }
    found
}

/// For a pointer to an item (or a field of an item) of a list, the first earlier item of the
/// same list with the same value at the same field: the other half of a duplicate.
fn earlier_same_item(source: &dyn logicmd::schema::Source, pointer: &str) -> Option<Span> {
    let root = source.root();
    let value = node_at(root, pointer)?;
    let tokens: Vec<&str> = pointer.split('/').collect();
    // The list index is the last numeric token; what follows it is the field compared.
    let at = tokens.iter().rposition(|t| t.parse::<usize>().is_ok())?;
    let index: usize = tokens[at].parse().ok()?;
    let list = tokens[..at].join("/");
    let field = tokens[at + 1..].join("/");
    (0..index).find_map(|earlier| {
        let mut other = format!("{list}/{earlier}");
        if !field.is_empty() {
            other = format!("{other}/{field}");
        }
        let node = node_at(root, &other)?;
        (logicmd::json::to_json(node) == logicmd::json::to_json(value)).then_some(node.span())
    })
}

/// For `/steps/S/denied_tools/I`, the item of `allowed_tools` with the same name.
fn allowed_twin(source: &dyn logicmd::schema::Source, pointer: &str) -> Option<Span> {
    let root = source.root();
    let tool = node_at(root, pointer)?.as_str()?;
    let (step, _) = pointer.rsplit_once("/denied_tools/")?;
    node_at(root, &format!("{step}/allowed_tools"))?
        .as_seq()?
        .iter()
        .find(|item| item.as_str() == Some(tool))
        .map(|item| item.span())
}

/// The node ids along the path of the obligation finding a diagnostic is (each with the next
/// one), when it is one of `check`'s.
fn finding_path(
    topology: &logicmd::drtl::Topology,
    diagnostic: &Diagnostic,
) -> Vec<(String, Option<String>)> {
    let findings = logicmd::check::check_topology(topology);
    let Some(finding) = findings.iter().find(|f| {
        f.rule == diagnostic.code && f.message == diagnostic.message && f.pointer == diagnostic.path
    }) else {
        return Vec::new();
    };
    let path = &finding.path;
    path.iter()
        .enumerate()
        .map(|(i, node)| (node.clone(), path.get(i + 1).cloned()))
        .collect()
}

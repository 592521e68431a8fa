//! Inlay hints: after a step's name its execution level and place in the order (what
//! `compile` schedules), after a branch's or route's target what kind of thing it is.

use logicmd::flow::{Flow, UnitKind};
use logicmd::model::Spec;
use logicmd::source::Span;
use serde::Serialize;

use crate::symbols::{SymbolKind, Usage};
use crate::workspace::{FileAnalysis, Workspace};

/// One hint: text shown at an offset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// Where it is shown (after the thing it is about).
    pub offset: usize,
    /// The text.
    pub label: String,
    /// What it says, at length.
    pub tooltip: String,
}

/// The hints of `id` in `range`.
pub fn inlay_hints(workspace: &mut Workspace, id: &str, range: Span) -> Vec<Hint> {
    let Some(file) = workspace.analysis(id) else {
        return Vec::new();
    };
    let mut hints = order_hints(workspace, &file);
    hints.extend(target_hints(&file));
    hints.retain(|h| range.start <= h.offset && h.offset <= range.end);
    hints.sort_by_key(|h| h.offset);
    hints
}

/// `level N · #K` after each step's name (imports merged, as `compile` schedules them).
fn order_hints(workspace: &Workspace, file: &FileAnalysis) -> Vec<Hint> {
    let Some(document) = file.document() else {
        return Vec::new();
    };
    let loader = workspace.loader();
    let own = document.json_for_call();
    let resolved = logicmd::imports::resolve_own(document, &own, &file.id, &loader);
    let spec = Spec::read(&resolved.value);
    let Ok(flow) = Flow::of_steps(&spec) else {
        return Vec::new();
    };
    let levels = flow.level_names(UnitKind::Step);
    let mut order = 0usize;
    let mut place: Vec<(String, usize, usize)> = Vec::new();
    for (level, names) in levels.iter().enumerate() {
        for name in names {
            order += 1;
            place.push((name.clone(), level + 1, order));
        }
    }
    file.symbols()
        .definitions
        .iter()
        .filter(|d| d.kind == SymbolKind::Step)
        .filter_map(|d| {
            let (_, level, order) = place.iter().find(|(name, _, _)| *name == d.name)?;
            let peers = levels.get(level - 1).map_or(0, Vec::len);
            Some(Hint {
                offset: d.span.end,
                label: format!(" level {level} · #{order}"),
                tooltip: format!(
                    "`{}` runs at level {level} of {} ({peers} step(s) at this level may run together), {order} of {} in order",
                    d.name,
                    levels.len(),
                    place.len()
                ),
            })
        })
        .collect()
}

/// `→ step`, `→ terminal`, `→ node` after each branch `then`, tree `next`, root and route.
fn target_hints(file: &FileAnalysis) -> Vec<Hint> {
    let symbols = file.symbols();
    symbols
        .references
        .iter()
        .filter(|r| {
            matches!(
                r.usage,
                Usage::Then
                    | Usage::Next
                    | Usage::Root
                    | Usage::Route
                    | Usage::Action
                    | Usage::OnBreach
            )
        })
        .map(|reference| {
            let found = symbols.resolve(reference);
            let noun = match (found, reference.kind) {
                (Some(_), SymbolKind::DrtlNode) => {
                    let json = file.json();
                    let kind = json
                        .as_deref()
                        .and_then(|j| j.get("nodes"))
                        .and_then(|n| n.as_array())
                        .and_then(|nodes| {
                            nodes.iter().find(|n| {
                                n.get("id").and_then(|i| i.as_str())
                                    == Some(reference.name.as_str())
                            })
                        })
                        .and_then(|n| n.get("type"))
                        .and_then(|t| t.as_str())
                        .unwrap_or("node");
                    format!("{kind} node")
                }
                (Some(definition), _) => definition.kind.noun().to_owned(),
                (None, SymbolKind::DrtlNode) if reference.name == logicmd::drtl::TERMINATE => {
                    "ends the run".to_owned()
                }
                (None, SymbolKind::Step) if reference.name.contains('.') => {
                    "imported step".to_owned()
                }
                (None, _) => "unknown".to_owned(),
            };
            Hint {
                offset: reference.span.end,
                label: format!(" → {noun}"),
                tooltip: tooltip(&reference.name, &noun),
            }
        })
        .collect()
}

fn tooltip(name: &str, noun: &str) -> String {
    match noun {
        "ends the run" => format!("`{name}` ends (abandons) the run here"),
        "unknown" => format!("`{name}` names nothing defined here"),
        _ => {
            let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("`{name}` is {article} {noun}")
        }
    }
}

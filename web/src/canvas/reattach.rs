//! Re-attaching a selected wire: a handle at each end; dragging one onto another node moves that
//! end there as one undo step. A `needs` wire (or a DRTL edge) is disconnected and connected
//! anew through core, so every connect rule applies and a refusal gives core's reason; a
//! branch's target is its `then`. Wires drawn from other fields say where to edit them.

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::graph::Graph;
use serde_json::json;

use super::control::Hit;
use super::draw::wire_ends;
use super::gesture::WireEnd;
use super::Sides;
use crate::state::Studio;

/// The handles of the selected wire, in graph coordinates.
pub fn handles(studio: Studio, sides: Sides) -> impl IntoView {
    move || {
        let ends = studio.selection.with(|s| s.selected_wire().cloned())?;
        let sideways = sides.get();
        let (from, to) = studio
            .graph
            .with(|g| ends_of(g.as_deref()?, &ends, sideways))?;
        Some(view! {
            <g class="wire-handles">
                <circle class="wire-handle" data-handle="source" cx=from.0 cy=from.1 r="7">
                    <title>"Drag onto another node to move where this wire starts"</title>
                </circle>
                <circle class="wire-handle" data-handle="target" cx=to.0 cy=to.1 r="7">
                    <title>"Drag onto another node to move where this wire ends"</title>
                </circle>
            </g>
        })
    }
}

/// Where the wire between node ids `ends` starts and ends.
fn ends_of(
    graph: &Graph,
    ends: &(String, String),
    sideways: bool,
) -> Option<((f64, f64), (f64, f64))> {
    let edge = graph
        .edges
        .iter()
        .find(|e| e.source == ends.0 && e.target == ends.1)?;
    Some(wire_ends(
        edge,
        graph.node(&edge.source)?,
        graph.node(&edge.target)?,
        sideways,
    ))
}

/// What a press on a handle of the selected wire grabbed, if it was on one.
pub fn grab(studio: Studio, target: Option<&web_sys::Element>, sides: Sides) -> Option<Hit> {
    let moving = match target?.get_attribute("data-handle")?.as_str() {
        "source" => WireEnd::Source,
        "target" => WireEnd::Target,
        _ => return None,
    };
    let ends = studio
        .selection
        .with_untracked(|s| s.selected_wire().cloned())?;
    let (from, to) = studio
        .graph
        .with_untracked(|g| ends_of(g.as_deref()?, &ends, sides.get_untracked()))?;
    let fixed = match moving {
        WireEnd::Source => to,
        WireEnd::Target => from,
    };
    Some(Hit::Handle {
        ends,
        moving,
        fixed,
    })
}

/// Moves the `moving` end of the wire between node ids `ends` onto node id `onto`.
pub fn reattach(
    studio: Studio,
    ends: &(String, String),
    moving: WireEnd,
    onto: &str,
) -> Result<(), String> {
    let kept = match moving {
        WireEnd::Source => &ends.0,
        WireEnd::Target => &ends.1,
    };
    if kept == onto {
        return Ok(());
    }
    let planned = studio.graph.with_untracked(|g| match g.as_deref() {
        Some(graph) => edits_for(
            graph,
            ends,
            moving,
            onto,
            &Lists {
                branches: branch_targets(studio, graph, &ends.0),
                needs: needs_of(studio, graph, &ends.1),
            },
        ),
        None => Err("the document has no graph yet".to_owned()),
    })?;
    // Core's connect rules judge the move; the text gets the smallest edit that makes it.
    let mut probe = studio.text.get_untracked();
    for edit in &planned.check {
        probe = logicmd::edit::apply(&probe, edit)
            .map_err(|d| d.message)?
            .text;
    }
    studio.apply_all(None, &planned.write)?;
    studio.select(crate::selection::Selection::none());
    studio.notice.set(None);
    Ok(())
}

/// The `then` of each branch of the step with node id `source` (empty for other nodes).
fn branch_targets(studio: Studio, graph: &Graph, source: &str) -> Vec<Option<String>> {
    let Some(node) = graph.node(source).filter(|n| n.kind == "step") else {
        return Vec::new();
    };
    let branches = crate::inspector::value_at(studio, &format!("{}/branches", node.pointer));
    branches
        .as_array()
        .map(|b| {
            b.iter()
                .map(|b| b.get("then").and_then(|t| t.as_str()).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The `needs` of the step with node id `target` (empty for other nodes).
fn needs_of(studio: Studio, graph: &Graph, target: &str) -> Vec<String> {
    let Some(node) = graph.node(target).filter(|n| n.kind == "step") else {
        return Vec::new();
    };
    let needs = crate::inspector::value_at(studio, &format!("{}/needs", node.pointer));
    needs
        .as_array()
        .map(|n| {
            n.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What the wire's ends are written in: the source step's branch targets and the target's `needs`.
#[derive(Debug, Default)]
pub struct Lists {
    pub branches: Vec<Option<String>>,
    pub needs: Vec<String>,
}

/// A move: the edits whose acceptance by core decides it, and the edits written.
#[derive(Debug, PartialEq)]
pub struct Planned {
    pub check: Vec<Edit>,
    pub write: Vec<Edit>,
}

impl Planned {
    fn same(edits: Vec<Edit>) -> Planned {
        Planned {
            check: edits.clone(),
            write: edits,
        }
    }
}

/// The edits that move the wire.
pub fn edits_for(
    graph: &Graph,
    ends: &(String, String),
    moving: WireEnd,
    onto: &str,
    lists: &Lists,
) -> Result<Planned, String> {
    let name = |id: &str| {
        graph
            .node(id)
            .map(|n| n.name.clone())
            .ok_or_else(|| format!("there is no node `{id}`"))
    };
    let edge = graph
        .edges
        .iter()
        .find(|e| e.source == ends.0 && e.target == ends.1)
        .ok_or("that wire is gone")?;
    let (source, target, new) = (name(&ends.0)?, name(&ends.1)?, name(onto)?);
    let drtl = ends.0.starts_with("drtl:");
    if drtl || edge.kind == "needs" {
        let (from, to) = match moving {
            WireEnd::Source => (new.clone(), target.clone()),
            WireEnd::Target => (source.clone(), new.clone()),
        };
        let check = vec![
            Edit::Disconnect {
                from: source.clone(),
                to: target.clone(),
            },
            Edit::Connect {
                from,
                to,
                from_port: None,
                to_port: None,
            },
        ];
        // A new source of the same step: the item of its `needs` changes in place.
        let item = lists.needs.iter().position(|n| *n == source);
        return Ok(match (moving, item, drtl) {
            (WireEnd::Source, Some(index), false) => {
                let step = graph
                    .node(&ends.1)
                    .map(|n| n.pointer.clone())
                    .unwrap_or_default();
                Planned {
                    check,
                    write: vec![Edit::Set {
                        path: format!("{step}/needs/{index}"),
                        value: json!(new),
                    }],
                }
            }
            _ => Planned::same(check),
        });
    }
    match (edge.kind.as_str(), moving) {
        ("branch", WireEnd::Target) => {
            if graph.node(onto).is_none_or(|n| n.kind != "step") {
                return Err(format!("a branch routes to a step; `{new}` is not one"));
            }
            let index = lists
                .branches
                .iter()
                .position(|then| then.as_deref() == Some(target.as_str()))
                .ok_or("this branch is not in the step's branches")?;
            let step = graph.node(&ends.0).map(|n| n.pointer.clone()).unwrap_or_default();
            Ok(Planned::same(vec![Edit::Set { path: format!("{step}/branches/{index}/then"), value: json!(new) }]))
        }
        ("branch", WireEnd::Source) => Err(format!(
            "a branch belongs to the step it leaves (`{source}`): move its other end, or add the branch in the other step's inspector"
        )),
        (kind, _) => Err(format!("{}: move it there", crate::wires::drawn_from(kind))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    branches:\n      - if: \"{{ output.ok }}\"\n        then: c\n  b:\n    needs: [a]\n  c: {}\n---\n";

    fn graph() -> Graph {
        logicmd::graph::from_document(&logicmd::Document::parse(DOC).document.unwrap())
    }

    fn ends(a: &str, b: &str) -> (String, String) {
        (format!("step:{a}"), format!("step:{b}"))
    }

    fn lists(branches: &[&str], needs: &[&str]) -> Lists {
        Lists {
            branches: branches.iter().map(|b| Some((*b).to_owned())).collect(),
            needs: needs.iter().map(|n| (*n).to_owned()).collect(),
        }
    }

    /// What reattach does: core judges `check`; the text gets `write`.
    fn run(planned: Result<Planned, String>) -> Result<String, String> {
        let planned = planned?;
        let apply = |edits: &[Edit]| {
            let mut text = DOC.to_owned();
            for edit in edits {
                text = logicmd::edit::apply(&text, edit)
                    .map_err(|d| d.message)?
                    .text;
            }
            Ok::<String, String>(text)
        };
        apply(&planned.check)?;
        apply(&planned.write)
    }

    #[test]
    fn a_needs_wire_moves_either_end_with_the_smallest_change() {
        let g = graph();
        let needs = lists(&[], &["a"]);
        let moved = run(edits_for(
            &g,
            &ends("a", "b"),
            WireEnd::Target,
            "step:c",
            &needs,
        ));
        assert_eq!(
            moved.unwrap(),
            DOC.replace(
                "  b:\n    needs: [a]\n  c: {}\n",
                "  b: {}\n  c: {needs: [a]}\n"
            )
        );
        let moved = run(edits_for(
            &g,
            &ends("a", "b"),
            WireEnd::Source,
            "step:c",
            &needs,
        ));
        assert_eq!(moved.unwrap(), DOC.replace("needs: [a]", "needs: [c]"));
        // A new source that would close a cycle is judged by core and refused.
        let cyclic = run(edits_for(
            &g,
            &ends("a", "b"),
            WireEnd::Source,
            "step:b",
            &needs,
        ));
        assert_eq!(cyclic.unwrap_err(), "`b` cannot be connected to itself");
    }

    #[test]
    fn a_refused_move_says_why_and_branches_move_their_then() {
        let g = graph();
        let onto_itself = run(edits_for(
            &g,
            &ends("a", "b"),
            WireEnd::Target,
            "step:a",
            &lists(&[], &["a"]),
        ));
        assert_eq!(
            onto_itself.unwrap_err(),
            "`a` cannot be connected to itself"
        );
        let branches = lists(&["c"], &[]);
        let moved = run(edits_for(
            &g,
            &ends("a", "c"),
            WireEnd::Target,
            "step:b",
            &branches,
        ));
        assert_eq!(moved.unwrap(), DOC.replace("then: c", "then: b"));
        let source = edits_for(&g, &ends("a", "c"), WireEnd::Source, "step:b", &branches);
        assert!(source
            .unwrap_err()
            .starts_with("a branch belongs to the step it leaves"));
    }
}

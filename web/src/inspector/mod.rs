//! The inspector: for a step every field the schema gives a step ([`step`]), for other nodes
//! their kind's fields, and the document's `visual.inspector` fields in their own labelled
//! section. Every change goes through the core edit API; a value refused is not written and
//! its error is shown at the field.

mod branches;
mod declared;
mod fields;
mod form;
mod list;
mod node_form;
mod route;
mod rows;
mod schema_editor;
mod typing;
mod value;
mod write;

use declared::{document_section, field_view};

pub use typing::Typed;
pub use write::value_at;

use leptos::prelude::*;

use crate::state::Studio;

#[component]
pub fn Inspector() -> impl IntoView {
    let studio = expect_context::<Studio>();
    // What the form is built for: rebuilt when another node (or several) is selected, not on
    // every edit.
    let chosen = Memo::new(move |_| {
        let ids = studio.selection.with(|s| s.ids().to_vec());
        studio
            .graph
            .with(|g| {
                let g = g.as_ref()?;
                Some(
                    ids.iter()
                        .filter_map(|id| g.node(id))
                        .map(|n| Chosen {
                            id: n.id.clone(),
                            kind: n.kind.clone(),
                            name: n.name.clone(),
                            pointer: n.pointer.clone(),
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .unwrap_or_default()
    });
    // What the document's own form depends on: compared, so typing does not rebuild it.
    let document = Memo::new(move |_| {
        studio.analysis.with(|a| {
            let declared: Vec<String> = a
                .document_fields
                .iter()
                .map(|f| f.pointer.clone())
                .collect();
            (a.kind == crate::analysis::Kind::Drtl, declared)
        })
    });
    let heading = move || {
        chosen.with(|c| match c.as_slice() {
            [] => ("document".to_owned(), document_name(studio)),
            [one] => (one.kind.replace('_', " "), one.name.clone()),
            many => ("selection".to_owned(), format!("{} nodes", many.len())),
        })
    };
    view! {
        <aside class="inspector" data-testid="inspector" aria-label="Inspector">
            <h2>
                <span class="inspector-kind">{move || heading().0}</span>
                " "
                <span class="inspector-name">{move || heading().1}</span>
            </h2>
            // The document's visual.inspector fields: first when nothing is selected, else under
            // the selection's form (each its own closure: only the form is rebuilt on selection).
            {move || chosen.with(Vec::is_empty).then(|| document_section(studio, None))}
            {move || {
                let chosen = chosen.get();
                match chosen.as_slice() {
                    [] => {
                        // The document's form follows its kind and its declared fields.
                        document.track();
                        document_form(studio).into_any()
                    }
                    [one] => one_node(studio, one.clone()).into_any(),
                    many => several(studio, many.to_vec()).into_any(),
                }
            }}
            {move || chosen.with(|c| c.first().map(|n| n.kind.clone())).map(|kind| document_section(studio, Some(kind)))}
        </aside>
    }
}

/// A selected node, as the inspector builds its form.
#[derive(Debug, Clone, PartialEq)]
struct Chosen {
    id: String,
    kind: String,
    name: String,
    pointer: String,
}

/// The fields of a node of `kind` from its schema, or `None` for kinds edited by their graph
/// fields (workflow nodes).
fn fields_of_kind(studio: Studio, kind: &str) -> Option<Vec<form::FormField>> {
    let drtl = studio.analysis.with_untracked(|a| a.kind) == crate::analysis::Kind::Drtl;
    match kind {
        "step" => Some(form::step_fields()),
        "decision" => Some(form::decision_fields()),
        "terminal" => Some(form::terminal_fields()),
        other if drtl => Some(form::drtl_fields(other)).filter(|f| !f.is_empty()),
        _ => None,
    }
}

fn one_node(studio: Studio, node: Chosen) -> impl IntoView {
    let name =
        (node.kind == "step").then(|| name_field(studio, node.id.clone(), node.name.clone()));
    let form = match fields_of_kind(studio, &node.kind) {
        Some(fields) => node_form::form_view(
            studio,
            vec![node.pointer.clone()],
            fields,
            Some(node.name.clone()),
            std::sync::Arc::from([]),
        ),
        None => {
            let id = node.id.clone();
            (move || {
                studio
                    .graph
                    .with(|g| g.as_ref()?.node(&id).map(|n| n.inspector.clone()))
                    .unwrap_or_default()
                    .iter()
                    .cloned()
                    .map(|f| field_view(studio, f))
                    .collect_view()
            })
            .into_any()
        }
    };
    view! {
        {name}
        <section class="inspector-section" aria-label="Node fields"
            data-section=if node.kind == "step" { "step" } else { "node" } data-kind=node.kind.clone()>
            {form}
        </section>
        <RunSection name=node.name />
    }
}

/// Several nodes: the fields they share, written to each at once; or how many are selected.
fn several(studio: Studio, nodes: Vec<Chosen>) -> impl IntoView {
    let kind = nodes[0].kind.clone();
    let same = nodes.iter().all(|n| n.kind == kind);
    let count = nodes.len();
    match fields_of_kind(studio, &kind).filter(|_| same) {
        Some(fields) => view! {
            <p class="muted" data-testid="shared-note">{format!("{count} {} nodes selected: a change applies to each of them.", kind.replace('_', " "))}</p>
            <section class="inspector-section" aria-label="Shared fields" data-section="shared">
                {node_form::form_view(studio, nodes.iter().map(|n| n.pointer.clone()).collect(), fields, None, std::sync::Arc::from([]))}
            </section>
        }
        .into_any(),
        None => view! {
            <p class="muted" data-testid="shared-note">{format!("{count} nodes selected, of different kinds: they share no fields. Select nodes of one kind to edit them together.")}</p>
        }
        .into_any(),
    }
}

/// The document's own fields (gates, fallback, contracts, ...), when no node is selected; those
/// the document's `visual.inspector` declares are shown in that section instead (with the limits
/// the document gives them).
fn document_form(studio: Studio) -> impl IntoView {
    let drtl = studio.analysis.with_untracked(|a| a.kind) == crate::analysis::Kind::Drtl;
    let declared: std::sync::Arc<[String]> = studio.analysis.with_untracked(|a| {
        a.document_fields
            .iter()
            .map(|f| f.pointer.clone())
            .collect()
    });
    view! {
        <section class="inspector-section" aria-label="Document fields" data-section="document-form">
            {node_form::form_view(studio, vec![String::new()], form::document_fields(drtl), None, declared)}
        </section>
    }
}

/// Run settings of a node: pause before it runs.
#[component]
fn RunSection(name: String) -> impl IntoView {
    let run = expect_context::<crate::run::RunState>();
    let toggle = {
        let name = name.clone();
        move |_| {
            let name = name.clone();
            run.breakpoints.update(|b| {
                if !b.remove(&name) {
                    b.insert(name);
                }
            });
        }
    };
    let on = move || run.breakpoints.with(|b| b.contains(&name));
    view! {
        <section class="inspector-section" aria-label="Run" data-section="run">
            <label class="field inline">
                <input type="checkbox" data-testid="breakpoint" prop:checked=on on:change=toggle />
                <span class="field-label">"Pause before this node runs (breakpoint)"</span>
            </label>
        </section>
    }
}

/// Gives the keyboard to the inspector's field at `path` (or the nearest field holding it) once
/// the form for the selection is drawn, if the inspector is shown.
pub fn focus_field(path: &str) {
    let shown = crate::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".inspector").ok().flatten())
        .is_some();
    if shown && !path.is_empty() {
        let path = path.to_owned();
        request_animation_frame(move || {
            request_animation_frame(move || {
                let mut at = path.as_str();
                loop {
                    let selector = format!("[data-pointer=\"{}\"]", at.replace('"', "\\\""));
                    if crate::browser::focus(&selector) {
                        crate::browser::scroll_into_view(&selector);
                        return;
                    }
                    match at.rfind('/') {
                        Some(cut) if cut > 0 => at = &at[..cut],
                        _ => return,
                    }
                }
            });
        });
    }
}

fn document_name(studio: Studio) -> String {
    studio.text.with(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("name:"))
            .map(|n| n.trim().trim_matches('"').to_owned())
            .unwrap_or_default()
    })
}

/// Where the name field's inline error is kept in `field_error`.
const NAME_FIELD: &str = "#name";

/// The step's name: leaving the field (Enter, Tab, a click elsewhere, another node selected)
/// renames it and every reference to it.
fn name_field(studio: Studio, id: String, name: String) -> impl IntoView {
    let error = move || {
        studio.field_error.with(|e| {
            e.as_ref()
                .filter(|(p, _)| p == NAME_FIELD)
                .map(|(_, m)| m.clone())
        })
    };
    let typed = Typed::on_leaving(move |raw| match crate::rename::rename(studio, &id, &raw) {
        Ok(_) => studio.field_error.set(None),
        Err(message) => studio
            .field_error
            .set(Some((NAME_FIELD.to_owned(), message))),
    });
    let (on_input, on_change, on_blur) = (typed.clone(), typed.clone(), typed);
    view! {
        <label class="field" class:invalid=move || error().is_some()>
            <span class="field-label">"Name"</span>
            <input type="text" data-field="name" value=name
                on:input=move |ev| on_input.input(event_target_value(&ev))
                on:change=move |_| on_change.flush()
                on:blur=move |_| on_blur.leave()
                aria-invalid=move || error().is_some().to_string() />
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </label>
    }
}

//! A node's form: its kind's fields (see [`super::form`]) rendered at the node's place in the
//! document — one node, or the fields several selected nodes of one kind share.

use std::sync::Arc;

use leptos::prelude::*;
use logicmd::json::pointer_push;

use super::branches::branches_editor;
use super::fields::{simple_field, Place};
use super::form::{Control, FormField};
use super::route::{actions_editor, route_editor};
use super::rows::rows_editor;
use super::schema_editor::schema_editor;
use crate::state::Studio;

/// The fields `fields` of the objects at `bases` (one per node edited), but those at `hidden`.
pub fn form_view(
    studio: Studio,
    bases: Vec<String>,
    fields: Vec<FormField>,
    node: Option<String>,
    hidden: Arc<[String]>,
) -> AnyView {
    fields
        .into_iter()
        .filter(|f| bases.len() == 1 || shareable(&f.control))
        .map(|field| {
            let place = Place {
                pointers: bases.iter().map(|b| pointer_push(b, &field.key)).collect(),
                data: field.key.clone(),
                group: None,
                node: node.clone(),
                hidden: Arc::clone(&hidden),
            };
            field_row(studio, place, field)
        })
        .collect_view()
        .into_any()
}

/// Controls several nodes can be edited with at once: one value written to each.
fn shareable(control: &Control) -> bool {
    match control {
        Control::Group(fields) => fields.iter().any(|f| shareable(&f.control)),
        Control::Schema
        | Control::Branches
        | Control::Rows(_)
        | Control::Route
        | Control::Actions
        | Control::Target(_) => false,
        _ => true,
    }
}

/// One field of a form at `place`, whatever its control (nothing when the place is hidden).
pub fn field_row(studio: Studio, place: Place, field: FormField) -> AnyView {
    let pointer = place.first().to_owned();
    if place.hidden.contains(&pointer) {
        return ().into_any();
    }
    let single = place.pointers.len() == 1;
    match field.control.clone() {
        Control::Group(fields) => {
            let inner = fields
                .iter()
                .filter(|f| single || shareable(&f.control))
                .map(|f| {
                    let inner = Place {
                        pointers: place
                            .pointers
                            .iter()
                            .map(|p| pointer_push(p, &f.key))
                            .collect(),
                        data: format!("{}.{}", place.data, f.key),
                        group: Some((place.pointers.clone(), fields.clone())),
                        node: place.node.clone(),
                        hidden: Arc::clone(&place.hidden),
                    };
                    field_row(studio, inner, f.clone())
                })
                .collect_view();
            view! {
                <fieldset class="field-group" data-group=place.data.clone() title=field.help>
                    <legend>{field.label}</legend>
                    {inner}
                </fieldset>
            }
            .into_any()
        }
        Control::Schema if single => {
            schema_editor(studio, pointer, field.label, place.data).into_any()
        }
        Control::Branches if single => {
            branches_editor(studio, place.node.unwrap_or_default(), pointer, field.label).into_any()
        }
        Control::Rows(fields) if single => {
            rows_editor(studio, pointer, field.label, place.data, fields).into_any()
        }
        Control::Route if single => {
            route_editor(studio, pointer, field.label, place.data, place.node).into_any()
        }
        Control::Actions if single => {
            actions_editor(studio, pointer, field.label, place.data).into_any()
        }
        _ => simple_field(studio, place, &field),
    }
}

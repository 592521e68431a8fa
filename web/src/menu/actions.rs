//! What each item of the context menu does.

use leptos::prelude::*;

use super::{Open, Target};
use crate::a11y::Announcer;
use crate::state::{Severity, Studio};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    Rename,
    Duplicate,
    ConnectFrom,
    Delete,
    DeleteWire,
    AddStepHere,
    Paste,
    Fit,
}

impl Action {
    pub fn for_target(target: &Target) -> Vec<Action> {
        match target {
            Target::Node(_) => vec![
                Action::Rename,
                Action::Duplicate,
                Action::ConnectFrom,
                Action::Delete,
            ],
            Target::Wire(..) => vec![Action::DeleteWire],
            Target::Canvas => vec![Action::AddStepHere, Action::Paste, Action::Fit],
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Action::Rename => "Rename",
            Action::Duplicate => "Duplicate",
            Action::ConnectFrom => "Connect from here",
            Action::Delete => "Delete",
            Action::DeleteWire => "Delete wire",
            Action::AddStepHere => "Add step here",
            Action::Paste => "Paste",
            Action::Fit => "Fit",
        }
    }

    pub fn run(self, studio: Studio, open: &Open, connecting: RwSignal<Option<String>>) {
        let outcome = match (self, &open.target) {
            (Action::Rename, Target::Node(id)) => {
                studio.renaming.set(Some(id.clone()));
                Ok(())
            }
            (Action::Duplicate, _) => {
                crate::tools::duplicate(studio);
                Ok(())
            }
            (Action::ConnectFrom, Target::Node(id)) => {
                connecting.set(Some(id.clone()));
                expect_context::<Announcer>().say(
                    "Connecting: move to the target with the arrows and press Enter; Escape cancels",
                );
                Ok(())
            }
            (Action::Delete, _) => crate::select::delete_selected(studio),
            (Action::DeleteWire, Target::Wire(from, to)) => {
                crate::wires::remove_wire(studio, &(from.clone(), to.clone()))
            }
            (Action::AddStepHere, _) => add_step_at(studio, open.graph),
            (Action::Paste, _) => {
                crate::tools::paste(studio, Some(open.graph));
                Ok(())
            }
            (Action::Fit, _) => {
                studio.fit_request.update(|n| *n += 1);
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(message) = outcome {
            studio.notify(Severity::Error, message);
        }
    }
}

/// A new step (or DRTL node) placed at `at`, not wired to anything.
fn add_step_at(studio: Studio, at: (f64, f64)) -> Result<(), String> {
    crate::select::select_many(studio, Vec::new());
    studio
        .place_new
        .set_value(Some((at.0.round(), at.1.round())));
    let node_type = match studio.analysis.with_untracked(|a| a.kind) {
        crate::analysis::Kind::Logic => "step",
        crate::analysis::Kind::Drtl => "generate",
    };
    crate::panels::add_node_from_palette(studio, node_type);
    Ok(())
}

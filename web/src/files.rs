//! Files that reach the studio (opened, or dropped anywhere on the page): a trace replays on the
//! canvas, anything else is a document, opened only after asking ([`crate::replace`]).

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use crate::browser;
use crate::replace::Replace;
use crate::room::Room;
use crate::run::RunState;
use crate::state::{Severity, Studio};

/// Whether a file is a run's trace (JSON Lines of events), not a document: by its name, or by
/// its first line being a JSON object with an `event`.
pub fn is_trace(name: &str, text: &str) -> bool {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    name.ends_with(".jsonl")
        || serde_json::from_str::<Value>(first)
            .ok()
            .is_some_and(|v| v.get("event").is_some_and(Value::is_string))
}

/// What a dropped or opened file may reach.
#[derive(Clone, Copy)]
pub struct Targets {
    pub studio: Studio,
    pub replace: Replace,
    pub run: RunState,
    pub room: Room,
}

impl Targets {
    pub fn from_context() -> Targets {
        Targets {
            studio: expect_context(),
            replace: expect_context(),
            run: expect_context(),
            room: expect_context(),
        }
    }
}

/// A file dropped anywhere: a trace replays, a document asks before it replaces the text.
pub fn dropped(to: Targets, file: web_sys::File) {
    let Targets {
        studio,
        replace,
        run,
        room,
    } = to;
    let name = file.name();
    spawn_local(async move {
        match browser::read_file(file).await {
            Ok(text) if is_trace(&name, &text) => replay(studio, run, room, text),
            Ok(text) => replace.ask(&name, text),
            Err(message) => studio.notify(Severity::Error, message),
        }
    });
}

/// A file chosen with Open: asks first when the current text is not saved anywhere.
pub fn opened(studio: Studio, replace: Replace, file: web_sys::File) {
    let name = file.name();
    spawn_local(async move {
        match browser::read_file(file).await {
            Ok(text) => {
                replace.saved.set(Some(text.clone()));
                replace.open(studio, &name, text);
            }
            Err(message) => studio.notify(Severity::Error, message),
        }
    });
}

/// Shows a trace on the canvas as if it had just run (the Run panel opens on it).
pub fn replay(studio: Studio, run: RunState, room: Room, text: String) {
    room.run_open.set(true);
    run.with_mode(move |mode| match mode.read_trace(&text) {
        Ok(events) => run.replay(events),
        Err(message) => studio.notify(Severity::Error, message),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_is_told_from_a_document() {
        let trace = "{\"seq\":0,\"event\":\"run_started\",\"t\":0}\n{\"seq\":1}\n";
        assert!(is_trace("run.txt", trace));
        assert!(is_trace("anything.jsonl", ""));
        assert!(!is_trace("a.logic.md", "---\nspec_version: \"1.0\"\n---\n"));
        assert!(!is_trace("t.drtl.yaml", "name: t\nnodes: []\n"));
        assert!(!is_trace("x.json", "{\"name\": \"not an event\"}"));
    }
}

//! What a session keeps to go on after a crash: how it started ([`Start`]) and, as they happen,
//! [`Record`]s — each answer the caller gives, the moment it arrives, and each feed. Nothing in
//! the journal is ever superseded, so appending the records is all the persistence there is
//! (linear in the run), and replaying them rebuilds the session exactly without asking for any
//! answer again. A [`Session::snapshot`](super::Session::snapshot) is the same history as one
//! JSON value (the engine's snapshot plus the answers not yet fed).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::clock::ClockMode;
use crate::run::{Observation, RunError, RunOptions, Source};

/// How a session starts: enough to start it again, byte for byte.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Start {
    /// The document.
    pub source: Source,
    /// The run's input.
    pub input: Value,
    /// The run's options (`start_ms` is the clock at the start).
    pub options: RunOptions,
    /// The clock the session runs on.
    pub clock: ClockMode,
}

impl Start {
    /// A start at `now_ms` on a real clock (the wall clock, in milliseconds since the Unix
    /// epoch), or at `options.start_ms` on a fixed one.
    pub fn new(
        source: Source,
        input: Value,
        mut options: RunOptions,
        clock: ClockMode,
        now_ms: u64,
    ) -> Start {
        if clock == ClockMode::Real {
            options.start_ms = now_ms;
        }
        Start {
            source,
            input,
            options,
            clock,
        }
    }
}

/// One thing that happened, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum Record {
    /// The caller answered action `id` (it finished at `at` on the session's clock); kept before
    /// it is fed, so a crash never asks for it again.
    Answered {
        /// The action's id.
        id: String,
        /// When it finished, on the session's clock.
        at: u64,
        /// The answer.
        observation: Observation,
    },
    /// Action `id`'s answer was fed to the run with the clock at `at`. `observation` is there
    /// when the session answered the action itself (else it is the `answered` record's).
    Fed {
        /// The action's id.
        id: String,
        /// The clock at the feed.
        at: u64,
        /// The session's own answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        observation: Option<Observation>,
    },
}

/// The engine's snapshot (its documented format) and the session's part of it.
#[derive(Deserialize)]
struct Snapshot {
    source: Source,
    input: Value,
    options: RunOptions,
    fed: Vec<Fed>,
    #[serde(default)]
    session: Extra,
}

#[derive(Deserialize)]
struct Fed {
    id: String,
    at: u64,
    observation: Observation,
}

/// What a session adds to the engine's snapshot.
#[derive(Default, Serialize, Deserialize)]
pub(super) struct Extra {
    #[serde(default)]
    pub clock: ClockMode,
    /// Answers the caller gave that were not fed yet.
    #[serde(default)]
    pub answered: Vec<Answered>,
}

#[derive(Serialize, Deserialize)]
pub(super) struct Answered {
    pub id: String,
    pub at: u64,
    pub observation: Observation,
}

/// A snapshot as a start and the records that replay it.
pub(super) fn from_snapshot(value: &Value) -> Result<(Start, Vec<Record>), RunError> {
    let format = value.get("format").and_then(Value::as_str);
    if format != Some("logicmd-run") {
        return Err(RunError::new(
            "not a logicmd run snapshot (no `format: logicmd-run`)",
        ));
    }
    let version = value.get("version").and_then(Value::as_u64);
    if version != Some(1) {
        return Err(RunError::new(format!(
            "snapshot version {} is not supported (this build reads version 1)",
            version.map_or_else(|| "?".to_owned(), |v| v.to_string())
        )));
    }
    let snapshot: Snapshot = serde_json::from_value(value.clone())
        .map_err(|error| RunError::new(format!("the snapshot is damaged: {error}")))?;
    let start = Start {
        source: snapshot.source,
        input: snapshot.input,
        options: snapshot.options,
        clock: snapshot.session.clock,
    };
    let fed = snapshot.fed.into_iter().map(|fed| Record::Fed {
        id: fed.id,
        at: fed.at,
        observation: Some(fed.observation),
    });
    let answered = snapshot
        .session
        .answered
        .into_iter()
        .map(|answered| Record::Answered {
            id: answered.id,
            at: answered.at,
            observation: answered.observation,
        });
    Ok((start, fed.chain(answered).collect()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn records_read_back_as_written() {
        let records = [
            Record::Answered {
                id: "a3".into(),
                at: 120,
                observation: Observation::text("hi"),
            },
            Record::Fed {
                id: "a3".into(),
                at: 120,
                observation: None,
            },
            Record::Fed {
                id: "a4".into(),
                at: 1_120,
                observation: Some(Observation::Waited),
            },
        ];
        let lines: Vec<String> = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        assert_eq!(
            lines,
            [
                r#"{"record":"answered","id":"a3","at":120,"observation":{"observation":"model_response","text":"hi"}}"#,
                r#"{"record":"fed","id":"a3","at":120}"#,
                r#"{"record":"fed","id":"a4","at":1120,"observation":{"observation":"waited"}}"#,
            ]
        );
        for (line, record) in lines.iter().zip(&records) {
            assert_eq!(&serde_json::from_str::<Record>(line).unwrap(), record);
        }
    }

    #[test]
    fn a_snapshot_that_is_not_one_is_refused_with_the_reason() {
        assert_eq!(
            from_snapshot(&json!({"format": "other"}))
                .unwrap_err()
                .message,
            "not a logicmd run snapshot (no `format: logicmd-run`)"
        );
        assert!(
            from_snapshot(&json!({"format": "logicmd-run", "version": 1}))
                .unwrap_err()
                .message
                .starts_with("the snapshot is damaged")
        );
    }
}

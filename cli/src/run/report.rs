//! The result of `logicmd run` on standard output: for people, the status, the output, the
//! summary and (when paused) the review and the command that resumes; with `--format json`, one
//! object `{status, output, summary, unmet?, error?, reviews?, state?, resume?}`.

use std::path::Path;

use logicmd::run::{Action, ActionKind};
use serde_json::{json, Map, Value};

use super::driver::Ending;
use super::summary::Summary;

/// Everything the report says.
pub struct Report<'a> {
    pub ending: &'a Ending,
    pub summary: &'a Summary,
    pub trace: Option<&'a Path>,
    /// For a pause: the state file and the document's name as the resume command gives it.
    pub state: Option<&'a Path>,
    pub document: &'a str,
}

impl Report<'_> {
    pub fn status(&self) -> &'static str {
        match self.ending {
            Ending::Completed(_) => "completed",
            Ending::Refused(_) => "refused",
            Ending::Failed(_) => "failed",
            Ending::Paused(_) => "paused",
        }
    }

    /// The command that resumes a paused run, with `ACTION` (or `NODE=ACTION`) to fill in.
    fn resume_command(&self, reviews: &[Action]) -> Option<String> {
        let state = self.state?;
        let answer = if reviews.len() > 1 {
            "NODE=ACTION"
        } else {
            "ACTION"
        };
        // A document read from standard input is in the state: the command needs no FILE.
        let document = match self.document {
            "<stdin>" => String::new(),
            document => format!(" {}", shell_word(document)),
        };
        Some(format!(
            "logicmd run{document} --resume {} --answer {answer}",
            shell_word(&state.display().to_string())
        ))
    }

    pub fn json(&self) -> Value {
        let mut object = Map::new();
        object.insert("status".into(), self.status().into());
        let output = match self.ending {
            Ending::Completed(output) => output.clone(),
            _ => Value::Null,
        };
        object.insert("output".into(), output);
        object.insert(
            "summary".into(),
            serde_json::to_value(self.summary).unwrap_or_default(),
        );
        match self.ending {
            Ending::Refused(unmet) => {
                object.insert("unmet".into(), json!(unmet));
            }
            Ending::Failed(error) => {
                object.insert("error".into(), error.clone().into());
            }
            Ending::Paused(reviews) => {
                object.insert(
                    "reviews".into(),
                    reviews.iter().map(review_json).collect::<Vec<_>>().into(),
                );
                if let Some(state) = self.state {
                    object.insert("state".into(), state.display().to_string().into());
                }
                if let Some(command) = self.resume_command(reviews) {
                    object.insert("resume".into(), command.into());
                }
            }
            Ending::Completed(_) => {}
        }
        if let Some(trace) = self.trace {
            object.insert("trace".into(), trace.display().to_string().into());
        }
        Value::Object(object)
    }

    pub fn human(&self) -> String {
        let mut lines = Vec::new();
        match self.ending {
            Ending::Completed(output) => {
                lines.push("completed".to_owned());
                lines.push(format!("output: {}", pretty(output)));
            }
            Ending::Refused(unmet) => {
                lines.push("refused: obligations unmet".to_owned());
                for item in unmet {
                    let target = item
                        .target
                        .as_deref()
                        .map(|t| format!(" ({t})"))
                        .unwrap_or_default();
                    lines.push(format!(
                        "  {} {}{target}: {}",
                        item.node, item.rule, item.reason
                    ));
                }
            }
            Ending::Failed(error) => lines.push(format!("failed: {error}")),
            Ending::Paused(reviews) => {
                lines.push("paused: waiting for a review".to_owned());
                for review in reviews {
                    lines.extend(review_lines(review));
                }
                if let Some(state) = self.state {
                    lines.push(format!("state: {}", state.display()));
                }
                if let Some(command) = self.resume_command(reviews) {
                    lines.push(format!("resume with:\n  {command}"));
                }
            }
        }
        lines.push(String::new());
        lines.extend(self.summary.lines());
        if let Some(trace) = self.trace {
            lines.push(format!("trace: {}", trace.display()));
        }
        lines.join("\n")
    }
}

fn review_json(action: &Action) -> Value {
    match &action.kind {
        ActionKind::AskReview {
            node,
            input,
            message,
            actions,
        } => json!({"node": node, "message": message, "input": input, "actions": actions}),
        _ => Value::Null,
    }
}

fn review_lines(action: &Action) -> Vec<String> {
    let ActionKind::AskReview {
        node,
        input,
        message,
        actions,
    } = &action.kind
    else {
        return Vec::new();
    };
    let mut lines = vec![format!("  review at `{node}`")];
    if let Some(message) = message {
        lines.push(format!("    message: {message}"));
    }
    lines.push(format!("    input: {input}"));
    lines.push(format!("    actions: {}", actions.join(", ")));
    lines
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// `word` as one shell word: as it is when it holds only safe characters, else single-quoted.
fn shell_word(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%=,".contains(c));
    if safe {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("examples/a.logic.md"), "examples/a.logic.md");
        assert_eq!(shell_word("my file's.md"), "'my file'\\''s.md'");
        assert_eq!(shell_word(""), "''");
    }
}

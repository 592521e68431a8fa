//! The seed's next-action engine (logic-engine-v2-design.md): a state comes in (user input,
//! current task, available tools with their parameters, short-term memory), one structured action
//! goes out — `execute_tool`, `ask_user` or `complete_task` — decided by a model. Sans-IO like the
//! runtime: [`Decision::start`] gives the model request, [`Decision::feed`] takes the model's answer
//! and either gives the action (parsed and validated against the action schema and the tool's
//! parameter schema) or the next request, with what was wrong as feedback (bounded attempts).
//! Optionally a LOGIC.md document supplies the reasoning configuration: its strategy, quality gates
//! and rules go into the prompt, and its pre-output gates are checked on the action.

mod prompt;
mod state;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::run::{Message, ModelRequest};

pub use state::{State, Tool};

/// The seed's structured action (§3.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum NextAction {
    /// Run one of the state's tools.
    ExecuteTool {
        /// The tool's name, one of the state's `available_tools`.
        tool_name: String,
        /// The arguments, valid against the tool's parameter schema.
        parameters: Value,
    },
    /// Ask the user something before going on.
    AskUser {
        /// What to ask.
        question: String,
    },
    /// The task is done.
    CompleteTask {
        /// What to tell the user.
        final_message: String,
    },
}

/// Settings of a decision.
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionOptions {
    /// Model calls for one action, the first included (invalid answers are asked again).
    pub max_attempts: u32,
    /// A LOGIC.md frontmatter (imports merged) whose reasoning configuration applies.
    pub spec: Option<Value>,
}

impl Default for DecisionOptions {
    fn default() -> Self {
        DecisionOptions {
            max_attempts: 3,
            spec: None,
        }
    }
}

/// What a fed answer leads to.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The decided action.
    Done(NextAction),
    /// The answer was not acceptable: ask again with this request (it carries the feedback).
    Retry {
        /// The next request to send.
        request: ModelRequest,
        /// What was wrong with the answer, one problem per entry.
        problems: Vec<String>,
    },
    /// No acceptable answer within the attempts: why the last one was refused.
    Failed(Vec<String>),
}

/// One decision in progress.
#[derive(Debug, Clone)]
pub struct Decision {
    state: State,
    options: DecisionOptions,
    request: ModelRequest,
    attempts: u32,
}

impl Decision {
    /// Builds the prompt from `state`; an unusable state (no tools named twice, parameter schemas
    /// that are schemas) is refused with the reasons.
    pub fn start(
        state: State,
        options: DecisionOptions,
    ) -> Result<(Decision, ModelRequest), Vec<String>> {
        state.check()?;
        let request = prompt::request(&state, options.spec.as_ref());
        let decision = Decision {
            state,
            options,
            request: request.clone(),
            attempts: 1,
        };
        Ok((decision, request))
    }

    /// Model requests issued so far, the first included (1 right after [`Decision::start`]).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Takes the model's answer to the last request.
    pub fn feed(&mut self, answer: &str) -> Step {
        let problems = match self.accept(answer) {
            Ok(action) => return Step::Done(action),
            Err(problems) => problems,
        };
        if self.attempts >= self.options.max_attempts.max(1) {
            return Step::Failed(problems);
        }
        self.attempts += 1;
        self.request.messages.push(Message::assistant(answer));
        self.request
            .messages
            .push(Message::user(crate::run::feedback(&problems)));
        Step::Retry {
            request: self.request.clone(),
            problems,
        }
    }

    fn accept(&self, answer: &str) -> Result<NextAction, Vec<String>> {
        let value = crate::run::read_output(answer, Some(&serde_json::json!({"type": "object"})))?;
        // Checked against the one form its `action` (and `tool_name`) names: precise feedback.
        let action = value.get("action").and_then(Value::as_str);
        let tool = value.get("tool_name").and_then(Value::as_str);
        let form = match (action, tool) {
            (Some("execute_tool"), Some(tool)) if self.state.tool(tool).is_none() => {
                return Err(vec![format!(
                    "there is no tool `{tool}`; the tools are: {}",
                    self.state.tool_names().join(", ")
                )])
            }
            (Some(action), _) => prompt::form(&self.state, action, tool),
            (None, _) => None,
        }
        .ok_or_else(|| {
            vec![match action {
                Some("execute_tool") => {
                    "`execute_tool` needs a `tool_name` (a string) naming one of the tools"
                        .to_owned()
                }
                _ => "`action` must be one of \"execute_tool\", \"ask_user\", \"complete_task\""
                    .to_owned(),
            }]
        })?;
        let problems: Vec<String> = crate::schema::check_instance(&form, &value)
            .into_iter()
            .map(|(at, message)| {
                if at.is_empty() {
                    message
                } else {
                    format!("at `{at}`: {message}")
                }
            })
            .collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        let action: NextAction = serde_json::from_value(value.clone())
            .map_err(|e| vec![format!("not one of the three actions: {e}")])?;
        self.gates(&value).map(|()| action)
    }

    /// The document's pre-output gates of severity `error`, checked on the action.
    fn gates(&self, action: &Value) -> Result<(), Vec<String>> {
        let Some(spec) = &self.options.spec else {
            return Ok(());
        };
        let context = json!({ "output": action, "input": { "user_input": self.state.user_input } });
        let failed: Vec<String> = crate::model::Spec::read(spec)
            .quality_gates
            .pre_output
            .iter()
            .filter(|gate| gate.severity == crate::model::Severity::Error)
            .filter(|gate| {
                !crate::expr::Template::parse(&gate.check)
                    .and_then(|t| t.evaluate(&context))
                    .is_ok_and(|v| crate::expr::JsValue::from_json(&v).truthy())
            })
            .map(|gate| {
                gate.message.clone().unwrap_or_else(|| {
                    format!("the gate `{}` (`{}`) does not hold", gate.name, gate.check)
                })
            })
            .collect();
        if failed.is_empty() {
            Ok(())
        } else {
            Err(failed)
        }
    }
}

#[cfg(test)]
mod tests;

//! What the engine asks its driver to do ([`Action`]) and what the driver tells it back
//! ([`Observation`]). Plain data, serialisable, so the CLI, the npm package and the studio drive
//! the same engine (logic-engine-v2-design §3.4: structured actions, not strings).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One thing for the driver to do. `id` is unique within a run; feed the result back under it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    pub id: String,
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// A chat message of a model request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: "user".to_owned(),
            content: content.into(),
        }
    }

    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: "assistant".to_owned(),
            content: content.into(),
        }
    }
}

/// What a model call sends: the compiled scaffold as the system prompt, the task as messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRequest {
    pub system: String,
    pub messages: Vec<Message>,
    /// The JSON Schema the answer must satisfy, when the step promises structured output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    /// A model named by the document (DRTL `model`), for providers that route by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The answer must be JSON (a `response_schema`, or DRTL `output_format: json`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub json: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ActionKind {
    /// Call a model. `timeout_ms` is the step's `timeout`: past it, feed a `timeout` failure.
    CallModel {
        node: String,
        attempt: u32,
        request: ModelRequest,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u64>,
    },
    /// Run a tool (seed: `execute_tool`): a verification rule that needs the world, named by its
    /// rule id, with the target and the values to check; answer with a [`Verdict`].
    CallTool {
        node: String,
        name: String,
        arguments: Value,
    },
    /// Ask a person or system to decide (seed: `ask_user`; DRTL `review`): answer with one of
    /// `actions`.
    AskReview {
        node: String,
        input: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        actions: Vec<String>,
    },
    /// Wait, then feed [`Observation::Waited`]: the engine never sleeps itself.
    Wait { node: String, ms: u64 },
    /// The run finished with this output (seed: `complete_task`).
    Complete { output: Value },
    /// The run refuses to give output: these obligations are unmet.
    Refuse { unmet: Vec<Unmet> },
    /// The run failed.
    Fail { error: String },
}

impl ActionKind {
    /// The node the action concerns, if one.
    pub fn node(&self) -> Option<&str> {
        match self {
            ActionKind::CallModel { node, .. }
            | ActionKind::CallTool { node, .. }
            | ActionKind::AskReview { node, .. }
            | ActionKind::Wait { node, .. } => Some(node),
            _ => None,
        }
    }

    /// The run is over.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            ActionKind::Complete { .. } | ActionKind::Refuse { .. } | ActionKind::Fail { .. }
        )
    }
}

/// An obligation the run could not discharge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unmet {
    pub node: String,
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub reason: String,
}

/// Token counts a provider reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Why a model call failed. `kind` names the error class that `retry.non_retryable_errors`
/// lists (`Timeout`, `RateLimitError`, `AuthenticationError`, `ServerError`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFailure {
    pub kind: String,
    pub message: String,
    /// Whether trying again may help (a timeout, a 429, a 5xx); a non-retryable kind in the
    /// document overrides it.
    pub retryable: bool,
    /// The server's `Retry-After`, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

/// A tool's answer to a verification rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub passed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
    /// The checker could not tell (offline, no facts): a failure under `block`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unverifiable: bool,
}

/// What happened when the driver carried out an action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "observation", rename_all = "snake_case")]
pub enum Observation {
    ModelResponse {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        latency_ms: Option<u64>,
    },
    ModelError(ModelFailure),
    ToolResult(Verdict),
    ReviewAnswer {
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Waited,
}

impl Observation {
    pub fn text(text: impl Into<String>) -> Observation {
        Observation::ModelResponse {
            text: text.into(),
            usage: None,
            latency_ms: None,
        }
    }

    /// The action kinds this observation answers.
    pub(crate) fn answers(&self, action: &ActionKind) -> bool {
        matches!(
            (self, action),
            (
                Observation::ModelResponse { .. } | Observation::ModelError(_),
                ActionKind::CallModel { .. }
            ) | (Observation::ToolResult(_), ActionKind::CallTool { .. })
                | (
                    Observation::ReviewAnswer { .. },
                    ActionKind::AskReview { .. }
                )
                | (Observation::Waited, ActionKind::Wait { .. })
        )
    }
}

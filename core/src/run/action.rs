//! What the engine asks its driver to do ([`Action`]) and what the driver tells it back
//! ([`Observation`]). Plain data, serialisable, so the CLI, the npm package and the studio drive
//! the same engine (logic-engine-v2-design §3.4: structured actions, not strings).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One thing for the driver to do. `id` is unique within a run; feed the result back under it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// The action's id, unique within the run: the key to feed its observation back under.
    pub id: String,
    /// What to do; serialised inline, tagged by `action`.
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// A chat message of a model request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The message text.
    pub content: String,
}

impl Message {
    /// A message with role `user`.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: "user".to_owned(),
            content: content.into(),
        }
    }

    /// A message with role `assistant`.
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
    /// The system prompt: the compiled scaffold of the step or node.
    pub system: String,
    /// The conversation after the system prompt, oldest first.
    pub messages: Vec<Message>,
    /// The JSON Schema the answer must satisfy, when the step promises structured output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
    /// Sampling temperature the document asks for; `None` leaves the provider's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Upper bound on the answer's tokens the document asks for; `None` leaves the provider's
    /// default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Tool names the document allows the model to use (`allowed_tools`); empty means none are
    /// named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    /// A model named by the document (DRTL `model`), for providers that route by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The answer must be JSON (a `response_schema`, or DRTL `output_format: json`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub json: bool,
}

/// The kinds of [`Action`]: serialised with an `action` tag in snake_case (`call_model`,
/// `call_tool`, `ask_review`, `wait`, `complete`, `refuse`, `fail`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ActionKind {
    /// Call a model. `timeout_ms` is the step's `timeout`: past it, feed a `timeout` failure.
    CallModel {
        /// The step or node the call is for.
        node: String,
        /// Which model call this is for the node's current run, counted from 1 across answers and
        /// self-verification.
        attempt: u32,
        /// What to send.
        request: ModelRequest,
        /// The step's timeout in milliseconds, if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u64>,
    },
    /// Run a tool (seed: `execute_tool`): a verification rule that needs the world, named by its
    /// rule id, with the target and the values to check; answer with a [`Verdict`].
    CallTool {
        /// The node whose verification needs the tool.
        node: String,
        /// The tool to run: the verification rule's id.
        name: String,
        /// The target and the values the tool checks, as JSON.
        arguments: Value,
    },
    /// Ask a person or system to decide (seed: `ask_user`; DRTL `review`): answer with one of
    /// `actions`.
    AskReview {
        /// The review node asking.
        node: String,
        /// What the reviewer decides on (the node's input).
        input: Value,
        /// The prompt to show the reviewer, if the document gives one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        /// The answers allowed; feed back one of them in [`Observation::ReviewAnswer`].
        actions: Vec<String>,
    },
    /// Wait, then feed [`Observation::Waited`]: the engine never sleeps itself.
    Wait {
        /// The node that waits (a retry's backoff, a `Retry-After`).
        node: String,
        /// How long to wait, in milliseconds.
        ms: u64,
    },
    /// The run finished with this output (seed: `complete_task`).
    Complete {
        /// The run's final output.
        output: Value,
    },
    /// The run refuses to give output: these obligations are unmet.
    Refuse {
        /// The obligations that stop it, at least one.
        unmet: Vec<Unmet>,
    },
    /// The run failed.
    Fail {
        /// Why the run failed, for a person to read.
        error: String,
    },
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
    /// The node the obligation belongs to.
    pub node: String,
    /// The rule id that failed.
    pub rule: String,
    /// What the rule was applied to, when it names a target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Why the obligation is still open, for a person to read.
    pub reason: String,
}

/// Token counts (and the cost, when known) a provider reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens sent to the model (the prompt).
    pub input_tokens: u64,
    /// Tokens the model produced (the answer).
    pub output_tokens: u64,
    /// What the call cost, in the unit of the document's `global.max_total_cost` (USD), as the
    /// provider reports it (OpenRouter's and LiteLLM's `usage.cost`) or the driver prices it;
    /// `None` when nobody knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

/// Why a model call failed. `kind` names the error class that `retry.non_retryable_errors`
/// lists (`Timeout`, `RateLimitError`, `AuthenticationError`, `ServerError`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFailure {
    /// The error class (see the type's docs); matched against the document's retry lists.
    pub kind: String,
    /// What went wrong, for a person to read; never holds a secret.
    pub message: String,
    /// Whether trying again may help (a timeout, a 429, a 5xx); a non-retryable kind in the
    /// document overrides it.
    pub retryable: bool,
    /// The server's `Retry-After`, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

/// Who answered a model call, as the driver knows it: what a trace records so an export can
/// name the provider, the model asked and the model that answered, the response and the server
/// (OpenTelemetry's `gen_ai.provider.name`, `gen_ai.request.model`, `gen_ai.response.*`,
/// `server.*`). Every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Served {
    /// The provider, as OpenTelemetry's well-known `gen_ai.provider.name` values spell it
    /// (`openai`, `anthropic`, `gcp.gemini`, ...), or a custom name (`ollama`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The model the driver asked for (the document's, or the one the user chose, `--model`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_model: Option<String>,
    /// The model the server says answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_model: Option<String>,
    /// The server's id of the response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_id: Option<String>,
    /// Why the model stopped (`stop`, `length`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The server's host name or address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_address: Option<String>,
    /// The server's port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_port: Option<u16>,
}

/// A tool's answer to a verification rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Whether the rule holds for the target.
    pub passed: bool,
    /// What the tool saw, kept in the trace for a person to check.
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
    /// The model answered: feeds [`ActionKind::CallModel`].
    ModelResponse {
        /// The answer text as the model produced it (JSON text when the request asked for JSON).
        text: String,
        /// Token counts, when the provider reports them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
        /// How long the call took, in milliseconds, when the driver measured it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        latency_ms: Option<u64>,
        /// Who answered, when the driver knows (the provider, the model, the server).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        served: Option<Served>,
    },
    /// The model call failed: feeds [`ActionKind::CallModel`]; the engine retries or fails by the
    /// step's policy.
    ModelError(ModelFailure),
    /// The tool's verdict: feeds [`ActionKind::CallTool`].
    ToolResult(Verdict),
    /// The reviewer decided: feeds [`ActionKind::AskReview`].
    ReviewAnswer {
        /// One of the action's `actions`.
        action: String,
        /// The reviewer's comment, if any; the next model call of the node sees it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The wait is over: feeds [`ActionKind::Wait`].
    Waited,
}

impl Observation {
    /// A model answer with this text and no usage or latency.
    pub fn text(text: impl Into<String>) -> Observation {
        Observation::ModelResponse {
            text: text.into(),
            usage: None,
            latency_ms: None,
            served: None,
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

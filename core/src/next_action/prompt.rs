//! The prompt of a decision (design §3.3): the agent's role, the current goal, the tools with
//! their schemas, the conversation so far, the required JSON format; with a LOGIC.md document, its
//! reasoning configuration (strategy, gates, rules) as the compiler writes it.

use std::fmt::Write;

use serde_json::{json, Value};

use super::state::State;
use crate::run::{Message, ModelRequest};

/// The schema of one action form: `ask_user`, `complete_task`, or `execute_tool` of the tool
/// named `tool` (with that tool's parameter schema).
pub(crate) fn form(state: &State, action: &str, tool: Option<&str>) -> Option<Value> {
    match action {
        "execute_tool" => {
            let tool = state.tool(tool?)?;
            Some(json!({
                "type": "object",
                "required": ["action", "tool_name", "parameters"],
                "additionalProperties": false,
                "properties": {
                    "action": {"const": "execute_tool"},
                    "tool_name": {"const": tool.name},
                    "parameters": tool.schema()
                }
            }))
        }
        "ask_user" => Some(json!({
            "type": "object",
            "required": ["action", "question"],
            "additionalProperties": false,
            "properties": {"action": {"const": "ask_user"}, "question": {"type": "string", "minLength": 1}}
        })),
        "complete_task" => Some(json!({
            "type": "object",
            "required": ["action", "final_message"],
            "additionalProperties": false,
            "properties": {"action": {"const": "complete_task"}, "final_message": {"type": "string", "minLength": 1}}
        })),
        _ => None,
    }
}

/// The JSON Schema an answer must satisfy: a tool call of one of the state's tools (with its
/// parameters), a question, or the end of the task.
pub(crate) fn action_schema(state: &State) -> Value {
    let tools = state
        .available_tools
        .iter()
        .filter_map(|tool| form(state, "execute_tool", Some(&tool.name)));
    let others = ["ask_user", "complete_task"]
        .iter()
        .filter_map(|action| form(state, action, None));
    json!({ "oneOf": tools.chain(others).collect::<Vec<_>>() })
}

pub(crate) fn request(state: &State, spec: Option<&Value>) -> ModelRequest {
    let mut system = String::from(
        "You are an agent that decides the single next action towards the current task, based on the state below.\n\n",
    );
    if let Some(spec) = spec {
        let compiled = crate::compile::compile(spec).ok();
        if let Some(name) = spec.get("name").and_then(Value::as_str) {
            let _ = writeln!(system, "## Role: {name}\n");
        }
        if let Some(description) = spec.get("description").and_then(Value::as_str) {
            let _ = writeln!(system, "{}\n", description.trim());
        }
        if let Some(compiled) = compiled {
            system.push_str(&compiled.scaffold);
        }
    }
    system.push_str("## Current task\n\n");
    match &state.current_task {
        Value::Null => system.push_str("(none given)\n\n"),
        task => {
            let _ = writeln!(system, "```json\n{}\n```\n", pretty(task));
        }
    }
    system.push_str("## Available tools\n\n");
    if state.available_tools.is_empty() {
        system.push_str("(none: ask the user or complete the task)\n\n");
    }
    for tool in &state.available_tools {
        let _ = writeln!(
            system,
            "### `{}`\n\n{}\n\nParameters (JSON Schema):\n\n```json\n{}\n```\n",
            tool.name,
            if tool.description.is_empty() {
                "(no description)"
            } else {
                &tool.description
            },
            pretty(&tool.schema())
        );
    }
    system.push_str(
        "## Answer\n\nAnswer with exactly one JSON object and nothing else, one of:\n\
         - `{\"action\": \"execute_tool\", \"tool_name\": \"<a tool above>\", \"parameters\": {...}}`\n\
         - `{\"action\": \"ask_user\", \"question\": \"...\"}`\n\
         - `{\"action\": \"complete_task\", \"final_message\": \"...\"}`\n",
    );
    let mut messages: Vec<Message> = state
        .short_term_memory
        .iter()
        .map(|turn| {
            let role = match turn.get("role").and_then(Value::as_str) {
                Some("assistant") => "assistant",
                _ => "user",
            };
            let content = ["content", "action", "observation"]
                .iter()
                .find_map(|key| turn.get(*key).map(|v| (key, v)))
                .map(|(key, value)| match (key, value) {
                    (&"content", Value::String(s)) => s.clone(),
                    (key, Value::String(s)) => format!("{key}: {s}"),
                    (key, other) => format!("{key}: {other}"),
                })
                .unwrap_or_else(|| turn.to_string());
            Message {
                role: role.to_owned(),
                content,
            }
        })
        .collect();
    messages.push(Message::user(if state.user_input.is_empty() {
        "What is the next action?".to_owned()
    } else {
        state.user_input.clone()
    }));
    ModelRequest {
        system,
        messages,
        response_schema: Some(action_schema(state)),
        temperature: spec
            .and_then(|s| s.pointer("/reasoning/temperature"))
            .and_then(Value::as_f64),
        max_tokens: None,
        allowed_tools: state.tool_names().iter().map(|s| s.to_string()).collect(),
        model: None,
        json: true,
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

//! The seed's `state` dictionary (§3.2).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The seed's `state` dictionary (§3.2): everything the model decides the next action from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// What the user asked for; empty when absent.
    #[serde(default)]
    pub user_input: String,
    /// `{id, title, status}` in the seed; any JSON is shown as it is.
    #[serde(default)]
    pub current_task: Value,
    /// The tools the model may call; names must be unique.
    #[serde(default)]
    pub available_tools: Vec<Tool>,
    /// Earlier turns: `{role, content}`, `{role, action}`, `{role, observation}`.
    #[serde(default)]
    pub short_term_memory: Vec<Value>,
}

impl State {
    /// Reads a state from JSON: an object (§3.2's dictionary), not a list, a string or null,
    /// which serde would read as an empty state.
    pub fn from_json(value: Value) -> Result<State, String> {
        if !value.is_object() {
            let what = crate::json::kind_of(&value);
            return Err(format!(
                "the state is {what}; it is an object {{user_input, current_task, available_tools, short_term_memory}}"
            ));
        }
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// The tool's name, as the action names it.
    pub name: String,
    /// What the tool does, for the model; empty when absent.
    #[serde(default)]
    pub description: String,
    /// A JSON Schema of the parameters, or the seed's shorthand `{"name": "type"}`.
    #[serde(default)]
    pub parameters: Value,
}

impl Tool {
    /// The parameters as a JSON Schema: the shorthand `{"file_path": "string"}` means an object
    /// with those required properties of those types, and no others.
    pub fn schema(&self) -> Value {
        match &self.parameters {
            Value::Object(map) if map.contains_key("type") || map.contains_key("properties") => {
                self.parameters.clone()
            }
            Value::Object(map) => {
                let properties: Map<String, Value> = map
                    .iter()
                    .map(|(name, kind)| {
                        let kind = kind.as_str().unwrap_or("string");
                        (name.clone(), json!({ "type": kind }))
                    })
                    .collect();
                let required: Vec<&String> = map.keys().collect();
                json!({
                    "type": "object",
                    "properties": properties,
                    "required": required,
                    "additionalProperties": false
                })
            }
            _ => json!({ "type": "object" }),
        }
    }
}

const SHORTHAND_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

impl State {
    /// The tool named `name`, if the state offers one.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.available_tools.iter().find(|t| t.name == name)
    }

    /// The names of the state's tools, in order.
    pub fn tool_names(&self) -> Vec<&str> {
        self.available_tools
            .iter()
            .map(|t| t.name.as_str())
            .collect()
    }

    /// Tools named once, with parameters that are a schema or the shorthand of known types.
    pub fn check(&self) -> Result<(), Vec<String>> {
        let mut problems = Vec::new();
        for (i, tool) in self.available_tools.iter().enumerate() {
            if tool.name.trim().is_empty() {
                problems.push(format!("available_tools[{i}] has no name"));
            }
            if self.available_tools[..i]
                .iter()
                .any(|t| t.name == tool.name)
            {
                problems.push(format!("the tool `{}` is listed twice", tool.name));
            }
            match &tool.parameters {
                Value::Null => {}
                Value::Object(map) if map.contains_key("type") || map.contains_key("properties") => {
                    let unsupported = crate::schema::unsupported_keywords(&tool.parameters);
                    if !unsupported.is_empty() {
                        problems.push(format!(
                            "the parameters of `{}` use keywords this validator does not check: {}",
                            tool.name,
                            unsupported.join(", ")
                        ));
                    }
                }
                Value::Object(map) => {
                    for (name, kind) in map {
                        if !kind.as_str().is_some_and(|k| SHORTHAND_TYPES.contains(&k)) {
                            problems.push(format!(
                                "parameter `{name}` of `{}` has the type {kind}; expected one of {}",
                                tool.name,
                                SHORTHAND_TYPES.join(", ")
                            ));
                        }
                    }
                }
                other => problems.push(format!(
                    "the parameters of `{}` must be an object (a JSON Schema or {{\"name\": \"type\"}}), found {other}",
                    tool.name
                )),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

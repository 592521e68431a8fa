//! The tools: each a name, a description, an input schema read from its argument type, an
//! output schema read from its result type, and a function from the decoded arguments to the
//! result. A document with problems is a result (its diagnostics); misuse — arguments that do
//! not decode, a path outside the roots, an unknown step or rule — is a result with `isError`,
//! so the agent reads why and can correct itself.

use std::sync::{Arc, LazyLock};

use rmcp::handler::server::common::{schema_for_output, schema_for_type};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use super::roots::Roots;
use super::run::{self, LongContext};
use super::{documents, edit, rules, templates, trace};

/// A call the tool cannot serve as asked; the message says why and what to give instead.
#[derive(Debug)]
pub struct Misuse(pub String);

/// What a tool call sees of the server.
pub struct Context {
    pub roots: Roots,
}

type Call<C> = Box<dyn Fn(&C, JsonObject) -> Result<Value, Misuse> + Send + Sync>;

/// A tool, called with a context of type `C` (`Context` for the document tools, `LongContext`
/// for runs).
pub struct ToolDef<C = Context> {
    pub tool: Tool,
    call: Call<C>,
}

impl<C> ToolDef<C> {
    pub fn call(&self, context: &C, arguments: JsonObject) -> CallToolResult {
        match (self.call)(context, arguments) {
            Ok(value) => CallToolResult::structured(value),
            Err(Misuse(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
        }
    }
}

/// A read-only tool over `I` → `O`.
pub fn tool<C, I, O>(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    run: fn(&C, I) -> Result<O, Misuse>,
) -> ToolDef<C>
where
    C: 'static,
    I: DeserializeOwned + JsonSchema + 'static,
    O: Serialize + JsonSchema + 'static,
{
    let tool = Tool::new(name, description, portable(&schema_for_type::<I>(), false))
        .with_title(title)
        .with_raw_output_schema(portable(&schema_for_output::<O>(), true))
        .with_annotations(
            ToolAnnotations::with_title(title)
                .read_only(true)
                .destructive(false)
                .idempotent(true)
                .open_world(false),
        );
    let call: Call<C> = Box::new(move |context, arguments| {
        let input: I = serde_json::from_value(Value::Object(arguments))
            .map_err(|error| Misuse(format!("invalid arguments for `{name}`: {error}")))?;
        let output = run(context, input)?;
        serde_json::to_value(output)
            .map_err(|error| Misuse(format!("cannot write the result: {error}")))
    });
    ToolDef { tool, call }
}

/// `schema` in the single-`type` dialect every client maps (the Inspector's portability check):
/// schemars writes an `Option` as `"type": [T, "null"]`. An argument that may be left out is
/// just `T` (absent is how it is left out); a result's field that is left out when empty is `T`
/// too, and one written as `null` becomes `anyOf` of `T` and `null`. Rust's number formats go.
fn portable(schema: &Arc<JsonObject>, output: bool) -> Arc<JsonObject> {
    let mut value = Value::Object((**schema).clone());
    rewrite_nullable(&mut value, output);
    match value {
        Value::Object(object) => Arc::new(object),
        _ => Arc::clone(schema),
    }
}

const RUST_NUMBER_FORMATS: &[&str] = &[
    "uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64",
    "float", "double",
];

fn rewrite_nullable(node: &mut Value, output: bool) {
    match node {
        Value::Object(object) => {
            // schemars' Rust number formats (`uint32`, `double`) are no JSON Schema format:
            // validators warn about each.
            if object
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|format| RUST_NUMBER_FORMATS.contains(&format))
            {
                object.remove("format");
            }
            let required: Vec<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|names| {
                    names
                        .iter()
                        .filter_map(|n| n.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    let written_as_null = output && required.contains(name);
                    single_type(property, written_as_null);
                }
            }
            for child in object.values_mut() {
                rewrite_nullable(child, output);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rewrite_nullable(item, output)),
        _ => {}
    }
}

/// `{"type": [T, "null"], ...}` as `{"type": T, ...}`, or as `{"anyOf": [{"type": T, ...},
/// {"type": "null"}]}` when `null` is written.
fn single_type(property: &mut Value, written_as_null: bool) {
    let Some(Value::Array(types)) = property.get("type") else {
        return;
    };
    let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
    let [only] = kept.as_slice() else {
        return;
    };
    let only = only.clone();
    let Value::Object(object) = property else {
        return;
    };
    object.insert("type".into(), only);
    if written_as_null {
        let description = object.remove("description");
        let mut any_of = serde_json::Map::new();
        if let Some(description) = description {
            any_of.insert("description".into(), description);
        }
        let this = Value::Object(std::mem::take(object));
        any_of.insert("anyOf".into(), json!([this, { "type": "null" }]));
        *object = any_of;
    }
}

/// Every document tool, in the order `tools/list` gives them.
pub static TOOLS: LazyLock<Vec<ToolDef>> = LazyLock::new(|| {
    vec![
        documents::validate(),
        documents::lint(),
        documents::fmt(),
        edit::edit(),
        documents::compile_step(),
        documents::compile_workflow(),
        documents::graph(),
        documents::check(),
        trace::trace_check(),
        rules::explain_rule(),
        templates::init(),
        templates::list_templates(),
    ]
});

pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().find(|def| def.tool.name == name)
}

/// The tools that run documents: they take time, report progress and can be cancelled.
pub static LONG_TOOLS: LazyLock<Vec<ToolDef<LongContext>>> = LazyLock::new(|| {
    // They call models (the configured server, with `openai`), so they are neither read-only
    // in spirit nor idempotent; they write no file.
    let runs = |mut def: ToolDef<LongContext>| {
        def.tool.annotations = Some(
            ToolAnnotations::with_title(def.tool.title.clone().unwrap_or_default())
                .read_only(false)
                .destructive(false)
                .idempotent(false)
                .open_world(true),
        );
        def
    };
    vec![
        runs(tool(
            "run",
            "Run",
            "Run a LOGIC.md document or DRTL topology (as `logicmd run`): with `dry_run` \
             (synthetic answers), `scripted` (your answers), or `openai` (the server's configured \
             provider). Reports completed, refused (with the unmet obligations), failed, or paused \
             for a review (answer with `resume_run`). The trace's events come as progress \
             notifications; cancelling the request stops the run.",
            run::run,
        )),
        runs(tool(
            "resume_run",
            "Resume a run",
            "Answer the review a paused run waits for (one of its `actions`, with a note) and go \
             on running it.",
            run::resume,
        )),
        runs(tool(
            "next_action",
            "Next action",
            "Decide an agent's next action from its state (as `logicmd next-action`): \
             `execute_tool`, `ask_user` or `complete_task`, validated, asked again when invalid; \
             a LOGIC.md `spec` shapes the reasoning.",
            run::next_action,
        )),
    ]
});

pub fn find_long(name: &str) -> Option<&'static ToolDef<LongContext>> {
    LONG_TOOLS.iter().find(|def| def.tool.name == name)
}

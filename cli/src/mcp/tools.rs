//! The tools: each a name, a description, an input schema read from its argument type, an
//! output schema read from its result type, and a function from the decoded arguments to the
//! result. A document with problems is a result (its diagnostics); misuse — arguments that do
//! not decode, a path outside the roots, an unknown step or rule — is a result with `isError`,
//! so the agent reads why and can correct itself.

use std::sync::LazyLock;

use rmcp::handler::server::common::{schema_for_output, schema_for_type};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::roots::Roots;
use super::{documents, edit, rules, trace};

/// A call the tool cannot serve as asked; the message says why and what to give instead.
#[derive(Debug)]
pub struct Misuse(pub String);

/// What a tool call sees of the server.
pub struct Context {
    pub roots: Roots,
}

type Call = Box<dyn Fn(&Context, JsonObject) -> Result<Value, Misuse> + Send + Sync>;

pub struct ToolDef {
    pub tool: Tool,
    call: Call,
}

impl ToolDef {
    pub fn call(&self, context: &Context, arguments: JsonObject) -> CallToolResult {
        match (self.call)(context, arguments) {
            Ok(value) => CallToolResult::structured(value),
            Err(Misuse(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
        }
    }
}

/// A read-only tool over `I` → `O`.
pub fn tool<I, O>(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    run: fn(&Context, I) -> Result<O, Misuse>,
) -> ToolDef
where
    I: DeserializeOwned + JsonSchema + 'static,
    O: Serialize + JsonSchema + 'static,
{
    let tool = Tool::new(name, description, schema_for_type::<I>())
        .with_title(title)
        .with_raw_output_schema(schema_for_output::<O>())
        .with_annotations(
            ToolAnnotations::with_title(title)
                .read_only(true)
                .destructive(false)
                .idempotent(true)
                .open_world(false),
        );
    let call: Call = Box::new(move |context, arguments| {
        let input: I = serde_json::from_value(Value::Object(arguments))
            .map_err(|error| Misuse(format!("invalid arguments for `{name}`: {error}")))?;
        let output = run(context, input)?;
        serde_json::to_value(output)
            .map_err(|error| Misuse(format!("cannot write the result: {error}")))
    });
    ToolDef { tool, call }
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
    ]
});

pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().find(|def| def.tool.name == name)
}

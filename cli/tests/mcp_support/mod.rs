//! What the MCP tests share: the real `logicmd mcp` started under rmcp's client, tool calls,
//! and a check that a value has the shape a tool's output schema declares.

#![allow(dead_code)]

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};

pub type Client = RunningService<RoleClient, ()>;
/// A session whose client handler is `H` (to watch notifications).
pub type WatchedClient<H> = RunningService<RoleClient, H>;

/// `logicmd mcp ARGS...` over standard input/output, initialised.
pub async fn stdio(args: &[&str]) -> Client {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_logicmd")).configure(|command| {
            command.arg("mcp").args(args);
        }),
    )
    .expect("the server starts");
    ().serve(transport).await.expect("the session initialises")
}

pub fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("arguments must be an object, not {other}"),
    }
}

/// Calls `name` with `arguments`.
pub async fn call<H: rmcp::ClientHandler>(
    client: &WatchedClient<H>,
    name: &str,
    arguments: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(object(arguments)))
        .await
        .unwrap_or_else(|error| panic!("`{name}` answered with a protocol error: {error}"))
}

/// The structured result of a successful call (not `isError`), checked against the tool's
/// output schema.
pub async fn structured<H: rmcp::ClientHandler>(
    client: &WatchedClient<H>,
    name: &str,
    arguments: Value,
) -> Value {
    let result = call(client, name, arguments).await;
    assert_eq!(
        result.is_error,
        Some(false),
        "`{name}` failed: {:?}",
        result.content
    );
    let value = result
        .structured_content
        .unwrap_or_else(|| panic!("`{name}` has no structuredContent"));
    let tools = client.list_all_tools().await.expect("tools/list");
    let tool = tools.iter().find(|t| t.name == name).expect("listed");
    let schema = Value::Object((*tool.output_schema.clone().expect("output schema")).clone());
    let problems = shape_problems(&value, &schema, &schema, "");
    assert!(problems.is_empty(), "`{name}`: {problems:#?}\n{value:#}");
    value
}

/// The text of a call that failed as misuse (`isError`).
pub async fn misuse<H: rmcp::ClientHandler>(
    client: &WatchedClient<H>,
    name: &str,
    arguments: Value,
) -> String {
    let result = call(client, name, arguments).await;
    assert_eq!(
        result.is_error,
        Some(true),
        "`{name}` did not fail: {result:?}"
    );
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where `value` breaks `schema` (the JSON Schema subset schemars writes: types, properties,
/// required, additionalProperties false, items, enum, const, oneOf/anyOf, `$ref` to `$defs`).
pub fn shape_problems(value: &Value, schema: &Value, root: &Value, at: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(schema) = schema.as_object() else {
        return problems; // `true`: anything.
    };
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix("#/")
            .map(|path| {
                path.split('/')
                    .fold(root, |node, key| node.get(key).unwrap_or(&Value::Null))
            })
            .unwrap_or(&Value::Null);
        return shape_problems(value, target, root, at);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let fitting = options
                .iter()
                .filter(|option| shape_problems(value, option, root, at).is_empty())
                .count();
            let fits = if key == "oneOf" {
                fitting == 1
            } else {
                fitting >= 1
            };
            if !fits {
                problems.push(format!("{at}: {fitting} options of {key} fit"));
            }
        }
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(name) => vec![name.as_str()],
            Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !names.iter().any(|name| type_fits(value, name)) {
            problems.push(format!("{at}: {value} is not {names:?}"));
            return problems;
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        if !options.contains(value) {
            problems.push(format!("{at}: {value} is not one of {options:?}"));
        }
    }
    if let Some(constant) = schema.get("const") {
        if constant != value {
            problems.push(format!("{at}: {value} is not {constant}"));
        }
    }
    if let Value::Object(fields) = value {
        let properties = schema.get("properties").and_then(Value::as_object);
        for required in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = required.as_str().unwrap_or_default();
            if !fields.contains_key(name) {
                problems.push(format!("{at}: `{name}` is missing"));
            }
        }
        let empty = Map::new();
        for (name, field) in fields {
            match properties.unwrap_or(&empty).get(name) {
                Some(property) => problems.extend(shape_problems(
                    field,
                    property,
                    root,
                    &format!("{at}/{name}"),
                )),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    problems.push(format!("{at}: `{name}` is not declared"))
                }
                None => {}
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (value, schema.get("items")) {
        for (index, element) in items.iter().enumerate() {
            problems.extend(shape_problems(
                element,
                item,
                root,
                &format!("{at}/{index}"),
            ));
        }
    }
    problems
}

fn type_fits(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
        _ => true,
    }
}

/// `logicmd mcp --http 127.0.0.1:0 ARGS...` running; stopped when dropped.
pub struct HttpServer {
    pub url: String,
    _child: tokio::process::Child,
}

impl HttpServer {
    pub async fn start(args: &[&str], token: Option<&str>) -> HttpServer {
        use tokio::io::AsyncBufReadExt;
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_logicmd"));
        command
            .args(["mcp", "--http", "127.0.0.1:0"])
            .args(args)
            .env_remove("LOGICMD_MCP_TOKEN")
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        if let Some(token) = token {
            command.env("LOGICMD_MCP_TOKEN", token);
        }
        let mut child = command.spawn().expect("the server starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = tokio::io::BufReader::new(stderr).lines();
        let first = lines.next_line().await.ok().flatten().unwrap_or_default();
        let url = first
            .strip_prefix("logicmd mcp: listening on ")
            .unwrap_or_else(|| panic!("the server did not say where it listens: {first}"))
            .to_owned();
        HttpServer { url, _child: child }
    }

    /// A client session over Streamable HTTP, with `token` as its bearer token.
    pub async fn client(&self, token: Option<&str>) -> Client {
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        use rmcp::transport::StreamableHttpClientTransport;
        let mut config = StreamableHttpClientTransportConfig::with_uri(self.url.clone());
        if let Some(token) = token {
            config = config.auth_header(token);
        }
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await
            .expect("the session initialises")
    }

    /// The status of a bare `initialize` POST with these extra headers.
    pub async fn initialize_status(&self, headers: &[(&str, &str)]) -> u16 {
        let url = self.url.clone();
        let headers: Vec<(String, String)> = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        tokio::task::spawn_blocking(move || {
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into();
            let mut request = agent
                .post(&url)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
            for (name, value) in &headers {
                request = request.header(name, value);
            }
            let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}"#;
            request.send(body).map(|r| r.status().as_u16()).unwrap_or(0)
        })
        .await
        .unwrap()
    }
}

/// Starts a `run` of `document` on the server's provider (whose first answer takes a second and
/// whose second is ready), cancels it once `requests()` shows the first call arrived, and checks
/// that after the first answer nothing more is asked and that the server runs again.
pub async fn cancel_a_run<H: rmcp::ClientHandler>(
    client: &WatchedClient<H>,
    document: &str,
    requests: impl Fn() -> usize,
) {
    use rmcp::model::{ClientRequest, Request};
    use std::time::Duration;
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new("run").with_arguments(object(
                    serde_json::json!({ "text": document, "provider": "openai" }),
                )),
            )),
            rmcp::service::PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    // The run is under way once its model call has reached the provider.
    while requests() == 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle
        .cancel(Some("the user changed their mind".into()))
        .await
        .unwrap();
    // The server answers at once, and runs again.
    let report = structured(
        client,
        "run",
        serde_json::json!({ "text": document, "provider": "dry_run" }),
    )
    .await;
    assert_eq!(report["status"], "completed");
    // Past the first answer, a run still going would have asked for the second.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(requests(), 1, "the cancelled run asked nothing more");
}

//! A trace as OpenTelemetry spans in OTLP/JSON (`ExportTraceServiceRequest`), following the
//! GenAI semantic conventions (v1.41, development status): the run is an `invoke_workflow`
//! span, each node run an `invoke_agent` span inside it (a workflow step inside its node's),
//! each model call a `chat` span (`gen_ai.request.model`, `gen_ai.usage.*`), each tool verdict
//! an `execute_tool` span; gates, verifications, retries, reviews and validation are span
//! events of the node they concern.
//!
//! Everything is derived from the trace: the trace id hashes the run's `run_started` (kind,
//! input, plan), a span id hashes the trace id and the `seq` of the event that opened it, and
//! times are `base_time_ms + t`. The same trace gives the same bytes.

use rustc_hash::FxHashMap;
use serde_json::{json, Map, Value};

use super::check::View;

/// Choices the trace cannot make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    /// Unix time of the run's start, in milliseconds (0 when unknown).
    pub base_time_ms: u64,
    /// The resource's `service.name`.
    pub service_name: String,
    /// `gen_ai.workflow.name` of the run's span; the run's kind when absent.
    pub workflow_name: Option<String>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            base_time_ms: 0,
            service_name: "logicmd".to_owned(),
            workflow_name: None,
        }
    }
}

/// OTLP span kinds and status codes (opentelemetry/proto/trace/v1/trace.proto).
const KIND_INTERNAL: i64 = 1;
const KIND_CLIENT: i64 = 3;
const STATUS_UNSET: i64 = 0;
const STATUS_OK: i64 = 1;
const STATUS_ERROR: i64 = 2;

/// Fields every trace event has, not repeated as attributes.
const ENVELOPE: [&str; 4] = ["seq", "event", "t", "node"];

/// What a span stands for, part of its id.
#[derive(Clone, Copy)]
enum Role {
    Run = 0,
    Node = 1,
    Call = 2,
    Tool = 3,
}

struct SpanEvent {
    time_ms: u64,
    name: String,
    attributes: Vec<(String, Value)>,
}

struct Span {
    id: [u8; 8],
    parent: Option<usize>,
    name: String,
    kind: i64,
    start_ms: u64,
    end_ms: Option<u64>,
    attributes: Vec<(String, Value)>,
    events: Vec<SpanEvent>,
    status: (i64, String),
    input_tokens: u64,
    output_tokens: u64,
}

struct Builder<'a> {
    view: &'a View<'a>,
    options: &'a ExportOptions,
    trace_id: [u8; 16],
    spans: Vec<Span>,
    /// The running span of each node id.
    nodes: FxHashMap<&'a str, usize>,
    /// Model calls waiting for their answer: node, attempt, span.
    calls: Vec<(&'a str, Option<u64>, usize)>,
}

/// The trace as an OTLP/JSON `ExportTraceServiceRequest`.
pub fn export(events: &[Value], options: &ExportOptions) -> Value {
    let view = View::new(events);
    let mut builder = Builder {
        view: &view,
        options,
        trace_id: trace_id(events),
        spans: Vec::new(),
        nodes: FxHashMap::default(),
        calls: Vec::new(),
    };
    builder.root();
    for i in 0..events.len() {
        builder.event(i);
    }
    builder.close_all();
    builder.to_json()
}

/// FNV-1a, 64 bits, then the splitmix64 finaliser so that inputs differing in their last
/// bytes give ids that differ everywhere: stable across platforms and versions, unlike the
/// standard hasher.
fn fnv1a(bytes: &[u8], seed: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash ^= hash >> 30;
    hash = hash.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash ^= hash >> 27;
    hash = hash.wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

/// All-zero ids are invalid in OTLP.
fn nonzero<const N: usize>(mut id: [u8; N]) -> [u8; N] {
    if id.iter().all(|&b| b == 0) {
        id[N - 1] = 1;
    }
    id
}

fn trace_id(events: &[Value]) -> [u8; 16] {
    let started = events
        .iter()
        .find(|e| e.get("event").and_then(Value::as_str) == Some("run_started"))
        .or(events.first());
    let identity = started.map_or_else(String::new, |e| {
        json!([e.get("kind"), e.get("input"), e.get("plan")]).to_string()
    });
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&fnv1a(identity.as_bytes(), 0).to_be_bytes());
    id[8..].copy_from_slice(&fnv1a(identity.as_bytes(), 1).to_be_bytes());
    nonzero(id)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn nanos(ms: u64) -> String {
    ms.saturating_mul(1_000_000).to_string()
}

/// An attribute value as OTLP/JSON `AnyValue`; `None` for null. Integers are strings (int64
/// in proto3 JSON); nested values are their JSON text, which every backend can show.
fn any_value(value: &Value) -> Option<Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => json!({ "boolValue": b }),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => json!({ "intValue": i.to_string() }),
            (None, Some(f)) if n.is_f64() => json!({ "doubleValue": f }),
            _ => json!({ "stringValue": n.to_string() }),
        },
        Value::String(s) => json!({ "stringValue": s }),
        other => json!({ "stringValue": other.to_string() }),
    })
}

fn attributes(pairs: &[(String, Value)]) -> Value {
    Value::Array(
        pairs
            .iter()
            .filter_map(|(key, value)| Some(json!({"key": key, "value": any_value(value)?})))
            .collect(),
    )
}

fn pair(key: &str, value: impl Into<Value>) -> (String, Value) {
    (key.to_owned(), value.into())
}

impl<'a> Builder<'a> {
    fn time(&self, i: usize) -> u64 {
        let t = self.view.events[i]
            .get("t")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        self.options.base_time_ms.saturating_add(t)
    }

    fn end_time(&self) -> u64 {
        match self.view.len() {
            0 => self.options.base_time_ms,
            n => self.time(n - 1),
        }
    }

    /// A new span; `opened_by` identifies it within the trace (the opening event's `seq` and
    /// what the span is, see [`Builder::identity`]).
    fn open(
        &mut self,
        parent: Option<usize>,
        name: String,
        kind: i64,
        opened_by: u64,
        start_ms: u64,
    ) -> usize {
        let mut seed = self.trace_id.to_vec();
        seed.extend(opened_by.to_be_bytes());
        let id = nonzero(fnv1a(&seed, 2).to_be_bytes());
        self.spans.push(Span {
            id,
            parent,
            name,
            kind,
            start_ms,
            end_ms: None,
            attributes: Vec::new(),
            events: Vec::new(),
            status: (STATUS_UNSET, String::new()),
            input_tokens: 0,
            output_tokens: 0,
        });
        self.spans.len() - 1
    }

    /// What identifies a span opened by event `i`: the event's `seq` (else its position) and
    /// the span's role (a node's run, a model call, a tool call), as one number.
    fn identity(&self, i: usize, role: Role) -> u64 {
        let seq = self.view.events[i]
            .get("seq")
            .and_then(Value::as_u64)
            .unwrap_or(i as u64);
        seq.wrapping_mul(4).wrapping_add(role as u64)
    }

    fn root(&mut self) {
        let started = (0..self.view.len()).find(|&i| self.view.names[i] == "run_started");
        let kind = started
            .and_then(|i| self.view.text(i, "kind"))
            .unwrap_or("run");
        let name = self
            .options
            .workflow_name
            .clone()
            .unwrap_or_else(|| kind.to_owned());
        let start = started.map_or(self.options.base_time_ms, |i| self.time(i));
        let root = self.open(
            None,
            format!("invoke_workflow {name}"),
            KIND_INTERNAL,
            Role::Run as u64,
            start,
        );
        self.spans[root].attributes = vec![
            pair("gen_ai.operation.name", "invoke_workflow"),
            pair("gen_ai.workflow.name", name),
            pair("logicmd.run.kind", kind),
        ];
    }

    /// The span events about `node` belong to: its own while it runs, else the nearest running
    /// node it is part of, else the run's.
    fn span_of(&self, node: Option<&str>) -> usize {
        let Some(node) = node else {
            return 0;
        };
        if let Some(&span) = self.nodes.get(node) {
            return span;
        }
        node.char_indices()
            .rev()
            .filter(|&(_, c)| c == '/')
            .find_map(|(at, _)| self.nodes.get(&node[..at]).copied())
            .unwrap_or(0)
    }

    fn event(&mut self, i: usize) {
        let node = self.view.nodes[i];
        match (self.view.names[i], node) {
            ("run_started", _) => {}
            ("node_started", Some(node)) => self.node_started(i, node),
            ("node_finished", Some(node)) => self.node_finished(i, node),
            ("node_skipped", Some(node)) if self.nodes.contains_key(node) => {
                let span = self.close_node(i, node);
                self.spans[span]
                    .attributes
                    .push(pair("logicmd.node.status", "skipped"));
                self.annotate(span, i);
            }
            ("model_requested", _) => self.model_requested(i, node),
            ("model_responded", _) => self.model_responded(i, node),
            ("obligation_updated", _) => {
                self.annotate(self.span_of(node), i);
                if self.view.events[i].get("verdict").is_some() {
                    self.tool(i, node);
                }
            }
            ("run_finished", _) => self.run_finished(i),
            _ => self.annotate(self.span_of(node), i),
        }
    }

    /// Adds event `i` to `span` as a span event, its fields as attributes.
    fn annotate(&mut self, span: usize, i: usize) {
        let view = self.view;
        let event = &view.events[i];
        let mut fields: Vec<(String, Value)> = event
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| !ENVELOPE.contains(&key.as_str()))
            .map(|(key, value)| (format!("logicmd.{key}"), value.clone()))
            .collect();
        if let Some(node) = view.nodes[i] {
            fields.insert(0, pair("logicmd.node", node));
        }
        let time_ms = self.time(i);
        self.spans[span].events.push(SpanEvent {
            time_ms,
            name: view.names[i].to_owned(),
            attributes: fields,
        });
    }

    fn node_started(&mut self, i: usize, node: &'a str) {
        if self.nodes.contains_key(node) {
            self.close_node(i, node);
        }
        let parent = self.span_of(Some(node));
        let span = self.open(
            Some(parent),
            format!("invoke_agent {node}"),
            KIND_INTERNAL,
            self.identity(i, Role::Node),
            self.time(i),
        );
        self.spans[span].attributes = vec![
            pair("gen_ai.operation.name", "invoke_agent"),
            pair("gen_ai.agent.name", node),
        ];
        self.nodes.insert(node, span);
    }

    fn close_node(&mut self, i: usize, node: &str) -> usize {
        let span = self.nodes.remove(node).unwrap_or(0);
        self.close(span, self.time(i));
        span
    }

    fn close(&mut self, span: usize, end_ms: u64) {
        if self.spans[span].end_ms.is_some() {
            return;
        }
        self.spans[span].end_ms = Some(end_ms.max(self.spans[span].start_ms));
        let (input, output) = (
            self.spans[span].input_tokens,
            self.spans[span].output_tokens,
        );
        if input + output > 0 && self.spans[span].kind == KIND_INTERNAL {
            self.spans[span].attributes.extend([
                pair("gen_ai.usage.input_tokens", input),
                pair("gen_ai.usage.output_tokens", output),
            ]);
        }
        if let Some(parent) = self.spans[span].parent {
            self.spans[parent].input_tokens += input;
            self.spans[parent].output_tokens += output;
        }
    }

    fn node_finished(&mut self, i: usize, node: &'a str) {
        if !self.nodes.contains_key(node) {
            self.node_started(i, node);
        }
        let span = self.close_node(i, node);
        let view = self.view;
        let event = &view.events[i];
        let status = view.text(i, "status").unwrap_or("succeeded");
        let mut added = vec![pair("logicmd.node.status", status)];
        if let Some(duration) = event.get("duration_ms") {
            added.push(pair("logicmd.node.duration_ms", duration.clone()));
        }
        if let Some(to) = event.pointer("/route/to") {
            added.push(pair("logicmd.node.route", to.clone()));
        }
        self.spans[span].attributes.extend(added);
        if status == "failed" {
            let error = view.text(i, "error").unwrap_or("failed").to_owned();
            self.spans[span].status = (STATUS_ERROR, error);
        }
    }

    fn model_requested(&mut self, i: usize, node: Option<&'a str>) {
        let view = self.view;
        let event = &view.events[i];
        let request = event.get("request").unwrap_or(&Value::Null);
        let model = request.get("model").and_then(Value::as_str);
        let name = model.map_or_else(|| "chat".to_owned(), |m| format!("chat {m}"));
        let parent = self.span_of(node);
        let span = self.open(
            Some(parent),
            name,
            KIND_CLIENT,
            self.identity(i, Role::Call),
            self.time(i),
        );
        let mut attributes = vec![pair("gen_ai.operation.name", "chat")];
        if let Some(model) = model {
            attributes.push(pair("gen_ai.request.model", model));
            if let Some((provider, _)) = model.split_once('/') {
                attributes.push(pair("gen_ai.provider.name", provider));
            }
        }
        for (key, field) in [
            ("gen_ai.request.temperature", "temperature"),
            ("gen_ai.request.max_tokens", "max_tokens"),
        ] {
            if let Some(value) = request.get(field) {
                attributes.push(pair(key, value.clone()));
            }
        }
        if request.get("json").and_then(Value::as_bool) == Some(true) {
            attributes.push(pair("gen_ai.output.type", "json"));
        }
        for field in ["action", "attempt", "purpose"] {
            if let Some(value) = event.get(field) {
                attributes.push((format!("logicmd.{field}"), value.clone()));
            }
        }
        self.spans[span].attributes = attributes;
        let attempt = event.get("attempt").and_then(Value::as_u64);
        self.calls.push((node.unwrap_or(""), attempt, span));
    }

    fn model_responded(&mut self, i: usize, node: Option<&'a str>) {
        let view = self.view;
        let event = &view.events[i];
        let node = node.unwrap_or("");
        let attempt = event.get("attempt").and_then(Value::as_u64);
        let found = self
            .calls
            .iter()
            .position(|(n, a, _)| *n == node && *a == attempt)
            .or_else(|| self.calls.iter().position(|(n, _, _)| *n == node));
        let Some(found) = found else {
            self.annotate(self.span_of(Some(node)), i);
            return;
        };
        let (_, _, span) = self.calls.remove(found);
        let usage = |key: &str| {
            event
                .pointer(&format!("/usage/{key}"))
                .and_then(Value::as_u64)
        };
        let mut added = Vec::new();
        if let (Some(input), Some(output)) = (usage("input_tokens"), usage("output_tokens")) {
            added.push(pair("gen_ai.usage.input_tokens", input));
            added.push(pair("gen_ai.usage.output_tokens", output));
            self.spans[span].input_tokens = input;
            self.spans[span].output_tokens = output;
        }
        if let Some(latency) = event.get("latency_ms") {
            added.push(pair("logicmd.latency_ms", latency.clone()));
        }
        if let Some(error) = event.get("error") {
            let kind = error
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("_OTHER");
            added.push(pair("error.type", kind));
            let message = error.get("message").and_then(Value::as_str).unwrap_or(kind);
            self.spans[span].status = (STATUS_ERROR, message.to_owned());
        }
        self.spans[span].attributes.extend(added);
        self.close(span, self.time(i));
    }

    /// A tool's verdict on a verification rule: the call ran from the node's start (tools of a
    /// verify node run side by side) to the verdict.
    fn tool(&mut self, i: usize, node: Option<&'a str>) {
        let view = self.view;
        let event = &view.events[i];
        let rule = view.text(i, "rule").unwrap_or("tool");
        let parent = self.span_of(node);
        let start = if parent == 0 {
            self.time(i)
        } else {
            self.spans[parent].start_ms
        };
        let span = self.open(
            Some(parent),
            format!("execute_tool {rule}"),
            KIND_INTERNAL,
            self.identity(i, Role::Tool),
            start,
        );
        let mut attributes = vec![
            pair("gen_ai.operation.name", "execute_tool"),
            pair("gen_ai.tool.name", rule),
        ];
        for field in ["target", "mode", "status"] {
            if let Some(value) = event.get(field) {
                attributes.push((format!("logicmd.obligation.{field}"), value.clone()));
            }
        }
        if let Some(passed) = event.pointer("/verdict/passed") {
            attributes.push(pair("logicmd.verdict.passed", passed.clone()));
        }
        self.spans[span].attributes = attributes;
        self.close(span, self.time(i));
    }

    fn run_finished(&mut self, i: usize) {
        let status = self.view.text(i, "status").unwrap_or("completed");
        self.spans[0]
            .attributes
            .push(pair("logicmd.run.status", status));
        self.spans[0].status = match status {
            "completed" => (STATUS_OK, String::new()),
            "refused" => (STATUS_ERROR, "refused: obligations unmet".to_owned()),
            _ => (
                STATUS_ERROR,
                self.view.text(i, "error").unwrap_or(status).to_owned(),
            ),
        };
        self.annotate(0, i);
        self.close_all_at(self.time(i));
    }

    fn close_all(&mut self) {
        if self.spans[0].end_ms.is_none() {
            let paused = super::builtins::paused(self.view);
            self.spans[0].attributes.push(pair(
                "logicmd.run.status",
                if paused { "paused" } else { "unfinished" },
            ));
        }
        self.close_all_at(self.end_time());
    }

    /// Ends every open span, innermost first (so token counts reach their parents).
    fn close_all_at(&mut self, end_ms: u64) {
        for span in (0..self.spans.len()).rev() {
            self.close(span, end_ms);
        }
        self.nodes.clear();
        self.calls.clear();
    }

    fn to_json(&self) -> Value {
        let trace_id = hex(&self.trace_id);
        let spans: Vec<Value> = self
            .spans
            .iter()
            .map(|span| {
                let mut out = Map::new();
                out.insert("traceId".into(), trace_id.clone().into());
                out.insert("spanId".into(), hex(&span.id).into());
                if let Some(parent) = span.parent {
                    out.insert("parentSpanId".into(), hex(&self.spans[parent].id).into());
                }
                out.insert("name".into(), span.name.clone().into());
                out.insert("kind".into(), span.kind.into());
                out.insert("startTimeUnixNano".into(), nanos(span.start_ms).into());
                let end = span.end_ms.unwrap_or(span.start_ms);
                out.insert("endTimeUnixNano".into(), nanos(end).into());
                out.insert("attributes".into(), attributes(&span.attributes));
                let events: Vec<Value> = span
                    .events
                    .iter()
                    .map(|e| {
                        json!({
                            "timeUnixNano": nanos(e.time_ms),
                            "name": e.name,
                            "attributes": attributes(&e.attributes),
                        })
                    })
                    .collect();
                out.insert("events".into(), Value::Array(events));
                let mut status = Map::new();
                status.insert("code".into(), span.status.0.into());
                if !span.status.1.is_empty() {
                    status.insert("message".into(), span.status.1.clone().into());
                }
                out.insert("status".into(), Value::Object(status));
                Value::Object(out)
            })
            .collect();
        json!({
            "resourceSpans": [{
                "resource": {
                    "attributes": attributes(&[pair("service.name", self.options.service_name.clone())]),
                },
                "scopeSpans": [{
                    "scope": {"name": "logicmd", "version": env!("CARGO_PKG_VERSION")},
                    "spans": spans,
                }],
            }]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(exported: &Value) -> &Vec<Value> {
        exported["resourceSpans"][0]["scopeSpans"][0]["spans"]
            .as_array()
            .unwrap()
    }

    fn attribute<'v>(span: &'v Value, key: &str) -> Option<&'v Value> {
        span["attributes"]
            .as_array()?
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| &a["value"])
    }

    fn run() -> Vec<Value> {
        vec![
            json!({"seq": 0, "event": "run_started", "t": 0, "kind": "workflow", "input": {"q": 1}, "plan": {"nodes": []}}),
            json!({"seq": 1, "event": "node_started", "t": 0, "node": "w"}),
            json!({"seq": 2, "event": "node_started", "t": 0, "node": "w/s"}),
            json!({"seq": 3, "event": "model_requested", "t": 0, "node": "w/s", "action": "a1", "attempt": 1, "request": {"system": "", "messages": [], "model": "anthropic/claude", "temperature": 0.2, "json": true}}),
            json!({"seq": 4, "event": "model_responded", "t": 120, "node": "w/s", "attempt": 1, "text": "{}", "usage": {"input_tokens": 10, "output_tokens": 5}, "latency_ms": 120}),
            json!({"seq": 5, "event": "gate_evaluated", "t": 120, "node": "w/s", "gate": "verification", "check": "{{ true }}", "passed": true}),
            json!({"seq": 6, "event": "node_finished", "t": 121, "node": "w/s", "status": "succeeded", "output": {}}),
            json!({"seq": 7, "event": "obligation_updated", "t": 130, "node": "w", "rule": "std.check_links", "mode": "block", "status": "satisfied", "verdict": {"passed": true}}),
            json!({"seq": 8, "event": "node_finished", "t": 140, "node": "w", "status": "failed", "error": "boom"}),
            json!({"seq": 9, "event": "run_finished", "t": 150, "status": "failed", "error": "boom"}),
        ]
    }

    #[test]
    fn spans_nest_run_node_step_call_and_tool() {
        let exported = export(
            &run(),
            &ExportOptions {
                base_time_ms: 1_000,
                ..Default::default()
            },
        );
        let spans = spans(&exported);
        let names: Vec<&str> = spans.iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "invoke_workflow workflow",
                "invoke_agent w",
                "invoke_agent w/s",
                "chat anthropic/claude",
                "execute_tool std.check_links"
            ]
        );
        let id = |i: usize| spans[i]["spanId"].as_str().unwrap();
        let parent = |i: usize| spans[i]["parentSpanId"].as_str();
        assert_eq!(parent(0), None);
        assert_eq!(parent(1), Some(id(0)));
        assert_eq!(parent(2), Some(id(1)));
        assert_eq!(parent(3), Some(id(2)));
        assert_eq!(parent(4), Some(id(1)));
        assert_eq!(spans[3]["kind"], KIND_CLIENT);
        assert_eq!(spans[3]["startTimeUnixNano"], "1000000000");
        assert_eq!(spans[3]["endTimeUnixNano"], "1120000000");
        assert_eq!(
            attribute(&spans[3], "gen_ai.usage.input_tokens"),
            Some(&json!({"intValue": "10"}))
        );
        assert_eq!(
            attribute(&spans[3], "gen_ai.provider.name"),
            Some(&json!({"stringValue": "anthropic"}))
        );
        assert_eq!(
            attribute(&spans[3], "gen_ai.request.temperature"),
            Some(&json!({"doubleValue": 0.2}))
        );
        // Token usage adds up to the node and the run.
        assert_eq!(
            attribute(&spans[1], "gen_ai.usage.output_tokens"),
            Some(&json!({"intValue": "5"}))
        );
        assert_eq!(
            attribute(&spans[0], "gen_ai.usage.input_tokens"),
            Some(&json!({"intValue": "10"}))
        );
        assert_eq!(spans[2]["events"][0]["name"], "gate_evaluated");
        assert_eq!(
            spans[1]["status"],
            json!({"code": STATUS_ERROR, "message": "boom"})
        );
        assert_eq!(
            spans[0]["status"],
            json!({"code": STATUS_ERROR, "message": "boom"})
        );
        assert_eq!(spans[4]["startTimeUnixNano"], "1000000000");
        assert_eq!(spans[0]["traceId"].as_str().unwrap().len(), 32);
        assert_eq!(id(0).len(), 16);
    }

    #[test]
    fn ids_are_stable_and_differ_between_runs() {
        let a = export(&run(), &ExportOptions::default());
        assert_eq!(a, export(&run(), &ExportOptions::default()));
        let mut other = run();
        other[0]["input"] = json!({"q": 2});
        let b = export(&other, &ExportOptions::default());
        assert_ne!(spans(&a)[0]["traceId"], spans(&b)[0]["traceId"]);
        let ids: std::collections::BTreeSet<&str> = spans(&a)
            .iter()
            .map(|s| s["spanId"].as_str().unwrap())
            .collect();
        assert_eq!(ids.len(), spans(&a).len());
    }

    #[test]
    fn a_paused_or_cut_trace_ends_its_spans_at_the_last_event() {
        let mut events = run();
        events.truncate(3);
        events.push(json!({"seq": 3, "event": "review_requested", "t": 40, "node": "w/s", "actions": ["accept"]}));
        let exported = export(&events, &ExportOptions::default());
        let spans = spans(&exported);
        assert!(spans.iter().all(|s| s["endTimeUnixNano"] == "40000000"));
        assert_eq!(
            attribute(&spans[0], "logicmd.run.status"),
            Some(&json!({"stringValue": "paused"}))
        );
        assert_eq!(spans[2]["events"][0]["name"], "review_requested");
        events.pop();
        let cut = export(&events, &ExportOptions::default());
        assert_eq!(
            attribute(&super::tests::spans(&cut)[0], "logicmd.run.status"),
            Some(&json!({"stringValue": "unfinished"}))
        );
        assert_eq!(
            export(&[], &ExportOptions::default())["resourceSpans"][0]["scopeSpans"][0]["spans"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }
}

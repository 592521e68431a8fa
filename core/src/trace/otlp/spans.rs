//! The spans of a trace, built in one pass over its events (see the module above).

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::{fnv1a, nonzero, ExportOptions};
use crate::run::openai::provider_of_model;
use crate::run::Served;
use crate::trace::check::View;
use crate::trace::EventKind;

/// OTLP span kinds and status codes (opentelemetry/proto/trace/v1/trace.proto).
pub(super) const KIND_INTERNAL: i64 = 1;
pub(super) const KIND_CLIENT: i64 = 3;
pub(super) const STATUS_UNSET: i64 = 0;
pub(super) const STATUS_OK: i64 = 1;
pub(super) const STATUS_ERROR: i64 = 2;

/// The provider when nothing names it (the conventions' fallback value).
const UNKNOWN_PROVIDER: &str = "_OTHER";

/// Fields every trace event has, not repeated as attributes.
const ENVELOPE: [&str; 4] = ["seq", "event", "t", "node"];

/// Plan kinds of the nodes that reason with a model: agents, in the conventions' sense.
const AGENT_KINDS: [&str; 5] = ["step", "node", "generate", "fan_out", "debate"];

/// What a span stands for, part of its id.
#[derive(Clone, Copy)]
enum Role {
    Run = 0,
    Node = 1,
    Call = 2,
    Tool = 3,
}

pub(super) struct SpanEvent {
    pub time_ms: u64,
    pub name: String,
    pub attributes: Vec<(String, Value)>,
}

pub(super) struct Span {
    pub id: [u8; 8],
    pub parent: Option<usize>,
    pub name: String,
    pub kind: i64,
    pub start_ms: u64,
    pub end_ms: Option<u64>,
    pub attributes: Vec<(String, Value)>,
    pub events: Vec<SpanEvent>,
    pub status: (i64, String),
    input_tokens: u64,
    output_tokens: u64,
    /// An `invoke_agent` span (its provider and model come from its calls).
    agent: bool,
    /// A node's id, for a span that may become an agent's (an `aggregate` asking a model).
    node: Option<String>,
    provider: Option<String>,
    model: Option<String>,
}

/// Who serves the run's calls by default: the first answer that said (a run has one provider),
/// for the calls that did not (an error, a paused call).
#[derive(Default)]
struct Serving {
    provider: Option<String>,
    model: Option<String>,
    server_address: Option<String>,
    server_port: Option<u16>,
}

pub(super) struct Builder<'a> {
    view: View<'a>,
    options: &'a ExportOptions,
    pub trace_id: [u8; 16],
    pub spans: Vec<Span>,
    /// The running span of each node id.
    nodes: FxHashMap<&'a str, usize>,
    /// Model calls waiting for their answer: node, attempt, span.
    calls: Vec<(&'a str, Option<u64>, usize)>,
    /// Each node's kind in the run's plan.
    kinds: FxHashMap<&'a str, &'a str>,
    serving: Serving,
    base_ms: u64,
}

/// A span attribute.
pub(super) fn pair(key: &str, value: impl Into<Value>) -> (String, Value) {
    (key.to_owned(), value.into())
}

impl<'a> Builder<'a> {
    pub fn new(events: &'a [Value], options: &'a ExportOptions, trace_id: [u8; 16]) -> Self {
        let view = View::new(events);
        let started = (0..view.len()).find(|&i| view.kinds[i] == EventKind::RunStarted);
        let kinds = started
            .and_then(|i| events[i].pointer("/plan/nodes"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|n| Some((n.get("id")?.as_str()?, n.get("kind")?.as_str()?)))
            .collect();
        let recorded_start = started.and_then(|i| events[i].get("start_ms")?.as_u64());
        Builder {
            serving: serving_of(events),
            base_ms: options.base_time_ms.or(recorded_start).unwrap_or(0),
            view,
            options,
            trace_id,
            spans: Vec::new(),
            nodes: FxHashMap::default(),
            calls: Vec::new(),
            kinds,
        }
    }

    pub fn build(&mut self) {
        self.root();
        for i in 0..self.view.len() {
            self.event(i);
        }
        self.close_all();
        self.name_providers();
    }

    fn time(&self, i: usize) -> u64 {
        let t = self.view.events[i]
            .get("t")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        self.base_ms.saturating_add(t)
    }

    fn end_time(&self) -> u64 {
        match self.view.len() {
            0 => self.base_ms,
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
        self.spans.push(Span {
            id: nonzero(fnv1a(&seed, 2).to_be_bytes()),
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
            agent: false,
            node: None,
            provider: None,
            model: None,
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
        let started = (0..self.view.len()).find(|&i| self.view.kinds[i] == EventKind::RunStarted);
        let kind = started
            .and_then(|i| self.view.text(i, "kind"))
            .unwrap_or("run");
        let name = self
            .options
            .workflow_name
            .clone()
            .or_else(|| {
                started
                    .and_then(|i| self.view.text(i, "name"))
                    .map(str::to_owned)
            })
            .unwrap_or_else(|| kind.to_owned());
        let start = started.map_or(self.base_ms, |i| self.time(i));
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
        match (self.view.kinds[i], node) {
            (EventKind::RunStarted, _) => {}
            (EventKind::NodeStarted, Some(node)) => self.node_started(i, node),
            (EventKind::NodeFinished, Some(node)) => self.node_finished(i, node),
            (EventKind::NodeSkipped, Some(node)) if self.nodes.contains_key(node) => {
                let span = self.close_node(i, node);
                self.spans[span]
                    .attributes
                    .push(pair("logicmd.node.status", "skipped"));
                self.annotate(span, i);
            }
            (EventKind::ModelRequested, _) => self.model_requested(i, node),
            (EventKind::ModelResponded, _) => self.model_responded(i, node),
            (EventKind::ObligationUpdated, _) => {
                self.annotate(self.span_of(node), i);
                if self.view.events[i].get("verdict").is_some() {
                    self.tool(i, node);
                }
            }
            (EventKind::RunFinished, _) => self.run_finished(i),
            _ => self.annotate(self.span_of(node), i),
        }
    }

    /// Adds event `i` to `span` as a span event, its fields as attributes.
    fn annotate(&mut self, span: usize, i: usize) {
        let event = &self.view.events[i];
        let mut fields: Vec<(String, Value)> = event
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| !ENVELOPE.contains(&key.as_str()))
            .map(|(key, value)| (format!("logicmd.{key}"), value.clone()))
            .collect();
        if let Some(node) = self.view.nodes[i] {
            fields.insert(0, pair("logicmd.node", node));
        }
        let time_ms = self.time(i);
        self.spans[span].events.push(SpanEvent {
            time_ms,
            name: self.view.names[i].to_owned(),
            attributes: fields,
        });
    }

    /// A node's run: an agent's when it reasons with a model, else a plain internal span
    /// named by its kind. Without a plan, every node counts as an agent.
    fn node_started(&mut self, i: usize, node: &'a str) {
        if self.nodes.contains_key(node) {
            self.close_node(i, node);
        }
        let parent = self.span_of(Some(node));
        let kind = self.kinds.get(node).copied();
        let agent = kind.is_none_or(|k| AGENT_KINDS.contains(&k));
        let label = match kind {
            Some("tree") => "decision_tree",
            Some(kind) => kind,
            None => "node",
        };
        let name = if agent {
            format!("invoke_agent {node}")
        } else {
            format!("{label} {node}")
        };
        let span = self.open(
            Some(parent),
            name,
            KIND_INTERNAL,
            self.identity(i, Role::Node),
            self.time(i),
        );
        self.spans[span].node = Some(node.to_owned());
        self.spans[span].attributes = vec![
            pair("logicmd.node.id", node),
            pair("logicmd.node.kind", label),
        ];
        if agent {
            self.make_agent(span);
        }
        self.nodes.insert(node, span);
    }

    /// Span `span` is an agent's: `invoke_agent {node}` with the conventions' attributes.
    fn make_agent(&mut self, span: usize) {
        let span = &mut self.spans[span];
        if span.agent {
            return;
        }
        let node = span.node.clone().unwrap_or_default();
        span.agent = true;
        span.name = format!("invoke_agent {node}");
        span.attributes.splice(
            0..0,
            [
                pair("gen_ai.operation.name", "invoke_agent"),
                pair("gen_ai.agent.name", node),
            ],
        );
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
        let event = &self.view.events[i];
        let status = self.view.text(i, "status").unwrap_or("succeeded");
        let mut added = vec![pair("logicmd.node.status", status)];
        if let Some(duration) = event.get("duration_ms") {
            added.push(pair("logicmd.node.duration_ms", duration.clone()));
        }
        if let Some(to) = event.pointer("/route/to") {
            added.push(pair("logicmd.node.route", to.clone()));
        }
        self.spans[span].attributes.extend(added);
        if status == "failed" {
            let error = self.view.text(i, "error").unwrap_or("failed").to_owned();
            self.spans[span].status = (STATUS_ERROR, error);
        }
    }

    fn model_requested(&mut self, i: usize, node: Option<&'a str>) {
        let event = &self.view.events[i];
        let request = event.get("request").unwrap_or(&Value::Null);
        let parent = self.span_of(node);
        // A node that asks a model reasons: an aggregate with a `model` is an agent.
        if self.spans[parent].node.is_some() {
            self.make_agent(parent);
        }
        let span = self.open(
            Some(parent),
            "chat".to_owned(),
            KIND_CLIENT,
            self.identity(i, Role::Call),
            self.time(i),
        );
        let mut attributes = vec![pair("gen_ai.operation.name", "chat")];
        for (key, field) in [
            ("gen_ai.request.temperature", "temperature"),
            ("gen_ai.request.max_tokens", "max_tokens"),
        ] {
            if let Some(value) = request.get(field) {
                attributes.push(pair(key, value.clone()));
            }
        }
        let json = request.get("json").and_then(Value::as_bool) == Some(true);
        attributes.push(pair(
            "gen_ai.output.type",
            if json { "json" } else { "text" },
        ));
        for field in ["action", "attempt", "purpose"] {
            if let Some(value) = event.get(field) {
                attributes.push((format!("logicmd.{field}"), value.clone()));
            }
        }
        let span_ref = &mut self.spans[span];
        span_ref.attributes = attributes;
        span_ref.model = request
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let attempt = event.get("attempt").and_then(Value::as_u64);
        self.calls.push((node.unwrap_or(""), attempt, span));
    }

    fn model_responded(&mut self, i: usize, node: Option<&'a str>) {
        let event = &self.view.events[i];
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
        let served: Served = event
            .get("served")
            .and_then(|s| serde_json::from_value(s.clone()).ok())
            .unwrap_or_default();
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
        if let Some(model) = &served.response_model {
            added.push(pair("gen_ai.response.model", model.clone()));
        }
        if let Some(id) = &served.response_id {
            added.push(pair("gen_ai.response.id", id.clone()));
        }
        if let Some(reason) = &served.finish_reason {
            added.push(pair("gen_ai.response.finish_reasons", vec![reason.clone()]));
        }
        if let Some(latency) = event.get("latency_ms").filter(|l| !l.is_null()) {
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
        self.name_call(span, &served);
        self.close(span, self.time(i));
    }

    /// A call's provider, model and server (what served it, else the document's `vendor/model`,
    /// else the run's serving), the span named by its model, and the enclosing agent told.
    fn name_call(&mut self, span: usize, served: &Served) {
        let model = self.spans[span]
            .model
            .clone()
            .or_else(|| served.request_model.clone())
            .or_else(|| self.serving.model.clone());
        let provider = served
            .provider
            .clone()
            .or_else(|| model.as_deref().and_then(provider_of_model))
            .or_else(|| self.serving.provider.clone())
            .unwrap_or_else(|| UNKNOWN_PROVIDER.to_owned());
        let address = served
            .server_address
            .clone()
            .or_else(|| self.serving.server_address.clone());
        let port = served.server_port.or(self.serving.server_port);
        let target = &mut self.spans[span];
        target.name = model
            .as_ref()
            .map_or_else(|| "chat".to_owned(), |m| format!("chat {m}"));
        let mut attributes = vec![pair("gen_ai.provider.name", provider.clone())];
        if let Some(model) = &model {
            attributes.push(pair("gen_ai.request.model", model.clone()));
        }
        if let Some(address) = address {
            attributes.push(pair("server.address", address));
            if let Some(port) = port {
                attributes.push(pair("server.port", port));
            }
        }
        target.attributes.splice(1..1, attributes);
        target.provider = Some(provider.clone());
        target.model = model.clone();
        // The first call's provider and model name the agent that made it.
        let mut parent = target.parent;
        while let Some(at) = parent {
            let agent = &mut self.spans[at];
            if agent.agent {
                agent.provider.get_or_insert(provider);
                if let Some(model) = model {
                    agent.model.get_or_insert(model);
                }
                break;
            }
            parent = agent.parent;
        }
    }

    /// A tool's verdict on a verification rule: the call ran from the node's start (tools of a
    /// verify node run side by side) to the verdict.
    fn tool(&mut self, i: usize, node: Option<&'a str>) {
        let event = &self.view.events[i];
        let rule = self.view.text(i, "rule").unwrap_or("tool");
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
        // The trace has no id of its own for the call: the verdict's place in it stands in.
        let seq = event.get("seq").and_then(Value::as_u64).unwrap_or(i as u64);
        let mut attributes = vec![
            pair("gen_ai.operation.name", "execute_tool"),
            pair("gen_ai.tool.name", rule),
            pair("gen_ai.tool.type", "extension"),
            pair(
                "gen_ai.tool.call.id",
                format!("{}:{rule}:{seq}", node.unwrap_or("run")),
            ),
        ];
        for field in ["target", "mode", "status"] {
            if let Some(value) = event.get(field) {
                attributes.push((format!("logicmd.obligation.{field}"), value.clone()));
            }
        }
        if let Some(passed) = event.pointer("/verdict/passed") {
            attributes.push(pair("logicmd.verdict.passed", passed.clone()));
        }
        if event.pointer("/verdict/unverifiable") == Some(&Value::Bool(true)) {
            attributes.push(pair("error.type", "unverifiable"));
            self.spans[span].status = (STATUS_ERROR, "the tool could not verify".to_owned());
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
        if status != "completed" {
            self.spans[0].attributes.push(pair("error.type", status));
        }
        self.annotate(0, i);
        self.close_all_at(self.time(i));
    }

    fn close_all(&mut self) {
        if self.spans[0].end_ms.is_none() {
            let paused = crate::trace::builtins::paused(&self.view);
            self.spans[0].attributes.push(pair(
                "logicmd.run.status",
                if paused { "paused" } else { "unfinished" },
            ));
        }
        self.close_all_at(self.end_time());
    }

    /// Ends every open span, innermost first (so token counts reach their parents); a call
    /// still waiting for its answer is named by what is known of it.
    fn close_all_at(&mut self, end_ms: u64) {
        for (_, _, span) in std::mem::take(&mut self.calls) {
            self.name_call(span, &Served::default());
        }
        for span in (0..self.spans.len()).rev() {
            self.close(span, end_ms);
        }
        self.nodes.clear();
    }

    /// Every agent span carries the provider (required) and the model its calls used; an agent
    /// that made none takes the run's serving.
    fn name_providers(&mut self) {
        for span in self.spans.iter_mut().filter(|s| s.agent) {
            let provider = span
                .provider
                .clone()
                .or_else(|| self.serving.provider.clone())
                .unwrap_or_else(|| UNKNOWN_PROVIDER.to_owned());
            let mut attributes = vec![pair("gen_ai.provider.name", provider)];
            if let Some(model) = span.model.clone().or_else(|| self.serving.model.clone()) {
                attributes.push(pair("gen_ai.request.model", model));
            }
            span.attributes.splice(2..2, attributes);
        }
    }
}

/// The serving of the first answer that says who served it.
fn serving_of(events: &[Value]) -> Serving {
    let served = events
        .iter()
        .filter(|e| EventKind::of_value(e) == EventKind::ModelResponded)
        .filter_map(|e| serde_json::from_value::<Served>(e.get("served")?.clone()).ok())
        .find(|s| s.provider.is_some() || s.request_model.is_some());
    let Some(served) = served else {
        return Serving::default();
    };
    Serving {
        provider: served
            .provider
            .or_else(|| served.request_model.as_deref().and_then(provider_of_model)),
        model: served.request_model,
        server_address: served.server_address,
        server_port: served.server_port,
    }
}

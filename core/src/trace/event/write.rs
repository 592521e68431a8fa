//! A record as its trace line, built by moving the event's fields into the JSON object: the
//! engine writes every event it emits, and going through serde's serializer would copy every
//! prompt and output a second time (a tenth of a run's time). The order and the omissions are
//! those serde's derive gives (`serde_json::to_value` of the event); the tests hold the two to
//! the same bytes on every event the scenarios emit.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{
    Event, Gate, ModelResponded, NodeFinished, ObligationUpdated, Participant, Record, Response,
    ReviewAnswered, Speaker,
};
use crate::run::ModelRequest;

/// A small typed value (a status, a verdict, usage) as JSON.
fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

struct Line(Map<String, Value>);

impl Line {
    fn put(&mut self, key: &str, value: impl Into<Value>) {
        self.0.insert(key.to_owned(), value.into());
    }

    fn some<T: Into<Value>>(&mut self, key: &str, value: Option<T>) {
        if let Some(value) = value {
            self.put(key, value);
        }
    }

    fn speaker(&mut self, speaker: Speaker) {
        self.some(
            "participant",
            speaker.participant.map(|p| match p {
                Participant::Index(i) => Value::from(i),
                Participant::Id(id) => Value::from(id),
            }),
        );
        self.some("round", speaker.round);
    }
}

impl Record {
    /// The record as the trace writes it: `seq`, `event`, `t`, `node`, then the event's fields
    /// (what [`Record::to_value`] gives, without copying the event's contents).
    pub fn into_value(self) -> Value {
        let mut fields = Line(Map::new());
        fields.put("seq", self.seq);
        fields.put("event", self.event.kind().name());
        fields.put("t", self.t);
        fields.some("node", self.node);
        write(self.event, &mut fields);
        Value::Object(fields.0)
    }
}

fn write(event: Event, out: &mut Line) {
    match event {
        Event::RunStarted {
            kind,
            name,
            input,
            plan,
            start_ms,
        } => {
            out.put("kind", kind);
            out.some("name", name);
            out.put("input", input);
            out.put("plan", plan);
            out.some("start_ms", start_ms);
        }
        Event::NodeStarted { inputs, injected } => {
            out.put("inputs", inputs);
            out.some("injected", injected);
        }
        Event::ModelRequested {
            action,
            attempt,
            purpose,
            request,
            speaker,
        } => {
            out.put("action", action);
            out.put("attempt", attempt);
            out.some("purpose", purpose);
            out.put("request", request_value(request));
            out.speaker(speaker);
        }
        Event::ModelResponded(ModelResponded {
            attempt,
            response,
            speaker,
        }) => {
            out.put("attempt", attempt);
            match response {
                Response::Answer {
                    text,
                    usage,
                    latency_ms,
                    served,
                } => {
                    out.put("text", text);
                    out.put("usage", json(&usage));
                    out.put("latency_ms", json(&latency_ms));
                    out.some("served", served.as_ref().map(json));
                }
                Response::Error { error } => out.put("error", json(&error)),
            }
            out.speaker(speaker);
        }
        Event::OutputValidated {
            attempt,
            output,
            contract_warnings,
            speaker,
        } => {
            out.put("attempt", attempt);
            out.put("output", output);
            out.some("contract_warnings", contract_warnings);
            out.speaker(speaker);
        }
        Event::OutputInvalid {
            attempt,
            errors,
            speaker,
        } => {
            out.put("attempt", attempt);
            out.put("errors", errors);
            out.speaker(speaker);
        }
        Event::Retried {
            attempt,
            wait_ms,
            reason,
            feedback,
            speaker,
        } => {
            out.put("attempt", attempt);
            out.put("wait_ms", wait_ms);
            out.put("reason", reason);
            out.some("feedback", feedback);
            out.speaker(speaker);
        }
        Event::GateEvaluated(gate) => write_gate(gate, out),
        Event::ObligationUpdated(ObligationUpdated {
            rule,
            target,
            mode,
            status,
            verdict,
            checked_by,
            evidence,
        }) => {
            out.put("rule", rule);
            out.put("target", target);
            out.put("mode", mode.name());
            out.put("status", status.name());
            out.some("verdict", verdict.as_ref().map(json));
            out.some("checked_by", checked_by);
            out.put("evidence", evidence);
        }
        Event::ReviewRequested {
            message,
            actions,
            input,
        } => {
            out.put("message", message);
            out.put("actions", actions);
            out.put("input", input);
        }
        Event::ReviewAnswered(ReviewAnswered {
            action,
            note,
            accepted,
            error,
        }) => {
            out.put("action", action);
            out.put("note", note);
            out.some("accepted", accepted);
            out.some("error", error);
        }
        Event::NodeSkipped { reason } => out.put("reason", reason),
        Event::NodeFinished(NodeFinished {
            status,
            output,
            error,
            duration_ms,
            calls,
            next,
            pinned,
            route,
        }) => {
            out.put("status", json(&status));
            out.some("output", output);
            out.some("error", error);
            out.some("duration_ms", duration_ms);
            out.some("calls", calls);
            out.some("next", next);
            out.some("pinned", pinned.then_some(true));
            out.some("route", route.as_ref().map(json));
        }
        Event::Refused { unmet } => out.put("unmet", json(&unmet)),
        Event::RunFinished {
            status,
            output,
            error,
        } => {
            out.put("status", json(&status));
            out.some("output", output);
            out.some("error", error);
        }
    }
}

fn write_gate(gate: Gate, out: &mut Line) {
    out.some("gate", gate.gate);
    out.some("condition", gate.condition);
    out.some("kind", gate.kind);
    out.some("edge", gate.edge);
    out.some("round", gate.round);
    out.some("path", gate.path);
    out.some("reached", gate.reached);
    out.some("action", gate.action);
    out.some("check", gate.check);
    out.some("severity", gate.severity.as_ref().map(json));
    out.put("passed", gate.passed);
    out.some("detail", gate.detail);
    out.some("error", gate.error);
    out.some("errors", gate.errors);
    out.some("on_breach", gate.on_breach);
    out.some("supporters", gate.supporters);
}

/// A model request as JSON, its texts moved (the serialisation `ModelRequest` derives).
fn request_value(request: ModelRequest) -> Value {
    let mut fields = Line(Map::new());
    fields.put("system", request.system);
    let messages: Vec<Value> = request
        .messages
        .into_iter()
        .map(|m| {
            let mut message = Map::new();
            message.insert("role".to_owned(), m.role.into());
            message.insert("content".to_owned(), m.content.into());
            Value::Object(message)
        })
        .collect();
    fields.put("messages", messages);
    fields.some("response_schema", request.response_schema);
    fields.some("temperature", request.temperature);
    fields.some("max_tokens", request.max_tokens);
    if !request.allowed_tools.is_empty() {
        fields.put("allowed_tools", request.allowed_tools);
    }
    fields.some("model", request.model);
    if request.json {
        fields.put("json", true);
    }
    Value::Object(fields.0)
}

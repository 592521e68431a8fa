use serde_json::json;

use super::*;

/// The line serde's derive writes for a record: the envelope, then the event's fields in the
/// order the derive gives (what the hand-written [`Record::into_value`] must equal).
fn derived(record: &Record) -> Value {
    let Value::Object(fields) = serde_json::to_value(&record.event).unwrap() else {
        panic!("not an object")
    };
    let mut line = serde_json::Map::new();
    line.insert("seq".into(), record.seq.into());
    line.insert("event".into(), fields["event"].clone());
    line.insert("t".into(), record.t.into());
    if let Some(node) = &record.node {
        line.insert("node".into(), node.clone().into());
    }
    line.extend(fields.into_iter().filter(|(key, _)| key != "event"));
    Value::Object(line)
}

/// Reads a trace line and writes it again: the same text, key order included, by the
/// hand-written writer and by serde's derive alike.
fn round_trip(line: Value) {
    let record = Record::from_value(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    fields_agree(&line, &record);
    assert_eq!(derived(&record).to_string(), line.to_string(), "{record:?}");
    assert_eq!(
        record.into_value().to_string(),
        line.to_string(),
        "the writer"
    );
}

/// The fields read on their own ([`Record::fields`]) are the whole read's, for the kinds that
/// have them, and nothing for the others.
fn fields_agree(line: &Value, record: &Record) {
    fn read<T: Fields>(line: &Value) -> Option<(Option<String>, T)> {
        Record::fields(line)
    }
    let node = record.node.clone();
    assert_eq!(
        read::<ModelResponded>(line),
        match &record.event {
            Event::ModelResponded(fields) => Some((node.clone(), fields.clone())),
            _ => None,
        }
    );
    assert_eq!(
        read::<ObligationUpdated>(line),
        match &record.event {
            Event::ObligationUpdated(fields) => Some((node.clone(), fields.clone())),
            _ => None,
        }
    );
    assert_eq!(
        read::<ReviewAnswered>(line),
        match &record.event {
            Event::ReviewAnswered(fields) => Some((node.clone(), fields.clone())),
            _ => None,
        }
    );
    assert_eq!(
        read::<NodeFinished>(line),
        match &record.event {
            Event::NodeFinished(fields) => Some((node, fields.clone())),
            _ => None,
        }
    );
}

#[test]
fn every_shape_reads_and_writes_back_in_its_order() {
    round_trip(
        json!({"seq": 0, "event": "run_started", "t": 0, "kind": "logic", "input": {}, "plan": {"nodes": []}}),
    );
    round_trip(
        json!({"seq": 0, "event": "run_started", "t": 0, "kind": "drtl", "name": "fact check", "input": {}, "plan": {"nodes": []}, "start_ms": 1_767_225_600_000u64}),
    );
    round_trip(
        json!({"seq": 3, "event": "model_responded", "t": 5, "node": "a", "attempt": 1, "text": "x", "usage": {"input_tokens": 3, "output_tokens": 1, "cost": 0.002}, "latency_ms": 5, "served": {"provider": "openai", "request_model": "gpt-4o-mini", "response_model": "gpt-4o-mini-2024-07-18", "response_id": "chatcmpl-1", "finish_reason": "stop", "server_address": "api.openai.com", "server_port": 443}}),
    );
    round_trip(
        json!({"seq": 1, "event": "node_started", "t": 0, "node": "a", "inputs": null, "injected": {"x": 1}}),
    );
    round_trip(
        json!({"seq": 2, "event": "model_requested", "t": 0, "node": "d", "action": "a1", "attempt": 1, "request": {"system": "s", "messages": []}, "participant": "pro", "round": 2}),
    );
    round_trip(
        json!({"seq": 3, "event": "model_responded", "t": 5, "node": "f", "attempt": 1, "text": "x", "usage": null, "latency_ms": null, "participant": 0}),
    );
    round_trip(
        json!({"seq": 4, "event": "model_responded", "t": 5, "node": "a", "attempt": 2, "error": {"kind": "Timeout", "message": "slow", "retryable": true}}),
    );
    round_trip(
        json!({"seq": 5, "event": "gate_evaluated", "t": 5, "node": "g", "condition": "input.ok", "passed": false, "error": "no `ok`"}),
    );
    round_trip(
        json!({"seq": 6, "event": "gate_evaluated", "t": 5, "node": "a", "gate": "self_verification", "kind": "rubric", "passed": null, "error": "down"}),
    );
    round_trip(
        json!({"seq": 7, "event": "obligation_updated", "t": 5, "node": "v", "rule": "std.check_links", "target": null, "mode": "block", "status": "failed", "verdict": {"passed": false, "unverifiable": true}, "evidence": "unverifiable"}),
    );
    round_trip(
        json!({"seq": 8, "event": "review_answered", "t": 5, "node": "r", "action": "maybe", "note": null, "accepted": false, "error": "not an action"}),
    );
    round_trip(
        json!({"seq": 9, "event": "node_finished", "t": 5, "node": "a", "status": "succeeded", "output": null, "duration_ms": 5, "calls": 1, "pinned": true, "route": {"to": "b", "loop": true, "iteration": 1}}),
    );
    round_trip(
        json!({"seq": 10, "event": "refused", "t": 5, "unmet": [{"node": "v", "rule": "r", "reason": "failed"}]}),
    );
    round_trip(
        json!({"seq": 11, "event": "run_finished", "t": 5, "status": "failed", "error": "boom"}),
    );
}

#[test]
fn names_and_kinds_agree() {
    for kind in EventKind::ALL {
        assert_eq!(EventKind::of(kind.name()), kind);
    }
    assert_eq!(EventKind::of("custom"), EventKind::Other);
    let event = Event::skipped("why");
    let line = Record {
        seq: 0,
        t: 0,
        node: None,
        event: event.clone(),
    }
    .to_value();
    assert_eq!(EventKind::of_value(&line), event.kind());
    assert_eq!(line["event"], event.kind().name());
}

#[test]
fn what_does_not_fit_is_an_error_not_a_guess() {
    assert!(Record::from_value(&json!([1])).is_err());
    assert!(Record::from_value(&json!({"event": "node_finished", "status": "maybe"})).is_err());
    assert!(Record::from_value(&json!({"event": "custom"})).is_err());
    assert!(
        Record::from_value(&json!({"event": "node_skipped", "node": 3, "reason": "r"})).is_err()
    );
}

#[test]
fn fields_read_alone_refuse_what_the_whole_read_refuses() {
    let finished = |line: Value| Record::fields::<NodeFinished>(&line);
    assert_eq!(finished(json!([1])), None);
    assert_eq!(
        finished(json!({"event": "node_finished", "status": "maybe"})),
        None
    );
    assert_eq!(
        finished(json!({"event": "node_finished", "node": 3, "status": "failed"})),
        None
    );
    assert_eq!(
        finished(json!({"event": "node_skipped", "node": "a", "reason": "r"})),
        None
    );
    assert_eq!(
        finished(
            json!({"event": "node_finished", "node": "a", "status": "succeeded", "output": null})
        ),
        Some((
            Some("a".to_owned()),
            NodeFinished {
                status: NodeStatus::Succeeded,
                output: Some(Value::Null),
                error: None,
                duration_ms: None,
                calls: None,
                next: None,
                pinned: false,
                route: None,
            }
        ))
    );
}

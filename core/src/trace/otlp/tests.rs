use serde_json::{json, Value};

use super::spans::{KIND_CLIENT, STATUS_ERROR};
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
            base_time_ms: Some(1_000),
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
        attribute(&self::spans(&cut)[0], "logicmd.run.status"),
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

//! `logicmd trace export --format otlp-json` is OTLP/JSON a collector accepts: every scenario's
//! export decodes as an `ExportTraceServiceRequest` with the opentelemetry-proto crate's serde
//! types, loses nothing in decoding (re-encoding gives every field we wrote back), and forms one
//! well-built trace: one root, parents that exist, unique span ids, ends after starts, GenAI
//! operation names.

#[path = "trace/common.rs"]
mod common;

use std::collections::BTreeSet;

use common::{run_scenario, SCENARIOS};
use logicmd::trace::{export, ExportOptions};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use serde_json::Value;

/// Every field of `ours` is in `decoded` with the same value (arrays element by element).
fn contained(ours: &Value, decoded: &Value, at: &str) -> Result<(), String> {
    match (ours, decoded) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let other = b
                    .get(key)
                    .ok_or_else(|| format!("{at}/{key}: dropped in decoding"))?;
                contained(value, other, &format!("{at}/{key}"))?;
            }
            Ok(())
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .try_for_each(|(i, (x, y))| contained(x, y, &format!("{at}/{i}"))),
        _ if ours == decoded => Ok(()),
        _ => Err(format!("{at}: wrote {ours}, decoded as {decoded}")),
    }
}

fn decode(exported: &Value) -> ExportTraceServiceRequest {
    let request: ExportTraceServiceRequest =
        serde_json::from_value(exported.clone()).unwrap_or_else(|e| panic!("not OTLP/JSON: {e}"));
    let again = serde_json::to_value(&request).unwrap();
    contained(exported, &again, "").unwrap();
    request
}

#[test]
fn every_scenario_exports_as_one_well_built_otlp_trace() {
    let operations: BTreeSet<&str> = ["invoke_workflow", "invoke_agent", "chat", "execute_tool"]
        .into_iter()
        .collect();
    for scenario in SCENARIOS {
        let trace = run_scenario(scenario);
        let options = ExportOptions {
            base_time_ms: 1_767_225_600_000,
            ..ExportOptions::default()
        };
        let exported = export(&trace, &options);
        let request = decode(&exported);
        let spans = &request.resource_spans[0].scope_spans[0].spans;
        let name = scenario.name;
        let ids: BTreeSet<&[u8]> = spans.iter().map(|s| s.span_id.as_slice()).collect();
        assert_eq!(ids.len(), spans.len(), "{name}: span ids are unique");
        assert_eq!(
            spans.iter().filter(|s| s.parent_span_id.is_empty()).count(),
            1,
            "{name}: one root"
        );
        for span in spans {
            assert_eq!(span.trace_id, spans[0].trace_id, "{name}");
            assert_eq!((span.trace_id.len(), span.span_id.len()), (16, 8), "{name}");
            assert!(
                span.parent_span_id.is_empty() || ids.contains(span.parent_span_id.as_slice()),
                "{name}: {} has a parent",
                span.name
            );
            assert!(
                span.end_time_unix_nano >= span.start_time_unix_nano,
                "{name}: {}",
                span.name
            );
            assert!(
                span.start_time_unix_nano >= 1_767_225_600_000_000_000,
                "{name}"
            );
            let operation = span
                .attributes
                .iter()
                .find(|a| a.key == "gen_ai.operation.name")
                .and_then(|a| a.value.as_ref())
                .map(|v| format!("{:?}", v.value));
            assert!(
                operations
                    .iter()
                    .any(|op| operation.as_deref().is_some_and(|o| o.contains(op))),
                "{name}: {} has an operation name",
                span.name
            );
            let kind = if span.name.starts_with("chat") {
                SpanKind::Client
            } else {
                SpanKind::Internal
            };
            assert_eq!(span.kind, kind as i32, "{name}: {}", span.name);
        }
        let calls = trace
            .iter()
            .filter(|e| e["event"] == "model_requested")
            .count();
        assert_eq!(
            spans.iter().filter(|s| s.name.starts_with("chat")).count(),
            calls,
            "{name}: a chat span per model call"
        );
        let runs = trace
            .iter()
            .filter(|e| e["event"] == "node_started")
            .count();
        assert_eq!(
            spans
                .iter()
                .filter(|s| s.name.starts_with("invoke_agent"))
                .count(),
            runs,
            "{name}: an agent span per node run"
        );
    }
}

#[test]
fn a_workflow_with_a_retried_node_exports_whole() {
    let scenario = SCENARIOS
        .iter()
        .find(|s| s.name == "workflow-retry-source")
        .unwrap();
    let exported = export(&run_scenario(scenario), &ExportOptions::default());
    decode(&exported);
    insta::assert_json_snapshot!("workflow_retry_source", exported);
}

#[test]
fn model_errors_and_retries_export_as_failed_calls_and_events() {
    let scenario = SCENARIOS.iter().find(|s| s.name == "retry").unwrap();
    let exported = export(
        &run_scenario(scenario),
        &ExportOptions {
            base_time_ms: 1_000,
            service_name: "research-bot".into(),
            workflow_name: Some("retry-backoff".into()),
        },
    );
    decode(&exported);
    insta::assert_json_snapshot!("retry", exported);
}

mod arbitrary {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::decode;
    use logicmd::trace::{export, ExportOptions};

    fn event() -> impl Strategy<Value = Value> {
        let names = proptest::sample::select(
            &[
                "run_started",
                "node_started",
                "model_requested",
                "model_responded",
                "gate_evaluated",
                "obligation_updated",
                "retried",
                "review_requested",
                "node_skipped",
                "node_finished",
                "run_finished",
                "custom",
            ][..],
        );
        let nodes = proptest::option::of(proptest::sample::select(&["a", "b", "a/x"][..]));
        let values = prop_oneof![
            Just(json!("failed")),
            Just(json!(-3)),
            Just(json!(u64::MAX)),
            Just(json!(2.5)),
            Just(json!(true)),
            Just(json!(null)),
            Just(json!({"model": "p/m", "temperature": 0.1, "json": true})),
            Just(json!({"input_tokens": 3, "output_tokens": 4})),
            Just(json!({"kind": "Timeout", "message": "late"})),
            Just(json!([1, "two"])),
        ];
        let keys = proptest::sample::select(
            &[
                "status", "attempt", "request", "usage", "error", "rule", "verdict", "t", "seq",
                "output",
            ][..],
        );
        (
            names,
            nodes,
            proptest::collection::vec((keys, values), 0..4),
        )
            .prop_map(|(name, node, fields)| {
                let mut event = json!({"event": name});
                if let Some(node) = node {
                    event["node"] = node.into();
                }
                for (key, value) in fields {
                    event[key] = value;
                }
                event
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn any_trace_exports_as_otlp_json(events in proptest::collection::vec(event(), 0..30), base in 0u64..u64::MAX / 2_000_000) {
            let exported = export(&events, &ExportOptions { base_time_ms: base, ..ExportOptions::default() });
            decode(&exported);
        }
    }
}

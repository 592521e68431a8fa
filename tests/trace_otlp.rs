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
            base_time_ms: Some(1_767_225_600_000),
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
            // GenAI operations for the run, the reasoning nodes, calls and tools; a node that
            // does not reason (a decision tree, a join) is a plain span named by its kind.
            let plain = span.attributes.iter().any(|a| a.key == "logicmd.node.kind")
                && !span.name.starts_with("invoke_agent");
            assert!(
                plain
                    || operations
                        .iter()
                        .any(|op| operation.as_deref().is_some_and(|o| o.contains(op))),
                "{name}: {} has an operation name",
                span.name
            );
            assert!(!plain || operation.is_none(), "{name}: {}", span.name);
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
                .filter(|s| s.attributes.iter().any(|a| a.key == "logicmd.node.id"))
                .count(),
            runs,
            "{name}: a span per node run"
        );
        for agent in spans.iter().filter(|s| s.name.starts_with("invoke_agent")) {
            assert!(
                agent
                    .attributes
                    .iter()
                    .any(|a| a.key == "gen_ai.provider.name"),
                "{name}: {} names its provider (required)",
                agent.name
            );
        }
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
            base_time_ms: Some(1_000),
            service_name: "research-bot".into(),
            workflow_name: Some("retry-backoff".into()),
            trace_id: None,
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
            let exported = export(&events, &ExportOptions { base_time_ms: Some(base), ..ExportOptions::default() });
            decode(&exported);
        }
    }
}

mod conventions {
    //! Each attribute the GenAI semantic conventions (v1.41) ask for, read back from the
    //! decoded protobuf: the workflow span named by the document, agent spans for the nodes
    //! that reason (other nodes are plain internal spans), chat spans with the provider, the
    //! models and the response, the server, tool spans, and the wall-clock times the trace
    //! carries.

    use logicmd::analysis::Options;
    use logicmd::loader::MemoryLoader;
    use logicmd::run::{prepare, ActionKind, Answer, Provider, Run, RunOptions, Scripted};
    use logicmd::trace::{export, ExportOptions};
    use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
    use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
    use opentelemetry_proto::tonic::trace::v1::Span;
    use serde_json::{json, Value};

    use super::decode;

    /// Midnight, 1 January 2026, in Unix milliseconds: a wall-clock run's start.
    const START: u64 = 1_767_225_600_000;

    fn trace_of(text: &str, id: &str, script: &str, start_ms: u64) -> Vec<Value> {
        let source = prepare(text, &Options::lint(id), &MemoryLoader::new()).expect("prepares");
        let options = RunOptions {
            start_ms,
            ..RunOptions::default()
        };
        let mut run = Run::start(source, json!({"topic": "launch"}), options).unwrap();
        let mut provider = Scripted::parse(script).unwrap();
        let mut trace = run.take_events();
        let mut clock = start_ms;
        loop {
            let actions = run.next();
            trace.extend(run.take_events());
            let Some(first) = actions.first() else { break };
            if first.kind.is_terminal() {
                break;
            }
            for action in actions {
                clock += 100;
                run.set_clock(clock);
                let Answer::Observed(observation) = provider.answer(&action, &mut |_| {}) else {
                    panic!("unanswered {action:?}");
                };
                if matches!(action.kind, ActionKind::Complete { .. }) {
                    break;
                }
                run.feed(&action.id, observation).unwrap();
                trace.extend(run.take_events());
            }
        }
        trace
    }

    fn attribute(span: &Span, key: &str) -> Option<Value> {
        let value = span
            .attributes
            .iter()
            .find(|a| a.key == key)?
            .value
            .as_ref()?;
        Some(any(value.value.as_ref()?))
    }

    fn any(value: &Any) -> Value {
        match value {
            Any::StringValue(s) => json!(s),
            Any::BoolValue(b) => json!(b),
            Any::IntValue(i) => json!(i),
            Any::DoubleValue(d) => json!(d),
            Any::ArrayValue(array) => Value::Array(
                array
                    .values
                    .iter()
                    .filter_map(|v| v.value.as_ref().map(any))
                    .collect(),
            ),
            other => json!(format!("{other:?}")),
        }
    }

    fn spans(trace: &[Value], options: &ExportOptions) -> Vec<Span> {
        let request = decode(&export(trace, options));
        request.resource_spans[0].scope_spans[0].spans.clone()
    }

    fn named<'s>(spans: &'s [Span], name: &str) -> &'s Span {
        spans.iter().find(|s| s.name == name).unwrap_or_else(|| {
            panic!(
                "no span `{name}`: {:?}",
                spans.iter().map(|s| &s.name).collect::<Vec<_>>()
            )
        })
    }

    const BRIEFING: &str = "---\nspec_version: \"1.0\"\nname: briefing\nsteps:\n  write:\n    description: Write the briefing\n    output_schema: {type: object, required: [summary], properties: {summary: {type: string}}}\n---\n";
    /// What the CLI's OpenAI-compatible provider reports with `--model gpt-4o-mini`.
    const SERVED: &str = "{provider: openai, request_model: gpt-4o-mini, response_model: gpt-4o-mini-2024-07-18, response_id: chatcmpl-42, finish_reason: stop, server_address: api.openai.com, server_port: 443}";

    #[test]
    fn a_step_is_an_agent_and_its_call_a_chat_with_the_provider_models_response_and_server() {
        let script = format!("- {{node: write, json: {{summary: Prices rose.}}, usage: {{input_tokens: 30, output_tokens: 8}}, latency_ms: 90, served: {SERVED}}}\n");
        let trace = trace_of(BRIEFING, "briefing.logic.md", &script, START);
        let spans = spans(&trace, &ExportOptions::default());

        let run = named(&spans, "invoke_workflow briefing");
        assert_eq!(run.kind, SpanKind::Internal as i32);
        assert_eq!(
            attribute(run, "gen_ai.operation.name"),
            Some(json!("invoke_workflow"))
        );
        assert_eq!(
            attribute(run, "gen_ai.workflow.name"),
            Some(json!("briefing"))
        );
        assert_eq!(
            run.start_time_unix_nano,
            START * 1_000_000,
            "the run's wall-clock start"
        );

        let agent = named(&spans, "invoke_agent write");
        assert_eq!(agent.kind, SpanKind::Internal as i32);
        assert_eq!(
            attribute(agent, "gen_ai.operation.name"),
            Some(json!("invoke_agent"))
        );
        assert_eq!(attribute(agent, "gen_ai.agent.name"), Some(json!("write")));
        assert_eq!(
            attribute(agent, "gen_ai.provider.name"),
            Some(json!("openai"))
        );
        assert_eq!(
            attribute(agent, "gen_ai.request.model"),
            Some(json!("gpt-4o-mini"))
        );

        let chat = named(&spans, "chat gpt-4o-mini");
        assert_eq!(chat.kind, SpanKind::Client as i32);
        for (key, value) in [
            ("gen_ai.operation.name", json!("chat")),
            ("gen_ai.provider.name", json!("openai")),
            ("gen_ai.request.model", json!("gpt-4o-mini")),
            ("gen_ai.response.model", json!("gpt-4o-mini-2024-07-18")),
            ("gen_ai.response.id", json!("chatcmpl-42")),
            ("gen_ai.response.finish_reasons", json!(["stop"])),
            ("gen_ai.output.type", json!("json")),
            ("gen_ai.usage.input_tokens", json!(30)),
            ("gen_ai.usage.output_tokens", json!(8)),
            ("server.address", json!("api.openai.com")),
            ("server.port", json!(443)),
        ] {
            assert_eq!(attribute(chat, key), Some(value), "{key}");
        }
        // Asked at the run's start, answered 100 ms later, by the wall clock.
        assert_eq!(chat.start_time_unix_nano, START * 1_000_000);
        assert_eq!(chat.end_time_unix_nano, (START + 100) * 1_000_000);
        assert_eq!(chat.parent_span_id, agent.span_id);
    }

    const FACT_CHECK: &str = "name: fact check\nnodes:\n  - id: extract\n    type: generate\n    model: google/gemini-pro\n    prompt: Give the links as JSON.\n    output_format: json\n    output_key: claims\n  - id: check\n    type: verify\n    input: extract.claims\n    rules:\n      - {id: std.check_links, target: urls, mode: block}\n    output_key: report\n  - id: gate\n    type: gate\n    input: check.report\n    condition: input.passed\n    on_pass: publish\n  - id: publish\n    type: transform\n    operations:\n      - {set: state.variables.published, value: true}\nedges:\n  - {from: extract, to: check}\n  - {from: check, to: gate}\n";

    #[test]
    fn only_reasoning_nodes_are_agents_and_a_tool_verdict_is_an_execute_tool_span() {
        let script = "- {node: extract, json: {urls: [\"https://example.com\"]}}\n- {node: check, tool: std.check_links, verdict: {passed: true, evidence: 200}}\n";
        let trace = trace_of(FACT_CHECK, "fact-check.drtl.yaml", script, START);
        let spans = spans(&trace, &ExportOptions::default());
        named(&spans, "invoke_workflow fact check");

        let agent = named(&spans, "invoke_agent extract");
        assert_eq!(
            attribute(agent, "gen_ai.provider.name"),
            Some(json!("gcp.gemini"))
        );
        let chat = named(&spans, "chat google/gemini-pro");
        assert_eq!(
            attribute(chat, "gen_ai.provider.name"),
            Some(json!("gcp.gemini"))
        );
        assert_eq!(
            attribute(chat, "gen_ai.request.model"),
            Some(json!("google/gemini-pro"))
        );

        for (name, kind) in [
            ("verify check", "verify"),
            ("gate gate", "gate"),
            ("transform publish", "transform"),
        ] {
            let span = named(&spans, name);
            assert_eq!(span.kind, SpanKind::Internal as i32, "{name}");
            assert_eq!(
                attribute(span, "gen_ai.operation.name"),
                None,
                "{name} is no agent"
            );
            assert_eq!(
                attribute(span, "logicmd.node.kind"),
                Some(json!(kind)),
                "{name}"
            );
        }

        let tool = named(&spans, "execute_tool std.check_links");
        assert_eq!(tool.kind, SpanKind::Internal as i32);
        assert_eq!(tool.parent_span_id, named(&spans, "verify check").span_id);
        for (key, value) in [
            ("gen_ai.operation.name", json!("execute_tool")),
            ("gen_ai.tool.name", json!("std.check_links")),
            ("gen_ai.tool.type", json!("extension")),
        ] {
            assert_eq!(attribute(tool, key), Some(value), "{key}");
        }
        assert!(attribute(tool, "gen_ai.tool.call.id").is_some());
    }

    #[test]
    fn distinct_runs_have_distinct_trace_ids_and_a_caller_may_give_one() {
        let script = "- {node: write, json: {summary: Prices rose.}}\n";
        let first = trace_of(BRIEFING, "briefing.logic.md", script, START);
        let later = trace_of(BRIEFING, "briefing.logic.md", script, START + 60_000);
        let other = trace_of(
            BRIEFING,
            "briefing.logic.md",
            "- {node: write, json: {summary: Prices fell.}}\n",
            START,
        );
        let id =
            |trace: &[Value], options: &ExportOptions| spans(trace, options)[0].trace_id.clone();
        let defaults = ExportOptions::default();
        assert_eq!(
            id(&first, &defaults),
            id(&first, &defaults),
            "the same trace, the same id"
        );
        assert_ne!(
            id(&first, &defaults),
            id(&later, &defaults),
            "another start"
        );
        assert_ne!(
            id(&first, &defaults),
            id(&other, &defaults),
            "another answer"
        );
        let given = ExportOptions {
            trace_id: Some([7; 16]),
            ..ExportOptions::default()
        };
        assert_eq!(id(&first, &given), vec![7; 16]);
    }
}

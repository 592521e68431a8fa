//! `run`, `resume_run` and `next_action` through `logicmd mcp`, as an agent drives them: a dry
//! run with its events as progress notifications, a review answered, a script, the server's
//! OpenAI-compatible provider (a loopback server) whose key never reaches a result, a
//! cancelled run, and the next-action engine.

mod loopback;
mod mcp_support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use loopback::{completion, Loopback, Reply};
use mcp_support::{misuse, stdio, structured};
use rmcp::model::ProgressNotificationParam;
use rmcp::service::NotificationContext;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;

const KEY: &str = "sk-mcp-SECRET-5d1e8a";
const DOCUMENT: &str = "---\nspec_version: \"1.0\"\nname: research\ndescription: Research\nsteps:\n  gather:\n    description: Gather sources\n    output_schema:\n      type: object\n      required: [sources]\n      properties:\n        sources: {type: array, items: {type: string}, minItems: 1}\n  report:\n    description: Write the report\n    needs: [gather]\n---\n";
const REVIEWED: &str = include_str!("../../tests/drtl/gate-review.drtl.yaml");

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Watcher {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Watcher {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

async fn watched(
    args: &[&str],
    env: &[(&str, &str)],
) -> (mcp_support::WatchedClient<Watcher>, Watcher) {
    let watcher = Watcher::default();
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_logicmd")).configure(|command| {
            command.arg("mcp").args(args);
            for (name, value) in env {
                command.env(name, value);
            }
        }),
    )
    .unwrap();
    let client = watcher.clone().serve(transport).await.unwrap();
    (client, watcher)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_completes_and_reports_its_events_as_progress() {
    let (client, watcher) = watched(&[], &[]).await;
    let report = structured(
        &client,
        "run",
        json!({ "text": DOCUMENT, "provider": "dry_run", "trace": true }),
    )
    .await;
    assert_eq!(report["status"], "completed", "{report:#}");
    let events = report["trace"].as_array().unwrap();
    // One notification per line of the progress display, numbered 1, 2, ... in the order
    // sent (the client may handle them out of order, and after the result: wait for the last).
    let mut progress = Vec::new();
    for _ in 0..100 {
        progress = watcher.progress.lock().unwrap().clone();
        progress.sort_by(|a, b| a.progress.total_cmp(&b.progress));
        let ended = progress
            .last()
            .and_then(|p| p.message.as_deref())
            .is_some_and(|m| m.contains("run completed"));
        if ended {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let numbers: Vec<f64> = progress.iter().map(|p| p.progress).collect();
    let expected: Vec<f64> = (1..=progress.len()).map(|n| n as f64).collect();
    assert_eq!(numbers, expected);
    assert_eq!(
        progress[0].message.as_deref(),
        Some("00:00:00 run started (logic)")
    );
    assert!(
        progress
            .last()
            .unwrap()
            .message
            .as_deref()
            .unwrap()
            .contains("run completed"),
        "{progress:?}"
    );
    assert_eq!(events[0]["event"], "run_started");
    // The trace checks out.
    let trace: String = events.iter().map(|e| format!("{e}\n")).collect();
    let checked = structured(&client, "trace_check", json!({ "trace": trace })).await;
    assert_eq!(checked["holds"], true, "{checked:#}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_run_goes_on_with_the_review_answer() {
    let client = stdio(&[]).await;
    let paused = structured(
        &client,
        "run",
        json!({ "text": REVIEWED, "provider": "dry_run" }),
    )
    .await;
    assert_eq!(paused["status"], "paused", "{paused:#}");
    assert_eq!(paused["reviews"][0]["actions"], json!(["retry", "reject"]));
    let id = paused["run_id"].as_str().unwrap().to_owned();
    // A decision the review does not offer is misuse; the run still waits, under a new id.
    let said = misuse(
        &client,
        "resume_run",
        json!({ "run_id": id, "action": "approve" }),
    )
    .await;
    assert!(said.contains("choose one of: retry, reject"), "{said}");
    let kept = said
        .rsplit("as `")
        .next()
        .unwrap()
        .trim_end_matches("`)")
        .to_owned();
    let said = misuse(
        &client,
        "resume_run",
        json!({ "run_id": id, "action": "reject" }),
    )
    .await;
    assert!(said.starts_with("no paused run"), "{said}");
    let ended = structured(
        &client,
        "resume_run",
        json!({ "run_id": kept, "action": "reject", "note": "links are dead" }),
    )
    .await;
    let mut paused = paused;
    paused["run_id"] = json!("[run id]");
    insta::assert_json_snapshot!(json!({ "paused": paused, "ended": ended }));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_document_is_not_run_and_says_why() {
    let client = stdio(&[]).await;
    let refused = structured(
        &client,
        "run",
        json!({ "text": "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    needs: [b]\n---\n", "provider": "dry_run" }),
    )
    .await;
    assert!(refused.get("status").is_none(), "{refused:#}");
    assert_eq!(refused["diagnostics"][0]["code"], "unknown-need");
    let said = misuse(
        &client,
        "run",
        json!({ "text": DOCUMENT, "provider": "openai" }),
    )
    .await;
    assert!(said.starts_with("this server calls no model"), "{said}");
    let said = misuse(
        &client,
        "run",
        json!({ "text": DOCUMENT, "provider": "scripted" }),
    )
    .await;
    assert!(said.contains("needs `script`"), "{said}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_answers_the_model_calls() {
    let client = stdio(&[]).await;
    let script = "- {node: gather, json: {sources: [\"https://example.org/a\"]}}\n- {node: report, text: \"The report.\"}\n";
    let report = structured(
        &client,
        "run",
        json!({ "text": DOCUMENT, "provider": "scripted", "script": script }),
    )
    .await;
    assert_eq!(report["status"], "completed", "{report:#}");
    assert_eq!(report["output"], "The report.");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_provider_answers_and_its_key_stays_out_of_results() {
    let server = Loopback::start(vec![
        completion("{\"sources\": [\"https://example.org/a\"]}"),
        completion("The report."),
        Reply::EchoKey,
    ]);
    let base = server.base_url();
    let args = [
        "--provider",
        "openai",
        "--base-url",
        &base,
        "--model",
        "m",
        "--api-key-env",
        "MCP_TEST_KEY",
        "--no-stream",
    ];
    let (client, _) = watched(&args, &[("MCP_TEST_KEY", KEY)]).await;
    let completed = structured(
        &client,
        "run",
        json!({ "text": DOCUMENT, "provider": "openai", "trace": true }),
    )
    .await;
    assert_eq!(completed["status"], "completed", "{completed:#}");
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    // The server echoes the key in its refusal: the failure still does not carry it.
    let failed = mcp_support::call(
        &client,
        "run",
        json!({ "text": DOCUMENT, "provider": "openai", "trace": true }),
    )
    .await;
    let everything = serde_json::to_string(&failed).unwrap();
    assert!(!everything.contains(KEY), "{everything}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_run_stops_and_the_server_goes_on() {
    // The first answer comes after a second; a run still going would then ask for the second.
    let server = Loopback::start(vec![
        Reply::Slow(
            Duration::from_secs(1),
            Box::new(completion("{\"sources\": [\"https://example.org/a\"]}")),
        ),
        completion("The report."),
    ]);
    let base = server.base_url();
    let args = [
        "--provider",
        "openai",
        "--base-url",
        &base,
        "--model",
        "m",
        "--no-stream",
    ];
    let (client, _) = watched(&args, &[]).await;
    mcp_support::cancel_a_run(&client, DOCUMENT, || server.requests().len()).await;
    assert_eq!(server.unused(), 1);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn next_action_decides_from_the_state() {
    let client = stdio(&[]).await;
    let state = json!({
        "user_input": "What's the weather in Paris?",
        "current_task": "answer the question",
        "available_tools": [{"name": "weather", "description": "The weather in a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
        "short_term_memory": [],
    });
    let script = "- {node: next_action, json: {action: execute_tool, tool_name: weather, parameters: {city: Paris}}}\n";
    let decided = structured(
        &client,
        "next_action",
        json!({ "state": state, "provider": "scripted", "script": script }),
    )
    .await;
    assert_eq!(decided["decided"], true, "{decided:#}");
    assert_eq!(decided["action"]["tool_name"], "weather");
    let said = misuse(
        &client,
        "next_action",
        json!({ "state": 3, "provider": "dry_run" }),
    )
    .await;
    assert!(said.starts_with("`state` is not an agent state"), "{said}");
    let bad_spec = structured(
        &client,
        "next_action",
        json!({ "state": state, "provider": "dry_run", "spec": "---\nname: 3\n---\n" }),
    )
    .await;
    assert_eq!(bad_spec["decided"], false);
    assert!(!bad_spec["diagnostics"].as_array().unwrap().is_empty());
    client.cancel().await.unwrap();
}

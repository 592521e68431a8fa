//! `logicmd mcp --http`: Streamable HTTP on the loopback interface, used by rmcp's client; DNS
//! rebinding refused (a foreign `Origin` or `Host` gets 403), and with a token nothing without
//! it (401).

mod harness;
mod loopback;
mod mcp_support;

use std::time::Duration;

use harness::Scratch;
use loopback::{completion, Loopback, Reply};
use mcp_support::{call, misuse, stdio, structured, HttpServer};
use serde_json::json;

const GOOD: &str = "---\nspec_version: \"1.0\"\nname: research\ndescription: Research\nsteps:\n  gather:\n    description: Gather sources\n    output_schema:\n      type: object\n      required: [sources]\n      properties:\n        sources: {type: array, items: {type: string}, minItems: 1}\n  report:\n    description: Write the report\n    needs: [gather]\n---\n";
const BAD: &str =
    "---\nspec_version: \"1.0\"\nname: research\nsteps:\n  report:\n    needs: [gathr]\n---\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_answer_over_http_and_paths_stay_in_the_root() {
    let scratch = Scratch::new("mcp-http");
    scratch.write(
        "project/a.logic.md",
        "---\nspec_version: \"1.0\"\nname: a\n---\n",
    );
    scratch.write(
        "secret.logic.md",
        "---\nspec_version: \"1.0\"\nname: s\n---\n",
    );
    let root = scratch.0.join("project").to_string_lossy().into_owned();
    let server = HttpServer::start(&["--root", &root], None).await;
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    let client = server.client(None).await;
    assert_eq!(client.list_all_tools().await.unwrap().len(), 15);
    let good = structured(&client, "validate", json!({ "path": "a.logic.md" })).await;
    assert_eq!(good["valid"], true);
    let bad = structured(
        &client,
        "validate",
        json!({ "text": "---\nname: 3\n---\n" }),
    )
    .await;
    assert_eq!(bad["valid"], false);
    let said = misuse(&client, "validate", json!({ "path": "../secret.logic.md" })).await;
    assert!(said.contains("is outside the roots"), "{said}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_origin_or_host_is_refused() {
    let server = HttpServer::start(&["--allow-origin", "http://localhost:*"], None).await;
    assert_eq!(server.initialize_status(&[]).await, 200);
    assert_eq!(
        server
            .initialize_status(&[("Origin", "http://evil.example")])
            .await,
        403
    );
    assert_eq!(server.initialize_status(&[("Origin", "null")]).await, 403);
    assert_eq!(
        server.initialize_status(&[("Host", "evil.example")]).await,
        403
    );
    assert_eq!(
        server
            .initialize_status(&[("Origin", "http://localhost:5173")])
            .await,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_token_only_its_bearer_is_served() {
    let server = HttpServer::start(&[], Some("s3cret")).await;
    assert_eq!(server.initialize_status(&[]).await, 401);
    assert_eq!(
        server
            .initialize_status(&[("Authorization", "Bearer wrong!")])
            .await,
        401
    );
    assert_eq!(
        server
            .initialize_status(&[("Authorization", "Bearer s3cret")])
            .await,
        200
    );
    let client = server.client(Some("s3cret")).await;
    let explained = structured(&client, "explain_rule", json!({ "code": "step-cycle" })).await;
    assert_eq!(explained["code"], "step-cycle");
    client.cancel().await.unwrap();
}

#[test]
fn another_interface_without_a_token_is_refused() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .args(["mcp", "--http", "0.0.0.0:0"])
        .env_remove("LOGICMD_MCP_TOKEN")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is not a loopback address"), "{stderr}");
}

/// Every tool, with a good and a bad document, answers over HTTP what it answers over stdio.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_over_http_as_over_stdio() {
    let server = HttpServer::start(&[], None).await;
    let http = server.client(None).await;
    let local = stdio(&[]).await;
    let trace = "{\"event\":\"run_started\",\"t\":0}\n";
    let state = json!({ "user_input": "hi", "current_task": "greet", "available_tools": [], "short_term_memory": [] });
    let calls = [
        ("validate", json!({ "text": GOOD })),
        ("validate", json!({ "text": BAD })),
        ("lint", json!({ "text": BAD, "fix": "unsafe" })),
        ("fmt", json!({ "text": GOOD })),
        ("fmt", json!({ "text": "---\nname: [\n---\n" })),
        (
            "edit",
            json!({ "text": GOOD, "edits": [{ "op": "rename_step", "from": "gather", "to": "collect" }] }),
        ),
        (
            "edit",
            json!({ "text": GOOD, "edits": [{ "op": "remove_step", "name": "nope" }] }),
        ),
        ("compile_step", json!({ "text": GOOD, "step": "report" })),
        ("compile_step", json!({ "text": BAD, "step": "report" })),
        ("compile_workflow", json!({ "text": GOOD })),
        ("graph", json!({ "text": GOOD, "format": "mermaid" })),
        ("graph", json!({ "text": BAD })),
        ("check", json!({ "text": GOOD })),
        ("check", json!({ "text": BAD })),
        ("trace_check", json!({ "trace": trace })),
        ("trace_check", json!({ "trace": "not json" })),
        ("explain_rule", json!({ "code": "unknown-need" })),
        ("explain_rule", json!({ "code": "nope" })),
        ("init", json!({ "template": "react", "name": "agent" })),
        ("init", json!({ "template": "nope" })),
        ("list_templates", json!({})),
        (
            "run",
            json!({ "text": GOOD, "provider": "dry_run", "trace": true }),
        ),
        ("run", json!({ "text": BAD, "provider": "dry_run" })),
        (
            "resume_run",
            json!({ "run_id": "run-none", "action": "approve" }),
        ),
        (
            "next_action",
            json!({ "state": state, "provider": "dry_run" }),
        ),
        ("next_action", json!({ "state": [], "provider": "dry_run" })),
    ];
    for (name, arguments) in calls {
        let over_http = call(&http, name, arguments.clone()).await;
        let over_stdio = call(&local, name, arguments.clone()).await;
        assert_eq!(over_http, over_stdio, "{name} {arguments}");
    }
    http.cancel().await.unwrap();
    local.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_cancelled_over_http_stops() {
    let provider = Loopback::start(vec![
        Reply::Slow(
            Duration::from_secs(1),
            Box::new(completion("{\"sources\": [\"https://example.org/a\"]}")),
        ),
        completion("The report."),
    ]);
    let base = provider.base_url();
    let server = HttpServer::start(
        &[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "--no-stream",
        ],
        None,
    )
    .await;
    let client = server.client(None).await;
    mcp_support::cancel_a_run(&client, GOOD, || provider.requests().len()).await;
    client.cancel().await.unwrap();
}

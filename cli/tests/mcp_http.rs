//! `logicmd mcp --http`: Streamable HTTP on the loopback interface, used by rmcp's client; DNS
//! rebinding refused (a foreign `Origin` or `Host` gets 403), and with a token nothing without
//! it (401).

mod harness;
mod mcp_support;

use harness::Scratch;
use mcp_support::{misuse, structured, HttpServer};
use serde_json::json;

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

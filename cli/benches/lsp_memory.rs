//! The language server's memory on the generated 5,000-step document (1.37 MB): its resident
//! set before the document is opened and after it is open, checked, hovered, completed and
//! outlined, against the text's size (goal: at most 10× the workspace's text).
//!
//! `cargo bench -p logicmd-cli --bench lsp_memory` (Linux: reads `/proc/PID/status`).

#[path = "../../core/benches/support/generate.rs"]
mod generate;
#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use lsp_client::{position, uri, Client};
use serde_json::json;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = std::env::temp_dir().join(format!("logicmd-lsp-memory-{}", std::process::id()));
    std::fs::create_dir_all(root.join(".git")).expect("a scratch project");
    let root = root.canonicalize().expect("it exists");
    let text = generate::generated(5_000);
    std::fs::write(root.join("big.logic.md"), &text).expect("written");
    let (mut client, _) = Client::start(&root, json!({"diagnosticsDelayMs": 0}));
    let before = client.resident_bytes().expect("/proc is readable");
    let file = format!("{}/big.logic.md", uri(&root));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let published = client.diagnostics(&file);
    assert_eq!(published["diagnostics"].as_array().map(Vec::len), Some(0));
    let checked = client.resident_bytes().expect("/proc is readable");
    let middle = text.find("  step_2500:").expect("a step") + 4;
    let needs = text[middle..].find("needs: [").expect("needs") + middle + 9;
    for (method, offset) in [
        ("textDocument/hover", needs),
        ("textDocument/completion", needs),
    ] {
        client.request(
            method,
            json!({"textDocument": {"uri": file}, "position": position(&text, offset)}),
        );
    }
    for method in [
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
        "textDocument/foldingRange",
    ] {
        client.request(method, json!({"textDocument": {"uri": file}}));
    }
    let after = client.resident_bytes().expect("/proc is readable");
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "lsp memory, 5,000 steps ({:.2} MiB of text):",
        mib(text.len() as u64)
    );
    println!("  resident before opening: {:.1} MiB", mib(before));
    println!(
        "  resident with the document open and checked: {:.1} MiB",
        mib(checked)
    );
    println!(
        "  resident with the document open and queried: {:.1} MiB",
        mib(after)
    );
    println!(
        "  growth / text: {:.1}x; resident / text: {:.1}x",
        (after - before) as f64 / text.len() as f64,
        after as f64 / text.len() as f64
    );
    let _ = client.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}

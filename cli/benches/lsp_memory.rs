//! The language server's memory on the generated 5,000-step document (1.37 MB): its resident
//! set before the document is opened and after it is open, checked, hovered, completed and
//! outlined, against the text's size (goal: at most 10× the workspace's text). Each figure is
//! read at rest, a moment after the last answer: the server gives the allocator's free pages
//! back when it is idle (`cli/src/lsp/memory.rs`).
//!
//! `cargo bench -p logicmd-cli --bench lsp_memory` (Linux: reads `/proc/PID/status`);
//! `LSP_MEMORY_SERVER=PATH` measures another build of `logicmd` (a before and after in one run).

#[path = "../../core/benches/support/generate.rs"]
mod generate;
#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use lsp_client::{position, uri, Client};
use serde_json::json;

trait AtRest {
    fn resident_at_rest(&self) -> Option<u64>;
}

impl AtRest for Client {
    /// The resident set once the server has been idle a moment.
    fn resident_at_rest(&self) -> Option<u64> {
        std::thread::sleep(std::time::Duration::from_millis(200));
        self.resident_bytes()
    }
}

/// The resident set's two parts now: anonymous memory (the heap: what the server holds) and
/// pages of files it maps (its own code, paged in as requests reach new code, and more of it
/// when the binary is in the page cache: not memory the workspace takes).
fn parts(client: &Client) -> (u64, u64) {
    let anon = client.status_bytes("RssAnon:").unwrap_or(0);
    let file = client.status_bytes("RssFile:").unwrap_or(0);
    (anon, file)
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = std::env::temp_dir().join(format!("logicmd-lsp-memory-{}", std::process::id()));
    std::fs::create_dir_all(root.join(".git")).expect("a scratch project");
    let root = root.canonicalize().expect("it exists");
    let text = generate::generated(5_000);
    std::fs::write(root.join("big.logic.md"), &text).expect("written");
    let options = json!({"diagnosticsDelayMs": 0});
    let (mut client, _) = match std::env::var_os("LSP_MEMORY_SERVER") {
        Some(program) => Client::start_program(std::path::Path::new(&program), &root, options),
        None => Client::start(&root, options),
    };
    let before = client.resident_at_rest().expect("/proc is readable");
    let parts_before = parts(&client);
    let file = format!("{}/big.logic.md", uri(&root));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let published = client.diagnostics(&file);
    assert_eq!(published["diagnostics"].as_array().map(Vec::len), Some(0));
    let checked = client.resident_at_rest().expect("/proc is readable");
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
    let after = client.resident_at_rest().expect("/proc is readable");
    let parts_after = parts(&client);
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
    let growth = |now: u64, then: u64| now.saturating_sub(then) as f64 / text.len() as f64;
    println!(
        "  of the growth: anonymous (heap) {:.1}x, mapped files (code) {:.1}x",
        growth(parts_after.0, parts_before.0),
        growth(parts_after.1, parts_before.1)
    );
    let _ = client.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}

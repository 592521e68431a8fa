//! The language server's latency as an editor feels it: whole round trips over standard input
//! and output on the generated 5,000-step document, from sending a request to holding its
//! parsed answer (the client parses every message into JSON values, as an editor does), and
//! from sending a one-character change to receiving the diagnostics of that version. The
//! server runs with `diagnosticsDelayMs: 0`: the figure is the work, not the debounce (200 ms by
//! default, printed beside it). Completion right after a keystroke is timed in a second server
//! with the default debounce, as an editor runs it.
//!
//! `cargo bench -p logicmd-cli --bench lsp_latency`; `LSP_LATENCY_SERVER=PATH` measures another
//! build of `logicmd` (a before and after in one run); `LSP_LATENCY_ROUNDS=N` (default 100).

#[path = "../../core/benches/support/generate.rs"]
mod generate;
#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::{position, uri, Client};
use serde_json::{json, Value};

/// Median and 95th percentile, in milliseconds.
fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| {
        let index = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples[index].as_secs_f64() * 1000.0
    };
    (at(0.5), at(0.95))
}

fn timed(client: &mut Client, method: &str, params: Value) -> (Duration, Value) {
    let started = Instant::now();
    let answer = client.request(method, params);
    (started.elapsed(), answer)
}

/// `logicmd lsp` (this build, or `LSP_LATENCY_SERVER`) initialized for `root` with `options`.
fn server(root: &std::path::Path, options: Value) -> Client {
    let (client, _) = match std::env::var_os("LSP_LATENCY_SERVER") {
        Some(program) => Client::start_program(std::path::Path::new(&program), root, options),
        None => Client::start(root, options),
    };
    client
}

/// Sends a one-range change of the document; when it was sent.
fn change(client: &mut Client, file: &str, version: i64, range: Value, text: &str) -> Instant {
    client.forget_diagnostics();
    let started = Instant::now();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": file, "version": version},
            "contentChanges": [{"range": range, "text": text}]
        }),
    );
    started
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let rounds: usize = std::env::var("LSP_LATENCY_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100);
    let root = std::env::temp_dir().join(format!("logicmd-lsp-latency-{}", std::process::id()));
    std::fs::create_dir_all(root.join(".git")).expect("a scratch project");
    let root = root.canonicalize().expect("it exists");
    let mut text = generate::generated(5_000);
    std::fs::write(root.join("big.logic.md"), &text).expect("written");
    let options = json!({"diagnosticsDelayMs": 0});
    let mut client = server(&root, options);
    let file = format!("{}/big.logic.md", uri(&root));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
    );
    client.diagnostics(&file);
    let mut typing = server(&root, json!({}));
    typing.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
    );
    typing.diagnostics(&file);

    // Just after `needs: [` of a step in the middle, in the text as it is now.
    let needs_of = |text: &str| {
        let middle = text.find("  step_2500:").expect("a step") + 4;
        text[middle..].find("needs: [").expect("needs") + middle + 8
    };
    let at = |offset: usize, text: &str| json!({"textDocument": {"uri": file}, "position": position(text, offset)});
    let mut samples: [(&str, Vec<Duration>); 8] = [
        ("completion in `needs` (5,000 steps)", Vec::new()),
        ("hover on a step reference", Vec::new()),
        ("go to definition", Vec::new()),
        ("diagnostics after a one-character edit", Vec::new()),
        ("semantic tokens, whole document", Vec::new()),
        ("document symbols", Vec::new()),
        ("folding ranges", Vec::new()),
        (
            "completion right after a keystroke (default debounce)",
            Vec::new(),
        ),
    ];
    let mut items = 0;
    let description = text.find("description: ").expect("a description") + 13;
    for round in 0..rounds {
        let needs = needs_of(&text);
        let reference = needs + 1;
        let (took, answer) = timed(&mut client, "textDocument/completion", at(needs, &text));
        // A list (`isIncomplete` and items), or a bare array from a build before the shortlist.
        let result = &answer["result"];
        items = result["items"]
            .as_array()
            .or(result.as_array())
            .map_or(0, Vec::len);
        samples[0].1.push(took);
        let (took, _) = timed(&mut client, "textDocument/hover", at(reference, &text));
        samples[1].1.push(took);
        let (took, _) = timed(&mut client, "textDocument/definition", at(reference, &text));
        samples[2].1.push(took);
        // The whole-document requests: the longest a request waits behind another.
        for (slot, method) in [
            (4, "textDocument/semanticTokens/full"),
            (5, "textDocument/documentSymbol"),
            (6, "textDocument/foldingRange"),
        ] {
            let (took, _) = timed(&mut client, method, json!({"textDocument": {"uri": file}}));
            samples[slot].1.push(took);
        }
        // Type a character into a description and take it out again: the diagnostics of each
        // version timed (no debounce).
        let version = 2 * round as i64 + 2;
        let insert =
            json!({"start": position(&text, description), "end": position(&text, description)});
        let remove =
            json!({"start": position(&text, description), "end": position(&text, description + 1)});
        for (version, range, typed) in [(version, &insert, "x"), (version + 1, &remove, "")] {
            let started = change(&mut client, &file, version, range.clone(), typed);
            let published = client.diagnostics(&file);
            samples[3].1.push(started.elapsed());
            assert_eq!(
                published["version"],
                json!(version),
                "the diagnostics of the change"
            );
        }
        // The same keystrokes in the server as an editor runs it (diagnostics after 200 ms),
        // completion asked at once after each.
        for (version, range, typed) in [(version, &insert, "x"), (version + 1, &remove, "")] {
            change(&mut typing, &file, version, range.clone(), typed);
            if typed.is_empty() {
                text.remove(description);
            } else {
                text.insert(description, 'x');
            }
            let (took, _) = timed(
                &mut typing,
                "textDocument/completion",
                at(needs_of(&text), &text),
            );
            samples[7].1.push(took);
        }
    }
    println!(
        "lsp round trips, 5,000 steps ({:.2} MiB), {rounds} rounds, p50 / p95:",
        text.len() as f64 / (1024.0 * 1024.0)
    );
    for (name, taken) in samples {
        let (p50, p95) = percentiles(taken);
        println!("  {name}: {p50:.2} / {p95:.2} ms");
    }
    println!("  (completion answered {items} items; diagnostics wait a further 200 ms by default)");
    let _ = client.shut_down();
    let _ = typing.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}

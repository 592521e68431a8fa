//! `logicmd run --provider openai` end to end: the binary against the loopback server, the key
//! from the environment, and the key nowhere in what the run prints or writes.

use std::process::Command;

use crate::loopback::{completion, streamed, Loopback};
use crate::KEY;

#[test]
fn logicmd_run_answers_through_the_server_and_never_shows_the_key() {
    let dir = std::env::temp_dir().join(format!("logicmd-openai-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("agent.logic.md"),
        "---\nspec_version: \"1.0\"\nname: agent\nsteps:\n  gather:\n    description: g\n    output_schema:\n      type: object\n      required: [sources]\n      properties:\n        sources: {type: array, items: {type: string}}\n  report:\n    description: r\n    needs: [gather]\n---\n",
    )
    .unwrap();
    let server = Loopback::start(vec![
        streamed(&["{\"sources\": ", "[\"a\", \"b\"]}"]),
        completion("The report."),
    ]);
    let output = Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .current_dir(&dir)
        .env("LOOPBACK_KEY", KEY)
        .args([
            "run",
            "agent.logic.md",
            "--provider",
            "openai",
            "--base-url",
            &server.base_url(),
            "--model",
            "test-model",
            "--api-key-env",
            "LOOPBACK_KEY",
            "--trace",
            "run.jsonl",
            "--state",
            "run.state.json",
            "--format",
            "json",
            "--progress",
            "off",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let result: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(result["status"], "completed");
    assert_eq!(result["output"], "The report.");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(requests[0].body["model"], "test-model");
    let trace = std::fs::read_to_string(dir.join("run.jsonl")).unwrap();
    let state = std::fs::read_to_string(dir.join("run.state.json")).unwrap();
    for (what, text) in [
        ("stdout", stdout.as_ref()),
        ("stderr", stderr.as_ref()),
        ("trace", trace.as_str()),
        ("state", state.as_str()),
    ] {
        assert!(!text.contains(KEY), "the key is in the {what}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

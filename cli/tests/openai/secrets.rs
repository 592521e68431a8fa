//! The API key never leaves: not in a trace file, a failure, a streamed token, an answer, a
//! debug print or the flags' help, even when the server echoes it back everywhere it can. And
//! a model's answer is never rewritten for it: an answer that holds a real key is refused (the
//! call fails and is retried), a placeholder key (`ollama`, `a`) is no secret and answers that
//! contain it are recorded whole.

use std::time::Duration;

use clap::CommandFactory;
use serde_json::json;

use crate::loopback::{completion, error, streamed, Loopback, Reply};
use crate::providers::{OpenAiProvider, Resolved, Settings};
use crate::{drive, provider, source, KEY};

#[derive(clap::Parser)]
#[command(name = "logicmd-run-flags")]
struct Flags {
    #[command(flatten)]
    settings: Settings,
}

#[test]
fn the_key_is_in_no_output_and_no_trace_file() {
    let document = "---\nspec_version: \"1.0\"\nname: leak\nreasoning:\n  strategy: cot\nsteps:\n  first:\n    description: Free text\n    retry:\n      max_attempts: 5\n      initial_interval: 10ms\n  second:\n    description: Free text again\n    needs: [first]\n---\n";
    let cut = {
        let mut pieces = crate::loopback::stream_events(&["partial ", KEY]);
        pieces.truncate(3);
        Reply::Stream {
            pieces,
            pause: Duration::ZERO,
            cut: true,
        }
    };
    // One run meets a 401 that echoes the key (and fails); another meets a 500 quoting it, a
    // stream cut after a piece of it, answers that contain it split and whole (each refused, so
    // retried), then answers without it.
    let refused = Loopback::start(vec![Reply::EchoKey]);
    let mut provider_a = provider(&refused.base_url(), true, 5_000);
    let first = drive(
        source("leak.logic.md", document, &[]),
        json!({"q": KEY}),
        &mut provider_a,
    );
    let server = Loopback::start(vec![
        error(500, &format!("upstream rejected key {KEY}"), &[]),
        cut,
        streamed(&["the key is ", KEY, " and again ", &KEY[..10], &KEY[10..]]),
        completion(&format!("{KEY}{KEY}")),
        completion("a clean first answer"),
        completion("a clean second answer"),
    ]);
    let mut provider = provider(&server.base_url(), true, 5_000);
    let second = drive(
        source("leak.logic.md", document, &[]),
        json!({"q": KEY}),
        &mut provider,
    );
    assert_eq!((refused.unused(), server.unused()), (0, 0));
    assert!(matches!(
        first.ending,
        Some(logicmd::run::ActionKind::Fail { .. })
    ));
    assert!(matches!(
        second.ending,
        Some(logicmd::run::ActionKind::Complete { .. })
    ));
    let trace: Vec<serde_json::Value> = first.trace.iter().chain(&second.trace).cloned().collect();
    let tokens: String = first.tokens.concat() + &second.tokens.concat();
    let endings = format!("{:?} {:?}", first.ending, second.ending);

    let scratch = std::env::temp_dir().join(format!("logicmd-openai-leak-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let trace_file = scratch.join("trace.jsonl");
    let lines: String = trace.iter().map(|e| format!("{e}\n")).collect();
    std::fs::write(&trace_file, &lines).unwrap();
    let written = std::fs::read_to_string(&trace_file).unwrap();
    let _ = std::fs::remove_dir_all(&scratch);

    // The input the user gave is theirs to trace; everything the provider handed back is not.
    let from_provider: String = trace
        .iter()
        .filter(|e| {
            e["event"] == "model_responded"
                || e["event"] == "retried"
                || e["event"] == "run_finished"
        })
        .map(|e| e.to_string())
        .collect();
    let outputs = [
        from_provider,
        written
            .replace(&format!("\"q\":\"{KEY}\""), "")
            .replace(&format!("\\\"q\\\": \\\"{KEY}\\\""), ""),
        endings,
        tokens.clone(),
        format!("{provider:?} {provider_a:?}"),
        format!(
            "{:?}",
            Resolved {
                base_url: server.base_url(),
                model: None,
                model_overrides_document: false,
                api_key: logicmd::run::openai::Secret::new(KEY),
                timeout_ms: 1,
                stream: true,
            }
        ),
        Flags::command().render_long_help().to_string(),
    ];
    for (i, output) in outputs.iter().enumerate() {
        assert!(!output.contains(KEY), "output {i} has the key: {output}");
    }
    // The server did see it, and echoed it where it could.
    assert_eq!(
        refused.requests()[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert!(outputs[0].contains("[redacted]"));
    assert!(tokens.contains("[redacted]"));
    // The answers holding the key were refused, saying why, and the clean ones kept whole.
    let refusals = second
        .trace
        .iter()
        .filter(|e| {
            e["event"] == "model_responded"
                && e["error"]["message"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("the answer holds the API key"))
        })
        .count();
    assert_eq!(refusals, 2);
    let answers: Vec<&str> = second
        .trace
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(answers, ["a clean first answer", "a clean second answer"]);
}

#[test]
fn answers_are_never_rewritten_for_a_placeholder_key() {
    let document = "---\nspec_version: \"1.0\"\nname: local\nreasoning:\n  strategy: cot\nsteps:\n  first:\n    description: Free text\n  second:\n    description: JSON\n    needs: [first]\n    output_schema:\n      type: object\n      required: [answer]\n      properties:\n        answer: {type: string}\n---\n";
    for key in ["ollama", "a"] {
        let server = Loopback::start(vec![
            completion("ollama is a local model runner"),
            completion(r#"{"answer": "a tool that runs models locally"}"#),
        ]);
        let mut provider = OpenAiProvider::new(Resolved {
            base_url: server.base_url(),
            model: Some("llama3.1".to_owned()),
            model_overrides_document: false,
            api_key: logicmd::run::openai::Secret::new(key),
            timeout_ms: 5_000,
            stream: false,
        });
        let run = drive(
            source("local.logic.md", document, &[]),
            json!({}),
            &mut provider,
        );
        let answers: Vec<&str> = run
            .trace
            .iter()
            .filter_map(|e| e["text"].as_str())
            .collect();
        assert_eq!(
            answers,
            [
                "ollama is a local model runner",
                r#"{"answer": "a tool that runs models locally"}"#
            ],
            "key {key}"
        );
        assert!(
            matches!(run.ending, Some(logicmd::run::ActionKind::Complete { .. })),
            "key {key}: {:?}",
            run.ending
        );
    }
}

#[test]
fn the_flags_help_names_sources_not_values() {
    insta::assert_snapshot!(Flags::command().render_long_help().to_string());
}

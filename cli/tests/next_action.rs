//! `logicmd next-action`: the seed's engine from the command line, with the scripted provider for
//! every action kind and every invalid-answer path, and the synthetic one offline.

mod harness;

use harness::{run_in, stderr, stdout, Scratch};

const STATE: &str = r#"{
  "user_input": "What is the next step?",
  "current_task": {"id": "I-3.1.1", "title": "Implement the Methodology Engine", "status": "In Progress"},
  "available_tools": [{"name": "file_system_manager.create_file", "description": "Creates a new file.", "parameters": {"file_path": "string", "content": "string"}}],
  "short_term_memory": [{"role": "user", "content": "Let's start."}]
}"#;

fn decide(name: &str, script: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let scratch = Scratch::new(name);
    scratch.write("state.json", STATE);
    scratch.write("answers.yaml", script);
    let mut args = vec![
        "next-action",
        "--state",
        "state.json",
        "--provider",
        "scripted:answers.yaml",
    ];
    args.extend_from_slice(extra);
    let out = run_in(&scratch.0, &args, None);
    (out.status.code(), stdout(&out), stderr(&out))
}

#[test]
fn every_action_kind_is_printed_as_the_seeds_json() {
    let cases = [
        (
            "- {node: next_action, json: {action: execute_tool, tool_name: file_system_manager.create_file, parameters: {file_path: src/main.py, content: '# Start'}}}\n",
            "{\n  \"action\": \"execute_tool\",\n  \"tool_name\": \"file_system_manager.create_file\",\n  \"parameters\": {\n    \"file_path\": \"src/main.py\",\n    \"content\": \"# Start\"\n  }\n}\n",
        ),
        (
            "- {node: next_action, json: {action: ask_user, question: What next?}}\n",
            "{\n  \"action\": \"ask_user\",\n  \"question\": \"What next?\"\n}\n",
        ),
        (
            "- {node: next_action, json: {action: complete_task, final_message: Done.}}\n",
            "{\n  \"action\": \"complete_task\",\n  \"final_message\": \"Done.\"\n}\n",
        ),
    ];
    for (i, (script, expected)) in cases.iter().enumerate() {
        let (code, out, err) = decide(&format!("kind-{i}"), script, &[]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out, *expected);
    }
}

#[test]
fn invalid_answers_are_refused_with_the_reason_and_bounded() {
    let script = "- {node: next_action, attempt: 1, text: 'I would create a file'}\n- {node: next_action, attempt: 2, json: {action: execute_tool, tool_name: shell, parameters: {}}}\n- {node: next_action, attempt: 3, json: {action: execute_tool, tool_name: file_system_manager.create_file, parameters: {file_path: 1, content: x}}}\n- {node: next_action, attempt: 4, json: {action: fly}}\n";
    let (code, out, err) = decide("invalid", script, &["--max-attempts", "4"]);
    assert_eq!(code, Some(1));
    assert_eq!(out, "");
    insta::assert_snapshot!("next_action_invalid", err);
    let (code, out, _) = decide(
        "recovers",
        script
            .replace(
                "attempt: 4, json: {action: fly}",
                "attempt: 4, json: {action: ask_user, question: Which file?}",
            )
            .as_str(),
        &["--max-attempts", "4"],
    );
    assert_eq!(code, Some(0));
    assert!(out.contains("Which file?"), "{out}");
}

#[test]
fn the_dry_run_answers_offline_and_bad_states_are_usage_errors() {
    let scratch = Scratch::new("dry");
    scratch.write("state.json", STATE);
    let out = run_in(
        &scratch.0,
        &["next-action", "--state", "state.json", "--dry-run"],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let action: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(action["action"], "execute_tool");
    scratch.write(
        "bad.json",
        r#"{"available_tools": [{"name": "t", "parameters": {"path": "filename"}}]}"#,
    );
    let out = run_in(
        &scratch.0,
        &["next-action", "--state", "bad.json", "--dry-run"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: the state cannot be used: parameter `path` of `t` has the type \"filename\"; expected one of string, number, integer, boolean, object, array, null\n"
    );
}

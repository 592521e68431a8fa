use serde_json::json;

use super::*;

fn state() -> State {
    serde_json::from_value(json!({
        "user_input": "What is the next step?",
        "current_task": {"id": "I-3.1.1", "title": "Implement the Methodology Engine", "status": "In Progress"},
        "available_tools": [{
            "name": "file_system_manager.create_file",
            "description": "Creates a new file at a specified path.",
            "parameters": {"file_path": "string", "content": "string"}
        }],
        "short_term_memory": [
            {"role": "user", "content": "Let's start the implementation."},
            {"role": "assistant", "action": "execute_tool('file_system_manager.create_file', ...)"},
            {"role": "system", "observation": "File created successfully."}
        ]
    }))
    .unwrap()
}

fn start(options: DecisionOptions) -> (Decision, ModelRequest) {
    Decision::start(state(), options).expect("a usable state")
}

#[test]
fn the_prompt_has_the_role_goal_tools_history_and_format() {
    let (_, request) = start(DecisionOptions::default());
    assert!(request.system.contains("Implement the Methodology Engine"));
    assert!(request
        .system
        .contains("### `file_system_manager.create_file`"));
    assert!(request.system.contains("\"file_path\""));
    assert!(request.system.contains("\"action\": \"complete_task\""));
    let roles: Vec<&str> = request.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user", "user"]);
    assert_eq!(
        request.messages[2].content,
        "observation: File created successfully."
    );
    assert_eq!(request.messages[3].content, "What is the next step?");
    assert!(request.json);
}

#[test]
fn each_action_kind_is_accepted() {
    let answers = [
        (
            r##"{"action": "execute_tool", "tool_name": "file_system_manager.create_file", "parameters": {"file_path": "src/main.py", "content": "# Start"}}"##,
            NextAction::ExecuteTool {
                tool_name: "file_system_manager.create_file".into(),
                parameters: json!({"file_path": "src/main.py", "content": "# Start"}),
            },
        ),
        (
            r#"{"action": "ask_user", "question": "What next?"}"#,
            NextAction::AskUser {
                question: "What next?".into(),
            },
        ),
        (
            "```json\n{\"action\": \"complete_task\", \"final_message\": \"Done.\"}\n```",
            NextAction::CompleteTask {
                final_message: "Done.".into(),
            },
        ),
    ];
    for (answer, expected) in answers {
        let (mut decision, _) = start(DecisionOptions::default());
        assert_eq!(decision.feed(answer), Step::Done(expected));
    }
}

#[test]
fn invalid_answers_are_asked_again_with_the_reason_then_fail() {
    let (mut decision, _) = start(DecisionOptions::default());
    let Step::Retry { request, problems } = decision.feed("I think we should create a file") else {
        panic!("retry expected");
    };
    assert!(problems[0].contains("not JSON"), "{problems:?}");
    assert!(request
        .messages
        .last()
        .unwrap()
        .content
        .contains("not JSON"));
    let Step::Retry { problems, .. } =
        decision.feed(r#"{"action": "execute_tool", "tool_name": "shell", "parameters": {}}"#)
    else {
        panic!("retry expected");
    };
    assert!(
        problems
            .iter()
            .any(|p| p.contains("shell") || p.contains("tool_name")),
        "{problems:?}"
    );
    let failed = decision.feed(
        r#"{"action": "execute_tool", "tool_name": "file_system_manager.create_file", "parameters": {"file_path": 7}}"#,
    );
    let Step::Failed(problems) = failed else {
        panic!("the third invalid answer fails: {failed:?}");
    };
    assert!(
        problems.iter().any(|p| p.contains("parameters")),
        "{problems:?}"
    );
    assert_eq!(decision.attempts(), 3);
}

#[test]
fn a_logic_md_document_supplies_strategy_and_gates() {
    let spec = json!({
        "spec_version": "1.0", "name": "careful-agent",
        "reasoning": {"strategy": "plan-execute", "temperature": 0.1},
        "quality_gates": {"pre_output": [{
            "name": "no_questions", "check": "{{ output.action != 'ask_user' }}",
            "message": "Decide without asking the user", "severity": "error"
        }]}
    });
    let (mut decision, request) = start(DecisionOptions {
        max_attempts: 2,
        spec: Some(spec),
    });
    assert!(request.system.contains("## Role: careful-agent"));
    assert!(request.system.contains("Reasoning strategy: plan-execute"));
    assert_eq!(request.temperature, Some(0.1));
    let Step::Retry { problems, .. } =
        decision.feed(r#"{"action": "ask_user", "question": "Which file?"}"#)
    else {
        panic!("the gate refuses");
    };
    assert_eq!(problems, ["Decide without asking the user"]);
    assert_eq!(
        decision.feed(r#"{"action": "complete_task", "final_message": "Nothing left."}"#),
        Step::Done(NextAction::CompleteTask {
            final_message: "Nothing left.".into()
        })
    );
}

#[test]
fn unusable_states_are_refused_with_reasons() {
    let mut bad = state();
    bad.available_tools.push(bad.available_tools[0].clone());
    bad.available_tools[0].parameters = json!({"path": "filename"});
    let problems = Decision::start(bad, DecisionOptions::default()).unwrap_err();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("`path`"));
    assert!(problems[1].contains("listed twice"));
}

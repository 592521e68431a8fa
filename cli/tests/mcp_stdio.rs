//! `logicmd mcp` as an agent meets it: rmcp's client starts the real binary over standard
//! input/output, lists the tools and calls every one with a good and a bad document; results
//! are compared whole with their snapshots and checked against each tool's output schema.

mod harness;
mod mcp_support;

use harness::Scratch;
use mcp_support::{misuse, stdio, structured};
use rmcp::model::ReadResourceRequestParams;
use serde_json::{json, Value};

const GOOD: &str = "---\nspec_version: \"1.0\"\nname: research\ndescription: Gathers sources and writes a report\nsteps:\n  gather:\n    description: Gather sources\n    instructions: Search for sources.\n  report:\n    description: Write the report\n    needs: [gather]\n---\n# Research\n";
/// Valid against the schema, wrong for the linter: `needs` names a step that does not exist
/// (`gathr`), which the language server's quick fix repairs.
const TYPO: &str = "---\nspec_version: \"1.0\"\nname: research\ndescription: Gathers sources\nsteps:\n  gather:\n    description: Gather sources\n  report:\n    description: Write the report\n    needs: [gathr]\n---\n";
/// Not LOGIC.md v1.0: a string where the schema wants a mapping.
const BROKEN: &str = "---\nspec_version: \"1.0\"\nname: research\nsteps: nope\n---\n";
/// A topology whose output reaches `publish` unverified (`check` finds it).
const TOPOLOGY: &str = include_str!("../../tests/drtl/linear.drtl.yaml");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_is_listed_with_an_input_and_an_output_schema() {
    let client = stdio(&[]).await;
    let tools = client.list_all_tools().await.unwrap();
    let listed: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let input = &tool.input_schema;
            let output = tool.output_schema.as_ref().expect("every tool has an output schema");
            assert_eq!(input.get("type"), Some(&json!("object")), "{}", tool.name);
            assert_eq!(output.get("type"), Some(&json!("object")), "{}", tool.name);
            let annotations = tool.annotations.as_ref().expect("annotations");
            json!({
                "name": tool.name,
                "title": tool.title,
                "arguments": input.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect::<Vec<_>>()),
                "required": input.get("required"),
                "read_only": annotations.read_only_hint,
            })
        })
        .collect();
    insta::assert_json_snapshot!(listed);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn document_tools_answer_as_the_cli_and_a_bad_document_is_a_result() {
    let client = stdio(&[]).await;
    let mut answers = serde_json::Map::new();
    for (tool, arguments) in [
        ("validate good", json!({ "text": GOOD })),
        ("validate broken", json!({ "text": BROKEN })),
        ("validate topology", json!({ "text": TOPOLOGY })),
        ("lint typo", json!({ "text": TYPO, "fix": "safe" })),
        ("lint broken", json!({ "text": BROKEN })),
        (
            "fmt good",
            json!({ "text": "---\nname: research # the name\nspec_version: \"1.0\"\n---\n" }),
        ),
        ("fmt broken", json!({ "text": "---\nname: [\n---\n" })),
        ("fmt topology", json!({ "text": TOPOLOGY })),
        (
            "compile_step good",
            json!({ "text": GOOD, "step": "report" }),
        ),
        (
            "compile_step broken",
            json!({ "text": TYPO, "step": "report" }),
        ),
        ("compile_workflow good", json!({ "text": GOOD })),
        ("compile_workflow broken", json!({ "text": BROKEN })),
        (
            "graph mermaid",
            json!({ "text": GOOD, "format": "mermaid" }),
        ),
        (
            "graph dot topology",
            json!({ "text": TOPOLOGY, "format": "dot" }),
        ),
        ("graph broken", json!({ "text": BROKEN })),
        ("check good", json!({ "text": GOOD })),
        ("check topology", json!({ "text": TOPOLOGY })),
        ("check broken", json!({ "text": BROKEN })),
        ("explain_rule", json!({ "code": "unknown-need" })),
    ] {
        let name = tool.split(' ').next().unwrap();
        answers.insert(tool.to_owned(), structured(&client, name, arguments).await);
    }
    insta::assert_json_snapshot!(Value::Object(answers));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_json_is_the_laid_out_model() {
    let client = stdio(&[]).await;
    let graph = structured(&client, "graph", json!({ "text": GOOD })).await;
    let names: Vec<&str> = graph["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|node| node["name"].as_str())
        .collect();
    assert_eq!(names, ["gather", "report"]);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_apply_in_order_and_a_refused_edit_changes_nothing() {
    let client = stdio(&[]).await;
    let renamed = structured(
        &client,
        "edit",
        json!({ "text": GOOD, "edits": [
            { "op": "rename_step", "from": "gather", "to": "collect" },
            { "op": "set", "path": "steps.report.description", "value": "Write it up" },
        ]}),
    )
    .await;
    let refused = structured(
        &client,
        "edit",
        json!({ "text": GOOD, "edits": [
            { "op": "rename_step", "from": "gather", "to": "collect" },
            { "op": "connect", "from": "report", "to": "collect" },
        ]}),
    )
    .await;
    insta::assert_json_snapshot!(json!({ "renamed": renamed, "refused": refused }));
    // The patches and the inverse both hold: applied to the original, the new text; applied to
    // the new text, the original.
    let patch = &renamed["patches"][0];
    let (start, end) = (
        patch["start"].as_u64().unwrap() as usize,
        patch["end"].as_u64().unwrap() as usize,
    );
    let rebuilt = format!(
        "{}{}{}",
        &GOOD[..start],
        patch["text"].as_str().unwrap(),
        &GOOD[end..]
    );
    assert_eq!(rebuilt, renamed["text"].as_str().unwrap());
    let undone = structured(
        &client,
        "edit",
        json!({ "text": renamed["text"], "edits": renamed["inverse"] }),
    )
    .await;
    assert_eq!(undone["text"], GOOD);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fix_lint_offers_is_an_edit_the_edit_tool_applies() {
    let client = stdio(&[]).await;
    let linted = structured(&client, "lint", json!({ "text": TYPO })).await;
    let fixes = linted["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "unknown-need")
        .map(|d| d["fixes"].clone())
        .unwrap();
    let edited = structured(
        &client,
        "edit",
        json!({ "text": TYPO, "edits": fixes[0]["edits"] }),
    )
    .await;
    let again = structured(&client, "lint", json!({ "text": edited["text"] })).await;
    assert_eq!(again["passed"], true, "{again:#}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traces_are_checked_against_builtins_and_formulas() {
    let client = stdio(&[]).await;
    let trace = [
        json!({"event": "run_started", "t": 0, "kind": "logic"}),
        json!({"event": "node_started", "t": 1, "node": "gather"}),
        json!({"event": "run_completed", "t": 2, "output": {}}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    let checked = structured(
        &client,
        "trace_check",
        json!({ "trace": trace, "rules": ["ends=F event(event=run_completed)"] }),
    )
    .await;
    insta::assert_json_snapshot!(checked);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn misuse_is_a_tool_error_that_says_what_to_give() {
    let client = stdio(&[]).await;
    let mut said = Vec::new();
    for (name, arguments) in [
        ("validate", json!({})),
        ("validate", json!({ "text": GOOD, "path": "a.logic.md" })),
        ("validate", json!({ "text": 7 })),
        ("validate", json!({ "path": "a.logic.md" })),
        ("compile_step", json!({ "text": GOOD, "step": "nope" })),
        ("edit", json!({ "text": GOOD, "edits": [] })),
        (
            "edit",
            json!({ "text": GOOD, "edits": [{ "op": "teleport" }] }),
        ),
        ("trace_check", json!({ "trace": "{not json" })),
        ("trace_check", json!({ "trace": "", "rules": ["G ("] })),
        ("explain_rule", json!({ "code": "unknown-ned" })),
    ] {
        said.push(json!({ "tool": name, "arguments": arguments, "error": misuse(&client, name, arguments.clone()).await }));
    }
    insta::assert_json_snapshot!(said);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_are_the_schemas_the_specs_and_the_rules() {
    let client = stdio(&[]).await;
    let listed: Vec<String> = client
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri.clone())
        .collect();
    let templates: Vec<String> = logicmd::templates::TEMPLATES
        .iter()
        .map(|t| format!("logicmd://template/{}", t.name))
        .collect();
    let mut expected: Vec<String> = [
        "logicmd://schema",
        "logicmd://schema/drtl",
        "logicmd://spec",
        "logicmd://spec/drtl",
        "logicmd://rules",
    ]
    .map(String::from)
    .to_vec();
    expected.extend(templates);
    assert_eq!(listed, expected);
    let text = |result: rmcp::model::ReadResourceResult| match &result.contents[0] {
        rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("not text: {other:?}"),
    };
    let schema = text(
        client
            .read_resource(ReadResourceRequestParams::new("logicmd://schema"))
            .await
            .unwrap(),
    );
    assert_eq!(schema, logicmd::schema::SCHEMA_JSON);
    let spec = text(
        client
            .read_resource(ReadResourceRequestParams::new("logicmd://spec"))
            .await
            .unwrap(),
    );
    assert!(spec.starts_with("LOGIC.md Specification v1.0"));
    let rules: Value = serde_json::from_str(&text(
        client
            .read_resource(ReadResourceRequestParams::new("logicmd://rules"))
            .await
            .unwrap(),
    ))
    .unwrap();
    let count: usize = logicmd::lint::rules::FAMILIES
        .iter()
        .map(|f| f.rules.len())
        .sum();
    assert_eq!(rules.as_array().unwrap().len(), count);
    assert!(client
        .read_resource(ReadResourceRequestParams::new("logicmd://nothing"))
        .await
        .is_err());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_under_the_root_is_read_with_its_imports() {
    let scratch = Scratch::new("mcp-path");
    scratch.write("shared/lib.logic.md", "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  normalize:\n    description: Normalise\n---\n");
    scratch.write(
        "main.logic.md",
        "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - ref: ./shared/lib.logic.md\n    as: lib\nsteps:\n  go:\n    description: Go\n    needs: [lib.normalize]\n---\n",
    );
    let root = scratch.0.to_string_lossy().into_owned();
    let client = stdio(&["--root", &root]).await;
    let linted = structured(&client, "lint", json!({ "path": "main.logic.md" })).await;
    assert_eq!(linted["file"], "main.logic.md");
    assert_eq!(linted["passed"], true, "{linted:#}");
    client.cancel().await.unwrap();
}

/// The same file gets the same diagnostics from the MCP tools as from the CLI's `--format json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_give_the_diagnostics_the_cli_gives() {
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = repository.to_string_lossy().into_owned();
    let client = stdio(&["--root", &root]).await;
    for file in [
        "examples/competitive-analyst.logic.md",
        "examples/research-workflow.logic.md",
        "tests/drtl/linear.drtl.yaml",
        "tests/drtl/gate-review.drtl.yaml",
        "tests/rules/logic/unknown-need.logic.md",
        "tests/rules/logic/step-cycle.logic.md",
    ] {
        for tool in ["validate", "lint", "check"] {
            let mut arguments = vec![tool, file, "--format", "json"];
            if tool != "validate" {
                arguments.extend(["--root", &root]);
            }
            let output = std::process::Command::new(env!("CARGO_BIN_EXE_logicmd"))
                .args(&arguments)
                .current_dir(&repository)
                .output()
                .unwrap();
            let cli: Value = serde_json::from_slice(&output.stdout).unwrap();
            let mcp = structured(&client, tool, json!({ "path": file })).await;
            let mut diagnostics = mcp["diagnostics"].clone();
            for diagnostic in diagnostics.as_array_mut().unwrap() {
                diagnostic.as_object_mut().unwrap().remove("fixes");
            }
            assert_eq!(diagnostics, cli[0]["diagnostics"], "{tool} {file}");
            assert_eq!(mcp["valid"], cli[0]["valid"], "{tool} {file}");
            assert_eq!(mcp["passed"], cli[0]["passed"], "{tool} {file}");
        }
    }
    client.cancel().await.unwrap();
}

/// Every template `init` offers, named, validates, lints and checks clean through the tools, and
/// its resource is its text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_starts_from_templates_that_lint_and_check_clean() {
    let client = stdio(&[]).await;
    let listed = structured(&client, "list_templates", json!({})).await;
    let names: Vec<&str> = listed["templates"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let expected: Vec<&str> = logicmd::templates::TEMPLATES
        .iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, expected);
    assert_eq!(listed["default"], "minimal");
    for template in logicmd::templates::TEMPLATES {
        let started = structured(
            &client,
            "init",
            json!({ "template": template.name, "name": "my agent" }),
        )
        .await;
        let text = started["text"].as_str().unwrap();
        assert!(text.contains("name: my agent"), "{text}");
        let extension = if template.kind == logicmd::analysis::Kind::Drtl {
            "drtl.yaml"
        } else {
            "logic.md"
        };
        assert_eq!(started["file_name"], format!("my agent.{extension}"));
        for tool in ["lint", "check"] {
            let verdict = structured(&client, tool, json!({ "text": text })).await;
            assert_eq!(
                verdict["diagnostics"],
                json!([]),
                "{} {tool}: {verdict:#}",
                template.name
            );
        }
        let read = client
            .read_resource(ReadResourceRequestParams::new(format!(
                "logicmd://template/{}",
                template.name
            )))
            .await
            .unwrap();
        assert!(
            matches!(&read.contents[0], rmcp::model::ResourceContents::TextResourceContents { text, .. } if text == template.text)
        );
    }
    let minimal = structured(&client, "init", json!({})).await;
    assert_eq!(minimal["template"], "minimal");
    let said = misuse(&client, "init", json!({ "template": "reakt" })).await;
    assert_eq!(said, "no template named `reakt`: did you mean `react`?");
    let said = misuse(&client, "init", json!({ "name": " " })).await;
    assert_eq!(said, "a document's name cannot be empty");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_carry_the_task_the_template_and_the_diagnostics() {
    use rmcp::model::GetPromptRequestParams;
    let client = stdio(&[]).await;
    let listed: Vec<(String, Vec<(String, bool)>)> = client
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|prompt| {
            let arguments = prompt
                .arguments
                .unwrap_or_default()
                .into_iter()
                .map(|a| (a.name, a.required.unwrap_or(false)))
                .collect();
            (prompt.name, arguments)
        })
        .collect();
    insta::assert_json_snapshot!(listed);
    let texts = |messages: &[rmcp::model::PromptMessage]| -> Vec<String> {
        messages
            .iter()
            .map(|m| match (m.content.as_text(), m.content.as_resource()) {
                (Some(text), _) => text.text.clone(),
                (_, Some(resource)) => resource.get_text(),
                _ => format!("{:?}", m.content),
            })
            .collect()
    };
    let get = |name: &str, arguments: Value| {
        GetPromptRequestParams::new(name).with_arguments(mcp_support::object(arguments))
    };
    let written = client
        .get_prompt(get(
            "write_logic_md",
            json!({ "task": "Triage support tickets by urgency" }),
        ))
        .await
        .unwrap();
    let written = texts(&written.messages);
    assert!(written[0].contains("Triage support tickets by urgency"));
    assert_eq!(
        written[1],
        logicmd::templates::find("minimal").unwrap().text
    );
    let fixing = client
        .get_prompt(get("fix_diagnostics", json!({ "text": TYPO })))
        .await
        .unwrap();
    let fixing = texts(&fixing.messages).join("\n");
    assert!(fixing.contains("\"code\": \"unknown-need\""), "{fixing}");
    assert!(fixing.contains("Replace `gathr` with `gather`"), "{fixing}");
    assert!(fixing.contains(TYPO));
    assert!(client
        .get_prompt(get("write_logic_md", json!({})))
        .await
        .is_err());
    assert!(client
        .get_prompt(get("fix_diagnostics", json!({ "path": "x.logic.md" })))
        .await
        .is_err());
    assert!(client.get_prompt(get("poem", json!({}))).await.is_err());
    let templates = client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "logicmd://file/{path}");
    client.cancel().await.unwrap();
}

/// `lint`'s `fix` gives the text `logicmd lint --fix` (and `--unsafe-fixes`) writes, for every
/// rule fixture.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_fix_gives_the_text_lint_fix_writes() {
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scratch = Scratch::new("mcp-fix");
    let root = scratch.0.to_string_lossy().into_owned();
    let client = stdio(&["--root", &root]).await;
    let mut fixed = 0;
    for entry in std::fs::read_dir(repository.join("tests/rules/logic")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".logic.md") {
            continue; // directories of fixtures with imports
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (level, flags) in [
            ("safe", vec!["--fix"]),
            ("unsafe", vec!["--fix", "--unsafe-fixes"]),
        ] {
            let copy = scratch.write(&name, &text);
            let mcp = structured(&client, "lint", json!({ "path": name, "fix": level })).await;
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_logicmd"))
                .arg("lint")
                .arg(&copy)
                .args(&flags)
                .args(["--root", &root])
                .output()
                .unwrap();
            assert!(status.status.code().is_some());
            let written = std::fs::read_to_string(&copy).unwrap();
            assert_eq!(mcp["fixed"]["text"], written, "{name} {level}");
            fixed += usize::from(written != text);
        }
    }
    assert!(
        fixed > 0,
        "no fixture was fixed: the comparison proves nothing"
    );
    client.cancel().await.unwrap();
}

//! `logicmd lsp` driven as an editor drives it: initialize, open, 100 edits, every request the
//! server answers, a file changed on disk, a cancelled request, shutdown — against the real
//! binary over standard input and output, each response compared whole with its snapshot.

mod harness;
mod lsp_client;

use harness::Scratch;
use lsp_client::{position, uri, Client};
use serde_json::{json, Value};

const MAIN: &str = r#"---
spec_version: "1.0"
name: research
description: Gathers sources and writes a report
imports:
  - ref: ./shared/lib.logic.md
    as: lib
contracts:
  inputs:
    - name: query
      type: string
      required: true
steps:
  gather:
    description: Gather sources
    instructions: Search for sources.
    output_schema:
      type: object
      required: [sources]
      properties:
        sources: {type: array, items: {type: string}}
        confidence: {type: number}
  check:
    needs: [gather, lib.normalize]
    description: Check the sources
    verification:
      check: "{{ steps.gather.output.sources.length >= 3 && input.query != '' }}"
      on_fail: retry
  report:
    needs: [check, chek]
    description: Write the report
decision_trees:
  route:
    root: kind
    nodes:
      kind:
        condition: "{{ input.query }}"
        branches:
          - value: short
            next: report
    terminals:
      done: {action: report}
---
# Research

Gathers, checks, reports.
"#;

const LIB: &str = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  normalize:\n    description: Normalize the query\n---\n";

/// The session's responses with the project's path written as `[ROOT]`.
struct Session {
    client: Client,
    root: String,
    main_uri: String,
    text: String,
}

impl Session {
    fn redact(&self, value: Value) -> Value {
        let text = value.to_string().replace(&self.root, "file:///[ROOT]");
        serde_json::from_str(&text).expect("still JSON")
    }

    /// The position just after the first `marker` (or inside it, `within` bytes in).
    fn at(&self, marker: &str, within: usize) -> Value {
        let offset = self
            .text
            .find(marker)
            .unwrap_or_else(|| panic!("`{marker}` is in the text"))
            + within;
        position(&self.text, offset)
    }

    fn ask(&mut self, method: &str, params: Value) -> Value {
        let response = self.client.request(method, params);
        self.redact(response)
    }

    fn at_request(&mut self, method: &str, marker: &str, within: usize, extra: Value) -> Value {
        let mut params = json!({
            "textDocument": {"uri": self.main_uri},
            "position": self.at(marker, within),
        });
        if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            params.extend(extra.clone());
        }
        self.ask(method, params)
    }
}

#[test]
fn a_scripted_editor_session() {
    let scratch = Scratch::new("lsp-session");
    scratch.write("main.logic.md", MAIN);
    scratch.write("shared/lib.logic.md", LIB);
    scratch.write(".git/HEAD", "ref: refs/heads/main\n");
    let root = uri(&scratch.0);
    let main_uri = format!("{root}/main.logic.md");
    let (client, initialized) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 20}));
    let mut s = Session {
        client,
        root: root.clone(),
        main_uri: main_uri.clone(),
        text: MAIN.to_owned(),
    };
    insta::assert_json_snapshot!("initialize", s.redact(initialized));

    s.client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "markdown", "version": 1, "text": MAIN}}),
    );
    let opened = s.client.diagnostics(&main_uri);
    insta::assert_json_snapshot!("diagnostics_on_open", s.redact(opened.clone()));
    assert_eq!(
        places(&opened),
        lint_places(&scratch, "main.logic.md"),
        "the editor shows exactly what `logicmd lint` reports"
    );

    // 100 edits: typing a longer description one character at a time (incremental changes).
    let typed = " for the reader, citing every source gathered and checked in the earlier steps, in plain words, now.";
    assert_eq!(typed.chars().count(), 100);
    let anchor =
        s.text.find("Write the report").expect("the description") + "Write the report".len();
    for (index, c) in typed.chars().enumerate() {
        let offset = anchor + index;
        let at = position(&s.text, offset);
        s.text.insert(offset, c);
        s.client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": main_uri, "version": index + 2},
                "contentChanges": [{"range": {"start": at, "end": at}, "text": c.to_string()}]
            }),
        );
    }
    s.client.forget_diagnostics();
    let after_typing = s.client.diagnostics(&main_uri);
    assert_eq!(
        after_typing["version"], 101,
        "published for the last version"
    );
    assert_eq!(
        after_typing["diagnostics"], opened["diagnostics"],
        "typing in a description changes no diagnostic"
    );
    let document = s.ask(
        "textDocument/formatting",
        json!({"textDocument": {"uri": main_uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    insta::assert_json_snapshot!("formatting", document);
    let range = s.ask(
        "textDocument/rangeFormatting",
        json!({
            "textDocument": {"uri": main_uri},
            "range": {"start": s.at("  check:", 0), "end": s.at("  report:", 0)},
            "options": {"tabSize": 2, "insertSpaces": true}
        }),
    );
    insta::assert_json_snapshot!("range_formatting", range);

    let none = json!({});
    let completions = [
        (
            "completion_step_key",
            "    description: Check the sources",
            4,
            none.clone(),
        ),
        ("completion_needs", "needs: [check, ", 15, none.clone()),
        (
            "completion_expression_steps",
            "steps.gather.output.sources",
            6,
            none.clone(),
        ),
        (
            "completion_expression_fields",
            "steps.gather.output.sources",
            20,
            none.clone(),
        ),
        ("completion_on_fail", "on_fail: retry", 9, none.clone()),
    ];
    for (name, marker, within, extra) in completions {
        let found = s.at_request("textDocument/completion", marker, within, extra);
        insta::assert_json_snapshot!(name, found);
    }
    for (name, marker, within) in [
        ("hover_key", "verification:", 2),
        ("hover_step_reference", "needs: [check", 9),
        ("hover_expression", "sources.length", 3),
        ("hover_lint_code", "chek]", 2),
        ("hover_imported_step", "lib.normalize", 6),
    ] {
        let found = s.at_request("textDocument/hover", marker, within, json!({}));
        insta::assert_json_snapshot!(name, found);
    }
    for (name, marker, within) in [
        ("definition_step", "needs: [gather", 9),
        ("definition_imported_step", "lib.normalize", 6),
        ("definition_tree_next", "next: report", 7),
        ("definition_import_file", "./shared/lib.logic.md", 4),
    ] {
        let found = s.at_request("textDocument/definition", marker, within, json!({}));
        insta::assert_json_snapshot!(name, found);
    }
    let references = s.at_request(
        "textDocument/references",
        "  gather:",
        3,
        json!({"context": {"includeDeclaration": true}}),
    );
    insta::assert_json_snapshot!("references_gather", references);
    let highlights = s.at_request("textDocument/documentHighlight", "  report:", 3, json!({}));
    insta::assert_json_snapshot!("highlights_report", highlights);
    let prepare = s.at_request("textDocument/prepareRename", "steps.gather", 7, json!({}));
    insta::assert_json_snapshot!("prepare_rename", prepare);
    let renamed = s.at_request(
        "textDocument/rename",
        "steps.gather",
        7,
        json!({"newName": "collect"}),
    );
    insta::assert_json_snapshot!("rename_gather", renamed);
    // An imported step is renamed from the importing file too: its part of the name, in the
    // file that defines it (not open) and here.
    let imported = s.at_request("textDocument/prepareRename", "lib.normalize", 6, json!({}));
    insta::assert_json_snapshot!("prepare_rename_imported", imported);
    let renamed_imported = s.at_request(
        "textDocument/rename",
        "lib.normalize",
        6,
        json!({"newName": "canonicalize"}),
    );
    insta::assert_json_snapshot!("rename_imported", renamed_imported);

    let diagnostics = after_typing["diagnostics"].clone();
    let chek = s.text.find("chek]").expect("the typo");
    let actions = s.ask(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": main_uri},
            "range": {"start": position(&s.text, chek), "end": position(&s.text, chek + 4)},
            "context": {"diagnostics": diagnostics}
        }),
    );
    insta::assert_json_snapshot!("code_actions_typo", actions);
    for (name, method) in [
        ("document_symbols", "textDocument/documentSymbol"),
        ("folding_ranges", "textDocument/foldingRange"),
        ("semantic_tokens", "textDocument/semanticTokens/full"),
    ] {
        let found = s.ask(method, json!({"textDocument": {"uri": main_uri}}));
        insta::assert_json_snapshot!(name, found);
    }
    let end = position(&s.text, s.text.len());
    let hints = s.ask(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": main_uri}, "range": {"start": {"line": 0, "character": 0}, "end": end}}),
    );
    insta::assert_json_snapshot!("inlay_hints", hints);

    // The imported file changes on disk: the file that imports it is checked again.
    scratch.write("shared/lib.logic.md", LIB.replace("normalize", "normalise"));
    s.client.forget_diagnostics();
    s.client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": format!("{root}/shared/lib.logic.md"), "type": 2}]}),
    );
    let rechecked = s.client.diagnostics(&main_uri);
    insta::assert_json_snapshot!("diagnostics_after_import_changed", s.redact(rechecked));

    // A request the client cancelled before the server reached it is answered as cancelled.
    s.client.notify("$/cancelRequest", json!({"id": 900}));
    s.client.send(&json!({
        "jsonrpc": "2.0", "id": 900, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": main_uri}, "position": {"line": 1, "character": 1}}
    }));
    let cancelled = s.client.response(900);
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");

    let (shutdown, status) = s.client.shut_down();
    assert_eq!(shutdown["result"], Value::Null);
    assert_eq!(status, Some(0), "exit after shutdown is a clean exit");
}

/// (code, 1-based line, 1-based column, message) of published diagnostics.
fn places(published: &Value) -> Vec<(String, u64, u64, String)> {
    published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| {
            let message = d["message"].as_str().unwrap_or_default();
            let message = message.split("\nhelp: ").next().unwrap_or_default();
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap_or_default() + 1,
                d["range"]["start"]["character"]
                    .as_u64()
                    .unwrap_or_default()
                    + 1,
                message.to_owned(),
            )
        })
        .collect()
}

/// The same of `logicmd lint --format json FILE` (or `check`'s for DRTL) in the project.
fn lint_places(scratch: &Scratch, file: &str) -> Vec<(String, u64, u64, String)> {
    let output = harness::run_in(&scratch.0, &["lint", "--format", "json", file], None);
    let report: Value = serde_json::from_slice(&output.stdout).expect("lint writes JSON");
    report[0]["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["line"].as_u64().unwrap_or_default(),
                d["column"].as_u64().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_drtl_topology_gets_lint_and_check_diagnostics() {
    let scratch = Scratch::new("lsp-drtl");
    let topology = concat!(
        "name: t\nnodes:\n",
        "  - id: draft\n    type: generate\n    prompt: Draft it\n    output_key: draft\n",
        "  - id: revise\n    type: generate\n    prompt: Revise it\n    output_key: draft\n",
        "edges:\n  - from: draft\n    to: revise\n  - from: revise\n    to: drft\n",
    );
    scratch.write("flow.drtl.yaml", topology);
    let root = uri(&scratch.0);
    let (mut client, _) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 10}));
    let file = format!("{root}/flow.drtl.yaml");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "yaml", "version": 1, "text": topology}}),
    );
    let found = client.diagnostics(&file);
    let text = found.to_string().replace(&root, "file:///[ROOT]");
    insta::assert_json_snapshot!(
        "drtl_diagnostics",
        serde_json::from_str::<Value>(&text).unwrap()
    );
    let fixed = topology.replace("drft", "draft");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": file, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let found = client.diagnostics(&file);
    let text = found.to_string().replace(&root, "file:///[ROOT]");
    insta::assert_json_snapshot!(
        "drtl_diagnostics_fixed",
        serde_json::from_str::<Value>(&text).unwrap()
    );
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
}

/// The project's logicmd.toml counts in the editor as in `logicmd lint`: ignored and re-graded
/// rules, a settings file edited while open, and an unusable one said once.
#[test]
fn the_projects_settings_apply_as_lint_applies_them() {
    let scratch = Scratch::new("lsp-settings");
    let document = concat!(
        "---\nspec_version: \"1.0\"\nname: demo\nsteps:\n",
        "  a:\n    description: A\n    instructions: Do a.\n",
        "  b:\n    description: B\n    instructions: \"{{ steps.a.output }}\"\n---\n",
    );
    scratch.write("flows/doc.logic.md", document);
    scratch.write(
        "logicmd.toml",
        "[lint]\nignore = [\"unwaited-step-read\"]\n",
    );
    let root = uri(&scratch.0);
    let (mut client, _) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 10}));
    let file = format!("{root}/flows/doc.logic.md");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": document}}),
    );
    let ignored = places(&client.diagnostics(&file));
    assert_eq!(ignored, lint_places(&scratch, "flows/doc.logic.md"));
    assert_eq!(ignored, []);

    let settings_changed = |client: &mut Client, text: &str| {
        scratch.write("logicmd.toml", text);
        client.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": format!("{root}/logicmd.toml"), "type": 2}]}),
        );
        client.diagnostics(&file)
    };
    let regraded = settings_changed(
        &mut client,
        "[lint.severity]\nunwaited-step-read = \"info\"\n",
    );
    assert_eq!(
        places(&regraded),
        lint_places(&scratch, "flows/doc.logic.md")
    );
    let severities: Vec<&Value> = regraded["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["severity"])
        .collect();
    assert_eq!(severities, [&json!(3)], "information, as the settings say");

    let unusable = places(&settings_changed(&mut client, "[lint]\nignroe = []\n"));
    assert_eq!(unusable.len(), 1, "the default rules meanwhile");
    let again = places(&settings_changed(&mut client, "[lint]\nignroe = []\n"));
    assert_eq!(again, unusable);
    let said: Vec<String> = client
        .notifications
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .map(|m| {
            m["params"]["message"]
                .as_str()
                .unwrap_or_default()
                .replace(&scratch.0.to_string_lossy().into_owned(), "[ROOT]")
        })
        .collect();
    insta::assert_snapshot!(said.join("\n---\n"), @r"
    logicmd: the project's settings are not applied until fixed:
    error[config-unknown-key]: unknown setting `lint.ignroe`
     --> [ROOT]/logicmd.toml:2:1
      |
    2 | ignroe = []
      | ^^^^^^
      = help: did you mean `lint.ignore`?
    ");
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
}

//! `logicmd lsp` against what editors and users get wrong or leave out: messages that are not
//! JSON-RPC, a client with no workspace folder, a root that does not exist, and the Markdown
//! and YAML files an editor attaches the server to that are not LOGIC.md or DRTL. The real
//! binary over standard input and output; a server that hangs fails the test (it is waited for
//! with a deadline, then killed).

mod harness;
mod lsp_client;

use std::path::Path;

use harness::Scratch;
use lsp_client::{uri, Client};
use serde_json::{json, Value};

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_logicmd"))
}

fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn initialize(client: &mut Client, root: Option<&Path>) -> Value {
    let root_uri = root.map(uri);
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": root_uri, "capabilities": {}}),
    )
}

#[test]
fn a_message_that_is_not_json_rpc_is_answered_and_the_server_goes_on() {
    let scratch = Scratch::new("lsp-robust-invalid");
    let (mut client, _) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 0}));
    let answers: Vec<(Value, i64)> = [&b"not json"[..], b"[]", b"{}", b"\xff\xfe"]
        .into_iter()
        .map(|body| {
            client.send_raw(&framed(body));
            // The server's own requests (registering file watchers) are not the answer.
            let answer = std::iter::repeat_with(|| client.next_message())
                .find(|message| message.get("method").is_none())
                .unwrap_or_default();
            (
                answer["id"].clone(),
                answer["error"]["code"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        answers,
        [
            (Value::Null, -32700),
            (Value::Null, -32600),
            (Value::Null, -32600),
            (Value::Null, -32700)
        ]
    );
    let (response, status) = client.shut_down();
    assert_eq!((response["result"].clone(), status), (Value::Null, Some(0)));
}

#[test]
fn a_stream_whose_framing_is_broken_ends_the_server_instead_of_hanging() {
    let scratch = Scratch::new("lsp-robust-framing");
    let (mut client, _) = Client::start(&scratch.0, json!({}));
    client.send_raw(b"Content-Length: abc\r\n\r\n{}");
    assert_eq!(client.exit_status(), Some(1));
}

#[test]
fn a_client_without_a_workspace_folder_is_served_from_where_it_started_the_server() {
    let scratch = Scratch::new("lsp-robust-no-root");
    scratch.dir(".git");
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather: {description: G}\n---\n";
    let main = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    needs: [lib.gather]\n    description: A\n---\n";
    scratch.write("lib.logic.md", lib);
    let path = scratch.write("main.logic.md", main);
    let mut client = Client::spawn(binary(), &scratch.0);
    let answer = initialize(&mut client, None);
    assert_eq!(answer["result"]["serverInfo"]["name"], "logicmd");
    client.notify("initialized", json!({}));
    let file = uri(&path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": main}}),
    );
    // The import resolves inside the directory the server started in: no diagnostic.
    assert_eq!(client.diagnostics(&file)["diagnostics"], json!([]));
    let (response, status) = client.shut_down();
    assert_eq!((response["result"].clone(), status), (Value::Null, Some(0)));
}

/// A file opened from outside the workspace folder imports from its own project, as
/// `logicmd lint` reads it (it was told its sibling did not exist).
#[test]
fn a_file_outside_the_workspace_folder_imports_from_its_own_project() {
    let scratch = Scratch::new("lsp-robust-outside");
    let project = scratch.dir("project");
    scratch.dir("elsewhere/.git");
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  g: {description: G}\n---\n";
    let main = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    description: A\n    needs: [lib.g]\n---\n";
    scratch.write("elsewhere/lib.logic.md", lib);
    let path = scratch.write("elsewhere/main.logic.md", main);
    let (mut client, _) = Client::start(&project, json!({"diagnosticsDelayMs": 0}));
    let file = uri(&path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": main}}),
    );
    assert_eq!(client.diagnostics(&file)["diagnostics"], json!([]));
    let broken = main.replace("./lib.logic.md", "./missing.logic.md");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": file, "version": 2}, "contentChanges": [{"text": broken}]}),
    );
    let codes: Vec<Value> = client.diagnostics(&file)["diagnostics"]
        .as_array()
        .map(|list| list.iter().map(|d| d["code"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(
        codes,
        [json!("unresolved-reference"), json!("unknown-need")]
    );
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
}

#[test]
fn a_root_that_does_not_exist_is_refused_in_the_answer_to_initialize() {
    let scratch = Scratch::new("lsp-robust-bad-root");
    let mut client = Client::spawn(binary(), &scratch.0);
    let missing = scratch.0.join("no-such-folder");
    let answer = initialize(&mut client, Some(&missing));
    assert_eq!(answer["error"]["code"], -32602);
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert_eq!(
        scratch.redact(message),
        "cannot open the project root [SCRATCH]/no-such-folder: No such file or directory (os error 2); pass `--root DIR` or open a folder that exists"
    );
    // The client still holds standard input open: the server ends by itself all the same.
    assert_eq!(client.exit_status(), Some(2));
}

#[test]
fn other_markdown_and_yaml_get_nothing_and_logic_md_by_its_content_is_served() {
    let scratch = Scratch::new("lsp-robust-other-files");
    let (mut client, _) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 0}));
    let files = [
        ("README.md", "# A project\n\nNot LOGIC.md.\n"),
        (
            "docs/post.md",
            "---\ntitle: A post\nlayout: post\n---\n# Hello\n",
        ),
        (
            "docker-compose.yaml",
            "services:\n  web:\n    image: nginx\n",
        ),
        (
            "notes/plan.md",
            "---\nspec_version: \"1.0\"\nname: plan\nsteps:\n  a:\n    needs: [zz]\n---\n",
        ),
    ];
    let mut found = Vec::new();
    for (name, text) in files {
        let file = uri(&scratch.write(name, text));
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
        );
        let codes: Vec<String> = client.diagnostics(&file)["diagnostics"]
            .as_array()
            .map(|list| list.iter().map(|d| d["code"].to_string()).collect())
            .unwrap_or_default();
        let symbols = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": file}}),
        );
        found.push((name, codes, symbols["result"].is_null()));
    }
    assert_eq!(
        found,
        [
            ("README.md", vec![], true),
            ("docs/post.md", vec![], true),
            ("docker-compose.yaml", vec![], true),
            (
                "notes/plan.md",
                vec![
                    "\"missing-description\"".to_owned(),
                    "\"unknown-need\"".to_owned()
                ],
                false
            ),
        ]
    );
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
}

/// A server with `text` open as `x.logic.md` in `scratch`: the client, the file's URI and the
/// diagnostics published for it.
fn opened(scratch: &Scratch, text: &str) -> (Client, String, Value) {
    let path = scratch.write("x.logic.md", text);
    let (mut client, _) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 0}));
    let file = uri(&path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let diagnostics = client.diagnostics(&file)["diagnostics"].clone();
    (client, file, diagnostics)
}

/// Neovim asks for code actions at the cursor (a collapsed range, here at the start of the
/// line) and passes the line's diagnostics: their fixes are offered.
#[test]
fn the_diagnostics_a_client_passes_get_their_fixes_at_a_collapsed_cursor() {
    let scratch = Scratch::new("lsp-robust-actions");
    let text = "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    description: A\n  b:\n    description: B\n    neds: [a]\n---\n";
    let (mut client, file, diagnostics) = opened(&scratch, text);
    let line = diagnostics[0]["range"]["start"]["line"].clone();
    let cursor = json!({"line": line, "character": 0});
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": file},
            "range": {"start": cursor, "end": cursor},
            "context": {"diagnostics": diagnostics},
        }),
    );
    let titles: Vec<Value> = actions["result"]
        .as_array()
        .map(|list| list.iter().map(|a| a["title"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(titles, [json!("Replace `neds` with `needs`")]);
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
}

/// A quick fix is offered for the diagnostics the client names, never on another one at the
/// same place: quoting `2024-01-01` repairs `ambiguous-scalar`, not `invalid-duration`.
#[test]
fn a_quick_fix_is_offered_only_on_the_diagnostic_it_repairs() {
    let scratch = Scratch::new("lsp-robust-action-owner");
    let text = "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    description: A\n    timeout: 2024-01-01\n---\n";
    let (mut client, file, diagnostics) = opened(&scratch, text);
    let of = |code: &str| -> Value {
        diagnostics
            .as_array()
            .and_then(|list| list.iter().find(|d| d["code"] == code))
            .cloned()
            .unwrap_or_else(|| panic!("no {code} in {diagnostics}"))
    };
    let (duration, ambiguous) = (of("invalid-duration"), of("ambiguous-scalar"));
    let mut asked = |named: Value| -> Vec<(Value, Value)> {
        let actions = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": file},
                "range": duration["range"],
                "context": {"diagnostics": named},
            }),
        );
        actions["result"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|a| (a["title"].clone(), a["diagnostics"].clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let quote = (json!("Quote `2024-01-01`"), json!([ambiguous.clone()]));
    assert_eq!(asked(json!([duration.clone()])), []);
    assert_eq!(
        asked(json!([ambiguous.clone()])),
        std::slice::from_ref(&quote)
    );
    assert_eq!(asked(json!([duration.clone(), ambiguous.clone()])), [quote]);
    // A client that names none gets every fix in the range.
    assert_eq!(asked(json!([])).len(), 1);
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
}

/// The protocol's lifecycle: a second `initialize` is an invalid request, and `exit` before
/// anything else ends the server with the failure status, without a message of its own.
#[test]
fn a_second_initialize_is_refused_and_an_early_exit_fails_quietly() {
    let scratch = Scratch::new("lsp-robust-lifecycle");
    let (mut client, _) = Client::start(&scratch.0, json!({}));
    let again = initialize(&mut client, Some(&scratch.0));
    assert_eq!(
        again["error"],
        json!({"code": -32600, "message": "the server is already initialized"})
    );
    let (_, status) = client.shut_down();
    assert_eq!(status, Some(0));
    let mut early = Client::spawn(binary(), &scratch.0);
    early.notify("exit", Value::Null);
    assert_eq!(early.exit_status(), Some(1));
}

/// An editor that dies without `exit` (a crash, `kill -9`) leaves its server behind unless the
/// server watches the `processId` it was given: it ends by itself, and a live parent keeps it.
#[cfg(unix)]
#[test]
fn the_server_ends_when_the_editor_that_started_it_is_gone() {
    let scratch = Scratch::new("lsp-robust-parent");
    let mut parent = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .expect("a stand-in editor");
    let mut client = Client::spawn(binary(), &scratch.0);
    let answer = client.request(
        "initialize",
        json!({"processId": parent.id(), "rootUri": uri(&scratch.0), "capabilities": {}}),
    );
    assert!(answer["result"]["capabilities"].is_object(), "{answer}");
    client.notify("initialized", json!({}));
    // Alive: the server answers.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nothing.logic.md"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(hover["result"], Value::Null);
    parent.kill().expect("the editor is killed");
    parent.wait().expect("and reaped");
    assert_eq!(client.exit_status(), Some(1));
    // An editor already gone when the server starts.
    let mut client = Client::spawn(binary(), &scratch.0);
    let answer = client.request(
        "initialize",
        json!({"processId": parent.id(), "rootUri": uri(&scratch.0), "capabilities": {}}),
    );
    assert!(answer["result"]["capabilities"].is_object(), "{answer}");
    assert_eq!(client.exit_status(), Some(1));
}

/// Accepting a completion with the cursor inside a word: a client that takes insert-and-replace
/// edits gets both ranges (its setting picks one), so `needs: [gath|er]` can become
/// `needs: [gather]` instead of `needs: [gatherer]`; a client that does not gets the insert
/// range alone, as before.
#[test]
fn a_completion_inside_a_word_offers_to_replace_its_rest() {
    let scratch = Scratch::new("lsp-robust-insert-replace");
    let text = "---\nspec_version: \"1.0\"\nname: m\nsteps:\n  gather: {description: G}\n  report:\n    description: R\n    needs: [gathxx]\n---\n";
    let path = scratch.write("m.logic.md", text);
    let file = uri(&path);
    let cursor = json!({"line": 7, "character": 16});
    let edit_of = |insert_replace: bool| {
        let mut client = Client::spawn(binary(), &scratch.0);
        let capabilities = json!({"textDocument": {"completion": {"completionItem": {"insertReplaceSupport": insert_replace}}}});
        client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(&scratch.0), "capabilities": capabilities}),
        );
        client.notify("initialized", json!({}));
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
        );
        let found = client.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": file}, "position": cursor}),
        );
        let _ = client.shut_down();
        let items = found["result"]["items"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        items
            .into_iter()
            .find(|item| item["label"] == "gather")
            .map(|item| item["textEdit"].clone())
    };
    let range = |start: u32, end: u32| json!({"start": {"line": 7, "character": start}, "end": {"line": 7, "character": end}});
    assert_eq!(
        edit_of(true),
        Some(json!({"newText": "gather", "insert": range(12, 16), "replace": range(12, 18)}))
    );
    assert_eq!(
        edit_of(false),
        Some(json!({"newText": "gather", "range": range(12, 16)}))
    );
}

/// Requests the client cancels while the server is busy are answered `RequestCancelled`, not
/// worked through: the server reads what has arrived before it takes the next request (the
/// requests and their cancellations were written at once, behind a slow formatting).
#[test]
fn requests_cancelled_while_the_server_is_busy_are_not_answered_with_results() {
    let scratch = Scratch::new("lsp-robust-cancel");
    let mut text = String::from("---\nspec_version: \"1.0\"\nname: big\nsteps:\n");
    for i in 0..1500 {
        text.push_str(&format!(
            "  step_{i}:   {{description:   \"S {i}\",   needs: []}}\n"
        ));
    }
    text.push_str("---\n");
    let path = scratch.write("big.logic.md", &text);
    let file = uri(&path);
    let (mut client, _) = Client::start(&scratch.0, json!({"diagnosticsDelayMs": 0}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file, "languageId": "markdown", "version": 1, "text": text}}),
    );
    client.diagnostics(&file);
    let slow = client.send_request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": file}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let mut burst = Vec::new();
    let mut ids = Vec::new();
    for id in 1000..1020 {
        ids.push(id);
        for message in [
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": file}, "position": {"line": 4, "character": 3}}}),
            json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}}),
        ] {
            burst.extend(framed(message.to_string().as_bytes()));
        }
    }
    client.send_raw(&burst);
    assert!(client.response(slow)["result"].is_array());
    let answers: Vec<Value> = ids
        .iter()
        .map(|id| client.response(*id)["error"]["code"].clone())
        .collect();
    assert_eq!(answers, vec![json!(-32800); 20]);
    let _ = client.shut_down();
}

/// `initialize` parameters the protocol does not allow are refused in the answer, naming what
/// is wrong, and the server ends (it ended without an answer).
#[test]
fn initialize_parameters_that_are_not_valid_are_refused_in_the_answer() {
    let scratch = Scratch::new("lsp-robust-bad-init");
    for (params, said) in [
        (
            json!({"processId": "123", "rootUri": null, "capabilities": {}}),
            "`processId`: invalid type: string \"123\", expected u32",
        ),
        (
            json!({"processId": -1, "rootUri": null, "capabilities": {}}),
            "`processId`: invalid value: integer `-1`, expected u32",
        ),
        (
            json!(null),
            "invalid type: null, expected struct InitializeParams",
        ),
        (
            json!({"processId": null, "rootUri": null, "capabilities": {}, "workspaceFolders": {"uri": "x"}}),
            "`workspaceFolders`: invalid type: map, expected a sequence",
        ),
    ] {
        let mut client = Client::spawn(binary(), &scratch.0);
        let answer = client.request("initialize", params.clone());
        assert_eq!(
            answer["error"],
            json!({"code": -32602, "message": format!("the initialize parameters are not valid: {said}")}),
            "{params}"
        );
        assert_eq!(client.exit_status(), Some(2), "{params}");
    }
}

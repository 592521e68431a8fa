//! Files through `logicmd mcp` stay inside the roots: `--root DIR`, or the roots the client
//! lists. Every way out — `..`, an absolute path, a symbolic link to a file or a directory, an
//! import, a resource URI — is refused, and what is inside is read.

#![allow(deprecated)] // Client roots: deprecated from protocol 2026-07-28 (SEP-2577), used today.

mod harness;
mod mcp_support;

use harness::Scratch;
use mcp_support::{misuse, stdio, structured};
use rmcp::model::{
    ArgumentInfo, ClientCapabilities, ClientConfig, CompleteRequestParams, Implementation,
    ListRootsResult, ReadResourceRequestParams, Reference, Root,
};
use rmcp::service::RequestContext;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::json;

const DOCUMENT: &str =
    "---\nspec_version: \"1.0\"\nname: main\nsteps:\n  go:\n    description: Go\n---\n";

/// `project/` (the root) beside `secret.logic.md` and `private/`, with links out of the root.
fn project(name: &str) -> Scratch {
    let scratch = Scratch::new(name);
    scratch.write("project/main.logic.md", DOCUMENT);
    scratch.write("project/sub/inner.logic.md", DOCUMENT);
    scratch.write(
        "project/escape.logic.md",
        "---\nspec_version: \"1.0\"\nname: escape\nimports:\n  - ref: ../secret.logic.md\n    as: s\nsteps:\n  go:\n    description: Go\n---\n",
    );
    scratch.write("secret.logic.md", DOCUMENT);
    scratch.write("private/also.logic.md", DOCUMENT);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            scratch.0.join("secret.logic.md"),
            scratch.0.join("project/link.logic.md"),
        )
        .unwrap();
        std::os::unix::fs::symlink(scratch.0.join("private"), scratch.0.join("project/private"))
            .unwrap();
    }
    scratch
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_out_of_the_root_are_refused_whichever_way_they_are_spelled() {
    let scratch = project("mcp-roots-given");
    let root = scratch.0.join("project");
    let client = stdio(&["--root", &root.to_string_lossy()]).await;
    let secret = scratch
        .0
        .join("secret.logic.md")
        .to_string_lossy()
        .into_owned();
    let mut escapes = vec![
        "../secret.logic.md".to_owned(),
        "sub/../../secret.logic.md".to_owned(),
        secret,
    ];
    if cfg!(unix) {
        escapes.extend([
            "link.logic.md".to_owned(),
            "private/also.logic.md".to_owned(),
        ]);
    }
    for path in &escapes {
        let said = misuse(&client, "validate", json!({ "path": path })).await;
        assert!(said.contains("is outside the roots"), "{path}: {said}");
        let said = misuse(&client, "trace_check", json!({ "path": path })).await;
        assert!(said.contains("is outside the roots"), "{path}: {said}");
        let uri = format!("logicmd://file/{}", path.replace('/', "%2F"));
        let refused = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await;
        assert!(refused.is_err(), "{path}: {refused:?}");
    }
    let said = misuse(&client, "validate", json!({ "path": "sub" })).await;
    assert!(said.contains("is not a file"), "{said}");
    let said = misuse(&client, "validate", json!({ "path": "missing.logic.md" })).await;
    assert!(said.starts_with("cannot read `missing.logic.md`"), "{said}");
    // Inside, however spelled.
    for path in [
        "main.logic.md",
        "sub/../main.logic.md",
        "./sub/inner.logic.md",
    ] {
        let verdict = structured(&client, "validate", json!({ "path": path })).await;
        assert_eq!(verdict["valid"], true, "{path}");
    }
    // An import that climbs out is the document's problem: a diagnostic, and nothing read.
    let linted = structured(&client, "lint", json!({ "path": "escape.logic.md" })).await;
    let import = &linted["diagnostics"][0];
    assert_eq!(import["code"], "unresolved-reference", "{linted:#}");
    assert!(
        import["message"]
            .as_str()
            .unwrap()
            .contains("leads outside the project root"),
        "{linted:#}"
    );
    // The listing names what is inside, and nothing through the links.
    let listed: Vec<String> = client
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri.clone())
        .filter(|u| u.starts_with("logicmd://file/"))
        .collect();
    assert_eq!(
        listed,
        [
            "logicmd://file/escape.logic.md",
            "logicmd://file/main.logic.md",
            "logicmd://file/sub/inner.logic.md"
        ]
    );
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "logicmd://file/sub%2Finner.logic.md",
        ))
        .await
        .unwrap();
    assert!(
        matches!(&read.contents[0], rmcp::model::ResourceContents::TextResourceContents { text, .. } if text == DOCUMENT)
    );
    // `path` completes to the documents inside, nothing through the links.
    let complete = |reference: Reference, typed: &str| {
        client.complete(CompleteRequestParams::new(
            reference,
            ArgumentInfo::new("path", typed),
        ))
    };
    let file = || Reference::for_resource("logicmd://file/{path}");
    let all = complete(file(), "").await.unwrap().completion.values;
    assert_eq!(
        all,
        ["escape.logic.md", "main.logic.md", "sub/inner.logic.md"]
    );
    let sub = complete(file(), "sub/").await.unwrap().completion.values;
    assert_eq!(sub, ["sub/inner.logic.md"]);
    let prompt = complete(Reference::for_prompt("fix_diagnostics"), "m")
        .await
        .unwrap();
    assert_eq!(prompt.completion.values, ["main.logic.md"]);
    let other = complete(Reference::for_prompt("write_logic_md"), "")
        .await
        .unwrap();
    assert!(other.completion.values.is_empty());
    client.cancel().await.unwrap();
}

/// A client that lists one root, as editors do.
struct Editor {
    root: String,
}

impl ClientHandler for Editor {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_roots().build(),
            Implementation::new("editor", "1.0.0"),
        )
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        Ok(ListRootsResult::new(vec![Root::new(self.root.clone())]))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_root_the_clients_roots_confine_the_paths() {
    let scratch = project("mcp-roots-client");
    let root = scratch.0.join("project").canonicalize().unwrap();
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_logicmd")).configure(|command| {
            command.arg("mcp").current_dir(&scratch.0);
        }),
    )
    .unwrap();
    let editor = Editor {
        root: format!("file://{}", root.to_string_lossy().replace(' ', "%20")),
    };
    let client = editor.serve(transport).await.unwrap();
    let verdict = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("validate")
                .with_arguments(mcp_support::object(json!({ "path": "main.logic.md" }))),
        )
        .await
        .unwrap();
    assert_eq!(verdict.is_error, Some(false), "{verdict:?}");
    // The working directory is not a root: its files are out of reach.
    let refused = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("validate")
                .with_arguments(mcp_support::object(json!({ "path": "../secret.logic.md" }))),
        )
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    // An import out of a client's root says whose root it is.
    let linted = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("lint")
                .with_arguments(mcp_support::object(json!({ "path": "escape.logic.md" }))),
        )
        .await
        .unwrap();
    let message = linted.structured_content.unwrap()["diagnostics"][0]["message"].clone();
    assert!(
        message
            .as_str()
            .unwrap()
            .ends_with("(a root the MCP client lists)"),
        "{message}"
    );
    client.cancel().await.unwrap();
}

/// A project's settings (`logicmd.toml`) shape `lint` and `check` as they shape the CLI's, when
/// they lie inside the root; above it they are not read, and settings that do not parse are
/// misuse.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn project_settings_inside_the_root_apply_as_in_the_cli() {
    let scratch = Scratch::new("mcp-settings");
    let undescribed =
        "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    instructions: Do it.\n---\n";
    scratch.write(
        "project/logicmd.toml",
        "[lint]\nignore = [\"missing-description\"]\n",
    );
    scratch.write("project/a.logic.md", undescribed);
    scratch.write("project/inner/b.logic.md", undescribed);
    scratch.write("broken/logicmd.toml", "[lint]\nignroe = []\n");
    scratch.write("broken/c.logic.md", undescribed);
    let project = scratch.0.join("project").to_string_lossy().into_owned();
    let client = stdio(&["--root", &project]).await;
    for file in ["a.logic.md", "inner/b.logic.md"] {
        for tool in ["lint", "check"] {
            let output = std::process::Command::new(env!("CARGO_BIN_EXE_logicmd"))
                .args([tool, file, "--format", "json"])
                .current_dir(&project)
                .output()
                .unwrap();
            let cli: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            let mut mcp = structured(&client, tool, json!({ "path": file })).await;
            for diagnostic in mcp["diagnostics"].as_array_mut().unwrap() {
                diagnostic.as_object_mut().unwrap().remove("fixes");
            }
            assert_eq!(mcp["diagnostics"], cli[0]["diagnostics"], "{tool} {file}");
        }
    }
    let linted = structured(&client, "lint", json!({ "text": undescribed })).await;
    assert_eq!(
        linted["diagnostics"],
        json!([]),
        "a text sits at the root: its settings apply"
    );
    client.cancel().await.unwrap();
    // The same settings above the root are not read.
    let inner = scratch
        .0
        .join("project/inner")
        .to_string_lossy()
        .into_owned();
    let client = stdio(&["--root", &inner]).await;
    let linted = structured(&client, "lint", json!({ "path": "b.logic.md" })).await;
    assert_eq!(linted["diagnostics"][0]["code"], "missing-description");
    client.cancel().await.unwrap();
    let broken = scratch.0.join("broken").to_string_lossy().into_owned();
    let client = stdio(&["--root", &broken]).await;
    let said = misuse(&client, "lint", json!({ "path": "c.logic.md" })).await;
    assert!(said.contains("ignroe"), "{said}");
    client.cancel().await.unwrap();
}

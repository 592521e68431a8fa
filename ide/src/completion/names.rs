//! The names a reference may take at a path: steps in `needs`, `then`, `parallel_steps`,
//! `on_breach`, `fallback_to` and a terminal's `action`; tree nodes in `root` and `next`;
//! workflow nodes in `depends_on` and edges; DRTL node ids in edges and routes; `std.*` rules;
//! files in `ref` and `logic_ref`.

use logicmd::analysis::Kind;
use logicmd::yaml::Node;
use serde_json::Value;

use super::{CompletionItem, ItemKind, Request};
use crate::files::DirEntry;
use crate::schema_docs::Seg;
use crate::symbols::{map, seq};
use crate::workspace::Workspace;

/// The DRTL standard verification library (DRTL §3.4): category and method of each rule.
const STANDARD_RULE_DOCS: &[(&str, &str, &str)] = &[
    (
        "std.check_compute",
        "Computational",
        "Deterministic execution (math, dates, hashes)",
    ),
    (
        "std.check_existence",
        "Existence",
        "Search/index lookup (products, APIs, features)",
    ),
    ("std.check_links", "URLs", "HTTP validation"),
    (
        "std.check_citation",
        "References",
        "Academic/documentation lookup",
    ),
    (
        "std.check_code",
        "Code Safety",
        "Static analysis, sandboxed execution",
    ),
    (
        "std.check_logic",
        "Consistency",
        "Self-consistency sampling",
    ),
    ("std.check_protocol", "Format", "Schema/regex validation"),
    (
        "std.check_tool_usage",
        "Meta",
        "Verify tools were invoked before claims",
    ),
];

fn keys(path: &[Seg]) -> Vec<&str> {
    path.iter()
        .map(|seg| match seg {
            Seg::Key(key) => key.as_str(),
            Seg::Index(_) => "[]",
        })
        .collect()
}

/// The names that may be written at `path`.
pub(super) fn for_path(
    request: &Request<'_>,
    workspace: &mut Workspace,
    path: &[Seg],
) -> Vec<CompletionItem> {
    let keys = keys(path);
    match (request.kind, keys.as_slice()) {
        (Kind::Logic, ["steps", step, "needs" | "parallel_steps", "[]"]) => {
            steps(request, workspace, Some(step))
        }
        (Kind::Logic, ["steps", _, "branches", "[]", "then"])
        | (Kind::Logic, ["quality_gates", "invariants", "[]", "on_breach"])
        | (Kind::Logic, ["decision_trees", _, "terminals", _, "action"]) => {
            steps(request, workspace, None)
        }
        (Kind::Logic, ["fallback", "degradation", "[]", "fallback_to"]) => {
            let mut items = steps(request, workspace, None);
            for mode in logicmd::lint::FALLBACK_MODES {
                items.push(request.item(
                    *mode,
                    ItemKind::Value,
                    Some("fallback mode".to_owned()),
                    None,
                ));
            }
            items
        }
        (Kind::Logic, ["decision_trees", tree, "root"]) => tree_names(request, tree, false),
        (Kind::Logic, ["decision_trees", tree, "nodes", _, "branches", "[]", "next"]) => {
            let mut items = tree_names(request, tree, true);
            items.extend(steps(request, workspace, None));
            items
        }
        (Kind::Logic, ["nodes", node, "depends_on", "[]"]) => workflow_nodes(request, Some(node)),
        (Kind::Logic, ["edges", "[]", "from" | "to"]) => workflow_nodes(request, None),
        (Kind::Logic, ["imports", "[]", "ref"] | ["nodes", _, "logic_ref"]) => {
            files(request, workspace)
        }
        (Kind::Drtl, ["edges", "[]", "from" | "to"])
        | (Kind::Drtl, ["nodes", "[]", "on_pass" | "on_fail"])
        | (Kind::Drtl, ["nodes", "[]", "on_pass" | "on_fail", "next"])
        | (Kind::Drtl, ["nodes", "[]", "actions", "[]", _, "next"]) => drtl_nodes(request, true),
        (Kind::Drtl, ["nodes", "[]", "rules", "[]", "id"]) => STANDARD_RULE_DOCS
            .iter()
            .map(|(id, category, method)| {
                request.item(
                    *id,
                    ItemKind::Rule,
                    Some((*category).to_owned()),
                    Some(format!("{category}: {method} (DRTL §3.4)")),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The steps (own, then imported as `alias.step`), without `except`.
pub(super) fn steps(
    request: &Request<'_>,
    workspace: &mut Workspace,
    except: Option<&str>,
) -> Vec<CompletionItem> {
    let Some(file) = request.file else {
        return Vec::new();
    };
    let mut items = Vec::new();
    if let Some(document) = file.document() {
        for entry in map(document.root().get("steps")) {
            if Some(entry.key.as_str()) == except {
                continue;
            }
            items.push(step_item(request, entry.key.as_str(), &entry.value));
        }
    }
    for (name, step) in imported_steps(workspace, request.id, file) {
        let description = step
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        items.push(request.item(
            name,
            ItemKind::Reference,
            Some("imported step".to_owned()),
            description,
        ));
    }
    items
}

fn step_item(request: &Request<'_>, name: &str, step: &Node) -> CompletionItem {
    let description = step
        .get("description")
        .and_then(Node::as_str)
        .map(str::to_owned);
    request.item(
        name,
        ItemKind::Reference,
        Some("step".to_owned()),
        description,
    )
}

/// The steps the file's imports bring in, namespaced.
pub(crate) fn imported_steps(
    workspace: &Workspace,
    id: &str,
    file: &crate::workspace::FileAnalysis,
) -> Vec<(String, Value)> {
    let Some(document) = file.document() else {
        return Vec::new();
    };
    if document.root().get("imports").is_none() {
        return Vec::new();
    }
    let loader = workspace.loader();
    let json = document.json_for_call();
    let resolved = logicmd::imports::resolve_own(document, &json, id, &loader);
    let own = json.get("steps");
    let mut found: Vec<(String, Value)> = resolved
        .value
        .get("steps")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(name, _)| own.and_then(|o| o.get(name.as_str())).is_none())
        .map(|(name, step)| (name.clone(), step.clone()))
        .collect();
    // An import nothing refers to yet is not merged (its steps do not run), but its steps are
    // exactly what the user is about to name: offer them too, without their details.
    for contribution in &resolved.contributed {
        for name in &contribution.steps {
            if !found.iter().any(|(known, _)| known == name) {
                found.push((name.clone(), Value::Null));
            }
        }
    }
    found
}

fn tree_names(request: &Request<'_>, tree: &str, terminals: bool) -> Vec<CompletionItem> {
    let Some(document) = request.file.and_then(|f| f.document()) else {
        return Vec::new();
    };
    let Some(tree) = document
        .root()
        .get("decision_trees")
        .and_then(|t| t.get(tree))
    else {
        return Vec::new();
    };
    let mut items: Vec<CompletionItem> = map(tree.get("nodes"))
        .map(|node| {
            let condition = node
                .value
                .get("condition")
                .and_then(Node::as_str)
                .map(|c| format!("`{c}`"));
            request.item(
                node.key.as_str(),
                ItemKind::Reference,
                Some("tree node".to_owned()),
                condition,
            )
        })
        .collect();
    if terminals {
        items.extend(map(tree.get("terminals")).map(|terminal| {
            let action = terminal
                .value
                .get("action")
                .and_then(Node::as_str)
                .map(|a| format!("action: {a}"));
            request.item(
                terminal.key.as_str(),
                ItemKind::Reference,
                Some("terminal".to_owned()),
                action,
            )
        }));
    }
    items
}

fn workflow_nodes(request: &Request<'_>, except: Option<&str>) -> Vec<CompletionItem> {
    let Some(document) = request.file.and_then(|f| f.document()) else {
        return Vec::new();
    };
    map(document.root().get("nodes"))
        .filter(|entry| Some(entry.key.as_str()) != except)
        .map(|entry| {
            let reference = entry
                .value
                .get("logic_ref")
                .and_then(Node::as_str)
                .map(|r| format!("runs `{r}`"));
            request.item(
                entry.key.as_str(),
                ItemKind::Reference,
                Some("workflow node".to_owned()),
                reference,
            )
        })
        .collect()
}

fn drtl_nodes(request: &Request<'_>, with_terminate: bool) -> Vec<CompletionItem> {
    let Some(topology) = request.file.and_then(|f| f.topology()) else {
        return Vec::new();
    };
    let root = logicmd::schema::Source::root(topology);
    let mut items: Vec<CompletionItem> = seq(root.get("nodes"))
        .filter_map(|(_, node)| {
            let id = node.get("id")?.as_str()?;
            let kind = node.get("type").and_then(Node::as_str).unwrap_or("node");
            Some(request.item(id, ItemKind::Reference, Some(format!("{kind} node")), None))
        })
        .collect();
    if with_terminate && !items.iter().any(|i| i.label == logicmd::drtl::TERMINATE) {
        items.push(request.item(
            logicmd::drtl::TERMINATE,
            ItemKind::Value,
            Some("ends the run".to_owned()),
            Some(
                "Routing to `terminate` ends (abandons) the run here (DRTL §3.8, §9.3).".to_owned(),
            ),
        ));
    }
    items
}

/// Files and directories beside the typed path, relative to the file.
fn files(request: &Request<'_>, workspace: &mut Workspace) -> Vec<CompletionItem> {
    let text = workspace.text(request.id).unwrap_or_default();
    let typed_start = request.replace.start;
    // The whole path typed so far: from the value's start (after quotes) to the cursor.
    let line_start = text[..request.replace.end].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..request.replace.end];
    let value_start = line.rfind([' ', '"', '\'', '[']).map_or(0, |i| i + 1);
    let typed = &line[value_start..];
    let (directory, _) = typed.rsplit_once('/').unwrap_or(("", typed));
    let directory_prefix = if typed.contains('/') {
        format!("{directory}/")
    } else {
        String::new()
    };
    let probe = format!("{directory_prefix}_");
    let Ok(resolved) = workspace.files().resolve(request.id, &probe) else {
        return Vec::new();
    };
    let listed_directory = resolved
        .strip_suffix('_')
        .unwrap_or("")
        .trim_end_matches('/');
    let replace_start = line_start + value_start;
    let _ = typed_start;
    let own = request.id.rsplit('/').next().unwrap_or(request.id);
    workspace
        .files()
        .list(listed_directory)
        .into_iter()
        .filter(|entry| {
            entry.is_dir
                || (entry.name.ends_with(".md")
                    && (!listed_directory.is_empty() || entry.name != own))
        })
        .filter(|entry| !entry.name.starts_with('.') || entry.name == ".logic")
        .map(|DirEntry { name, is_dir }| {
            let prefix = if directory_prefix.is_empty() {
                "./".to_owned()
            } else {
                directory_prefix.clone()
            };
            let insert = if is_dir {
                format!("{prefix}{name}/")
            } else {
                format!("{prefix}{name}")
            };
            let mut item = request.item(
                name,
                if is_dir {
                    ItemKind::Folder
                } else {
                    ItemKind::File
                },
                None,
                None,
            );
            item.label = insert.clone();
            item.insert = insert;
            item.replace = logicmd::source::Span::new(replace_start, request.replace.end);
            item
        })
        .collect()
}

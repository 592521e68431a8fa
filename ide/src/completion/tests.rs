use super::*;
use crate::files::MemoryFiles;

fn at(text: &str) -> (String, usize) {
    let cursor = text.find('|').expect("a cursor");
    (text.replacen('|', "", 1), cursor)
}

fn labels(files: MemoryFiles, id: &str, text: &str) -> Vec<String> {
    let (text, cursor) = at(text);
    let mut workspace = Workspace::new(files.shared());
    workspace.open(id, text);
    completion(&mut workspace, id, cursor)
        .into_iter()
        .map(|item| item.label)
        .collect()
}

const HEAD: &str = "---\nspec_version: \"1.0\"\nname: demo\n";

#[test]
fn step_keys_with_their_descriptions() {
    let text = format!("{HEAD}steps:\n  a:\n    description: d\n    ne|\n---\n");
    let (clean, cursor) = at(&text);
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open("m.logic.md", clean);
    let items = completion(&mut workspace, "m.logic.md", cursor);
    let needs = items.iter().find(|i| i.label == "needs").expect("needs");
    assert_eq!(needs.insert, "needs: ");
    assert_eq!(needs.detail.as_deref(), Some("array of string"));
    assert_eq!(
        needs.documentation.as_deref(),
        Some("Step names that must complete before this step runs\n\nSpec: §4.1 Step Schema")
    );
    assert!(
        !items.iter().any(|i| i.label == "description"),
        "written keys are left out"
    );
}

#[test]
fn step_names_in_needs_then_and_parallel_steps() {
    let body = "steps:\n  gather: {description: Gather sources}\n  check: {}\n";
    let needs = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}{body}  use:\n    needs: [|]\n---\n"),
    );
    assert_eq!(needs, ["gather", "check"]);
    let then = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}{body}  use:\n    branches:\n      - if: \"{{{{ true }}}}\"\n        then: ch|\n---\n"),
    );
    assert_eq!(then, ["check"]);
    let parallel = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!(
            "{HEAD}{body}  use:\n    execution: parallel\n    parallel_steps:\n      - |\n---\n"
        ),
    );
    assert_eq!(parallel, ["gather", "check"]);
}

#[test]
fn enum_values_and_booleans() {
    let strategy = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}reasoning:\n  strategy: |\n---\n"),
    );
    assert_eq!(
        strategy,
        ["cot", "react", "tot", "got", "plan-execute", "custom"]
    );
    let on_fail = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  a:\n    verification:\n      check: \"{{{{ true }}}}\"\n      on_fail: re|\n---\n"),
    );
    assert_eq!(on_fail, ["retry", "revise"]);
}

#[test]
fn expressions_complete_steps_outputs_and_inputs() {
    let body = concat!(
        "contracts:\n  inputs:\n    - name: query\n      type: string\n",
        "steps:\n  gather:\n    output_schema:\n      type: object\n      required: [sources]\n",
        "      properties:\n        sources: {type: array, items: {type: string}}\n        confidence: {type: number}\n",
    );
    let steps = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}{body}  use:\n    verification:\n      check: \"{{{{ steps.|\"\n---\n"),
    );
    assert_eq!(steps, ["gather", "use"]);
    let (text, cursor) = at(&format!(
        "{HEAD}{body}  use:\n    verification:\n      check: \"{{{{ steps.gather.output.|\"\n---\n"
    ));
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open("m.logic.md", text);
    let items = completion(&mut workspace, "m.logic.md", cursor);
    let fields: Vec<(&str, Option<&str>)> = items
        .iter()
        .filter(|i| i.kind == ItemKind::Field)
        .map(|i| (i.label.as_str(), i.detail.as_deref()))
        .collect();
    assert_eq!(
        fields,
        [
            ("sources", Some("array of string, required")),
            ("confidence", Some("number"))
        ]
    );
    let input = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}{body}  use:\n    verification:\n      check: \"{{{{ input.q|\"\n---\n"),
    );
    assert_eq!(input, ["query"]);
    let own_output = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}{body}    verification:\n      check: \"{{{{ output.conf|\"\n---\n"),
    );
    assert_eq!(own_output, ["confidence"]);
    let operators = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!(
            "{HEAD}{body}  use:\n    verification:\n      check: \"{{{{ input.query |\"\n---\n"
        ),
    );
    assert!(
        operators.contains(&"&&".to_owned()) && operators.contains(&"===".to_owned()),
        "{operators:?}"
    );
    let methods = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!(
            "{HEAD}{body}  use:\n    verification:\n      check: \"{{{{ input.query.sta|\"\n---\n"
        ),
    );
    assert_eq!(methods, ["startsWith"]);
}

#[test]
fn import_paths_come_from_the_files() {
    let files = MemoryFiles::new()
        .with("shared/retry.logic.md", "x")
        .with("shared/notes.txt", "x")
        .with("other.logic.md", "x");
    let found = labels(
        files.clone(),
        "m.logic.md",
        &format!("{HEAD}imports:\n  - ref: |\n---\n"),
    );
    assert_eq!(found, ["./other.logic.md", "./shared/"]);
    let inside = labels(
        files,
        "m.logic.md",
        &format!("{HEAD}imports:\n  - ref: ./shared/|\n---\n"),
    );
    assert_eq!(inside, ["./shared/retry.logic.md"]);
}

#[test]
fn imported_steps_are_offered_namespaced() {
    let files = MemoryFiles::new().with(
        "lib.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  helper: {description: Helps}\n---\n",
    );
    let found = labels(
        files,
        "m.logic.md",
        &format!("{HEAD}imports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    needs: [|]\n---\n"),
    );
    assert_eq!(found, ["lib.helper"]);
}

/// In an expression an imported step is read `steps['lib.helper']` (`steps.lib.helper` reads
/// a member `helper` of a step `lib`, which lint rejects): the item replaces the `.` typed
/// before it and is matched as typed.
#[test]
fn an_imported_step_in_an_expression_is_inserted_in_brackets() {
    let files = MemoryFiles::new().with(
        "lib.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  helper: {description: Helps}\n---\n",
    );
    let text = format!("{HEAD}imports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  own: {{description: O}}\n  a:\n    needs: [own, lib.helper]\n    verification:\n      check: \"{{{{ steps.l| }}}}\"\n---\n");
    let (clean, cursor) = at(&text);
    let mut workspace = Workspace::new(files.shared());
    workspace.open("m.logic.md", clean.clone());
    let items = completion(&mut workspace, "m.logic.md", cursor);
    let found: Vec<(&str, &str, &str, Option<&str>)> = items
        .iter()
        .map(|i| {
            (
                i.label.as_str(),
                i.insert.as_str(),
                &clean[i.replace.start..i.replace.end],
                i.filter.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("lib.helper", "['lib.helper']", ".l", Some(".lib.helper"))]
    );
}

#[test]
fn drtl_node_ids_routes_and_rules() {
    let text = "name: t\nnodes:\n  - id: draft\n    type: generate\n  - id: check\n    type: verify\n    rules:\n      - id: std.check_l|\n";
    assert_eq!(
        labels(MemoryFiles::new(), "t.drtl.yaml", text),
        ["std.check_links", "std.check_logic"]
    );
    let route = "name: t\nnodes:\n  - id: draft\n    type: generate\n  - id: gate\n    type: gate\n    condition: input.ok\n    on_pass: |\n";
    assert_eq!(
        labels(MemoryFiles::new(), "t.drtl.yaml", route),
        ["draft", "gate", "terminate"]
    );
    let keys = "name: t\nnodes:\n  - id: gate\n    type: gate\n    on_|\n";
    assert_eq!(
        labels(MemoryFiles::new(), "t.drtl.yaml", keys),
        ["on_pass", "on_fail"]
    );
}

#[test]
fn nothing_is_offered_in_the_body_or_a_comment() {
    assert!(labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}---\n# Body ne|\n")
    )
    .is_empty());
    assert!(labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps: # ne|\n---\n")
    )
    .is_empty());
}

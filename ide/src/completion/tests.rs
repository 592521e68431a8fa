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
        // Those the word starts first; then those holding its letters in order, as editors
        // match (`l` in `protocol`).
        [
            "std.check_links",
            "std.check_logic",
            "std.check_protocol",
            "std.check_tool_usage"
        ]
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

const LIB_WITH_OUTPUT: &str = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  helper:\n    description: Helps\n    output_schema:\n      type: object\n      properties:\n        found: {type: array, items: {type: string}}\n---\n";

/// A file importing `lib` whose step `a` checks `check` (the scalar as written, with `|` for the
/// cursor), beside a step `own` whose output has fields of every kind.
fn checking(check: &str) -> String {
    format!(
        "{HEAD}imports:\n  - ref: ./lib.logic.md\n    as: lib\ncontracts:\n  inputs:\n    - name: query\n      type: string\nsteps:\n  own:\n    description: O\n    output_schema:\n      type: object\n      properties:\n        title: {{type: string}}\n        tags: {{type: array, items: {{type: string}}}}\n        meta: {{type: object, properties: {{x: {{type: number}}}}}}\n        count: {{type: number}}\n        anything: {{description: no type}}\n  a:\n    needs: [own, lib.helper]\n    verification:\n      check: {check}\n---\n"
    )
}

fn lib_files() -> MemoryFiles {
    MemoryFiles::new().with("lib.logic.md", LIB_WITH_OUTPUT)
}

/// The cursor's line after accepting the item labelled `label`.
fn accepted(files: MemoryFiles, text: &str, label: &str) -> String {
    let (clean, cursor) = at(text);
    let mut workspace = Workspace::new(files.shared());
    workspace.open("m.logic.md", clean.clone());
    let items = completion(&mut workspace, "m.logic.md", cursor);
    let Some(item) = items.iter().find(|i| i.label == label) else {
        panic!(
            "no {label} in {:?}",
            items.iter().map(|i| &i.label).collect::<Vec<_>>()
        );
    };
    let mut edited = clean.clone();
    edited.replace_range(item.replace.start..item.replace.end, &item.insert);
    let line_start = clean[..cursor].rfind('\n').map_or(0, |i| i + 1);
    edited[line_start..].lines().next().unwrap_or("").to_owned()
}

#[test]
fn step_names_complete_inside_brackets() {
    let labels_at = |check: &str| labels(lib_files(), "m.logic.md", &checking(check));
    assert_eq!(labels_at("\"{{ steps['| }}\""), ["own", "a", "lib.helper"]);
    assert_eq!(labels_at("'{{ steps[\"| }}'"), ["own", "a", "lib.helper"]);
    assert_eq!(labels_at("\"{{ steps[| }}\""), ["own", "a", "lib.helper"]);
    assert_eq!(labels_at("\"{{ steps['li| }}\""), ["lib.helper"]);
    // Any other chain: its fields.
    assert_eq!(labels_at("\"{{ input['| }}\""), ["query"]);
    assert_eq!(
        labels_at("\"{{ steps.own.output['t| }}\""),
        ["title", "tags"]
    );
    let line = |check: &str, label: &str| accepted(lib_files(), &checking(check), label);
    assert_eq!(
        line("\"{{ steps['| }}\"", "lib.helper"),
        "      check: \"{{ steps['lib.helper'] }}\""
    );
    // An editor that closed the quote and the bracket as they were typed.
    assert_eq!(
        line("\"{{ steps['|'] }}\"", "lib.helper"),
        "      check: \"{{ steps['lib.helper'] }}\""
    );
    assert_eq!(
        line("\"{{ steps['|'].output }}\"", "own"),
        "      check: \"{{ steps['own'].output }}\""
    );
    assert_eq!(
        line("\"{{ steps['o|wn'] }}\"", "own"),
        "      check: \"{{ steps['own'] }}\""
    );
    assert_eq!(
        line("\"{{ steps[|] }}\"", "own"),
        "      check: \"{{ steps['own'] }}\""
    );
    // Typed on after `[`, the quote still matches (the editor filters on the text from `[`).
    let (clean, cursor) = at(&checking("\"{{ steps[| }}\""));
    let mut workspace = Workspace::new(lib_files().shared());
    workspace.open("m.logic.md", clean);
    let filters: Vec<Option<String>> = completion(&mut workspace, "m.logic.md", cursor)
        .into_iter()
        .map(|item| item.filter)
        .collect();
    assert_eq!(
        filters,
        [Some("'own"), Some("'a"), Some("'lib.helper")].map(|f| f.map(str::to_owned))
    );
    // Inside a single-quoted YAML scalar a `'` would end it: the name is quoted with `"`.
    assert_eq!(
        line("'{{ steps[| }}'", "own"),
        "      check: '{{ steps[\"own\"] }}'"
    );
    assert_eq!(
        line("'{{ steps[\"|\"] }}'", "lib.helper"),
        "      check: '{{ steps[\"lib.helper\"] }}'"
    );
}

#[test]
fn an_imported_steps_output_fields_follow_its_brackets() {
    let labels_at = |check: &str| labels(lib_files(), "m.logic.md", &checking(check));
    assert_eq!(
        labels_at("\"{{ steps['lib.helper'].output.| }}\""),
        ["found"]
    );
    assert_eq!(
        labels_at("'{{ steps[\"lib.helper\"].output.f| }}'"),
        ["found"]
    );
    assert_eq!(
        labels_at("\"{{ steps['lib.helper'].output.found.| }}\""),
        ARRAY_METHODS
    );
    assert_eq!(labels_at("\"{{ steps['own'].output.meta.| }}\""), ["x"]);
    assert_eq!(labels_at("\"{{ steps['lib.helper'].| }}\""), ["output"]);
}

const ARRAY_METHODS: [&str; 5] = ["length", "includes", "contains", "every", "some"];
const STRING_METHODS: [&str; 8] = [
    "length",
    "includes",
    "contains",
    "startsWith",
    "endsWith",
    "toLowerCase",
    "toUpperCase",
    "trim",
];

#[test]
fn members_follow_the_values_type() {
    let labels_at = |check: &str| labels(lib_files(), "m.logic.md", &checking(check));
    assert_eq!(labels_at("\"{{ input.| }}\""), ["query"]);
    assert_eq!(labels_at("\"{{ steps.own.output.meta.| }}\""), ["x"]);
    assert_eq!(
        labels_at("\"{{ steps.own.output.tags.| }}\""),
        ARRAY_METHODS
    );
    assert_eq!(
        labels_at("\"{{ steps.own.output.title.| }}\""),
        STRING_METHODS
    );
    assert_eq!(labels_at("\"{{ input.query.| }}\""), STRING_METHODS);
    assert_eq!(
        labels_at("\"{{ steps.own.output.tags[0].| }}\""),
        STRING_METHODS
    );
    assert_eq!(
        labels_at("\"{{ steps.own.output.count.| }}\""),
        Vec::<String>::new()
    );
    // A literal's members are its type's; a call's result is not typed here.
    let all: Vec<&str> = super::expr::METHODS
        .iter()
        .map(|(name, ..)| *name)
        .collect();
    assert_eq!(labels_at("\"{{ 'abc'.| }}\""), STRING_METHODS);
    assert_eq!(labels_at("\"{{ 1.| }}\""), Vec::<String>::new());
    assert_eq!(labels_at("\"{{ input.query.trim().| }}\""), all);
    // The runtime's counters are numbers.
    for number in ["attempts", "iteration", "confidence"] {
        let found = labels_at(&format!("\"{{{{ {number}.| }}}}\""));
        assert_eq!(found, Vec::<String>::new(), "{number}");
    }
    // A value whose type the document does not say may be either.
    let any = labels_at("\"{{ steps.own.output.anything.| }}\"");
    assert_eq!(any, all);
}

const VERIFY: &str = "name: t\nnodes:\n  - id: check\n    type: verify\n    rules:\n";

#[test]
fn drtl_rules_complete_in_flow_mappings() {
    let drtl = |line: &str| {
        labels(
            MemoryFiles::new(),
            "t.drtl.yaml",
            &format!("{VERIFY}{line}\n"),
        )
    };
    let all_rules = logicmd::drtl::STANDARD_RULES;
    assert_eq!(
        drtl("      - {id: std.|, target: urls, mode: block}"),
        all_rules
    );
    assert_eq!(
        drtl("      - {id: s|, target: urls, mode: block}"),
        all_rules
    );
    assert_eq!(
        drtl("      - {id: |, target: urls, mode: block}"),
        all_rules
    );
    assert_eq!(
        drtl("      - {id: std.check_li|}"),
        ["std.check_links", "std.check_logic"]
    );
    assert_eq!(
        drtl("      - {id: x, mode: |}"),
        ["block", "warn", "observe"]
    );
    assert_eq!(drtl("      - {id: x, |}"), ["target", "mode"]);
    assert_eq!(drtl("      - {id: x, |, mode: block}"), ["target"]);
    assert_eq!(drtl("      - {\"id\": x, |, 'mode': block}"), ["target"]);
    assert_eq!(drtl("      - {mo|}"), ["mode"]);
    let edges = |line: &str| {
        let text = format!("name: t\nnodes:\n  - {{id: a, type: generate}}\n  - {{id: b, type: generate}}\nedges:\n{line}\n");
        labels(MemoryFiles::new(), "t.drtl.yaml", &text)
    };
    assert_eq!(edges("  - {from: a, to: |}"), ["a", "b", "terminate"]);
    assert_eq!(edges("  - {from: a, |}"), ["to", "if"]);
    // The same places written as a flow mapping after a key.
    assert_eq!(
        labels(
            MemoryFiles::new(),
            "t.drtl.yaml",
            "name: t\nnodes:\n  - {id: g, type: |}\n"
        ),
        [
            "generate",
            "fan_out",
            "aggregate",
            "verify",
            "gate",
            "debate",
            "transform",
            "review"
        ]
    );
}

#[test]
fn flow_mappings_in_logic_files_complete_keys_and_values() {
    let keys = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{}}\n  a: {{description: d, needs: [b], |}}\n---\n"),
    );
    assert!(!keys.is_empty(), "keys are offered");
    assert!(
        !keys.iter().any(|k| k == "description" || k == "needs"),
        "{keys:?}"
    );
    let strategy = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}reasoning: {{max_iterations: 3, strategy: |}}\n---\n"),
    );
    assert_eq!(
        strategy,
        ["cot", "react", "tot", "got", "plan-execute", "custom"]
    );
    let needs = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{}}\n  a: {{needs: [b, |]}}\n---\n"),
    );
    assert_eq!(needs, ["b"]);
}

#[test]
fn keys_already_written_are_not_offered() {
    let top = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}\n|\nreasoning:\n  strategy: react\n---\n"),
    );
    assert!(!top.is_empty());
    for written in ["spec_version", "name", "reasoning"] {
        assert!(!top.iter().any(|k| k == written), "{written} in {top:?}");
    }
    let typed = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}na|\n---\n"),
    );
    assert_eq!(typed, Vec::<String>::new());
    let spec = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}s|\n---\n"),
    );
    assert_eq!(spec, ["steps"]);
    let step = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{}}\n  a:\n    description: d\n    |\n    needs: [b]\n  c: {{}}\n---\n"),
    );
    assert!(!step.is_empty());
    for written in ["description", "needs"] {
        assert!(!step.iter().any(|k| k == written), "{written} in {step:?}");
    }
    let branch = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{}}\n  a:\n    branches:\n      - if: x\n        |\n        then: b\n---\n"),
    );
    assert!(
        !branch.iter().any(|k| k == "if" || k == "then"),
        "{branch:?}"
    );
    let item = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{}}\n  a:\n    branches:\n      - |\n        then: b\n---\n"),
    );
    assert!(
        !item.is_empty() && !item.iter().any(|k| k == "then"),
        "{item:?}"
    );
}

/// While a person types, `steps["` inside a double-quoted scalar leaves text that is not YAML:
/// the names and schemas come from the last text that parsed.
#[test]
fn an_imported_steps_fields_while_the_yaml_is_broken() {
    let good = checking("\"{{ true }}\"");
    let mut workspace = Workspace::new(lib_files().shared());
    workspace.open("m.logic.md", good.clone());
    assert!(workspace.analysis("m.logic.md").is_some());
    let (broken, cursor) = at(&checking("\"{{ steps[\"lib.helper\"].output.| }}\""));
    let start = good.find("\"{{ true }}\"").expect("the check");
    let changed = workspace.edit(
        "m.logic.md",
        Span::new(start, start + "\"{{ true }}\"".len()),
        &broken[start..broken.len() - (good.len() - start - "\"{{ true }}\"".len())],
    );
    assert!(changed.is_ok());
    assert_eq!(
        workspace.text("m.logic.md").as_deref(),
        Some(broken.as_str())
    );
    let found: Vec<String> = completion(&mut workspace, "m.logic.md", cursor)
        .into_iter()
        .map(|item| item.label)
        .collect();
    assert_eq!(found, ["found"]);
}

/// A flow mapping written over several lines is read from the line it opens on.
#[test]
fn flow_mappings_over_several_lines() {
    let drtl = |lines: &str| {
        labels(
            MemoryFiles::new(),
            "t.drtl.yaml",
            &format!("{VERIFY}{lines}\n"),
        )
    };
    assert_eq!(
        drtl("      - {id: std.check_citation,\n         mode: |}"),
        ["block", "warn", "observe"]
    );
    assert_eq!(
        drtl("      - {id: x, # the rule\n         |}"),
        ["target", "mode"]
    );
    assert_eq!(
        drtl("      - {target: claims,\n\n         id: std.check_l|}"),
        [
            "std.check_links",
            "std.check_logic",
            "std.check_protocol",
            "std.check_tool_usage"
        ]
    );
    let needs = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{}}\n  a: {{description: d,\n    needs: [|]}}\n---\n"),
    );
    assert_eq!(needs, ["b"]);
    // A closed flow above is not one the cursor is in.
    let keys = labels(
        MemoryFiles::new(),
        "m.logic.md",
        &format!("{HEAD}steps:\n  b: {{description: d,\n    needs: []}}\n  a:\n    descr|\n---\n"),
    );
    assert_eq!(keys, ["description"]);
}

/// What was typed is matched as editors match it, not only as a prefix: typing `one` in
/// `needs` finds `alpha_one` (the editor asks at the word's first letter and filters the
/// answer as the person goes on, so a name the server left out never shows).
#[test]
fn a_name_is_found_by_any_of_its_words() {
    let text = |typed: &str| {
        format!("---\nspec_version: \"1.0\"\nname: m\nsteps:\n  alpha_one: {{}}\n  beta_two: {{}}\n  gather_4999: {{}}\n  c:\n    needs: [{typed}|]\n---\n")
    };
    let at = |typed: &str| labels(MemoryFiles::new(), "m.logic.md", &text(typed));
    assert_eq!(at("one"), ["alpha_one"]);
    assert_eq!(at("o"), ["alpha_one"]);
    assert_eq!(at("t"), ["beta_two"]);
    assert_eq!(at("g4999"), ["gather_4999"]);
    assert_eq!(at("a"), ["alpha_one"]);
    assert_eq!(at("ather"), Vec::<String>::new());
}

/// A step or field whose name cannot follow a `.` (`my-step`: `-` reads as a minus) is
/// inserted in brackets after `steps.`, as an imported step is: `steps.my-step` is rejected by
/// lint.
#[test]
fn a_name_that_is_not_an_identifier_is_inserted_in_brackets() {
    let text = |check: &str| {
        format!("{HEAD}steps:\n  my-step:\n    description: M\n    output_schema:\n      type: object\n      properties:\n        top-score: {{type: number}}\n        plain: {{type: string}}\n  a:\n    needs: [my-step]\n    verification:\n      check: {check}\n---\n")
    };
    let line = |check: &str, label: &str| accepted(MemoryFiles::new(), &text(check), label);
    assert_eq!(
        line("\"{{ steps.| }}\"", "my-step"),
        "      check: \"{{ steps['my-step'] }}\""
    );
    assert_eq!(
        line("\"{{ steps['my-step'].output.| }}\"", "top-score"),
        "      check: \"{{ steps['my-step'].output['top-score'] }}\""
    );
    assert_eq!(
        line("\"{{ steps['my-step'].output.| }}\"", "plain"),
        "      check: \"{{ steps['my-step'].output.plain }}\""
    );
}

/// What an editor without automatic pairs sends: a `[` or a quote typed and not yet closed.
/// The names come from the text as it parsed a keystroke before.
#[test]
fn an_unclosed_list_or_string_still_completes() {
    use logicmd::source::Span;
    for (before, typed, expected) in [
        ("    needs: []\n", "    needs: [", vec!["alpha"]),
        ("    needs: [alpha]\n", "    needs: [alpha, ", vec!["alpha"]),
        (
            "    verification:\n      check: \"{{ steps.alpha }}\"\n",
            "    verification:\n      check: \"{{ steps.",
            vec!["alpha", "c"],
        ),
    ] {
        let good = format!(
            "---\nspec_version: \"1.0\"\nname: m\nsteps:\n  alpha: {{}}\n  c:\n{before}---\n"
        );
        let mut workspace = Workspace::new(MemoryFiles::new().shared());
        workspace.open("m.logic.md", good.clone());
        let _ = workspace.diagnostics("m.logic.md");
        let start = good.find(before).expect("the line");
        let replaced = Span::new(start, start + before.len());
        workspace
            .edit("m.logic.md", replaced, &format!("{typed}\n"))
            .expect("edited");
        let items: Vec<String> = completion(&mut workspace, "m.logic.md", start + typed.len())
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(items, expected, "{typed}");
    }
}

/// A quote that starts a string inside `{{ }}` (`'` and `"` trigger completion, for
/// `steps['`) opens nothing: what follows is text, not a name.
#[test]
fn a_quote_starting_a_string_offers_nothing() {
    let text = |check: &str| {
        format!("{HEAD}steps:\n  alpha: {{}}\n  c:\n    verification:\n      check: {check}\n---\n")
    };
    let at = |check: &str| labels(MemoryFiles::new(), "m.logic.md", &text(check));
    assert_eq!(at("\"{{ input.x == '| }}\""), Vec::<String>::new());
    assert_eq!(at("'{{ input.x == \"| }}'"), Vec::<String>::new());
    assert_eq!(at("\"{{ steps['| }}\""), ["alpha", "c"]);
}

/// An imported step typed the way a local one is (`steps.lib.`) is offered as lint reads it:
/// `steps['lib.helper']`, replacing what was typed from the `.` after `steps`.
#[test]
fn an_imported_step_typed_with_dots_completes_in_brackets() {
    let labels_at = |check: &str| labels(lib_files(), "m.logic.md", &checking(check));
    assert_eq!(labels_at("\"{{ steps.lib.| }}\""), ["lib.helper"]);
    assert_eq!(labels_at("\"{{ steps.lib.he| }}\""), ["lib.helper"]);
    let line = |check: &str| accepted(lib_files(), &checking(check), "lib.helper");
    assert_eq!(
        line("\"{{ steps.lib.he| }}\""),
        "      check: \"{{ steps['lib.helper'] }}\""
    );
    // A local step's members stay its output.
    assert_eq!(labels_at("\"{{ steps.own.| }}\""), ["output"]);
}

//! Edits keep every byte they do not mean to change.

use super::*;
use crate::document::Document;
use serde_json::json;

const DOC: &str = r#"---
# Head comment
spec_version: "1.0"
name: demo   # trailing comment
steps:
  # about gather
  gather:
    description: 'Collect sources'
    instructions: |
      Find sources.
      Keep notes.
  rank:
    needs: [gather]
    description: Rank them
  report:
    needs:
      - gather   # first
      - rank
    branches:
      - if: "{{ steps.rank.output.count > 3 }}"
        then: gather
metadata: {owner: team}
---
# Body stays
"#;

fn edit(text: &str, edit: Edit) -> Applied {
    match apply(text, &edit) {
        Ok(applied) => applied,
        Err(d) => panic!("{edit:?} refused: {}", d.message),
    }
}

fn undo(applied: &Applied) -> String {
    apply(&applied.text, &applied.inverse)
        .map(|a| a.text)
        .unwrap_or_default()
}

#[test]
fn set_scalar_keeps_quotes_and_comments() {
    let a = edit(
        DOC,
        Edit::Set {
            path: "steps.gather.description".into(),
            value: json!("Collect more"),
        },
    );
    assert!(a.text.contains("description: 'Collect more'"));
    assert_eq!(a.patches.len(), 1);
    assert_eq!(a.text.replace("'Collect more'", "'Collect sources'"), DOC);
    assert_eq!(undo(&a), DOC);
    let a = edit(
        DOC,
        Edit::Set {
            path: "/name".into(),
            value: json!("renamed"),
        },
    );
    assert!(a.text.contains("name: renamed   # trailing comment"));
}

#[test]
fn set_creates_missing_entries_in_block_style() {
    let a = edit(
        DOC,
        Edit::Set {
            path: "steps.rank.confidence.minimum".into(),
            value: json!(0.6),
        },
    );
    assert!(
        a.text
            .contains("    description: Rank them\n    confidence:\n      minimum: 0.6\n  report:"),
        "{}",
        a.text
    );
    let a = edit(
        DOC,
        Edit::Set {
            path: "metadata.version".into(),
            value: json!(2),
        },
    );
    assert!(
        a.text.contains("metadata: {owner: team, version: 2}"),
        "{}",
        a.text
    );
}

#[test]
fn remove_takes_the_leading_comment_along() {
    let a = edit(
        DOC,
        Edit::Remove {
            path: "steps.gather.instructions".into(),
        },
    );
    assert!(!a.text.contains("Find sources"));
    assert!(a.text.contains("# about gather"));
    let a = edit(
        &a.text,
        Edit::Remove {
            path: "/steps/report/needs/0".into(),
        },
    );
    assert!(a.text.contains("    needs:\n      - rank\n"), "{}", a.text);
}

#[test]
fn rename_step_rewrites_references() {
    let a = edit(
        DOC,
        Edit::RenameStep {
            from: "gather".into(),
            to: "collect".into(),
        },
    );
    assert!(a.text.contains("  collect:\n"));
    assert!(a.text.contains("needs: [collect]"));
    assert!(a.text.contains("      - collect   # first"));
    assert!(a.text.contains("then: collect"));
    assert!(
        a.text.contains("# about gather"),
        "comments are never rewritten"
    );
    assert_eq!(undo(&a), DOC);
}

#[test]
fn connect_refuses_cycles_and_disconnect_drops_empty_lists() {
    let refused = apply(
        DOC,
        &Edit::Connect {
            from: "report".into(),
            to: "gather".into(),
            from_port: None,
            to_port: None,
        },
    )
    .unwrap_err();
    assert!(refused.message.contains("cycle"), "{}", refused.message);
    let a = edit(
        DOC,
        Edit::Disconnect {
            from: "gather".into(),
            to: "rank".into(),
        },
    );
    assert!(!a.text.contains("needs: [gather]\n"));
    assert!(
        a.text.contains("  rank:\n    description: Rank them\n"),
        "{}",
        a.text
    );
    let a = edit(
        &a.text,
        Edit::Connect {
            from: "gather".into(),
            to: "rank".into(),
            from_port: None,
            to_port: None,
        },
    );
    assert!(
        a.text.contains("needs: [gather]") || a.text.contains("needs:\n      - gather"),
        "{}",
        a.text
    );
}

#[test]
fn add_and_remove_steps() {
    let a = edit(
        DOC,
        Edit::AddStep {
            name: "verify".into(),
            after: Some("gather".into()),
            step: json!({"description": "Check"}),
        },
    );
    let order: Vec<String> = Document::parse(&a.text).document.unwrap().json()["steps"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(order, ["gather", "verify", "rank", "report"]);
    assert!(a.text.contains("# about gather"));
    let a = edit(
        DOC,
        Edit::RemoveStep {
            name: "gather".into(),
        },
    );
    let json = Document::parse(&a.text).document.unwrap().json().clone();
    assert!(json["steps"].get("gather").is_none());
    assert!(json["steps"]["rank"].get("needs").is_none());
    assert_eq!(json["steps"]["report"]["needs"], json!(["rank"]));
    assert_eq!(
        a.notes,
        [
            "step `rank` no longer needs `gather`",
            "step `report` no longer needs `gather`",
            "the branch of step `report` to `gather` was removed",
        ],
        "nothing is left pointing at the removed step"
    );
    assert!(json["steps"]["report"].get("branches").is_none());
    assert!(
        !a.text.contains("# about gather"),
        "the leading comment goes with the step"
    );
}

#[test]
fn positions_live_under_metadata() {
    let a = edit(
        DOC,
        Edit::SetPosition {
            node: "gather".into(),
            x: 120.0,
            y: 40.25,
        },
    );
    let json = Document::parse(&a.text).document.unwrap().json().clone();
    assert_eq!(
        json["metadata"]["logicmd"]["positions"]["gather"],
        json!({"x": 120, "y": 40.3})
    );
    assert_eq!(json["metadata"]["owner"], "team");
}

#[test]
fn edits_that_break_validity_or_parsing_are_refused() {
    let err = apply(
        DOC,
        &Edit::Set {
            path: "spec_version".into(),
            value: json!("9.9"),
        },
    )
    .unwrap_err();
    assert_eq!(err.code, "edit-refused");
    let err = apply(
        DOC,
        &Edit::ReplaceText {
            start: 4,
            end: 4,
            text: "  - ]\n".into(),
        },
    )
    .unwrap_err();
    assert!(err.message.contains("does not parse"), "{}", err.message);
}

#[test]
fn crlf_files_stay_crlf() {
    let crlf = DOC.replace('\n', "\r\n");
    let a = edit(
        &crlf,
        Edit::Set {
            path: "steps.rank.timeout".into(),
            value: json!("30s"),
        },
    );
    assert!(a.text.contains("    timeout: 30s\r\n"), "{:?}", a.text);
    assert!(!a.text.replace("\r\n", "").contains('\n'));
}

#[test]
fn utf16_offsets_accompany_byte_offsets() {
    let text = "---\nspec_version: \"1.0\"\nname: \"😀\"\ndescription: x\n---\n";
    let a = edit(
        text,
        Edit::Set {
            path: "description".into(),
            value: json!("y"),
        },
    );
    let patch = &a.patches[0];
    assert_eq!(
        patch.start - patch.start_utf16,
        2,
        "the emoji is 4 bytes, 2 UTF-16 units"
    );
}

#[test]
fn literal_blocks_stay_blocks() {
    let text = "---\nspec_version: \"1.0\"\nname: b\nsteps:\n  a:\n    instructions: |\n      Use {{ steps.a.output }}\n      carefully.\n  b: {}\n---\n";
    let a = edit(
        text,
        Edit::RenameStep {
            from: "a".into(),
            to: "first".into(),
        },
    );
    assert!(
        a.text.contains(
            "    instructions: |\n      Use {{ steps.first.output }}\n      carefully.\n  b: {}"
        ),
        "{}",
        a.text
    );
}

const TOPOLOGY: &str = "# A topology with comments\nname: t\nnodes:\n  - id: draft   # the writer\n    type: generate\n    output_format: json\n    output_key: text\n  - id: check\n    type: verify\n    input: draft.text\n    rules:\n      - {id: std.check_links, target: urls, mode: block}\n  - id: gate\n    type: gate\n    condition: input.ok\n    on_pass: publish\n    on_fail: {next: draft, inject: check.report}\n  - id: publish\n    type: transform\n    operations:\n      - {set: state.variables.done, value: true}\nedges:\n  - {from: draft, to: check}\n  - {from: check, to: gate}\n";

#[test]
fn drtl_nodes_edges_and_routes() {
    let a = edit(
        TOPOLOGY,
        Edit::AddNode {
            node: json!({"id": "review", "type": "review", "input": {"x": "check.report"}, "actions": ["reject"]}),
            after: Some("gate".into()),
        },
    );
    assert!(
        a.text.contains("# A topology with comments")
            && a.text.contains("- id: draft   # the writer")
    );
    let a = edit(
        &a.text,
        Edit::SetRoute {
            node: "gate".into(),
            route: "on_fail".into(),
            target: "review".into(),
        },
    );
    assert!(
        a.text
            .contains("on_fail: {next: review, inject: check.report}"),
        "{}",
        a.text
    );
    let a = edit(
        &a.text,
        Edit::SetRoute {
            node: "review".into(),
            route: "reject".into(),
            target: "draft".into(),
        },
    );
    let a = edit(
        &a.text,
        Edit::Connect {
            from: "gate".into(),
            to: "publish".into(),
            from_port: None,
            to_port: None,
        },
    );
    assert!(
        a.text.contains("- {from: gate, to: publish}") || a.text.contains("- from: gate"),
        "{}",
        a.text
    );
    let a = edit(
        &a.text,
        Edit::Disconnect {
            from: "gate".into(),
            to: "publish".into(),
        },
    );
    let a = edit(
        &a.text,
        Edit::SetPosition {
            node: "gate".into(),
            x: 10.0,
            y: 20.0,
        },
    );
    let read = apply(&a.text, &Edit::RemoveNode { id: "check".into() }).unwrap_err();
    assert!(
        read.message.contains("its output is read"),
        "{}",
        read.message
    );
    let removed = edit(
        &a.text,
        Edit::RemoveNode {
            id: "review".into(),
        },
    );
    let json = crate::drtl::parse(&removed.text).0.unwrap().json().clone();
    assert!(json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["id"] != "review"));
    assert!(
        json["nodes"][2].get("on_fail").is_none(),
        "{}",
        removed.text
    );
    let refused = apply(
        TOPOLOGY,
        &Edit::RemoveStep {
            name: "draft".into(),
        },
    )
    .unwrap_err();
    assert!(refused.message.contains("topology"));
}

/// Issue #13, defect 1: setting a quoted value keeps the comment after it.
#[test]
fn set_keeps_the_comment_after_a_quoted_value() {
    let text = "---\nspec_version: \"1.0\"\nname: \"x\"  # note\nmetadata:\n  list:\n    - 'a'  # item note\n    - \"b\"\n---\n";
    let a = edit(
        text,
        Edit::Set {
            path: "name".into(),
            value: json!("y"),
        },
    );
    let a = edit(
        &a.text,
        Edit::Set {
            path: "metadata.list[0]".into(),
            value: json!("c"),
        },
    );
    assert_eq!(
        a.text,
        "---\nspec_version: \"1.0\"\nname: \"y\"  # note\nmetadata:\n  list:\n    - 'c'  # item note\n    - \"b\"\n---\n"
    );
}

/// Issue #13: the comment on a key's line, and those of entries a set keeps, stay.
#[test]
fn set_keeps_the_key_line_comment_and_the_comments_of_what_stays() {
    let text = "---\nspec_version: \"1.0\"\nname: n\nmetadata:\n  deps:  # the deps\n    - x  # first\n    - y\n  pos:  # where\n    x: 1  # across\n    y: 2  # down\n  block: |  # header\n    text\n---\n";
    let a = edit(
        text,
        Edit::Set {
            path: "metadata.deps".into(),
            value: json!("none"),
        },
    );
    let a = edit(
        &a.text,
        Edit::Set {
            path: "metadata.pos".into(),
            value: json!({"x": 5, "y": 2, "z": 0}),
        },
    );
    let a = edit(
        &a.text,
        Edit::Set {
            path: "metadata.block".into(),
            value: json!("no final break"),
        },
    );
    assert_eq!(
        a.text,
        "---\nspec_version: \"1.0\"\nname: n\nmetadata:\n  deps: none  # the deps\n  pos:  # where\n    x: 5  # across\n    y: 2  # down\n    z: 0\n  block: no final break  # header\n---\n"
    );
}

/// Issue #13: removing the first entry of a sequence item keeps the next entry's comment; a
/// block scalar's `# ...` lines are text, not comments above the next entry.
#[test]
fn remove_takes_only_its_own_comments() {
    let text = "---\nspec_version: \"1.0\"\nname: n\nmetadata:\n  items:\n    - a: 1  # of a\n      # above b\n      b: 2\n    - |\n      text\n    # above c\n    - c\n  notes: |\n    # a line of text\n  # above last\n  last: 1\n---\n";
    let a = edit(
        text,
        Edit::Remove {
            path: "metadata.items[0].a".into(),
        },
    );
    let a = edit(
        &a.text,
        Edit::Remove {
            path: "metadata.items[1]".into(),
        },
    );
    let a = edit(
        &a.text,
        Edit::Remove {
            path: "metadata.last".into(),
        },
    );
    assert_eq!(
        a.text,
        "---\nspec_version: \"1.0\"\nname: n\nmetadata:\n  items:\n    - # above b\n      b: 2\n    # above c\n    - c\n  notes: |\n    # a line of text\n---\n"
    );
}

/// The invariant is checked: a change that would drop a comment it does not own is refused.
#[test]
fn a_change_that_loses_a_comment_is_refused() {
    let text = "---\nspec_version: \"1.0\"\nname: n  # keep me\n---\n";
    let current = current::Current::detect(text).unwrap();
    let mut session = Session {
        original: text.to_owned(),
        comments: current.comments(),
        current,
        merged: Vec::new(),
        notes: Vec::new(),
    };
    let start = text.find("  # keep").unwrap();
    let change = ops::Change {
        patch: Patch {
            start,
            end: start + "  # keep me".len(),
            text: String::new(),
        },
        owned: Vec::new(),
    };
    let expected = session.json().clone();
    let refusal = session.commit(change, &expected).unwrap_err();
    assert_eq!(
        refusal.message,
        "the edit would lose the comment `# keep me` (line 3); it was not applied"
    );
}

const REFERENCED: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    description: first\n  b:\n    needs: [a]\n    parallel_steps: [a, c]\n    branches:\n      # back to a\n      - if: \"{{ input.retry }}\"\n        then: a\n      - default: true\n        then: c  # onwards\n  c:\n    needs:\n      - a  # the first\n      - b\ndecision_trees:\n  route:\n    root: start\n    nodes:\n      start:\n        condition: \"{{ input.kind }}\"\n        branches:\n          - value: x\n            next: a\n          - default: true\n            next: c\nfallback:\n  strategy: graceful_degrade\n  degradation:\n    - when: timeout_exceeded\n      fallback_to: a\nmetadata:\n  logicmd:\n    positions:\n      a: {x: 1, y: 2}\n      b: {x: 3, y: 4}\n---\n";

/// Issue #13, defect 9: removing a step removes what only points at it (needs and
/// parallel_steps entries, branches and tree branches routing to it, degradations falling back
/// to it, its position), with their comments, and says so; nothing dangles.
#[test]
fn removing_a_step_removes_what_points_at_it() {
    for edit_of in [
        Edit::RemoveStep { name: "a".into() },
        Edit::Remove {
            path: "steps.a".into(),
        },
        Edit::Remove {
            path: "/steps/a".into(),
        },
    ] {
        let a = edit(REFERENCED, edit_of);
        assert_eq!(
            a.text,
            "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  b:\n    parallel_steps: [c]\n    branches:\n      - default: true\n        then: c  # onwards\n  c:\n    needs:\n      - b\ndecision_trees:\n  route:\n    root: start\n    nodes:\n      start:\n        condition: \"{{ input.kind }}\"\n        branches:\n          - default: true\n            next: c\nfallback:\n  strategy: graceful_degrade\nmetadata:\n  logicmd:\n    positions:\n      b: {x: 3, y: 4}\n---\n"
        );
        assert_eq!(
            a.notes,
            [
                "step `b` no longer needs `a`",
                "step `b` no longer runs `a` in parallel",
                "the branch of step `b` to `a` was removed",
                "step `c` no longer needs `a`",
                "the branch of decision tree `route` at node `start` to `a` was removed",
                "the degradation falling back to `a` was removed",
            ]
        );
        assert_eq!(undo(&a), REFERENCED);
    }
}

/// Issue #13, defect 9: a step whose output an expression reads is not removed; the refusal
/// names every place that reads it.
#[test]
fn removing_a_step_whose_output_is_read_is_refused() {
    let text = REFERENCED.replace(
        "    description: first\n",
        "    description: first\n  d:\n    description: \"{{ steps.a.output.summary }}\"\n    instructions: |\n      Use {{ steps['a'].output }}.\n",
    );
    let refusal = apply(&text, &Edit::RemoveStep { name: "a".into() }).unwrap_err();
    assert_eq!(
        refusal.message,
        "step `a` is not removed: its output is read at /steps/d/description (line 8) and /steps/d/instructions (line 10); change those first"
    );
}

/// A decision-tree node keeps at least one branch: removing its only target is refused.
#[test]
fn removing_the_only_target_of_a_tree_node_is_refused() {
    let text = REFERENCED.replace(
        "          - value: x\n            next: a\n          - default: true\n            next: c\n",
        "          - default: true\n            next: a\n",
    );
    let refusal = apply(&text, &Edit::RemoveStep { name: "a".into() }).unwrap_err();
    assert_eq!(
        refusal.message,
        "step `a` is not removed: it is the only branch of decision tree `route` at node `start` (line 27); route that node elsewhere first"
    );
}

const ROUTED: &str = "name: t\nnodes:\n  - id: draft\n    type: generate\n    output_key: text\n  - id: gate\n    type: gate\n    condition: input.ok\n    on_pass: publish  # ship it\n    on_fail: {next: draft, inject: draft.text}\n  - id: review\n    type: review\n    input: {text: draft.text}\n    actions:\n      - approve: {next: publish}\n      - reject\n  - id: publish\n    type: transform\n    operations:\n      - {set: state.variables.done, value: true}\nedges:\n  - {from: draft, to: gate}\n  - {from: gate, to: publish}\n";

/// Removing a topology node removes what only points at it (edges, gate routes; a review
/// action routed to it ends the run instead), with notes.
#[test]
fn removing_a_node_removes_what_points_at_it() {
    for removal in [
        Edit::RemoveNode {
            id: "publish".into(),
        },
        Edit::Remove {
            path: "/nodes/3".into(),
        },
    ] {
        let a = edit(ROUTED, removal);
        assert_eq!(
            a.text,
            "name: t\nnodes:\n  - id: draft\n    type: generate\n    output_key: text\n  - id: gate\n    type: gate\n    condition: input.ok\n    on_fail: {next: draft, inject: draft.text}\n  - id: review\n    type: review\n    input: {text: draft.text}\n    actions:\n      - approve\n      - reject\nedges:\n  - {from: draft, to: gate}\n"
        );
        assert_eq!(
            a.notes,
            [
                "the edge from `gate` to `publish` was removed",
                "gate `gate` no longer routes `on_pass` to `publish`",
                "review `review`'s action `approve` now ends the run",
            ]
        );
        assert_eq!(undo(&a), ROUTED);
    }
}

/// A node whose output another node reads (an `input`, a template, an `inject`) is not removed;
/// the refusal names every reader.
#[test]
fn removing_a_node_whose_output_is_read_is_refused() {
    let refusal = apply(ROUTED, &Edit::RemoveNode { id: "draft".into() }).unwrap_err();
    assert_eq!(
        refusal.message,
        "node `draft` is not removed: its output is read at /nodes/1/on_fail/inject (line 10) and /nodes/2/input/text (line 13); change those first"
    );
}

/// Issue #13: adding a step after another writes it there; the steps after it keep their text
/// and comments (they used to be re-written from their values, losing comments).
#[test]
fn add_step_after_keeps_the_later_steps_as_written() {
    let a = edit(
        DOC,
        Edit::AddStep {
            name: "verify".into(),
            after: Some("gather".into()),
            step: json!({"description": "Check"}),
        },
    );
    assert_eq!(
        a.text,
        DOC.replace(
            "      Keep notes.\n  rank:",
            "      Keep notes.\n  verify:\n    description: Check\n  rank:"
        )
    );
    let a = edit(
        "---\nspec_version: \"1.0\"\nname: t\nsteps: {a: {}, b: {}}  # flow\n---\n",
        Edit::AddStep {
            name: "c".into(),
            after: Some("a".into()),
            step: json!({}),
        },
    );
    assert_eq!(
        a.text,
        "---\nspec_version: \"1.0\"\nname: t\nsteps: {a: {}, c: {}, b: {}}  # flow\n---\n"
    );
}

const WIRED: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    output_schema: {type: object}\n  b:\n    needs: [a]\n  c:\n    needs: [b]\n    input_schema: {type: string}\n  d: {}\ndecision_trees:\n  route:\n    root: start\n    nodes:\n      start:\n        condition: \"{{ input.kind }}\"\n        branches:\n          - default: true\n            next: c\n---\n";

fn connect(from: &str, to: &str, ports: Option<(&str, &str)>) -> Edit {
    Edit::Connect {
        from: from.into(),
        to: to.into(),
        from_port: ports.map(|p| p.0.to_owned()),
        to_port: ports.map(|p| p.1.to_owned()),
    }
}

/// The connect rules live in core (issue #13), so every caller gets them: no self-wire, only
/// steps in LOGIC.md, port types that fit, no `needs` cycle (the message names the path).
#[test]
fn connect_refuses_with_the_reason() {
    let refusal = |edit: Edit| apply(WIRED, &edit).unwrap_err().message;
    assert_eq!(
        refusal(connect("c", "a", None)),
        "`a` would need `c`, but a → b → c already: that is a cycle"
    );
    assert_eq!(
        refusal(connect("a", "a", None)),
        "`a` cannot be connected to itself"
    );
    assert_eq!(
        refusal(connect("a", "c", Some(("output", "input")))),
        "a `object` output does not fit the `string` input of `c`"
    );
    assert_eq!(
        refusal(connect("a", "c", None)),
        "a `object` output does not fit the `string` input of `c`",
        "without ports, the first ones (where the wire would be drawn)"
    );
    assert_eq!(
        refusal(connect("a", "c", Some(("result", "input")))),
        "`a` has no output port `result`"
    );
    assert_eq!(
        refusal(connect("start", "c", None)),
        "only steps can be wired in LOGIC.md (a `needs` entry); `start` is a decision node"
    );
    assert_eq!(
        refusal(connect("a", "nowhere", None)),
        "there is no step `nowhere`"
    );
    assert_eq!(refusal(connect("b", "c", None)), "`c` already needs `b`");
    let a = edit(WIRED, connect("a", "d", Some(("output", "in"))));
    assert!(a.text.contains("  d: {needs: [a]}\n"), "{}", a.text);
}

/// DRTL: no self-wire, and port types must fit; cycles are allowed (the checks bound them).
#[test]
fn drtl_connect_refuses_self_wires() {
    let refusal = apply(TOPOLOGY, &connect("gate", "gate", None)).unwrap_err();
    assert_eq!(refusal.message, "`gate` cannot be connected to itself");
    let back = edit(TOPOLOGY, connect("check", "draft", None));
    let json = crate::drtl::parse(&back.text).0.unwrap().json().clone();
    assert_eq!(json["edges"][2], json!({"from": "check", "to": "draft"}));
}

/// A text replacement must leave a document the front door reads as the same kind, or its own
/// inverse (which goes through that door) would be refused: found by the fuzzer renaming `nodes`.
#[test]
fn a_replacement_that_changes_the_document_kind_is_refused() {
    let at = TOPOLOGY.find("nodes:").unwrap();
    for replacement in ["n@", "", "(", "V1e400 e`"] {
        let err = apply(
            TOPOLOGY,
            &Edit::ReplaceText {
                start: at,
                end: at + 2,
                text: replacement.into(),
            },
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "the replacement would leave text that does not parse: the text would no longer read as a DRTL topology (no top-level `nodes:` line)"
        );
    }
    let err = apply(
        DOC,
        &Edit::ReplaceText {
            start: 0,
            end: DOC.len(),
            text: TOPOLOGY.into(),
        },
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "the replacement would leave text that does not parse: the text would read as a DRTL topology instead"
    );
    // Every replacement that is applied can be undone.
    let applied = edit(
        TOPOLOGY,
        Edit::ReplaceText {
            start: at + "nodes:".len(),
            end: at + "nodes:".len(),
            text: "  # all of them".into(),
        },
    );
    assert_eq!(undo(&applied), TOPOLOGY);
}

#[test]
fn removing_several_steps_is_one_edit_and_leaves_no_reference() {
    let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b:\n    needs: [a]\n    description: \"{{ steps.a.output }}\"\n  c:\n    needs: [b]\n  d:\n    needs: [a, c]\n    parallel_steps: [b]\n---\n";
    let names = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
    let applied = edit(doc, Edit::RemoveSteps { names });
    assert_eq!(
        applied.text,
        "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  d: {}\n---\n"
    );
    assert_eq!(undo(&applied), doc);
    // A step outside the set still reading a removed one refuses the whole edit.
    let refused = apply(
        doc,
        &Edit::RemoveSteps {
            names: vec!["a".to_owned()],
        },
    )
    .unwrap_err();
    assert!(
        refused.message.contains("its output is read"),
        "{}",
        refused.message
    );
    assert!(apply(doc, &Edit::RemoveSteps { names: vec![] }).is_err());
}

/// Issue #18: a multi-line value (a step's instructions from the inspector) is written as a
/// literal block, over a quoted, plain or missing value and as part of a new step, with the
/// comment of the old value's line kept after the header; undo restores the bytes.
#[test]
fn multi_line_values_are_written_as_literal_blocks() {
    let text = "---\nspec_version: \"1.0\"\nname: b   # the name\nsteps:\n  a:\n    instructions: \"one\"   # keep me\n  b:\n    description: x\n---\n";
    let mut shown = Vec::new();
    for (path, value) in [
        (
            "steps.a.instructions",
            json!("Find sources.\nKeep notes.\n"),
        ),
        ("steps.a.instructions", json!("  indented\nthen not")),
        ("steps.b.instructions", json!("new\nfield")),
        ("steps.b.description", json!("was plain\nnow two lines")),
        ("/name", json!("two\nlines")),
    ] {
        let a = edit(
            text,
            Edit::Set {
                path: path.into(),
                value: value.clone(),
            },
        );
        let json = Document::parse(&a.text).document.unwrap().json().clone();
        let pointer = format!("/{}", path.trim_start_matches('/').replace('.', "/"));
        assert_eq!(json.pointer(&pointer), Some(&value), "{}", a.text);
        assert_eq!(undo(&a), text);
        shown.push(format!("{path} = {value}\n{}", a.text));
    }
    let a = edit(
        text,
        Edit::AddStep {
            name: "c".into(),
            step: json!({"instructions": "Line one.\nLine two."}),
            after: None,
        },
    );
    shown.push(format!("add step c\n{}", a.text));
    insta::assert_snapshot!(shown.join("\n"));
}

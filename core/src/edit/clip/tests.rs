//! Copy and paste keep the steps' fields, keep the wires among them and never leave a
//! reference to a step the document does not have.

use super::*;

const DOC: &str = r#"---
spec_version: "1.0"
name: research
steps:
  gather:
    description: Collect sources
  rank:
    needs: [gather]
    description: Rank them
    instructions: |
      Rank by date.
      Then by relevance.
  report:
    needs: [rank, gather]
    description: "Write {{ steps.rank.output }}"
---
# Body
"#;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn copying_keeps_fields_and_needs_among_the_copied_steps_only() {
    let copied = copy_steps(DOC, &names(&["report", "rank"])).unwrap();
    insta::assert_snapshot!(copied, @r#"
    ---
    spec_version: "1.0"
    name: research
    steps:
      rank:
        description: Rank them
        instructions: |
          Rank by date.
          Then by relevance.
      report:
        needs:
          - rank
        description: "Write {{ steps.rank.output }}"
    ---
    "#);
    assert!(crate::validate::validate(&copied).valid);
}

#[test]
fn pasting_into_the_same_document_renames_on_clash_and_follows_references() {
    let copied = copy_steps(DOC, &names(&["rank", "report"])).unwrap();
    let pasted = paste_steps(DOC, &copied, Some("report")).unwrap();
    assert_eq!(pasted.names, names(&["rank_2", "report_2"]));
    let json = Document::parse(&pasted.text)
        .document
        .unwrap()
        .json()
        .clone();
    let steps = json["steps"].as_object().unwrap();
    let order: Vec<&str> = steps.keys().map(String::as_str).collect();
    assert_eq!(order, ["gather", "rank", "report", "rank_2", "report_2"]);
    assert_eq!(
        json["steps"]["report_2"]["needs"],
        serde_json::json!(["rank_2"])
    );
    assert_eq!(
        json["steps"]["report_2"]["description"],
        "Write {{ steps.rank_2.output }}"
    );
    assert!(
        json["steps"]["rank_2"].get("needs").is_none(),
        "gather was not copied"
    );
    // The original text is untouched before the pasted steps, and its body stays.
    assert!(pasted.text.ends_with("---\n# Body\n"));
    assert_eq!(
        pasted
            .text
            .replace(&pasted.text[DOC.find("---\n# Body").unwrap()..], ""),
        pasted.text[..DOC.find("---\n# Body").unwrap()]
    );
}

#[test]
fn a_taken_suffix_is_skipped() {
    let doc = DOC.replace("  report:\n", "  rank_2: {}\n  report:\n");
    let copied = copy_steps(DOC, &names(&["rank"])).unwrap();
    let pasted = paste_steps(&doc, &copied, None).unwrap();
    assert_eq!(pasted.names, names(&["rank_3"]));
}

#[test]
fn plain_text_from_another_document_pastes_its_steps() {
    let other = "---\nspec_version: \"1.0\"\nname: other\nsteps:\n  fetch:\n    needs: [elsewhere]\n  gather:\n    needs: [fetch]\n---\n";
    let pasted = paste_steps(DOC, other, None).unwrap();
    assert_eq!(pasted.names, names(&["fetch", "gather_2"]));
    let json = Document::parse(&pasted.text)
        .document
        .unwrap()
        .json()
        .clone();
    assert!(
        json["steps"]["fetch"].get("needs").is_none(),
        "dangling need dropped"
    );
    assert_eq!(
        json["steps"]["gather_2"]["needs"],
        serde_json::json!(["fetch"])
    );
    // The frontmatter alone (no `---` lines) is read too.
    let bare = "steps:\n  solo:\n    description: alone\n";
    assert_eq!(
        paste_steps(DOC, bare, None).unwrap().names,
        names(&["solo"])
    );
}

#[test]
fn pasting_text_without_steps_or_into_a_topology_is_refused() {
    let refused = paste_steps(DOC, "hello", None).unwrap_err();
    assert_eq!(refused.message, "the clipboard holds no LOGIC.md steps");
    let topology = "nodes:\n  - id: g\n    type: generate\n";
    assert!(paste_steps(topology, DOC, None).is_err());
    assert!(copy_steps(DOC, &names(&["missing"])).is_err());
}

const TOPOLOGY: &str = "# A topology\nname: t\nnodes:\n  - id: draft   # the writer\n    type: generate\n    output_format: json\n    output_key: text\n  - id: check\n    type: verify\n    input: draft.text\n    rules:\n      - {id: std.check_links, target: urls, mode: block}\n  - id: gate\n    type: gate\n    condition: input.ok\n    on_pass: publish\n    on_fail: {next: draft, inject: check.report}\n  - id: publish\n    type: transform\n    operations:\n      - {set: state.variables.done, value: true}\nedges:\n  - {from: draft, to: check}\n  - {from: check, to: gate}\n";

/// Issue #18: DRTL nodes copy as a topology with the edges among them, and paste into a
/// topology under fresh ids with every reference among the pasted nodes following.
#[test]
fn drtl_nodes_copy_with_their_edges_and_paste_under_fresh_ids() {
    let copied = copy_nodes(TOPOLOGY, &names(&["gate", "draft", "check"])).unwrap();
    let pasted = paste_nodes(TOPOLOGY, &copied, Some("publish")).unwrap();
    assert_eq!(pasted.names, names(&["draft_2", "check_2", "gate_2"]));
    let (topology, diagnostics) = crate::drtl::parse(&pasted.text);
    assert!(topology.is_some());
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    assert!(pasted
        .text
        .starts_with(TOPOLOGY.split("edges:").next().unwrap()));
    insta::assert_snapshot!(format!("{copied}\n=== pasted ===\n{}", pasted.text));
}

#[test]
fn drtl_nodes_paste_only_into_topologies() {
    let copied = copy_nodes(TOPOLOGY, &names(&["draft"])).unwrap();
    let refusal = paste_nodes(DOC, &copied, None).unwrap_err();
    assert_eq!(
        refusal.message,
        "DRTL nodes are copied and pasted in DRTL topologies; cannot paste into a LOGIC.md document"
    );
    let refusal = paste_nodes(TOPOLOGY, "just: text", None).unwrap_err();
    assert_eq!(refusal.message, "the clipboard holds no DRTL nodes");
    assert_eq!(
        copy_nodes(TOPOLOGY, &names(&["nothing"]))
            .unwrap_err()
            .message,
        "no DRTL nodes to copy"
    );
}

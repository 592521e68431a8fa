use proptest::prelude::*;

use super::*;
use crate::graph::{from_document, layout, LayoutOptions};

/// The graph the studio draws: built and laid out afresh.
fn full(document: &Document) -> Graph {
    let mut graph = from_document(document);
    layout(&mut graph, LayoutOptions::default());
    graph
}

fn parsed(text: &str) -> Document {
    let parsed = Document::parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    parsed.document.expect("parses")
}

/// The patched graph of `after` (an edit of `before`), asserted equal to a full build whenever
/// the patch answers; `None` when the reparse or the patch leaves it to a full build.
fn patched(before: &str, after: &str) -> Option<Graph> {
    let old = parsed(before);
    let (document, edit) = old.reparse_edit(after)?;
    let graph = update(&full(&old), &document, &edit)?;
    assert_eq!(graph, full(&parsed(after)), "{after}");
    Some(graph)
}

/// A document of `steps` (description, instructions, timeout, needs, schema, confidence per the
/// flags), with `visual.inspector` fields relative to steps and a decision tree after them.
fn document(steps: &[(bool, bool, bool, bool)], absolute_field: bool) -> String {
    let mut text = String::from("---\nspec_version: \"1.0\"\nname: gen\nvisual:\n  inspector:\n    - key: confidence.minimum\n      label: Minimum\n      type: number\n");
    if absolute_field {
        text.push_str("    - key: reasoning.strategy\n      label: Strategy\n      type: text\n");
    }
    text.push_str("reasoning:\n  strategy: cot\nsteps:\n");
    for (i, &(instructions, timeout, needs, schema)) in steps.iter().enumerate() {
        text.push_str(&format!("  s{i}:\n    description: step {i} does things\n"));
        if instructions {
            text.push_str("    instructions: Keep it short\n");
        }
        if timeout {
            text.push_str("    timeout: 30s\n");
        }
        if needs && i > 0 {
            text.push_str(&format!("    needs:\n      - s{}\n", i - 1));
        }
        if schema {
            text.push_str(
                "    output_schema:\n      type: object\n    input_schema:\n      type: object\n",
            );
        }
        text.push_str("    confidence:\n      minimum: 0.5\n");
    }
    text.push_str("decision_trees:\n  route:\n    root: kind\n    nodes:\n      kind:\n        condition: \"{{ input.kind }}\"\n        branches:\n          - next: s0\n            value: deep\n    terminals:\n      stop:\n        action: clarify\n---\n# Body\n");
    text
}

/// Byte offsets inside the values of `text`'s `key: value` lines (after the `: `).
fn value_offsets(text: &str) -> Vec<usize> {
    let mut offsets = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(colon) = line.find(": ") {
            let value = line[colon + 2..].trim_end();
            let start = at + colon + 2;
            offsets.extend(start..=start + value.len());
        }
        at += line.len();
    }
    offsets
}

#[test]
fn typing_in_a_description_patches_the_one_node_and_moves_the_spans_after_it() {
    let before = document(&[(true, true, true, true); 4], false);
    let after = before.replace("step 1 does things", "step 1 does many things");
    let graph = patched(&before, &after).expect("a description edit is patched");
    let s1 = graph.nodes.iter().find(|n| n.id == "step:s1").unwrap();
    assert_eq!(s1.label, "s1: step 1 does many things");
}

#[test]
fn edits_that_rewire_or_reach_outside_steps_are_built_again() {
    let before = document(&[(true, true, true, true); 3], false);
    // Schemas decide the contract verdict of the edges, `needs` the edges.
    let typed = before.replacen("type: object", "type: string", 1);
    assert!(parsed(&before).reparse_edit(&typed).is_some());
    assert_eq!(patched(&before, &typed), None);
    let rewired = before.replacen("- s0", "- s2", 1);
    assert_eq!(patched(&before, &rewired), None);
    assert_eq!(patched(&before, &before.replace("cot", "react")), None);
    // A document-wide inspector field may show the edited value on every node.
    let absolute = document(&[(true, true, true, true); 3], true);
    let edited = absolute.replace("step 1 does", "step 1 did");
    assert!(parsed(&absolute).reparse_edit(&edited).is_some());
    assert_eq!(patched(&absolute, &edited), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Incremental == full: any one-character edit inside a value of a generated document gives,
    /// where the patch answers, the graph a full build and layout gives (asserted in `patched`).
    #[test]
    fn a_patched_graph_equals_the_graph_built_afresh(
        steps in prop::collection::vec(any::<(bool, bool, bool, bool)>(), 1..8),
        absolute in any::<bool>(),
        pick in any::<prop::sample::Index>(),
        typed in prop::option::of(prop::char::range('a', 'z')),
    ) {
        let before = document(&steps, absolute);
        let offsets = value_offsets(&before);
        let at = offsets[pick.index(offsets.len())];
        let after = match typed {
            Some(c) => format!("{}{c}{}", &before[..at], &before[at..]),
            None if at < before.len() && before.as_bytes()[at] != b'\n' => {
                format!("{}{}", &before[..at], &before[at + 1..])
            }
            None => return Ok(()),
        };
        if Document::parse(&after).diagnostics.is_empty() {
            patched(&before, &after);
        }
    }
}

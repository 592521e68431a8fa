//! What New starts from: an empty workflow, an empty DRTL topology, or one of the examples.
//! The empty ones carry just what the schema requires, so a user never has to know that
//! `spec_version` and `name` are needed.

use crate::examples::EXAMPLES;

pub struct Template {
    pub id: &'static str,
    pub title: &'static str,
    pub text: &'static str,
    /// An empty start, not an example.
    pub blank: bool,
}

/// An empty LOGIC.md workflow: valid, no steps yet.
pub const EMPTY_WORKFLOW: &str =
    "---\nspec_version: \"1.0\"\nname: untitled\ndescription: A new workflow\n---\n";

/// A DRTL topology with the one node a topology needs.
pub const EMPTY_TOPOLOGY: &str = "name: untitled-topology\nnodes:\n  - id: draft\n    type: generate\n    prompt: Describe the output\n    output_key: draft\n";

/// The choices of the New dialog, empty ones first.
pub fn templates() -> Vec<Template> {
    let blank = [
        Template {
            id: "empty",
            title: "Empty workflow (LOGIC.md)",
            text: EMPTY_WORKFLOW,
            blank: true,
        },
        Template {
            id: "drtl",
            title: "DRTL topology",
            text: EMPTY_TOPOLOGY,
            blank: true,
        },
    ];
    blank
        .into_iter()
        .chain(EXAMPLES.iter().map(|e| Template {
            id: e.id,
            title: e.title,
            text: e.text,
            blank: false,
        }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defaults::{add_node, add_step};
    use logicmd::edit::apply;

    #[test]
    fn the_empty_workflow_is_valid_and_takes_a_first_step() {
        assert!(logicmd::validate(EMPTY_WORKFLOW).valid);
        let applied = apply(EMPTY_WORKFLOW, &add_step(None, None)).expect("a first step");
        assert!(logicmd::validate(&applied.text).valid, "{}", applied.text);
        assert!(
            applied.text.contains("steps:\n  new_step:"),
            "{}",
            applied.text
        );
    }

    #[test]
    fn the_empty_topology_is_valid_and_takes_nodes() {
        let report = logicmd::drtl::validate(EMPTY_TOPOLOGY);
        assert!(
            report
                .diagnostics
                .iter()
                .all(|d| !d.code.starts_with("schema")),
            "{:?}",
            report.diagnostics
        );
        let applied = apply(
            EMPTY_TOPOLOGY,
            &add_node(
                None,
                "verify",
                Some("draft".into()),
                Some("draft.draft".into()),
            ),
        );
        assert!(applied.is_ok(), "{applied:?}");
    }

    #[test]
    fn every_template_has_a_distinct_id() {
        let all = templates();
        for (i, t) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|u| u.id != t.id), "{}", t.id);
        }
    }
}

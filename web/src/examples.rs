//! The examples menu. The first entry is what the studio opens with.

pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    pub text: &'static str,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        id: "competitive-analyst",
        title: "Competitive analyst (steps, branches, gates)",
        text: include_str!("../../examples/competitive-analyst.logic.md"),
    },
    Example {
        id: "spec-complete",
        // The corrected copy: the spec's text branches to two steps it never defines, which lint
        // refuses (docs/decisions.md, "The spec's own examples"); every example the studio offers runs.
        title: "Spec §11 complete example (corrected)",
        text: include_str!("../../examples/studio/spec-complete-example.corrected.logic.md"),
    },
    Example {
        id: "decision-router",
        title: "Decision-tree router",
        text: include_str!("../../examples/studio/decision-router.logic.md"),
    },
    Example {
        id: "multi-agent",
        title: "Multi-agent workflow",
        text: include_str!("../../examples/research-workflow.logic.md"),
    },
    Example {
        id: "fact-check",
        title: "DRTL fact-check topology",
        text: include_str!("../../examples/studio/fact-check.drtl.yaml"),
    },
    Example {
        id: "debate",
        title: "DRTL debate",
        text: include_str!("../../examples/studio/debate.drtl.yaml"),
    },
];

pub fn by_id(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

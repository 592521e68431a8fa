//! The problems of each node, for its badge: a diagnostic belongs to the node whose document
//! pointer is the longest prefix of the diagnostic's path (a step's field belongs to the step).

use rustc_hash::FxHashMap;

use logicmd::diagnostic::Diagnostic;
use logicmd::graph::Graph;
use logicmd::Severity;

/// The errors and warnings of one node, most severe first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeProblems {
    pub errors: usize,
    pub messages: Vec<String>,
}

/// Node id → its problems; nodes without problems are absent.
pub fn problems_by_node<'d>(
    graph: &Graph,
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
) -> FxHashMap<String, NodeProblems> {
    let by_pointer: FxHashMap<&str, &str> = graph
        .nodes
        .iter()
        .filter(|n| !n.pointer.is_empty())
        .map(|n| (n.pointer.as_str(), n.id.as_str()))
        .collect();
    let mut found: FxHashMap<String, NodeProblems> = FxHashMap::default();
    for d in diagnostics
        .into_iter()
        .filter(|d| d.severity != Severity::Info)
    {
        let Some(id) = owner(&by_pointer, &d.path) else {
            continue;
        };
        let problems = found.entry(id.to_owned()).or_default();
        if d.severity == Severity::Error {
            problems.errors += 1;
        }
        problems.messages.push(d.message.clone());
    }
    found
}

/// The node whose pointer is `path` or its nearest ancestor.
fn owner<'a>(by_pointer: &FxHashMap<&str, &'a str>, path: &str) -> Option<&'a str> {
    let mut path = path;
    loop {
        if let Some(id) = by_pointer.get(path) {
            return Some(id);
        }
        path = &path[..path.rfind('/')?];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_under_a_step_is_that_steps() {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b:\n    needs: [nowhere]\n---\n";
        let analysis = crate::analysis::analyze(doc, None, || 0.0);
        let graph = analysis.graph.expect("a graph");
        let diagnostics = crate::analysis::check(analysis.parsed.as_ref().expect("parsed")).0;
        let found = problems_by_node(&graph, &diagnostics);
        let b = found.get("step:b").expect("b has a problem");
        assert_eq!(b.errors, 1, "{diagnostics:?}");
        assert!(b.messages[0].contains("nowhere"), "{:?}", b.messages);
        assert!(!found.contains_key("step:a"));
    }
}

//! What the studio derives from the text on every change: the document kind, the laid-out
//! graph (when the text parses), the diagnostics, and the document's inspector fields.

use logicmd::diagnostic::{sort_diagnostics, Diagnostic};
use logicmd::graph::{layout, Graph, InspectorField, LayoutOptions};
use logicmd::loader::MemoryLoader;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Logic,
    Drtl,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub kind: Kind,
    /// `None` while the text does not parse; the studio then keeps drawing the last good graph.
    pub graph: Option<Graph>,
    pub diagnostics: Vec<Diagnostic>,
    /// `visual.inspector` of the document, bound to document pointers.
    pub document_fields: Vec<InspectorField>,
}

/// A DRTL topology is plain YAML (no `---` frontmatter) whose `nodes` is a list.
pub fn kind_of(text: &str) -> Kind {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let frontmatter = trimmed.starts_with("---");
    if !frontmatter && (trimmed.contains("\nnodes:") || trimmed.starts_with("nodes:")) {
        Kind::Drtl
    } else {
        Kind::Logic
    }
}

/// The id the edited document has; relative imports resolve against it.
const DOCUMENT_ID: &str = "document.logic.md";

/// Files the browser can resolve imports to: the ones the bundled examples import. Anything else
/// is reported as a missing import, as it would be by `logicmd lint` without the file.
fn bundled_files() -> MemoryLoader {
    MemoryLoader::new()
        .with(
            "shared/retry-defaults.logic.md",
            include_str!("../../examples/shared/retry-defaults.logic.md"),
        )
        .with(
            "nodes/researcher.logic.md",
            include_str!("../../examples/nodes/researcher.logic.md"),
        )
        .with(
            "nodes/synthesizer.logic.md",
            include_str!("../../examples/nodes/synthesizer.logic.md"),
        )
}

pub fn analyze(text: &str) -> Analysis {
    let kind = kind_of(text);
    let (graph, mut diagnostics, document_fields) = match kind {
        Kind::Drtl => {
            let report = logicmd::drtl::validate(text);
            let graph = logicmd::drtl::parse(text)
                .0
                .map(|t| logicmd::graph::from_topology(&t));
            (graph, report.diagnostics, Vec::new())
        }
        Kind::Logic => {
            let mut report = logicmd::validate(text);
            if let Some(document) = report.document.as_ref().filter(|_| report.valid) {
                report.diagnostics.extend(logicmd::lint::lint(
                    document,
                    DOCUMENT_ID,
                    &bundled_files(),
                ));
            }
            let fields = report
                .document
                .as_ref()
                .map(|d| logicmd::discover::node_definition("", d).inspector)
                .unwrap_or_default();
            let graph = report.document.as_ref().map(logicmd::graph::from_document);
            (graph, report.diagnostics, fields)
        }
    };
    let graph = graph.map(|mut g: Graph| {
        layout(&mut g, LayoutOptions::default());
        g
    });
    sort_diagnostics(&mut diagnostics);
    Analysis {
        kind,
        graph,
        diagnostics,
        document_fields,
    }
}

/// The node whose definition covers 1-based `line`, the innermost when several do.
pub fn node_at_line(graph: &Graph, text: &str, line: u32) -> Option<String> {
    let offset = line_start(text, line)?;
    graph
        .nodes
        .iter()
        .filter_map(|n| n.span.map(|s| (n, s)))
        .filter(|(_, s)| s.start <= offset && offset <= s.end)
        .min_by_key(|(_, s)| s.end - s.start)
        .map(|(n, _)| n.id.clone())
}

/// Byte offset where 1-based `line` starts.
pub fn line_start(text: &str, line: u32) -> Option<usize> {
    if line <= 1 {
        return Some(0);
    }
    text.match_indices('\n')
        .nth(line as usize - 2)
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    description: first\n  b:\n    needs: [a]\n---\n";

    #[test]
    fn analyzes_a_document_into_a_graph() {
        let analysis = analyze(DOC);
        assert_eq!(analysis.kind, Kind::Logic);
        let graph = analysis.graph.expect("graph");
        assert_eq!(graph.nodes.len(), 2);
        assert_eq!(graph.edges.len(), 1);
        assert!(
            !logicmd::diagnostic::has_errors(&analysis.diagnostics),
            "{:?}",
            analysis.diagnostics
        );
        assert_eq!(node_at_line(&graph, DOC, 6).as_deref(), Some("step:a"));
        assert_eq!(node_at_line(&graph, DOC, 8).as_deref(), Some("step:b"));
    }

    #[test]
    fn text_that_does_not_parse_has_no_graph_but_a_located_error() {
        let analysis = analyze("---\nname: [\n---\n");
        assert!(analysis.graph.is_none());
        assert!(
            analysis.diagnostics[0].line >= 2,
            "{:?}",
            analysis.diagnostics[0]
        );
    }

    #[test]
    fn semantic_problems_are_reported_and_bundled_imports_resolve() {
        let spec = analyze(crate::examples::by_id("spec-complete").unwrap().text);
        assert!(
            spec.diagnostics
                .iter()
                .any(|d| d.message.contains("prioritize_top_10")),
            "{:?}",
            spec.diagnostics
        );
        for id in ["competitive-analyst", "multi-agent", "decision-router"] {
            let example = analyze(crate::examples::by_id(id).unwrap().text);
            let errors: Vec<_> = example
                .diagnostics
                .iter()
                .filter(|d| d.severity == logicmd::Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{id}: {errors:?}");
        }
    }

    #[test]
    fn recognises_topologies() {
        assert_eq!(kind_of("name: x\nnodes:\n  - id: a\n"), Kind::Drtl);
        assert_eq!(kind_of("---\nnodes: 1\n---\n"), Kind::Logic);
    }

    #[test]
    fn line_starts() {
        assert_eq!(line_start("a\nb\nc", 3), Some(4));
        assert_eq!(line_start("a", 5), None);
    }
}

//! What the studio derives from the text. Two parts, so that typing redraws the graph at once:
//! [`analyze`] (parse, graph, layout, the document's inspector fields) runs on every change;
//! [`check`] (schema and semantic rules) runs on the parsed result after the graph is drawn.

use std::sync::Arc;

use logicmd::analysis::Options;
use logicmd::diagnostic::{sort_diagnostics, Diagnostic};
use logicmd::graph::{layout, Graph, InspectorField, LayoutOptions};
use logicmd::loader::MemoryLoader;

pub use logicmd::analysis::{Kind, Parsed as CoreParsed};
use logicmd::document::{Document, ScalarEdit};

/// A parsed text (core's front door), shared between the drawing and the deferred checks
/// without copying; compared by identity.
#[derive(Debug, Clone)]
pub struct Parsed(pub CoreParsed);

impl PartialEq for Parsed {
    /// Identity: two parses are the same only if they are the same parse.
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (CoreParsed::Logic(a), CoreParsed::Logic(b)) => Arc::ptr_eq(a, b),
            (CoreParsed::Drtl(a), CoreParsed::Drtl(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Milliseconds spent in each part of [`analyze`], shown on the canvas for measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timings {
    pub parse: f64,
    pub graph: f64,
    pub layout: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub kind: Kind,
    /// `None` while the text does not parse; the studio then keeps drawing the last good graph.
    pub graph: Option<Arc<Graph>>,
    /// What parsing found (syntax errors, duplicate keys). Schema and rule problems come from
    /// [`check`].
    pub parse_diagnostics: Vec<Diagnostic>,
    /// `visual.inspector` of the document, bound to document pointers.
    pub document_fields: Vec<InspectorField>,
    pub parsed: Option<Parsed>,
    pub timings: Timings,
}

/// The id the edited document has; relative imports resolve against it.
pub(crate) const DOCUMENT_ID: &str = "document.logic.md";

/// Files the browser can resolve imports to: the ones the bundled examples import. Anything else
/// is reported as a missing import, as it would be by `logicmd lint` without the file. The
/// source pane's editor queries (`source::ide`) see the same files.
pub(crate) const BUNDLED: [(&str, &str); 4] = [
    (
        "shared/retry-defaults.logic.md",
        include_str!("../../examples/shared/retry-defaults.logic.md"),
    ),
    (
        "nodes/researcher.logic.md",
        include_str!("../../examples/nodes/researcher.logic.md"),
    ),
    (
        "nodes/synthesizer.logic.md",
        include_str!("../../examples/nodes/synthesizer.logic.md"),
    ),
    (
        "protocols/parley_v1.yaml",
        include_str!("../../examples/studio/protocols/parley_v1.yaml"),
    ),
];

/// [`BUNDLED`] as core's loader.
pub(crate) fn bundled_files() -> MemoryLoader {
    BUNDLED
        .iter()
        .fold(MemoryLoader::new(), |files, (path, text)| {
            files.with(path, *text)
        })
}

/// The front door's options for the edited document.
fn options() -> Options<'static> {
    Options::lint(DOCUMENT_ID)
}

/// Parses `text` and lays out its graph; `now` is a millisecond clock for [`Timings`]. An edit
/// inside one value of the `previous` document is applied to a copy of it instead of parsing
/// again, and to its graph instead of building and laying it out again where it changes one
/// step's node ([`logicmd::graph::update`]).
pub fn analyze(text: &str, previous: Option<&Analysis>, now: impl Fn() -> f64) -> Analysis {
    let started = now();
    let reparsed = match previous.and_then(|p| p.parsed.as_ref()).map(|p| &p.0) {
        Some(CoreParsed::Logic(document)) if is_logic(text) => document.reparse_edit(text),
        _ => None,
    };
    let patchable = previous.and_then(|p| p.graph.as_deref());
    analyzed(text, reparsed, patchable, started, now)
}

/// [`analyze`] with the analysis it replaces handed over, as the studio's memo does: when
/// nothing else holds the previous parse (its deferred check has run), the edit is applied to
/// that document in place ([`logicmd::document::Document::reparse_edit_owned`]) instead of to a
/// copy of its tree and JSON view. Returns the new analysis and what is left of the previous
/// one (its document taken when it was reused), for the caller to free after the redraw.
pub fn analyze_replacing(
    text: &str,
    previous: Option<Analysis>,
    now: impl Fn() -> f64,
) -> (Analysis, Option<Analysis>) {
    let started = now();
    let Some(mut previous) = previous else {
        return (analyzed(text, None, None, started, now), None);
    };
    let reparsed = match previous.parsed.take() {
        Some(Parsed(CoreParsed::Logic(document))) if is_logic(text) => {
            match Arc::try_unwrap(document) {
                Ok(document) => document.reparse_edit_owned(text).map_or_else(
                    |document| {
                        previous.parsed = Some(Parsed(CoreParsed::Logic(Arc::new(document))));
                        None
                    },
                    Some,
                ),
                Err(shared) => {
                    let reparsed = shared.reparse_edit(text);
                    previous.parsed = Some(Parsed(CoreParsed::Logic(shared)));
                    reparsed
                }
            }
        }
        other => {
            previous.parsed = other;
            None
        }
    };
    let next = analyzed(text, reparsed, previous.graph.as_deref(), started, now);
    (next, Some(previous))
}

fn is_logic(text: &str) -> bool {
    logicmd::analysis::detect(text, None) == Kind::Logic
}

/// The analysis of `text`, given the reparse shortcut's result when it applied and the previous
/// laid-out graph to patch.
fn analyzed(
    text: &str,
    reparsed: Option<(Document, ScalarEdit)>,
    patchable: Option<&Graph>,
    started: f64,
    now: impl Fn() -> f64,
) -> Analysis {
    let (kind, parsed, parse_diagnostics, edit) = match reparsed {
        Some((next, edit)) => (
            Kind::Logic,
            Some(CoreParsed::Logic(Arc::new(next))),
            Vec::new(),
            Some(edit),
        ),
        None => {
            let (kind, parsed, diagnostics) = logicmd::analysis::parse(text, &options());
            (kind, parsed, diagnostics, None)
        }
    };
    let parsed_at = now();
    let patched = match (&parsed, patchable, &edit) {
        (Some(CoreParsed::Logic(document)), Some(graph), Some(edit)) => {
            logicmd::graph::update(graph, document, edit)
        }
        _ => None,
    };
    let (graph, document_fields) = match &parsed {
        Some(CoreParsed::Drtl(topology)) => {
            (Some(logicmd::graph::from_topology(topology)), Vec::new())
        }
        Some(CoreParsed::Logic(document)) => (
            patched
                .is_none()
                .then(|| logicmd::graph::from_document(document)),
            logicmd::discover::node_definition("", document).inspector,
        ),
        None => (None, Vec::new()),
    };
    let built_at = now();
    // A patched graph keeps the places of the laid-out graph it was patched from.
    let graph = match patched {
        Some(graph) => Some(graph),
        None => graph.map(|mut g| {
            layout(&mut g, LayoutOptions::default());
            g
        }),
    }
    .map(Arc::new);
    let laid_out_at = now();
    Analysis {
        kind,
        graph,
        parse_diagnostics,
        document_fields,
        parsed: parsed.map(Parsed),
        timings: Timings {
            parse: parsed_at - started,
            graph: built_at - parsed_at,
            layout: laid_out_at - built_at,
        },
    }
}

/// The schema and rule problems of a parsed text, by core's policy (imports resolve to the
/// bundled files).
///
/// Second, what a run of it needs that the checks do not see (`logicmd::run::preflight`: the
/// files it reads, nodes that read nothing): the pre-run checklist, listed before Run is pressed.
pub fn check(parsed: &Parsed) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let files = bundled_files();
    let found = logicmd::analysis::check(&parsed.0, &options(), &files);
    let needs = logicmd::run::preflight(&parsed.0, DOCUMENT_ID, &files);
    (found, needs)
}

/// Every problem of `text`: what parsing found and, when it parsed, the checks.
pub fn diagnostics_of(analysis: &Analysis, checked: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut all = analysis.parse_diagnostics.clone();
    all.extend_from_slice(checked);
    sort_diagnostics(&mut all);
    all
}

/// The node whose definition covers 1-based `line`, the innermost when several do.
pub fn node_at_line(graph: &Graph, text: &str, line: u32) -> Option<String> {
    node_at_offset(graph, line_start(text, line)?)
}

/// The innermost node whose definition covers byte `offset`.
pub fn node_at_offset(graph: &Graph, offset: usize) -> Option<String> {
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

    fn clock() -> f64 {
        0.0
    }

    /// Both parts, as the studio shows them once the checks have run.
    fn problems(text: &str) -> (Analysis, Vec<Diagnostic>) {
        let analysis = analyze(text, None, clock);
        let checked = analysis
            .parsed
            .as_ref()
            .map(|p| check(p).0)
            .unwrap_or_default();
        let all = diagnostics_of(&analysis, &checked);
        (analysis, all)
    }

    #[test]
    fn analyzes_a_document_into_a_graph() {
        let (analysis, diagnostics) = problems(DOC);
        assert_eq!(analysis.kind, Kind::Logic);
        let graph = analysis.graph.expect("graph");
        assert_eq!(graph.nodes.len(), 2);
        assert_eq!(graph.edges.len(), 1);
        assert!(
            !logicmd::diagnostic::has_errors(&diagnostics),
            "{diagnostics:?}"
        );
        assert_eq!(node_at_line(&graph, DOC, 6).as_deref(), Some("step:a"));
        assert_eq!(node_at_line(&graph, DOC, 8).as_deref(), Some("step:b"));
    }

    #[test]
    fn text_that_does_not_parse_has_no_graph_but_a_located_error() {
        let (analysis, diagnostics) = problems("---\nname: [\n---\n");
        assert!(analysis.graph.is_none());
        assert!(analysis.parsed.is_none());
        assert!(diagnostics[0].line >= 2, "{:?}", diagnostics[0]);
    }

    #[test]
    fn semantic_problems_are_reported_and_bundled_imports_resolve() {
        // The spec's §11 example as the spec writes it (the studio offers the corrected copy).
        let (_, spec) = problems(include_str!(
            "../../examples/studio/spec-complete-example.logic.md"
        ));
        assert!(
            spec.iter().any(|d| d.message.contains("prioritize_top_10")),
            "{:?}",
            spec
        );
        for id in ["competitive-analyst", "multi-agent", "decision-router"] {
            let (_, example) = problems(crate::examples::by_id(id).unwrap().text);
            let errors: Vec<_> = example
                .iter()
                .filter(|d| d.severity == logicmd::Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{id}: {errors:?}");
        }
    }

    #[test]
    fn an_edit_inside_a_value_reuses_the_previous_parse_and_gives_the_same_analysis() {
        let first = analyze(DOC, None, clock);
        let edited = DOC.replace("description: first", "description: first one");
        let next = analyze(&edited, Some(&first), clock);
        let fresh = analyze(&edited, None, clock);
        assert_eq!(next.graph, fresh.graph);
        assert_eq!(next.parse_diagnostics, fresh.parse_diagnostics);
        match (&next.parsed, &fresh.parsed) {
            (Some(Parsed(CoreParsed::Logic(a))), Some(Parsed(CoreParsed::Logic(b)))) => {
                assert_eq!(a, b)
            }
            other => panic!("{other:?}"),
        }
        // A structural edit parses again and still agrees.
        let grown = edited.replace("  b:\n", "  c: {}\n  b:\n");
        let next = analyze(&grown, Some(&next), clock);
        assert_eq!(next.graph, analyze(&grown, None, clock).graph);
    }

    /// The document of a logic analysis.
    fn document(analysis: &Analysis) -> &logicmd::document::Document {
        match &analysis.parsed {
            Some(Parsed(CoreParsed::Logic(document))) => document,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_analysis_handed_over_is_reused_in_place_and_gives_the_same_analysis() {
        let first = analyze(DOC, None, clock);
        let _ = document(&first).json();
        let edited = DOC.replace("description: first", "description: first one");
        let fresh = analyze(&edited, None, clock);
        let (next, rest) = analyze_replacing(&edited, Some(first), clock);
        assert_eq!(next.graph, fresh.graph);
        assert_eq!(document(&next), document(&fresh));
        assert_eq!(document(&next).json(), document(&fresh).json());
        // Held by nothing else, the previous document became the next one: none is left to free.
        let rest = rest.expect("the previous analysis, to retire");
        assert!(rest.parsed.is_none() && rest.graph.is_some());

        // Held elsewhere too (a check not yet run), it is copied and stays as it was.
        let held = next.parsed.clone();
        let again = edited.replace("first one", "first two");
        let (later, rest) = analyze_replacing(&again, Some(next), clock);
        assert_eq!(later.graph, analyze(&again, None, clock).graph);
        assert_eq!(rest.expect("retired").parsed, held);
        assert_eq!(document(&later), document(&analyze(&again, None, clock)));

        // A structural edit parses again and still agrees; the previous document is left whole.
        let grown = again.replace("  b:\n", "  c: {}\n  b:\n");
        let (parsed_again, rest) = analyze_replacing(&grown, Some(later), clock);
        assert_eq!(parsed_again.graph, analyze(&grown, None, clock).graph);
        assert_eq!(document(&rest.expect("retired")).text(), again);
    }

    #[test]
    fn recognises_topologies() {
        let kind = |text: &str| analyze(text, None, clock).kind;
        assert_eq!(kind("name: x\nnodes:\n  - id: a\n"), Kind::Drtl);
        assert_eq!(kind("---\nnodes: 1\n---\n"), Kind::Logic);
    }

    #[test]
    fn line_starts() {
        assert_eq!(line_start("a\nb\nc", 3), Some(4));
        assert_eq!(line_start("a", 5), None);
    }
}

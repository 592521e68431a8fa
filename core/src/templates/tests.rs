use serde_json::json;

use super::*;
use crate::analysis::{analyze, obligations, Options};
use crate::loader::MemoryLoader;
use crate::run::session::{
    contracts_of, example_input, Answerers, ClockMode, Models, Next, Session, Start, Waits,
};
use crate::run::{prepare, ActionKind, RunOptions};

/// The file name a template's text is checked as (it decides the kind, as on disk).
fn path_of(template: &Template) -> String {
    template.file_name(PLACEHOLDER_NAME)
}

#[test]
fn every_template_lints_without_a_single_finding() {
    for template in TEMPLATES {
        let path = path_of(template);
        let options = Options::lint(&path).with_path(&path);
        let analysis = analyze(template.text, &options, &MemoryLoader::new());
        assert_eq!(analysis.kind, template.kind, "{}", template.name);
        assert!(analysis.valid, "{}", template.name);
        assert_eq!(analysis.diagnostics, [], "{}", template.name);
    }
}

#[test]
fn every_template_passes_the_obligation_analysis_without_a_finding() {
    for template in TEMPLATES {
        let path = path_of(template);
        let options = Options::lint(&path).with_path(&path);
        let checked = obligations(template.text, &options, &MemoryLoader::new());
        assert_eq!(checked.analysis.diagnostics, [], "{}", template.name);
        assert_eq!(checked.findings, [], "{}", template.name);
    }
}

#[test]
fn every_logic_md_template_is_in_the_formatters_canonical_form() {
    for template in TEMPLATES.iter().filter(|t| t.kind == Kind::Logic) {
        let formatted = crate::format::format(template.text).expect("formats");
        assert_eq!(formatted, template.text, "{}", template.name);
    }
}

/// A dry run as `logicmd run --dry-run` makes it: synthetic answers, the example input, a
/// fixed clock; the run must complete (not pause, refuse or fail).
#[test]
fn every_template_completes_a_dry_run() {
    for template in TEMPLATES {
        let path = path_of(template);
        let options = Options::lint(&path).with_path(&path);
        let source = prepare(template.text, &options, &MemoryLoader::new()).expect("prepares");
        let input = example_input(&contracts_of(&source));
        let start = Start::new(source, input, RunOptions::default(), ClockMode::Fixed, 0);
        let models = Models::Synthetic;
        let answerers = Answerers {
            waits: Waits::for_run(&models, ClockMode::Fixed),
            models,
            facts: None,
        };
        let mut session = Session::start(start, answerers).expect("starts");
        let ending = loop {
            match session.next(0) {
                Next::Fed | Next::Breakpoint(_) => {}
                Next::Ended(action) => break action,
                other => panic!("{}: the dry run stopped at {other:?}", template.name),
            }
        };
        assert!(
            matches!(ending.kind, ActionKind::Complete { .. }),
            "{}: {ending:?}",
            template.name
        );
    }
}

#[test]
fn names_are_unique_and_the_default_exists() {
    let mut names: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), TEMPLATES.len());
    assert_eq!(find(DEFAULT_TEMPLATE).map(|t| t.name), Ok(DEFAULT_TEMPLATE));
}

#[test]
fn an_unknown_name_is_refused_with_the_closest_one() {
    let error = find("fact-chek").unwrap_err();
    assert_eq!(error.code, "unknown-template");
    assert_eq!(error.message, "no template named `fact-chek`");
    assert_eq!(error.help.as_deref(), Some("did you mean `fact-check`?"));
    let error = find("zzzzzzzz").unwrap_err();
    assert_eq!(
        error.help.as_deref(),
        Some(
            "templates: minimal, chain-of-thought, react, tree-of-thoughts, plan-execute, \
             analyst, decision-tree, fact-check, debate, review-loop, fan-out"
        )
    );
}

#[test]
fn rendering_a_name_changes_the_name_line_and_nothing_else() {
    for template in TEMPLATES {
        for name in ["support-triage", "a name: with # signs and \"quotes\""] {
            let text = render(template, Some(name)).expect("renders");
            let path = path_of(template);
            let options = Options::lint(&path).with_path(&path);
            let analysis = analyze(&text, &options, &MemoryLoader::new());
            assert_eq!(analysis.diagnostics, [], "{}: {text}", template.name);
            let parsed = analysis.parsed.expect("parses");
            assert_eq!(parsed.json()["name"], json!(name));
            let changed: Vec<(&str, &str)> = template
                .text
                .lines()
                .zip(text.lines())
                .filter(|(before, after)| before != after)
                .collect();
            assert_eq!(changed.len(), 1, "{}: {changed:?}", template.name);
            assert_eq!(template.text.lines().count(), text.lines().count());
        }
    }
}

#[test]
fn no_name_keeps_the_placeholder_and_an_empty_one_is_refused() {
    let minimal = find("minimal").unwrap();
    assert_eq!(render(minimal, None).unwrap(), minimal.text);
    assert_eq!(render(minimal, Some(" ")).unwrap_err().code, "invalid-name");
}

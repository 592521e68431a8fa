use super::*;
use crate::diagnostic::Diagnostic;

const FULL: &str = r#"root = "specs"
extend-exclude = ["drafts/"]

[lint]
select = ["logic", "check"]
ignore = ["missing-description"]
per-file-ignores = { "legacy/**" = ["duplicate-dependency"] }
severity = { unverified-contract = "error", unbounded-loop = "info" }
"#;

fn problems(text: &str, kind: FileKind) -> Vec<(String, u32, u32, String, Option<String>)> {
    parse(text, kind)
        .expect_err("refused")
        .into_iter()
        .map(|d| (d.code, d.line, d.column, d.message, d.help))
        .collect()
}

#[test]
fn every_setting_is_read_with_its_line() {
    let settings = parse(FULL, FileKind::Logicmd).unwrap().unwrap();
    assert_eq!(
        settings.root,
        Some(Setting {
            value: "specs".to_owned(),
            line: 1
        })
    );
    assert_eq!(settings.extend_exclude.unwrap().value, ["drafts/"]);
    let lint = settings.lint;
    assert_eq!(lint.select.unwrap().line, 5);
    assert_eq!(lint.ignore.unwrap().value, ["missing-description"]);
    assert_eq!(lint.per_file_ignores.len(), 1);
    assert_eq!(lint.per_file_ignores[0].value.pattern, "legacy/**");
    assert_eq!(lint.per_file_ignores[0].line, 7);
    let severities: Vec<(&str, Severity)> = lint
        .severity
        .iter()
        .map(|s| (s.value.code.as_str(), s.value.severity))
        .collect();
    assert_eq!(
        severities,
        [
            ("unverified-contract", Severity::Error),
            ("unbounded-loop", Severity::Info)
        ]
    );
}

#[test]
fn pyproject_settings_are_under_tool_logicmd_and_absent_without_it() {
    let text = format!(
        "[project]\nname = \"x\"\n\n[tool.logicmd]\n{}",
        FULL.replace("[lint]", "[tool.logicmd.lint]")
    );
    let settings = parse(&text, FileKind::Pyproject).unwrap().unwrap();
    assert_eq!(settings.root.unwrap().line, 5);
    assert_eq!(settings.lint.ignore.unwrap().line, 10);
    assert_eq!(
        parse("[tool.ruff]\nline-length = 90\n", FileKind::Pyproject),
        Ok(None)
    );
}

#[test]
fn unknown_keys_rules_and_values_are_errors_with_the_closest_name() {
    let text = "rot = \".\"\nfmt = {}\n[lint]\nselct = []\nignore = [\"missing-descripton\", 3]\nseverity = { unknown-need = \"warning\", unbounded-loop = \"loud\" }\n";
    assert_eq!(
        problems(text, FileKind::Logicmd),
        [
            (
                "config-unknown-key".to_owned(),
                1,
                1,
                "unknown setting `rot`".to_owned(),
                Some("did you mean `root`?".to_owned())
            ),
            (
                "config-unknown-key".to_owned(),
                2,
                1,
                "`fmt` has no settings: the format is canonical".to_owned(),
                None
            ),
            (
                "config-unknown-key".to_owned(),
                4,
                1,
                "unknown setting `lint.selct`".to_owned(),
                Some("did you mean `lint.select`?".to_owned())
            ),
            (
                "config-unknown-rule".to_owned(),
                5,
                11,
                "no rule or family is called `missing-descripton`".to_owned(),
                Some("did you mean `missing-description`?".to_owned())
            ),
            (
                "config-invalid-value".to_owned(),
                5,
                33,
                "`lint.ignore` must be a list of rule codes and families, not integer".to_owned(),
                None
            ),
            (
                "config-invalid-value".to_owned(),
                6,
                29,
                "`unknown-need` is an error and cannot be lowered: errors are what `run` and `compile` refuse on".to_owned(),
                None
            ),
            (
                "config-invalid-value".to_owned(),
                6,
                57,
                "`lint.severity.unbounded-loop` is `error`, `warning` or `info`, not `loud`".to_owned(),
                None
            ),
        ]
    );
}

#[test]
fn bad_toml_is_placed() {
    let found = problems("[lint\nselect = []\n", FileKind::Logicmd);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].0.as_str(), found[0].1), ("config-syntax", 1));
}

fn warning(code: &str) -> Diagnostic {
    Diagnostic::warning(code, code)
}

fn codes(
    settings: &LintSettings,
    path: Option<&str>,
    diagnostics: Vec<Diagnostic>,
) -> Vec<(String, Severity)> {
    apply(settings, path, diagnostics)
        .into_iter()
        .map(|d| (d.code, d.severity))
        .collect()
}

#[test]
fn settings_select_ignore_and_re_grade_warnings_but_never_hide_an_error() {
    let settings = parse(FULL, FileKind::Logicmd).unwrap().unwrap().lint;
    let found = vec![
        Diagnostic::error("unknown-need", "x"),
        Diagnostic::error("schema-enum", "x"),
        warning("missing-description"),
        warning("duplicate-dependency"),
        warning("unverified-contract"),
        warning("unbounded-loop"),
        warning("drtl-unknown-output-key"),
    ];
    assert_eq!(
        codes(&settings, Some("agents/a.logic.md"), found.clone()),
        [
            ("unknown-need".to_owned(), Severity::Error),
            ("schema-enum".to_owned(), Severity::Error),
            ("duplicate-dependency".to_owned(), Severity::Warning),
            ("unverified-contract".to_owned(), Severity::Error),
            ("unbounded-loop".to_owned(), Severity::Info),
        ]
    );
    let legacy = codes(&settings, Some("legacy/old/a.logic.md"), found.clone());
    assert!(!legacy.iter().any(|(c, _)| c == "duplicate-dependency"));
    // Standard input has no path: no per-file ignore applies.
    let stdin = codes(&settings, None, found);
    assert!(stdin.iter().any(|(c, _)| c == "duplicate-dependency"));
}

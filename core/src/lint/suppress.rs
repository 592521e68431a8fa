//! Inline suppressions, written as YAML comments in the frontmatter or topology:
//!
//! - `# logicmd: ignore[code, ...]` at the end of a line silences those codes' findings on that
//!   line; alone on its line, on the next line that holds something other than a comment;
//! - `# logicmd: ignore-file[code, ...]` anywhere silences them in the whole file.
//!
//! Text after the closing `]` is free (a reason). Only warnings and infos are silenced: an
//! error is what makes `run` and `compile` refuse, and a report that hid it would disagree with
//! them. A suppression that silences nothing is itself a warning (`unused-suppression`), as is
//! one that cannot be read (`invalid-suppression`). Each pass (lint, or check's obligation
//! analysis) judges only the codes it can report, so a lint suppression is not "unused" in
//! `check`, nor a check suppression in `lint`.

use crate::analysis::Parsed;
use crate::diagnostic::{Diagnostic, Severity};
use crate::format::comments::{find, Comment};
use crate::lint::rules::{self, LintRule};
use crate::schema::Source;
use crate::source::{LineIndex, Span};

/// Which analysis the diagnostics come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// `lint`: the schema and the LOGIC.md and DRTL rules.
    Lint,
    /// `check`: the obligation rules.
    Check,
}

impl Pass {
    /// Whether this pass can report `code` (a suppression of it can be judged unused here).
    fn reports(self, code: &str) -> bool {
        let of = |rules: &[LintRule]| rules.iter().any(|rule| rule.code == code);
        match self {
            Pass::Lint => !of(rules::CHECK),
            Pass::Check => of(rules::CHECK),
        }
    }
}

/// The marker every suppression starts with (after `#`).
const MARKER: &str = "logicmd:";

/// One suppression comment.
#[derive(Debug)]
struct Directive {
    /// 1-based line it silences; `None`: the whole file.
    line: Option<u32>,
    /// The codes, each with its span in the text.
    codes: Vec<(String, Span)>,
}

/// `diagnostics` without those `parsed`'s suppressions silence, plus a warning for each
/// suppression code this pass finds unused and each suppression it cannot read.
pub fn apply(parsed: &Parsed, diagnostics: Vec<Diagnostic>, pass: Pass) -> Vec<Diagnostic> {
    let source: &dyn Source = match parsed {
        Parsed::Logic(document) => &**document,
        Parsed::Drtl(topology) => &**topology,
    };
    let text = source.text();
    if !text.contains(MARKER) {
        return diagnostics;
    }
    let region = match parsed {
        Parsed::Logic(document) => document.sections().yaml,
        Parsed::Drtl(_) => Span::new(0, text.len()),
    };
    let index = source.line_index();
    let mut problems = Vec::new();
    let directives: Vec<Directive> = find(text, region, source.root())
        .iter()
        .filter_map(|comment| read(text, index, comment, &mut problems, pass))
        .collect();
    let mut used: Vec<Vec<bool>> = directives
        .iter()
        .map(|directive| vec![false; directive.codes.len()])
        .collect();
    let kept: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|diagnostic| {
            if diagnostic.severity == Severity::Error {
                return true;
            }
            let mut silenced = false;
            for (directive, used) in directives.iter().zip(&mut used) {
                if directive.line.is_some_and(|line| line != diagnostic.line) {
                    continue;
                }
                for ((code, _), used) in directive.codes.iter().zip(used.iter_mut()) {
                    if *code == diagnostic.code {
                        *used = true;
                        silenced = true;
                    }
                }
            }
            !silenced
        })
        .collect();
    for (directive, used) in directives.iter().zip(&used) {
        for ((code, span), used) in directive.codes.iter().zip(used) {
            if !used && pass.reports(code) {
                problems.push(unused(code, text, index, *span));
            }
        }
    }
    let mut all = kept;
    all.extend(problems);
    all
}

/// The directive `comment` holds, if it is one; an unreadable one is reported in `problems`
/// (by the lint pass only, so it is said once).
fn read(
    text: &str,
    index: &LineIndex,
    comment: &Comment,
    problems: &mut Vec<Diagnostic>,
    pass: Pass,
) -> Option<Directive> {
    let body = comment.text.strip_prefix('#')?.trim_start();
    let after_marker = body.strip_prefix(MARKER)?;
    let start = comment.offset + (comment.text.len() - after_marker.len());
    let parsed = parse(after_marker);
    let Some((file_wide, codes)) = parsed else {
        if pass == Pass::Lint {
            let span = Span::new(comment.offset, comment.offset + comment.text.len());
            problems.push(
                Diagnostic::warning(
                    rules::INVALID_SUPPRESSION.code,
                    format!("cannot read the suppression `{}`", comment.text),
                )
                .at(text, index, span)
                .with_help(
                    "write `# logicmd: ignore[code, ...]` (this line, or the next when alone on \
                     its line) or `# logicmd: ignore-file[code, ...]`",
                ),
            );
        }
        return None;
    };
    let codes = codes
        .into_iter()
        .map(|(code, at)| {
            (
                code.to_owned(),
                Span::new(start + at, start + at + code.len()),
            )
        })
        .collect();
    let line = if file_wide {
        None
    } else if comment.own_line {
        Some(next_content_line(text, index, comment.offset))
    } else {
        Some(index.line_col(text, comment.offset).line)
    };
    Some(Directive { line, codes })
}

/// `ignore[a, b]` or `ignore-file[a]` (text after `]` free): whether file-wide, and each code
/// with its byte offset in `text`. `None` when it is neither, or names no code.
fn parse(text: &str) -> Option<(bool, Vec<(&str, usize)>)> {
    let trimmed = text.trim_start();
    let lead = text.len() - trimmed.len();
    let (file_wide, rest) = if let Some(rest) = trimmed.strip_prefix("ignore-file[") {
        (true, rest)
    } else {
        (false, trimmed.strip_prefix("ignore[")?)
    };
    let list_start = lead + (trimmed.len() - rest.len());
    let list = &rest[..rest.find(']')?];
    let mut codes = Vec::new();
    let mut at = list_start;
    for item in list.split(',') {
        let code = item.trim();
        let valid = !code.is_empty()
            && code
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !valid {
            return None;
        }
        codes.push((code, at + (item.len() - item.trim_start().len())));
        at += item.len() + 1;
    }
    Some((file_wide, codes))
}

/// The 1-based number of the first line after the one holding `offset` that holds anything but
/// a comment (the line a suppression alone on its line is about).
fn next_content_line(text: &str, index: &LineIndex, offset: usize) -> u32 {
    let mut line = index.line_of(offset) + 1;
    while line < index.line_count() {
        let content = index.line_text(text, line).trim();
        if !content.is_empty() && !content.starts_with('#') {
            break;
        }
        line += 1;
    }
    line as u32 + 1
}

fn unused(code: &str, text: &str, index: &LineIndex, span: Span) -> Diagnostic {
    let known = rules::FAMILIES
        .iter()
        .flat_map(|family| family.rules)
        .find(|rule| rule.code == code);
    let help = match known {
        Some(rule) if rule.severity == Severity::Error => {
            "errors cannot be suppressed: they are what `run` and `compile` refuse on".to_owned()
        }
        Some(_) => "remove it, or move it to the line the finding is on".to_owned(),
        None => {
            let codes = rules::FAMILIES
                .iter()
                .flat_map(|family| family.rules.iter().map(|rule| rule.code));
            match crate::schema::closest(code, codes) {
                Some(close) => format!("no rule has this code; did you mean `{close}`?"),
                None => "no rule has this code (`logicmd lint --rules` lists them)".to_owned(),
            }
        }
    };
    Diagnostic::warning(
        rules::UNUSED_SUPPRESSION.code,
        format!("the suppression of `{code}` silences nothing here"),
    )
    .at(text, index, span)
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::analysis::{analyze, obligations, Options};
    use crate::loader::MemoryLoader;

    /// (code, line, message) of what lint reports on `text`.
    fn lint(text: &str) -> Vec<(String, u32, String)> {
        let options = Options::lint("a.logic.md");
        analyze(text, &options, &MemoryLoader::new())
            .diagnostics
            .into_iter()
            .map(|d| (d.code, d.line, d.help.unwrap_or(d.message)))
            .collect()
    }

    fn codes(text: &str) -> Vec<(String, u32)> {
        lint(text).into_iter().map(|(c, l, _)| (c, l)).collect()
    }

    fn pairs(list: &[(&str, u32)]) -> Vec<(String, u32)> {
        list.iter().map(|(c, l)| ((*c).to_owned(), *l)).collect()
    }

    const TWICE: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    description: A\n  b:\n    description: B\n    needs: [a, a]\n---\n";

    #[test]
    fn a_trailing_suppression_silences_its_line_and_no_other() {
        assert_eq!(codes(TWICE), pairs(&[("duplicate-dependency", 9)]));
        let silenced = TWICE.replace("[a, a]", "[a, a]  # logicmd: ignore[duplicate-dependency]");
        assert_eq!(codes(&silenced), []);
        let elsewhere = TWICE.replace("B\n", "B  # logicmd: ignore[duplicate-dependency]\n");
        assert_eq!(
            codes(&elsewhere),
            pairs(&[("unused-suppression", 8), ("duplicate-dependency", 9)])
        );
    }

    #[test]
    fn a_suppression_alone_on_its_line_silences_the_next_line_with_content() {
        let above = TWICE.replace(
            "    needs: [a, a]\n",
            "    # logicmd: ignore[duplicate-dependency] -- kept on purpose\n\n    # why\n    needs: [a, a]\n",
        );
        assert_eq!(codes(&above), []);
    }

    #[test]
    fn a_file_wide_suppression_silences_every_line() {
        let text = TWICE.replace(
            "name: t\n",
            "name: t\n# logicmd: ignore-file[duplicate-dependency, missing-description]\n",
        );
        assert_eq!(codes(&text), pairs(&[("unused-suppression", 4)]));
        assert_eq!(
            lint(&text)[0].2,
            "remove it, or move it to the line the finding is on"
        );
    }

    #[test]
    fn errors_stay_and_unknown_codes_get_the_closest_one() {
        let text = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  b:\n    description: B\n    needs: [x]  # logicmd: ignore[unknown-need, duplicate-dependecy]\n---\n";
        assert_eq!(
            lint(text),
            [
                (
                    "unknown-need".to_owned(),
                    7,
                    "`needs` names `x`, which is not a step".to_owned()
                ),
                (
                    "unused-suppression".to_owned(),
                    7,
                    "errors cannot be suppressed: they are what `run` and `compile` refuse on"
                        .to_owned()
                ),
                (
                    "unused-suppression".to_owned(),
                    7,
                    "no rule has this code; did you mean `duplicate-dependency`?".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn an_unreadable_suppression_is_reported_and_block_scalars_hold_none() {
        let text = TWICE.replace("[a, a]", "[a, a]  # logicmd: ignore duplicate-dependency");
        assert_eq!(
            codes(&text),
            pairs(&[("duplicate-dependency", 9), ("invalid-suppression", 9)])
        );
        let text = TWICE.replace(
            "description: A\n",
            "description: |\n      # logicmd: ignore-file[duplicate-dependency]\n",
        );
        assert_eq!(codes(&text), pairs(&[("duplicate-dependency", 10)]));
    }

    #[test]
    fn check_findings_are_suppressed_by_check_and_not_judged_by_lint() {
        let text = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:  # logicmd: ignore[unverified-contract]\n    description: A\n    output_schema: {type: object}\n---\n";
        let options = Options::lint("a.logic.md");
        let plain = text.replace("  # logicmd: ignore[unverified-contract]", "");
        let before = obligations(&plain, &options, &MemoryLoader::new());
        let found: Vec<&str> = before
            .analysis
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(found, ["unverified-contract"]);
        let after = obligations(text, &options, &MemoryLoader::new());
        assert_eq!(after.analysis.diagnostics, []);
        // Lint cannot tell whether a check code is used: it says nothing about it.
        assert_eq!(codes(text), []);
    }

    #[test]
    fn topologies_take_suppressions_too() {
        let text = "name: t\nnodes:\n  - id: a\n    type: generate\n    prompt: p\n    output_key: x\n  - id: b\n    type: generate\n    input: a.y  # logicmd: ignore[drtl-unknown-output-key]\n    prompt: q\n    output_key: z\nedges:\n  - {from: a, to: b}\n";
        let options = Options::lint("t.drtl.yaml").with_path("t.drtl.yaml");
        let plain = text.replace("  # logicmd: ignore[drtl-unknown-output-key]", "");
        let before: Vec<String> = analyze(&plain, &options, &MemoryLoader::new())
            .diagnostics
            .into_iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(before, ["drtl-unknown-output-key"]);
        let after = analyze(text, &options, &MemoryLoader::new());
        assert_eq!(after.diagnostics, []);
    }
}

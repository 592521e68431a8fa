//! Reading a settings file: TOML with a span on every key and value, so each problem names its
//! line and column, and each setting remembers the line it came from.

use std::ops::Range;

use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use super::{
    rule, FileKind, LintSettings, PerFileIgnore, Setting, Settings, SeverityOverride, FAMILIES,
};
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::{LineIndex, Span};

/// The top-level keys; `provider` is `logicmd run`'s (read and checked there).
const TOP: &[&str] = &["root", "extend-exclude", "lint", "provider"];
const LINT: &[&str] = &["select", "ignore", "per-file-ignores", "severity"];

/// The settings `text` holds, a file of `kind`: `Ok(None)` for a `pyproject.toml` without
/// `[tool.logicmd]`; every problem (TOML syntax, unknown keys, codes and families, wrong types,
/// an error lowered) as an error placed in `text`.
pub fn parse(text: &str, kind: FileKind) -> Result<Option<Settings>, Vec<Diagnostic>> {
    let index = LineIndex::new(text);
    let reader = Reader {
        text,
        index: &index,
        problems: Vec::new(),
    };
    reader.parse(kind)
}

struct Reader<'t> {
    text: &'t str,
    index: &'t LineIndex,
    problems: Vec<Diagnostic>,
}

/// The entries of `table` in the order the file writes them (the map itself is sorted).
fn ordered<'v, 'i>(
    table: &'v DeTable<'i>,
) -> Vec<(
    &'v Spanned<std::borrow::Cow<'i, str>>,
    &'v Spanned<DeValue<'i>>,
)> {
    let mut entries: Vec<_> = table.iter().collect();
    crate::sorting::sort_by_key(&mut entries, |(key, _)| key.span().start);
    entries
}

/// The value of `key` in `table`.
fn entry<'v, 'i>(table: &'v DeTable<'i>, key: &str) -> Option<&'v Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(name, _)| name.get_ref().as_ref() == key)
        .map(|(_, value)| value)
}

impl Reader<'_> {
    fn parse(mut self, kind: FileKind) -> Result<Option<Settings>, Vec<Diagnostic>> {
        let document = match DeTable::parse(self.text) {
            Ok(document) => document,
            Err(error) => {
                let span = error.span().unwrap_or(0..0);
                let message = error.message().trim_end().to_owned();
                self.problem("config-syntax", format!("invalid TOML: {message}"), span);
                return Err(self.problems);
            }
        };
        let table = match kind {
            FileKind::Logicmd => Some(document.get_ref()),
            FileKind::Pyproject => entry(document.get_ref(), "tool")
                .and_then(|tool| tool.get_ref().as_table())
                .and_then(|tool| entry(tool, "logicmd"))
                .and_then(|ours| self.table(ours, "tool.logicmd")),
        };
        let Some(table) = table else {
            return if self.problems.is_empty() {
                Ok(None)
            } else {
                Err(self.problems)
            };
        };
        let settings = self.settings(table);
        if self.problems.is_empty() {
            Ok(Some(settings))
        } else {
            crate::diagnostic::sort_diagnostics(&mut self.problems);
            Err(self.problems)
        }
    }

    fn settings(&mut self, table: &DeTable<'_>) -> Settings {
        let mut settings = Settings::default();
        for (key, value) in ordered(table) {
            match key.get_ref().as_ref() {
                "root" => settings.root = self.string(value, "root"),
                "extend-exclude" => {
                    settings.extend_exclude = self.strings(value, "extend-exclude");
                }
                "lint" => {
                    if let Some(lint) = self.table(value, "lint") {
                        settings.lint = self.lint(lint);
                    }
                }
                "provider" => {}
                "fmt" => self.problem(
                    "config-unknown-key",
                    "`fmt` has no settings: the format is canonical".to_owned(),
                    key.span(),
                ),
                other => self.unknown(other, TOP, "", key.span()),
            }
        }
        settings
    }

    fn lint(&mut self, table: &DeTable<'_>) -> LintSettings {
        let mut lint = LintSettings::default();
        for (key, value) in ordered(table) {
            match key.get_ref().as_ref() {
                "select" => lint.select = self.selectors(value, "lint.select"),
                "ignore" => lint.ignore = self.selectors(value, "lint.ignore"),
                "per-file-ignores" => lint.per_file_ignores = self.per_file_ignores(value),
                "severity" => lint.severity = self.severities(value),
                other => self.unknown(other, LINT, "lint.", key.span()),
            }
        }
        lint
    }

    fn per_file_ignores(&mut self, value: &Spanned<DeValue<'_>>) -> Vec<Setting<PerFileIgnore>> {
        let Some(table) = self.table(value, "lint.per-file-ignores") else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for (pattern, ignore) in ordered(table) {
            let at = format!("lint.per-file-ignores.\"{}\"", pattern.get_ref());
            if let Some(ignore) = self.selectors(ignore, &at) {
                found.push(Setting {
                    value: PerFileIgnore {
                        pattern: pattern.get_ref().to_string(),
                        ignore: ignore.value,
                    },
                    line: self.line(pattern.span()),
                });
            }
        }
        found
    }

    fn severities(&mut self, value: &Spanned<DeValue<'_>>) -> Vec<Setting<SeverityOverride>> {
        let Some(table) = self.table(value, "lint.severity") else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for (code, severity) in ordered(table) {
            let code_text = code.get_ref().as_ref();
            let Some((_, known)) = rule(code_text) else {
                self.unknown_code(code_text, code.span());
                continue;
            };
            let at = format!("lint.severity.{code_text}");
            let Some(word) = self.string(severity, &at) else {
                continue;
            };
            let level = match word.value.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "info" => Severity::Info,
                _ => {
                    self.problem(
                        "config-invalid-value",
                        format!(
                            "`{at}` is `error`, `warning` or `info`, not `{}`",
                            word.value
                        ),
                        severity.span(),
                    );
                    continue;
                }
            };
            if known.severity == Severity::Error && level != Severity::Error {
                self.problem(
                    "config-invalid-value",
                    format!(
                        "`{code_text}` is an error and cannot be lowered: errors are what `run` and `compile` refuse on"
                    ),
                    severity.span(),
                );
                continue;
            }
            found.push(Setting {
                value: SeverityOverride {
                    code: code_text.to_owned(),
                    severity: level,
                },
                line: self.line(code.span()),
            });
        }
        found
    }

    /// A list of families and rule codes, each checked.
    fn selectors(
        &mut self,
        value: &Spanned<DeValue<'_>>,
        at: &str,
    ) -> Option<Setting<Vec<String>>> {
        let list = self.array(value, at)?;
        let mut selectors = Vec::new();
        for item in list.iter() {
            let Some(name) = item.get_ref().as_str() else {
                self.type_problem(at, "a list of rule codes and families", item);
                continue;
            };
            if FAMILIES.iter().any(|f| f.name == name) || rule(name).is_some() {
                selectors.push(name.to_owned());
            } else {
                self.unknown_code(name, item.span());
            }
        }
        Some(Setting {
            value: selectors,
            line: self.line(value.span()),
        })
    }

    fn strings(&mut self, value: &Spanned<DeValue<'_>>, at: &str) -> Option<Setting<Vec<String>>> {
        let list = self.array(value, at)?;
        let mut strings = Vec::new();
        for item in list.iter() {
            match item.get_ref().as_str() {
                Some(text) => strings.push(text.to_owned()),
                None => self.type_problem(at, "a list of strings", item),
            }
        }
        Some(Setting {
            value: strings,
            line: self.line(value.span()),
        })
    }

    fn string(&mut self, value: &Spanned<DeValue<'_>>, at: &str) -> Option<Setting<String>> {
        match value.get_ref().as_str() {
            Some(text) => Some(Setting {
                value: text.to_owned(),
                line: self.line(value.span()),
            }),
            None => {
                self.type_problem(at, "a string", value);
                None
            }
        }
    }

    fn array<'v, 'i>(
        &mut self,
        value: &'v Spanned<DeValue<'i>>,
        at: &str,
    ) -> Option<&'v DeArray<'i>> {
        let array = value.get_ref().as_array();
        if array.is_none() {
            self.type_problem(at, "a list", value);
        }
        array
    }

    fn table<'v, 'i>(
        &mut self,
        value: &'v Spanned<DeValue<'i>>,
        at: &str,
    ) -> Option<&'v DeTable<'i>> {
        let table = value.get_ref().as_table();
        if table.is_none() {
            self.type_problem(at, "a table", value);
        }
        table
    }

    fn type_problem(&mut self, at: &str, expected: &str, value: &Spanned<DeValue<'_>>) {
        self.problem(
            "config-invalid-value",
            format!(
                "`{at}` must be {expected}, not {}",
                value.get_ref().type_str()
            ),
            value.span(),
        );
    }

    fn unknown(&mut self, key: &str, known: &[&str], prefix: &str, span: Range<usize>) {
        let mut problem = self.diagnostic(
            "config-unknown-key",
            format!("unknown setting `{prefix}{key}`"),
            span,
        );
        problem.help = Some(match crate::schema::closest(key, known.iter().copied()) {
            Some(close) => format!("did you mean `{prefix}{close}`?"),
            None => format!(
                "known: {}",
                known
                    .iter()
                    .map(|k| format!("`{prefix}{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
        self.problems.push(problem);
    }

    fn unknown_code(&mut self, name: &str, span: Range<usize>) {
        let names = FAMILIES.iter().flat_map(|family| {
            std::iter::once(family.name).chain(family.rules.iter().map(|rule| rule.code))
        });
        let mut problem = self.diagnostic(
            "config-unknown-rule",
            format!("no rule or family is called `{name}`"),
            span,
        );
        problem.help = Some(match crate::schema::closest(name, names) {
            Some(close) => format!("did you mean `{close}`?"),
            None => "`logicmd lint --rules` lists the rules; the families are `logic`, `drtl` and `check`".to_owned(),
        });
        self.problems.push(problem);
    }

    fn problem(&mut self, code: &str, message: String, span: Range<usize>) {
        let problem = self.diagnostic(code, message, span);
        self.problems.push(problem);
    }

    fn diagnostic(&self, code: &str, message: String, span: Range<usize>) -> Diagnostic {
        Diagnostic::error(code, message).at(self.text, self.index, Span::new(span.start, span.end))
    }

    fn line(&self, span: Range<usize>) -> u32 {
        self.index.line_col(self.text, span.start).line
    }
}

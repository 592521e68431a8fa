//! Project settings, read from `logicmd.toml` or the `[tool.logicmd]` table of `pyproject.toml`
//! (the nearest such file above a document wins, as with ruff), and what they do to a file's
//! diagnostics. Pure: the caller finds and reads the file, and gives the document's path relative
//! to the settings file's directory.
//!
//! ```toml
//! root = "."                          # the directory imports may read from
//! extend-exclude = ["drafts/"]        # left out of directory searches (gitignore syntax)
//!
//! [lint]
//! select = ["logic", "drtl", "check"] # families or rule codes (default: every rule)
//! ignore = ["missing-description"]
//! per-file-ignores = { "legacy/**" = ["unused-import"] }
//! severity = { unverified-contract = "error" }
//! ```
//!
//! Only warnings and infos are selected, ignored or re-graded down: errors are what `run` and
//! `compile` refuse on, so no setting hides or lowers one (a warning may be raised to an error).
//! Unknown keys, codes and families are errors with the closest known name.

mod glob;
mod read;
#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::rules::{LintRule, FAMILIES};

pub use glob::matches as glob_matches;
pub use read::parse;

/// The settings file's own name.
pub const LOGICMD_TOML: &str = "logicmd.toml";
/// The Python project file whose `[tool.logicmd]` table holds the settings.
pub const PYPROJECT_TOML: &str = "pyproject.toml";

/// Which kind of file the settings are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `logicmd.toml`: the settings are the whole file.
    Logicmd,
    /// `pyproject.toml`: the settings are `[tool.logicmd]`, and a file without it has none.
    Pyproject,
}

impl FileKind {
    /// The kind of the file named `name`, if it is one of the two.
    pub fn of(name: &str) -> Option<FileKind> {
        match name {
            LOGICMD_TOML => Some(FileKind::Logicmd),
            PYPROJECT_TOML => Some(FileKind::Pyproject),
            _ => None,
        }
    }
}

/// A value and the 1-based line of the file it was set on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting<T> {
    /// The value.
    pub value: T,
    /// Where it was set.
    pub line: u32,
}

/// Everything a settings file says, each with where it said it; `None` and empty mean unset.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Settings {
    /// `root`: the directory imports may read from, relative to the settings file's directory.
    pub root: Option<Setting<String>>,
    /// `extend-exclude`: patterns left out of directory searches, as `--exclude` takes them.
    pub extend_exclude: Option<Setting<Vec<String>>>,
    /// `[lint]`.
    pub lint: LintSettings,
}

/// `[lint]`: which rules report and how loud.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LintSettings {
    /// `select`: the families and codes that report (unset: every rule).
    pub select: Option<Setting<Vec<String>>>,
    /// `ignore`: families and codes that do not report.
    pub ignore: Option<Setting<Vec<String>>>,
    /// `per-file-ignores`: for files matching a pattern, more to ignore.
    pub per_file_ignores: Vec<Setting<PerFileIgnore>>,
    /// `severity`: a rule's diagnostics re-graded.
    pub severity: Vec<Setting<SeverityOverride>>,
}

/// One `per-file-ignores` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerFileIgnore {
    /// A glob over the path relative to the settings file's directory (`/`-separated): `*`,
    /// `?` and `**`; without a `/`, over the file name; a trailing `/` means everything under it.
    pub pattern: String,
    /// Families and codes ignored there.
    pub ignore: Vec<String>,
}

/// One `severity` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeverityOverride {
    /// The rule's code.
    pub code: String,
    /// The severity its diagnostics get.
    pub severity: Severity,
}

/// The rule with `code`, in any family.
fn rule(code: &str) -> Option<(&'static str, &'static LintRule)> {
    FAMILIES
        .iter()
        .find_map(|family| Some((family.name, family.rules.iter().find(|r| r.code == code)?)))
}

/// Whether `selectors` (family names and codes) name the rule `code` of `family`.
fn names(selectors: &[String], family: &str, code: &str) -> bool {
    selectors.iter().any(|s| s == code || s == family)
}

/// `diagnostics` as the settings file named `name` (`logicmd.toml` or `pyproject.toml`), whose
/// text is `text`, wants them — for front ends handed the file rather than finding it (the
/// Python and npm packages). A `pyproject.toml` without `[tool.logicmd]` changes nothing; an
/// unusable file gives its problems, at their places in it.
pub fn apply_file(
    text: &str,
    name: &str,
    relative_path: Option<&str>,
    diagnostics: Vec<Diagnostic>,
) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let Some(kind) = FileKind::of(name) else {
        return Err(vec![Diagnostic::error(
            "config-file-name",
            format!(
                "`{name}` is not a settings file: expected `{LOGICMD_TOML}` or `{PYPROJECT_TOML}`"
            ),
        )]);
    };
    Ok(match read::parse(text, kind)? {
        Some(settings) => apply(&settings.lint, relative_path, diagnostics),
        None => diagnostics,
    })
}

/// `diagnostics` of the file at `relative_path` (relative to the settings file's directory,
/// `/`-separated; `None` when the file has no path, like standard input) as `settings` want
/// them: unselected and ignored warnings and infos left out, severities re-graded. Diagnostics
/// that are no rule's (schema, parse, I/O) are kept as they are.
pub fn apply(
    settings: &LintSettings,
    relative_path: Option<&str>,
    diagnostics: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let per_file: Vec<&String> = settings
        .per_file_ignores
        .iter()
        .filter(|entry| relative_path.is_some_and(|p| glob::matches(&entry.value.pattern, p)))
        .flat_map(|entry| &entry.value.ignore)
        .collect();
    diagnostics
        .into_iter()
        .filter_map(|mut diagnostic| {
            let Some((family, rule)) = rule(&diagnostic.code) else {
                return Some(diagnostic);
            };
            if diagnostic.severity != Severity::Error {
                let selected = settings
                    .select
                    .as_ref()
                    .is_none_or(|s| names(&s.value, family, rule.code));
                let ignored = settings
                    .ignore
                    .as_ref()
                    .is_some_and(|s| names(&s.value, family, rule.code))
                    || per_file.iter().any(|s| *s == rule.code || *s == family);
                if !selected || ignored {
                    return None;
                }
            }
            if let Some(re_graded) = settings
                .severity
                .iter()
                .find(|entry| entry.value.code == rule.code)
            {
                // Never lower an error (refused when the settings are read; kept here too).
                if diagnostic.severity != Severity::Error {
                    diagnostic.severity = re_graded.value.severity;
                }
            }
            Some(diagnostic)
        })
        .collect()
}

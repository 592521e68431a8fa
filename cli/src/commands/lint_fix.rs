//! `lint --fix`, `--unsafe-fixes` and `--diff`: core's fixes (`logicmd::fix`, the list the
//! language server offers as quick fixes) applied to each file through core's edit, so comments
//! and layout are kept and every edit is verified by re-parsing. `--fix` writes the files and
//! reports what is left; `--diff` writes nothing and prints what `--fix` would change.

use std::path::Path;

use logicmd::analysis::{Analysis, Depth};
use logicmd::fix::{fixes_for, Fix, Safety};
use logicmd::{Diagnostic, Limits};

use super::each_file::{display_name, FixRecord, Fixes, Outcome};
use super::front;
use crate::config::{self, Found};
use crate::input::{read_document, write_document};
use crate::report::Paint;
use crate::{discover, EXIT_INVALID};

/// Which fixes to apply.
pub fn safety(unsafe_fixes: bool) -> Safety {
    if unsafe_fixes {
        Safety::Unsafe
    } else {
        Safety::Safe
    }
}

/// `lint --fix` on one file: fixed and written back (a body past the size bound copied on
/// unread), then linted again: the outcome is what is left, with what was fixed.
pub fn fix_and_lint(
    path: &Path,
    explicit_root: Option<&Path>,
    found: Option<&Found>,
    safety: Safety,
) -> Outcome {
    let file = display_name(path);
    let root = config::root_for(explicit_root, found);
    let root = root.as_deref();
    let read = match read_document(path, Limits::DEFAULT.max_bytes) {
        Ok(read) => read,
        Err(error) => return io_problem(format!("cannot read {file}: {error}")),
    };
    let Ok(text) = std::str::from_utf8(&read.bytes) else {
        // Not UTF-8: nothing to fix; lint says where.
        return lint_only(path, &read.bytes, root, found, Vec::new());
    };
    let fixed = front::fix_file(path, text, root, safety, &reported(found, path));
    if fixed.text != text {
        if let Err(error) = write_document(path, &fixed.text, read.tail.as_ref()) {
            return io_problem(format!("cannot write {file}: {error}"));
        }
    }
    let applied = fixed.applied.iter().map(record).collect();
    let mut outcome = lint_only(path, fixed.text.as_bytes(), root, found, applied);
    if safety == Safety::Unsafe {
        // Every fix was applied that could be: none is left to point to.
        outcome.fixes.unsafe_fixable = 0;
    }
    outcome
}

fn lint_only(
    path: &Path,
    bytes: &[u8],
    root: Option<&Path>,
    found: Option<&Found>,
    applied: Vec<FixRecord>,
) -> Outcome {
    let mut analysis = front::analyze_file(path, bytes, Depth::Lint, root);
    analysis.diagnostics = config::applied(found, path, analysis.diagnostics);
    Outcome {
        text: front::text_of(&analysis, bytes),
        valid: analysis.valid,
        fixes: Fixes {
            applied,
            unsafe_fixable: unsafe_left(&analysis),
        },
        diagnostics: analysis.diagnostics,
    }
}

/// Whether the file's settings leave `diagnostic` reported (an ignored rule is not fixed).
fn reported<'a>(found: Option<&'a Found>, path: &'a Path) -> impl Fn(&Diagnostic) -> bool + 'a {
    move |diagnostic| !config::applied(found, path, vec![diagnostic.clone()]).is_empty()
}

/// How many of the analysis's problems a fix marked unsafe would repair.
fn unsafe_left(analysis: &Analysis) -> usize {
    let Some(parsed) = &analysis.parsed else {
        return 0;
    };
    analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| {
            fixes_for(parsed.text(), Some(parsed.json()), diagnostic)
                .iter()
                .any(|fix| fix.safety == Safety::Unsafe)
        })
        .count()
}

fn record(fix: &Fix) -> FixRecord {
    FixRecord {
        code: fix.code.clone(),
        title: fix.title.clone(),
        safety: fix.safety,
    }
}

fn io_problem(message: String) -> Outcome {
    Outcome {
        diagnostics: vec![Diagnostic::error("io-error", message)],
        ..Outcome::default()
    }
}

/// `lint --diff`: a unified diff of what `--fix` would change in each file, nothing written;
/// exit 1 when anything would change (like `fmt --check`), 2 on usage or I/O errors.
pub fn diff(
    operands: &discover::Operands,
    explicit_root: Option<&Path>,
    safety: Safety,
    paint: Paint,
) -> u8 {
    let discovered = match config::discover(operands) {
        Ok(discovered) => discovered,
        Err(status) => return status,
    };
    let mut status = discovered.status();
    let (mut fixes, mut changed) = (0, 0);
    for (path, found) in discovered.files.into_iter().zip(discovered.settings) {
        let file = display_name(&path);
        let found = found.as_deref();
        let root = config::root_for(explicit_root, found);
        let text = match super::read_text(&path) {
            Ok(text) => text,
            Err(code) => {
                status = status.max(code);
                continue;
            }
        };
        let fixed = front::fix_file(
            &path,
            &text,
            root.as_deref(),
            safety,
            &reported(found, &path),
        );
        if fixed.text == text {
            continue;
        }
        changed += 1;
        fixes += fixed.applied.len();
        print!("{}", paint.diff(&unified_diff(&file, &text, &fixed.text)));
        status = status.max(EXIT_INVALID);
    }
    eprintln!(
        "would fix {fixes} problem{} in {changed} file{}",
        if fixes == 1 { "" } else { "s" },
        if changed == 1 { "" } else { "s" }
    );
    status
}

/// `before` → `after` as a unified diff with three lines of context, headed `a/FILE`, `b/FILE`.
pub fn unified_diff(file: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{file}"), &format!("b/{file}"))
        .to_string()
}

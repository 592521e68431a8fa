//! Turning command-line operands into LOGIC.md files: files as given, directories searched as
//! spec §16.2 describes, and glob patterns expanded. Directories and globs are walked with the
//! `ignore` crate's walker (ripgrep's): `.gitignore`, `.ignore` and `.git/info/exclude` are
//! honoured (in a git repository or not), hidden directories other than `.logic/` are skipped, a
//! symbolic link is followed unless it loops back (a loop is reported, not walked), and the
//! default and `--exclude` patterns leave directories and files out. A file named on the command
//! line is always read.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::{DirEntry, WalkBuilder};

/// Left out of every search (gitignore syntax, like `--exclude`): dependencies, build output and
/// virtual environments. A file named on the command line is read all the same.
pub const DEFAULT_EXCLUDES: &[&str] = &[
    "node_modules/",
    "target/",
    "dist/",
    "build/",
    "pkg/",
    "vendor/",
    ".venv/",
    "venv/",
];

/// A problem with one operand: an error (exit status 2, and a record of its own in JSON output)
/// or a warning (a symbolic-link loop not followed: every file is still found once).
#[derive(Debug)]
pub struct OperandError {
    pub operand: String,
    /// `no-such-file`, `no-files-found`, `invalid-pattern`, `unreadable` or `link-loop`.
    pub code: &'static str,
    pub message: String,
}

impl OperandError {
    /// Whether it fails the command (exit status 2).
    pub fn is_error(&self) -> bool {
        self.code != "link-loop"
    }

    /// How it is shown on standard error.
    pub fn line(&self) -> String {
        let level = if self.is_error() { "error" } else { "warning" };
        format!("{level}: {}: {}", self.operand, self.message)
    }
}

/// The operands every file-taking command accepts, and what it leaves out of a search.
#[derive(clap::Args, Debug, Clone)]
pub struct Operands {
    /// Files, directories or glob patterns; `-` reads standard input. Directories are searched
    /// for LOGIC.md, *.logic.md, .logic/index.md and *.drtl.yaml (spec §16.2), honouring
    /// .gitignore and skipping node_modules, target, dist, build, pkg, vendor and virtual
    /// environments.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<String>,
    /// Leave matching files and directories out of directory and glob searches (gitignore
    /// syntax, relative to the searched directory: `drafts/`, `*.old.logic.md`); repeatable.
    #[arg(long, value_name = "PATTERN")]
    pub exclude: Vec<String>,
}

/// The files `operands` name, in discovery order, without repeats.
pub fn files(operands: &Operands) -> (Vec<PathBuf>, Vec<OperandError>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for operand in &operands.paths {
        let before = found.len();
        let path = Path::new(operand);
        let walked = if operand == "-" || (path.exists() && !path.is_dir()) {
            found.push(path.to_path_buf());
            Ok(Vec::new())
        } else if path.is_dir() {
            search_project(path, &operands.exclude, &mut found)
        } else if is_pattern(operand) {
            search_pattern(operand, &operands.exclude, &mut found)
        } else {
            errors.push(problem(
                operand,
                "no-such-file",
                "no such file or directory",
            ));
            continue;
        };
        match walked {
            Err(message) => errors.push(problem(operand, "invalid-pattern", &message)),
            Ok(met) => {
                errors.extend(
                    met.into_iter()
                        .map(|(code, message)| problem(operand, code, &message)),
                );
                if found.len() == before {
                    errors.push(problem(
                        operand,
                        "no-files-found",
                        "no LOGIC.md or DRTL files found (looked for LOGIC.md, *.logic.md, .logic/index.md, *.drtl.yaml)",
                    ));
                }
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    found.retain(|path| seen.insert(path.clone()));
    (found, errors)
}

/// `walked` without the files already found or found earlier in it by another path (through a
/// symbolic link): a search finds each file once. Files named on the command line are kept as
/// named, even when two names lead to one file.
fn once_each(found: &[PathBuf], walked: Vec<PathBuf>) -> Vec<PathBuf> {
    let identity = |path: &PathBuf| std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
    let mut seen: std::collections::BTreeSet<PathBuf> = found.iter().map(identity).collect();
    walked
        .into_iter()
        .filter(|path| seen.insert(identity(path)))
        .collect()
}

fn problem(operand: &str, code: &'static str, message: &str) -> OperandError {
    OperandError {
        operand: operand.to_owned(),
        code,
        message: message.to_owned(),
    }
}

fn is_pattern(operand: &str) -> bool {
    operand.contains(['*', '?', '[', '{'])
}

/// §16.2 order: `LOGIC.md` at the root, `*.logic.md` at the root, `.logic/index.md`, then
/// `*.logic.md` (and topologies) in subdirectories, recursively; each level in name order.
fn search_project(root: &Path, exclude: &[String], found: &mut Vec<PathBuf>) -> Walked {
    let mut files = Vec::new();
    let problems = walk(root, exclude, |path, _| {
        if is_named_config(path) || is_project_file(root, path) {
            files.push(path.to_path_buf());
        }
    })?;
    files.sort_by_key(|path| rank(root, path));
    // The working directory's files are shown as the user writes them, without `./`.
    let shown = |path: PathBuf| match path.strip_prefix(".") {
        Ok(relative) if root == Path::new(".") => relative.to_path_buf(),
        _ => path,
    };
    let walked = files.into_iter().map(shown).collect();
    let new = once_each(found, walked);
    found.extend(new);
    Ok(problems)
}

/// The problems a walk met (code, message), or why it could not start.
type Walked = Result<Vec<(&'static str, String)>, String>;

/// Where §16.2 puts a file found under `root`.
fn rank(root: &Path, path: &Path) -> u8 {
    let relative = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<&OsStr> = relative.iter().collect();
    match parts.as_slice() {
        [name] if *name == "LOGIC.md" => 0,
        [_] => 1,
        [dir, name] if *dir == ".logic" && *name == "index.md" => 2,
        _ => 3,
    }
}

/// `LOGIC.md` and `.logic/index.md` at the root of a searched directory.
fn is_project_file(root: &Path, path: &Path) -> bool {
    matches!(rank(root, path), 0 | 2)
}

/// A glob operand: the directory before its first pattern character is walked, and every file
/// the pattern matches is taken, as is every LOGIC.md file under a directory it matches.
fn search_pattern(operand: &str, exclude: &[String], found: &mut Vec<PathBuf>) -> Walked {
    let matcher = GlobBuilder::new(operand.strip_prefix("./").unwrap_or(operand))
        .literal_separator(true)
        .build()
        .map_err(|error| format!("invalid pattern: {}", error.kind()))?
        .compile_matcher();
    let base = literal_base(operand);
    // A pattern with no directory part walks `.`, and its files are shown as the user writes
    // them, without `./`.
    let shown = |path: &Path| -> PathBuf {
        if operand.starts_with("./") {
            path.to_path_buf()
        } else {
            path.strip_prefix(".").unwrap_or(path).to_path_buf()
        }
    };
    let mut walked = Vec::new();
    let problems = walk(&base, exclude, |path, is_dir| {
        let taken = matches(&matcher, path)
            || (is_named_config(path) && under_match(&matcher, &base, path));
        if !is_dir && taken {
            walked.push(shown(path));
        }
    })?;
    let new = once_each(found, walked);
    found.extend(new);
    Ok(problems)
}

/// The leading components of a pattern that hold no pattern character (`.` when none).
fn literal_base(operand: &str) -> PathBuf {
    let mut base = PathBuf::new();
    let parts: Vec<Component<'_>> = Path::new(operand).components().collect();
    for (index, part) in parts.iter().enumerate() {
        let text = part.as_os_str().to_string_lossy();
        if is_pattern(&text) || index + 1 == parts.len() {
            break;
        }
        base.push(part);
    }
    if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    }
}

/// Whether `matcher` matches `path` as the user wrote paths (without a leading `./`).
fn matches(matcher: &GlobMatcher, path: &Path) -> bool {
    matcher.is_match(path.strip_prefix(".").unwrap_or(path))
}

/// Whether a directory between `base` and `path` matches.
fn under_match(matcher: &GlobMatcher, base: &Path, path: &Path) -> bool {
    path.ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(base) && *dir != base)
        .any(|dir| matches(matcher, dir))
}

/// Walks `root` calling `visit(path, is_dir)` for every entry below it; the problems met (a link
/// loop, an unreadable directory) are returned, the walk goes on past them. `Err` when the
/// exclusion patterns do not parse.
fn walk(root: &Path, exclude: &[String], mut visit: impl FnMut(&Path, bool)) -> Walked {
    walk_until(root, exclude, true, |path, is_dir| {
        visit(path, is_dir);
        true
    })
}

/// The files and directories under `root` as a directory search sees them, without following
/// links (each file once by its own path), until `visit` says stop (`false`): what the
/// language server looks through for the importers of a file.
pub fn project_entries(root: &Path, visit: impl FnMut(&Path, bool) -> bool) -> Walked {
    walk_until(root, &[], false, visit)
}

fn walk_until(
    root: &Path,
    exclude: &[String],
    follow_links: bool,
    mut visit: impl FnMut(&Path, bool) -> bool,
) -> Walked {
    let overrides = overrides(root, exclude)?;
    let walker = WalkBuilder::new(root)
        .hidden(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(follow_links)
        .overrides(overrides)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| !is_hidden_dir(entry))
        .build();
    let mut problems = Vec::new();
    for entry in walker {
        match entry {
            Ok(entry) if entry.depth() > 0 => {
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                if !visit(entry.path(), is_dir) {
                    break;
                }
            }
            Ok(_) => {}
            Err(error) => problems.push(describe(&error)),
        }
    }
    Ok(problems)
}

/// The walker's problem as (code, sentence): a link loop is named as one.
fn describe(error: &ignore::Error) -> (&'static str, String) {
    match error {
        ignore::Error::WithPath { path, err } => {
            let (code, message) = describe(err);
            (code, format!("{}: {message}", path.display()))
        }
        ignore::Error::WithDepth { err, .. } => describe(err),
        ignore::Error::Loop { child, ancestor } => (
            "link-loop",
            format!(
                "{} is a symbolic link back to {}: not followed (a loop)",
                child.display(),
                ancestor.display()
            ),
        ),
        other => ("unreadable", other.to_string()),
    }
}

/// The default exclusions and `exclude`, as ignore-globs for a walk of `root`.
fn overrides(root: &Path, exclude: &[String]) -> Result<Override, String> {
    let mut builder = OverrideBuilder::new(root);
    for pattern in DEFAULT_EXCLUDES
        .iter()
        .copied()
        .chain(exclude.iter().map(String::as_str))
    {
        builder
            .add(&format!("!{pattern}"))
            .map_err(|error| format!("invalid --exclude pattern `{pattern}`: {error}"))?;
    }
    builder
        .build()
        .map_err(|error| format!("invalid --exclude pattern: {error}"))
}

/// Hidden directories are not searched, except `.logic/` (spec §13).
fn is_hidden_dir(entry: &DirEntry) -> bool {
    entry.depth() > 0
        && entry.file_type().is_some_and(|t| t.is_dir())
        && entry
            .file_name()
            .as_encoded_bytes()
            .first()
            .is_some_and(|b| *b == b'.')
        && entry.file_name() != ".logic"
}

/// `*.logic.md`, and DRTL topologies `*.drtl.yaml` / `*.drtl.yml`. Read as bytes: a name that is
/// not UTF-8 is found all the same.
fn is_named_config(path: &Path) -> bool {
    path.file_name().is_some_and(|name| {
        let name = name.as_encoded_bytes();
        [b".logic.md".as_slice(), b".drtl.yaml", b".drtl.yml"]
            .iter()
            .any(|suffix| name.ends_with(suffix) && name.len() > suffix.len())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_walks_from_its_literal_directory() {
        assert_eq!(
            literal_base("examples/**/*.logic.md"),
            Path::new("examples")
        );
        assert_eq!(literal_base("*.logic.md"), Path::new("."));
        assert_eq!(literal_base("a/b/c?.md"), Path::new("a/b"));
        assert_eq!(literal_base("./x/*.md"), Path::new("./x"));
    }
}

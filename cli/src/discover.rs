//! Turning command-line operands into LOGIC.md files: files as given, directories searched as
//! spec §16.2 describes, and glob patterns expanded.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Directories never searched: build output, dependencies, version control.
const SKIPPED_DIRS: &[&str] = &["node_modules", "target", "dist", "pkg"];

/// A problem with one operand, reported with exit status 2.
#[derive(Debug)]
pub struct OperandError {
    pub operand: String,
    pub message: String,
}

/// The files named by `operands`, in discovery order, without repeats.
pub fn files(operands: &[String]) -> (Vec<PathBuf>, Vec<OperandError>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for operand in operands {
        let before = found.len();
        let path = Path::new(operand);
        if operand == "-" {
            found.push(path.to_path_buf());
        } else if path.is_dir() {
            if let Err(error) = search_project(path, &mut found) {
                errors.push(error_for(operand, &error.to_string()));
            }
        } else if path.exists() {
            found.push(path.to_path_buf());
        } else if is_pattern(operand) {
            match glob::glob(operand) {
                Ok(paths) => {
                    for entry in paths.flatten() {
                        if entry.is_dir() {
                            let _ = search_project(&entry, &mut found);
                        } else {
                            found.push(entry);
                        }
                    }
                }
                Err(error) => errors.push(error_for(operand, &format!("invalid pattern: {error}"))),
            }
        } else {
            errors.push(error_for(operand, "no such file or directory"));
            continue;
        }
        if found.len() == before {
            errors.push(error_for(
                operand,
                "no LOGIC.md or DRTL files found (looked for LOGIC.md, *.logic.md, .logic/index.md, *.drtl.yaml)",
            ));
        }
    }
    let mut seen = BTreeSet::new();
    found.retain(|path| seen.insert(path.clone()));
    (found, errors)
}

fn error_for(operand: &str, message: &str) -> OperandError {
    OperandError {
        operand: operand.to_owned(),
        message: message.to_owned(),
    }
}

fn is_pattern(operand: &str) -> bool {
    operand.contains(['*', '?', '['])
}

/// §16.2 order: `LOGIC.md` at the root, `*.logic.md` at the root, `.logic/index.md`, then
/// `*.logic.md` in subdirectories, recursively.
fn search_project(root: &Path, found: &mut Vec<PathBuf>) -> io::Result<()> {
    let default = root.join("LOGIC.md");
    if default.is_file() {
        found.push(default);
    }
    let (files, dirs) = list(root)?;
    found.extend(files.into_iter().filter(|f| is_named_config(f)));
    let index = root.join(".logic").join("index.md");
    if index.is_file() {
        found.push(index);
    }
    let mut pending: Vec<PathBuf> = dirs.into_iter().rev().collect();
    while let Some(dir) = pending.pop() {
        let Ok((files, dirs)) = list(&dir) else {
            continue;
        };
        found.extend(files.into_iter().filter(|f| is_named_config(f)));
        pending.extend(dirs.into_iter().rev());
    }
    Ok(())
}

/// `*.logic.md`, and DRTL topologies `*.drtl.yaml` / `*.drtl.yml`.
fn is_named_config(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| {
            [".logic.md", ".drtl.yaml", ".drtl.yml"]
                .iter()
                .any(|suffix| name.ends_with(suffix) && name.len() > suffix.len())
        })
}

/// Sorted files and searchable subdirectories of `dir`. Symlinked directories are not
/// followed, so a link cycle cannot trap the search.
fn list(dir: &Path) -> io::Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let file_type = entry.file_type()?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if file_type.is_dir() {
            let hidden = name.starts_with('.') && name != ".logic";
            if !hidden && !SKIPPED_DIRS.contains(&name.as_ref()) {
                dirs.push(path);
            }
        } else if file_type.is_file() || path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    dirs.sort();
    Ok((files, dirs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovers_in_spec_order() {
        let root = std::env::temp_dir().join(format!("logicmd-discover-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for file in [
            "LOGIC.md",
            "b.logic.md",
            "a.logic.md",
            "notes.md",
            ".logic/index.md",
            "sub/deep/c.logic.md",
            "node_modules/x.logic.md",
            ".git/y.logic.md",
        ] {
            let path = root.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "---\n---\n").unwrap();
        }
        let (found, errors) = files(&[root.to_string_lossy().into_owned()]);
        assert!(errors.is_empty());
        let names: Vec<String> = found
            .iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            names,
            [
                "LOGIC.md",
                "a.logic.md",
                "b.logic.md",
                ".logic/index.md",
                "sub/deep/c.logic.md"
            ]
        );
        fs::remove_dir_all(&root).unwrap();
    }
}

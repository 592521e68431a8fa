//! How core reads other files (imports, `logic_ref`) without doing I/O itself: callers supply a
//! [`Loader`]. [`MemoryLoader`] serves files from a map (wasm, tests); the CLI has a file system one.

use std::collections::BTreeMap;

/// Why a file could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// What went wrong, for a person to read.
    pub message: String,
    /// The reference climbs above the project root: a loader that knows where its root is can
    /// say so (core does not know what the root is on the caller's side).
    pub outside_root: bool,
}

impl LoadError {
    /// A load error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        LoadError {
            message: message.into(),
            outside_root: false,
        }
    }

    /// A reference that leads above the project root.
    pub fn outside_root(message: impl Into<String>) -> Self {
        LoadError {
            message: message.into(),
            outside_root: true,
        }
    }
}

/// A source of LOGIC.md files, addressed by ids the loader chooses (normalized paths).
pub trait Loader {
    /// The id of `reference` as written in the file with id `from`.
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError>;
    /// The text of the file with id `id`.
    fn load(&self, id: &str) -> Result<String, LoadError>;
}

/// Files held in memory, keyed by `/`-separated paths relative to a virtual project root.
#[derive(Debug, Clone, Default)]
pub struct MemoryLoader {
    files: BTreeMap<String, String>,
}

impl MemoryLoader {
    /// An empty loader.
    pub fn new() -> Self {
        MemoryLoader::default()
    }

    /// Adds a file; `path` is normalized (`./a/../b.logic.md` → `b.logic.md`).
    pub fn insert(&mut self, path: &str, text: impl Into<String>) -> Result<(), LoadError> {
        let id = normalize(path)?;
        self.files.insert(id, text.into());
        Ok(())
    }

    /// Adds a file as [`MemoryLoader::insert`] does, for chaining; a path that cannot be normalized
    /// (it climbs above the root) is left out.
    pub fn with(mut self, path: &str, text: impl Into<String>) -> Self {
        let _ = self.insert(path, text);
        self
    }
}

impl Loader for MemoryLoader {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        resolve_relative(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        self.files
            .get(id)
            .cloned()
            .ok_or_else(|| LoadError::new(format!("no file `{id}`")))
    }
}

/// Why an import `reference` is one this implementation does not read, though §2.2 allows it ("file
/// path or URI"): a URI (remote files are not fetched: nothing here reads the network) or an
/// absolute path (imports are read inside the project, relative to the importing file).
pub fn unsupported_reference(reference: &str) -> Option<&'static str> {
    let scheme = reference.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() > 1
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    let drive = reference.as_bytes().get(1) == Some(&b':')
        && reference.starts_with(|c: char| c.is_ascii_alphabetic());
    if scheme {
        Some("a URI: remote files are not fetched (nothing here reads the network)")
    } else if reference.starts_with(['/', '\\']) || drive {
        Some(
            "an absolute path: imports are read inside the project, relative to the importing file",
        )
    } else {
        None
    }
}

/// Resolves `reference` against the directory of `from`, both `/`-separated and relative to the
/// project root. A path that climbs out of the root is refused.
pub fn resolve_relative(from: &str, reference: &str) -> Result<String, LoadError> {
    if reference.contains("://") {
        return Err(LoadError::new(format!(
            "`{reference}` is a URL; only files inside the project can be imported"
        )));
    }
    if reference.starts_with('/') || reference.contains('\\') || reference.contains(':') {
        return Err(LoadError::new(format!(
            "`{reference}` is not a relative `/`-separated path inside the project"
        )));
    }
    let directory = match from.rfind('/') {
        Some(slash) => &from[..slash],
        None => "",
    };
    let joined = if directory.is_empty() {
        reference.to_owned()
    } else {
        format!("{directory}/{reference}")
    };
    normalize(&joined)
}

/// Removes `.` and resolves `..` segments; refuses to climb above the root.
pub fn normalize(path: &str) -> Result<String, LoadError> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(LoadError::outside_root(format!(
                        "`{path}` leads outside the project root"
                    )));
                }
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return Err(LoadError::new(format!("`{path}` names no file")));
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_to_the_importing_file() {
        assert_eq!(
            resolve_relative("agents/main.logic.md", "./shared/a.logic.md").unwrap(),
            "agents/shared/a.logic.md"
        );
        assert_eq!(
            resolve_relative("agents/main.logic.md", "../common.logic.md").unwrap(),
            "common.logic.md"
        );
        assert_eq!(
            resolve_relative("main.logic.md", "b.logic.md").unwrap(),
            "b.logic.md"
        );
    }

    #[test]
    fn refuses_escapes_and_urls() {
        assert!(
            resolve_relative("main.logic.md", "../outside.logic.md")
                .unwrap_err()
                .outside_root
        );
        assert!(
            resolve_relative("a/main.logic.md", "../../x.logic.md")
                .unwrap_err()
                .outside_root
        );
        assert!(resolve_relative("main.logic.md", "/etc/passwd").is_err());
        assert!(resolve_relative("main.logic.md", "https://x.y/z.logic.md").is_err());
    }

    #[test]
    fn memory_loader_serves_normalized_paths() {
        let loader = MemoryLoader::new().with("./shared/../b.logic.md", "text");
        assert_eq!(loader.load("b.logic.md").unwrap(), "text");
        assert!(loader.load("c.logic.md").is_err());
    }
}

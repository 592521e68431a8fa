//! Where the tools may read: the directories given with `--root`, else the client's roots
//! (`roots/list`), else nowhere (documents then come as `text`). A path is resolved against the
//! first root, made canonical (`..` and symbolic links resolved) and must then lie inside one of
//! the roots: an escape is refused, whichever way it is spelled.

use std::path::{Path, PathBuf};

use crate::fs_loader::FsLoader;

/// A file found inside a root: its canonical path, the root it is in, and its name relative to
/// that root (for diagnostics and import ids).
#[derive(Debug, Clone, PartialEq)]
pub struct Confined {
    pub file: PathBuf,
    pub root: PathBuf,
    pub relative: String,
}

/// Canonical roots, in the order given, and whether the client listed them (else `--root`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roots(pub Vec<PathBuf>, pub bool);

impl Roots {
    /// The directories that exist, made canonical (a root that cannot be is left out).
    pub fn of(directories: impl IntoIterator<Item = PathBuf>) -> Roots {
        Roots(
            directories
                .into_iter()
                .filter_map(|dir| dir.canonicalize().ok())
                .filter(|dir| dir.is_dir())
                .collect(),
            false,
        )
    }

    /// The client's `roots/list` answer: `file://` URIs; anything else is left out.
    pub fn of_uris<'a>(uris: impl IntoIterator<Item = &'a str>) -> Roots {
        Roots(
            Roots::of(uris.into_iter().filter_map(file_uri_path)).0,
            true,
        )
    }

    /// The loader of imports confined to `root`, one of these roots.
    pub fn loader(&self, root: &Path) -> std::io::Result<FsLoader> {
        if self.1 {
            FsLoader::client_root(root)
        } else {
            FsLoader::new(root)
        }
    }

    pub fn first(&self) -> Option<&Path> {
        self.0.first().map(PathBuf::as_path)
    }

    /// `path` (relative to the first root, or absolute) as a file inside a root, or why not.
    pub fn confine(&self, path: &str) -> Result<Confined, String> {
        let Some(first) = self.first() else {
            return Err(
                "no root to read files from: start the server with `--root DIR`, use a client that \
                 lists roots, or pass the document as `text`"
                    .to_owned(),
            );
        };
        if path.is_empty() {
            return Err("`path` is empty".to_owned());
        }
        let given = Path::new(path);
        let joined = if given.is_absolute() {
            given.to_path_buf()
        } else {
            first.join(given)
        };
        let file = joined
            .canonicalize()
            .map_err(|error| format!("cannot read `{path}`: {error}"))?;
        let Some(root) = self.0.iter().find(|root| file.starts_with(root)) else {
            return Err(format!(
                "`{path}` is outside the roots ({}): refused",
                self.listed()
            ));
        };
        if !file.is_file() {
            return Err(format!("`{path}` is not a file"));
        }
        let relative = file
            .strip_prefix(root)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        Ok(Confined {
            root: root.clone(),
            relative,
            file,
        })
    }

    /// The files under the roots a resource template lists: up to `limit` LOGIC.md documents
    /// and DRTL topologies, hidden directories and symbolic links skipped.
    pub fn documents(&self, limit: usize) -> Vec<Confined> {
        let mut found = Vec::new();
        for root in &self.0 {
            let walk = ignore::WalkBuilder::new(root)
                .follow_links(false)
                .sort_by_file_path(|a, b| a.cmp(b))
                .build();
            for entry in walk.flatten() {
                if found.len() >= limit {
                    return found;
                }
                let name = entry.file_name().to_string_lossy();
                let document = name.ends_with(".logic.md")
                    || name == "LOGIC.md"
                    || logicmd::drtl::is_drtl_path(&name);
                if document && entry.file_type().is_some_and(|t| t.is_file()) {
                    let relative = entry
                        .path()
                        .strip_prefix(root)
                        .map(|p| p.to_string_lossy().replace('\\', "/"))
                        .unwrap_or_default();
                    found.push(Confined {
                        file: entry.path().to_path_buf(),
                        root: root.clone(),
                        relative,
                    });
                }
            }
        }
        found
    }

    fn listed(&self) -> String {
        self.0
            .iter()
            .map(|root| root.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The absolute path of a `file://` URI; `None` for other schemes and remote hosts.
pub fn file_uri_path(uri: &str) -> Option<PathBuf> {
    crate::uri::path_of_file_uri(uri).filter(|path| path.is_absolute())
}

/// `segment` with everything but unreserved characters escaped as `%XX` (RFC 3986).
pub fn percent_encoded(segment: &str) -> String {
    crate::uri::percent_encode(segment, b"-._~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            file_uri_path("file:///home/a%20b/p"),
            Some(PathBuf::from("/home/a b/p"))
        );
        assert_eq!(
            file_uri_path("file://localhost/x"),
            Some(PathBuf::from("/x"))
        );
        assert_eq!(file_uri_path("https://example.com/x"), None);
        assert_eq!(file_uri_path("file://server/share"), None);
        assert_eq!(file_uri_path("file:///bad%zz"), None);
    }

    /// A scratch tree: `root/` (a file, `sub/` with a file, a link to `outside/`, a link to
    /// the secret) beside `outside/` and `secret.logic.md`.
    fn tree() -> (PathBuf, PathBuf) {
        let base = std::env::temp_dir().join(format!("logicmd-mcp-roots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("root");
        for dir in [root.join("sub"), base.join("outside")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        for file in [
            "root/a.logic.md",
            "root/sub/b.logic.md",
            "outside/c.logic.md",
            "secret.logic.md",
        ] {
            std::fs::write(base.join(file), "x").unwrap();
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(base.join("outside"), root.join("link")).unwrap();
            std::os::unix::fs::symlink(base.join("secret.logic.md"), root.join("linkfile"))
                .unwrap();
        }
        (base.canonicalize().unwrap(), root.canonicalize().unwrap())
    }

    proptest::proptest! {
        /// Whatever the path, a file is confined exactly when it is, once resolved, a file
        /// inside the root.
        #[test]
        fn a_path_is_confined_exactly_when_it_resolves_inside(
            segments in proptest::collection::vec(
                proptest::sample::select(vec!["..", ".", "sub", "link", "linkfile", "a.logic.md", "b.logic.md", "c.logic.md", "outside", "secret.logic.md", "root"]),
                1..6,
            ),
            absolute in proptest::bool::ANY,
        ) {
            let (base, root) = tree();
            let roots = Roots(vec![root.clone()], false);
            let relative = segments.join("/");
            let path = if absolute { format!("{}/{relative}", base.display()) } else { relative };
            let resolved = if absolute { PathBuf::from(&path) } else { root.join(&path) }.canonicalize();
            let inside = resolved.as_ref().is_ok_and(|file| file.starts_with(&root) && file.is_file());
            match roots.confine(&path) {
                Ok(confined) => {
                    proptest::prop_assert!(inside, "{path} confined to {:?}", confined.file);
                    proptest::prop_assert!(confined.file.starts_with(&root));
                }
                Err(_) => proptest::prop_assert!(!inside, "{path} refused"),
            }
        }
    }
}

//! The file system behind core's `Loader`: files under one project root, and nothing outside it.
//!
//! Where the root is never depends on the working directory (except for standard input, which
//! has no location of its own): `--root` when given, else the nearest ancestor of the document
//! that holds a root marker, else the document's own directory.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use logicmd::loader::{resolve_relative, LoadError, Loader};
use logicmd::Limits;

use crate::input::{read_document, too_large_import, utf8_text};

/// What makes a directory a project root: a repository (`.git`, a directory, or a file in
/// worktrees and submodules), or the spec's root-level files (§16.1: `LOGIC.md`, `.logic/`).
const ROOT_MARKERS: &[&str] = &[".git", "LOGIC.md", ".logic/"];

/// The id standard input gets: a file in the directory it is read from.
const STDIN_NAME: &str = "<stdin>";

/// Why the root is where it is, for messages about references that leave it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RootOrigin {
    /// `--root DIR`.
    Given,
    /// The nearest ancestor of the document holding this marker.
    Marker(&'static str),
    /// No marker above the document: its own directory.
    OwnDirectory,
    /// A root the MCP client listed (`roots/list`).
    ClientRoot,
}

/// Loads files under `root`. Ids are `/`-separated paths relative to the root; `..` may not
/// climb out of it, and a symlink that points outside it is refused.
pub struct FsLoader {
    root: PathBuf,
    origin: RootOrigin,
}

/// A document placed in its project: the loader for its imports and its own id.
pub struct Placed {
    pub loader: FsLoader,
    pub id: String,
}

impl FsLoader {
    pub fn new(root: &Path) -> io::Result<FsLoader> {
        Ok(FsLoader {
            root: root.canonicalize()?,
            origin: RootOrigin::Given,
        })
    }

    /// A loader confined to a root the MCP client listed.
    pub fn client_root(root: &Path) -> io::Result<FsLoader> {
        Ok(FsLoader {
            root: root.canonicalize()?,
            origin: RootOrigin::ClientRoot,
        })
    }

    /// The loader for `file`'s imports: over `root` when given, else over the project root
    /// found from the file's own (canonical) location.
    pub fn for_file(file: &Path, root: Option<&Path>) -> io::Result<FsLoader> {
        if let Some(root) = root {
            return FsLoader::new(root);
        }
        let file = file.canonicalize()?;
        let directory = file.parent().unwrap_or(Path::new("/"));
        Ok(FsLoader::found_from(directory))
    }

    /// The loader over the project root found from `directory` (itself included).
    fn found_from(directory: &Path) -> FsLoader {
        match project_root(directory) {
            Some((root, marker)) => FsLoader {
                root: root.to_path_buf(),
                origin: RootOrigin::Marker(marker),
            },
            None => FsLoader {
                root: directory.to_path_buf(),
                origin: RootOrigin::OwnDirectory,
            },
        }
    }

    /// Places the document read from `path`: a file in its own directory, or standard input
    /// (`-`) as a file in the working directory, whose root is `root` or is found from there.
    pub fn place(path: &Path, root: Option<&Path>) -> Result<Placed, LoadError> {
        if path.as_os_str() == "-" {
            FsLoader::place_stdin(root)
        } else {
            FsLoader::place_file(path, root)
        }
    }

    fn place_file(path: &Path, root: Option<&Path>) -> Result<Placed, LoadError> {
        let loader = FsLoader::for_file(path, root).map_err(|e| match root {
            Some(root) => cannot(&format!("cannot open the root {}", root.display()), e),
            None => cannot(&format!("cannot read {}", path.display()), e),
        })?;
        let id = loader.id_of(path)?;
        Ok(Placed { loader, id })
    }

    fn place_stdin(root: Option<&Path>) -> Result<Placed, LoadError> {
        let cwd = std::env::current_dir()
            .and_then(|cwd| cwd.canonicalize())
            .map_err(|e| cannot("cannot find the working directory", e))?;
        let loader = match root {
            Some(root) => FsLoader::new(root)
                .map_err(|e| cannot(&format!("cannot open the root {}", root.display()), e))?,
            None => FsLoader::found_from(&cwd),
        };
        // Outside a given root, standard input sits at the root itself.
        let directory = cwd.strip_prefix(&loader.root).ok().map(id_from);
        let id = match directory.as_deref() {
            Some("") | None => STDIN_NAME.to_owned(),
            Some(directory) => format!("{directory}/{STDIN_NAME}"),
        };
        Ok(Placed { loader, id })
    }

    /// The id of `file` (which must lie under the root).
    pub fn id_of(&self, file: &Path) -> Result<String, LoadError> {
        let canonical = file
            .canonicalize()
            .map_err(|e| LoadError::new(format!("{}: {e}", file.display())))?;
        let relative = canonical.strip_prefix(&self.root).map_err(|_| {
            LoadError::new(format!(
                "{} is outside the project root {}",
                file.display(),
                self.root.display()
            ))
        })?;
        Ok(id_from(relative))
    }

    /// Where the root is and why, for a reference that leaves it.
    fn describe_root(&self) -> String {
        let root = self.root.display();
        match self.origin {
            RootOrigin::Given => format!("`{root}` (set by `--root`)"),
            RootOrigin::Marker(marker) => format!(
                "`{root}` (the nearest directory above the file with `{marker}`; `--root DIR` sets another)"
            ),
            RootOrigin::ClientRoot => format!("`{root}` (a root the MCP client lists)"),
            RootOrigin::OwnDirectory => format!(
                "`{root}` (the file's own directory: no directory above it has `.git`, `LOGIC.md` or `.logic/`; `--root DIR` sets another)"
            ),
        }
    }
}

/// The nearest ancestor of `directory` (itself included) holding a root marker.
pub fn marked_root(directory: &Path) -> Option<PathBuf> {
    project_root(directory).map(|(root, _)| root.to_path_buf())
}

/// The nearest ancestor of `directory` (itself included) holding a root marker, and the marker.
/// All markers count alike: the nearest one is the most specific boundary.
fn project_root(directory: &Path) -> Option<(&Path, &'static str)> {
    directory.ancestors().find_map(|candidate| {
        ROOT_MARKERS
            .iter()
            .find(|marker| has_marker(candidate, marker))
            .map(|marker| (candidate, *marker))
    })
}

fn has_marker(directory: &Path, marker: &str) -> bool {
    match marker.strip_suffix('/') {
        Some(name) => directory.join(name).is_dir(),
        None => directory.join(marker).exists(),
    }
}

fn cannot(what: &str, error: io::Error) -> LoadError {
    LoadError::new(format!("{what}: {error}"))
}

/// A relative path as a `/`-separated id.
fn id_from(relative: &Path) -> String {
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

impl FsLoader {
    /// The project root (canonical) ids are relative to.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Loader for FsLoader {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        resolve_relative(from, reference).map_err(|error| {
            if error.outside_root {
                LoadError::outside_root(format!(
                    "the path leads outside the project root {}",
                    self.describe_root()
                ))
            } else {
                error
            }
        })
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        let path = self.root.join(id);
        let canonical = path.canonicalize().map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                LoadError::new(format!(
                    "no file `{id}` in the project root `{}`",
                    self.root.display()
                ))
            } else {
                LoadError::new(format!("`{id}`: {e}"))
            }
        })?;
        if !canonical.starts_with(&self.root) {
            return Err(LoadError::new(format!(
                "`{id}` resolves outside the project root (through a symlink)"
            )));
        }
        // A directory or a device is not a document (and a pipe could block the read).
        if !fs::metadata(&canonical).is_ok_and(|m| m.is_file()) {
            return Err(LoadError::new(format!("`{id}` is not a file")));
        }
        let limit = Limits::DEFAULT.max_bytes;
        let bytes = read_document(&canonical, limit)
            .map_err(|e| LoadError::new(format!("`{id}`: {e}")))?
            .bytes;
        if bytes.len() > limit {
            return Err(LoadError::new(too_large_import(id, &canonical, limit)));
        }
        utf8_text(bytes).map_err(|problem| LoadError::new(format!("`{id}` {problem}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confines_reads_to_the_root() {
        let base = std::env::temp_dir().join(format!("logicmd-fsloader-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let root = base.join("project");
        fs::create_dir_all(root.join("shared")).unwrap();
        fs::write(root.join("shared/a.logic.md"), "inside").unwrap();
        fs::write(base.join("secret.logic.md"), "outside").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(base.join("secret.logic.md"), root.join("link.logic.md"))
            .unwrap();
        let loader = FsLoader::new(&root).unwrap();
        let id = loader
            .resolve("main.logic.md", "./shared/a.logic.md")
            .unwrap();
        assert_eq!(loader.load(&id).unwrap(), "inside");
        assert!(loader
            .resolve("main.logic.md", "../secret.logic.md")
            .is_err());
        #[cfg(unix)]
        assert!(loader
            .load("link.logic.md")
            .unwrap_err()
            .message
            .contains("outside"));
        fs::remove_dir_all(&base).unwrap();
    }
}

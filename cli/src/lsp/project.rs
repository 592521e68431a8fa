//! The project on disk behind the language server's workspace: files under the root through the
//! CLI's bounded, root-confined loader, directory listings for import paths, and the mapping
//! between `file://` URIs and the workspace's ids (paths relative to the root).

use std::fs;
use std::path::{Component, Path, PathBuf};

use logicmd::loader::{LoadError, Loader};
use logicmd_ide::files::{DirEntry, ProjectFiles};

use crate::fs_loader::FsLoader;

/// The project root and its files.
pub struct Project {
    root: PathBuf,
    loader: FsLoader,
}

impl Project {
    /// The project at `root` (canonicalised).
    pub fn new(root: &Path) -> std::io::Result<Project> {
        let loader = FsLoader::new(root)?;
        Ok(Project {
            root: root.canonicalize()?,
            loader,
        })
    }

    /// The id of the file at `uri`: its path relative to the root, `/`-separated; a file outside
    /// the root keeps its absolute path (its imports resolve in its own project: [`Self::outside`]).
    pub fn id_of(&self, uri: &str) -> Option<String> {
        Some(self.id_of_path(&path_of_uri(uri)?))
    }

    fn id_of_path(&self, path: &Path) -> String {
        let absolute = normalized(path);
        match absolute.strip_prefix(&self.root) {
            Ok(relative) => relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => absolute.to_string_lossy().into_owned(),
        }
    }

    /// For a file outside the root (an absolute id): the loader over its own project, found as
    /// `logicmd lint` finds it (the nearest directory above it with a project marker, else its
    /// own directory), and its id there.
    fn outside(&self, id: &str) -> Option<(FsLoader, String)> {
        if !id.starts_with('/') {
            return None;
        }
        let path = Path::new(id);
        let loader = FsLoader::for_file(path, None).ok()?;
        let own = loader.id_of(path).ok()?;
        Some((loader, own))
    }

    /// The `file://` URI of the file with `id`.
    pub fn uri_of(&self, id: &str) -> String {
        uri_of_path(&self.path_of(id))
    }

    /// The path of the file with `id`.
    pub fn path_of(&self, id: &str) -> PathBuf {
        if id.starts_with('/') {
            PathBuf::from(id)
        } else {
            self.root.join(id)
        }
    }
}

impl Loader for Project {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        match self.outside(from) {
            Some((loader, own)) => {
                let found = loader.resolve(&own, reference)?;
                Ok(self.id_of_path(&loader.root().join(found)))
            }
            None => self.loader.resolve(from, reference),
        }
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        match self.outside(id) {
            Some((loader, own)) => loader.load(&own),
            None if id.starts_with('/') => Err(LoadError::new(format!("cannot read {id}"))),
            None => self.loader.load(id),
        }
    }
}

impl ProjectFiles for Project {
    fn list(&self, directory: &str) -> Vec<DirEntry> {
        let path = self.root.join(directory);
        let Ok(canonical) = path.canonicalize() else {
            return Vec::new();
        };
        if !canonical.starts_with(&self.root) {
            return Vec::new();
        }
        let mut entries: Vec<DirEntry> = fs::read_dir(&canonical)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let is_dir = entry.file_type().ok()?.is_dir();
                Some(DirEntry { name, is_dir })
            })
            .filter(|entry| !matches!(entry.name.as_str(), ".git" | "node_modules" | "target"))
            .collect();
        entries.sort();
        entries
    }
}

/// `.` and `..` removed without touching the file system (the file may not exist yet).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    // The root is canonical; a file in it is compared after resolving symlinks of its directory.
    match (
        out.parent().and_then(|p| p.canonicalize().ok()),
        out.file_name(),
    ) {
        (Some(directory), Some(name)) => directory.join(name),
        _ => out,
    }
}

/// The path of a `file://` URI (percent-decoded), `None` for other schemes.
pub fn path_of_uri(uri: &str) -> Option<PathBuf> {
    crate::uri::path_of_file_uri(uri)
}

/// The `file://` URI of an absolute path, percent-encoding what a URI path may not hold.
pub fn uri_of_path(path: &Path) -> String {
    let encoded = crate::uri::percent_encode(&path.to_string_lossy(), b"/-._~!$&'()*+,;=:@");
    format!("file://{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        let path = Path::new("/tmp/a dir/é#1.logic.md");
        let uri = uri_of_path(path);
        assert_eq!(uri, "file:///tmp/a%20dir/%C3%A9%231.logic.md");
        assert_eq!(path_of_uri(&uri).as_deref(), Some(path));
        assert_eq!(path_of_uri("untitled:Untitled-1"), None);
    }
}

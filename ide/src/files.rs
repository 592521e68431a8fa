//! How the workspace reaches files that are not open: core's [`Loader`] (resolve a reference,
//! load a text) plus a directory listing for completing import paths. The language server
//! implements it over the file system under the project root; the studio over its bundled files.

use std::sync::Arc;

use logicmd::loader::{LoadError, Loader, MemoryLoader};

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DirEntry {
    /// The entry's name (no `/`).
    pub name: String,
    /// Whether it is a directory.
    pub is_dir: bool,
}

/// Files of the project, addressed by the ids its loader chooses (`/`-separated paths relative
/// to the project root).
pub trait ProjectFiles: Loader + Send + Sync {
    /// The entries of the directory with id `directory` ("" is the root), sorted by name;
    /// empty when it cannot be listed.
    fn list(&self, directory: &str) -> Vec<DirEntry> {
        let _ = directory;
        Vec::new()
    }
}

/// A project with no files besides the open ones.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFiles;

impl Loader for NoFiles {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        logicmd::loader::resolve_relative(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        Err(LoadError::new(format!("no file `{id}`")))
    }
}

impl ProjectFiles for NoFiles {}

/// Files held in memory (tests, the studio's bundled examples), listed from their paths.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles {
    loader: MemoryLoader,
    paths: Vec<String>,
}

impl MemoryFiles {
    /// No files.
    pub fn new() -> Self {
        MemoryFiles::default()
    }

    /// Adds a file at `path` (normalized as [`MemoryLoader::insert`] does).
    pub fn with(mut self, path: &str, text: &str) -> Self {
        if let Ok(id) = logicmd::loader::normalize(path) {
            self.loader = self.loader.with(&id, text);
            self.paths.push(id);
            self.paths.sort();
            self.paths.dedup();
        }
        self
    }

    /// The files behind an [`Arc`], as [`crate::Workspace::new`] takes them.
    pub fn shared(self) -> Arc<dyn ProjectFiles> {
        Arc::new(self)
    }
}

impl Loader for MemoryFiles {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        self.loader.resolve(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        self.loader.load(id)
    }
}

impl ProjectFiles for MemoryFiles {
    fn list(&self, directory: &str) -> Vec<DirEntry> {
        let prefix = if directory.is_empty() {
            String::new()
        } else {
            format!("{directory}/")
        };
        let mut entries: Vec<DirEntry> = self
            .paths
            .iter()
            .filter_map(|path| path.strip_prefix(&prefix))
            .map(|rest| match rest.split_once('/') {
                Some((dir, _)) => DirEntry {
                    name: dir.to_owned(),
                    is_dir: true,
                },
                None => DirEntry {
                    name: rest.to_owned(),
                    is_dir: false,
                },
            })
            .collect();
        entries.sort();
        entries.dedup();
        entries
    }
}

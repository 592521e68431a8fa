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

    /// The project's files whose name says LOGIC.md, each once (files that may import another:
    /// renaming a step must reach the importers an editor has not opened). By default a bounded
    /// walk through [`ProjectFiles::list`]; a file system whose links could name one file twice
    /// walks itself.
    fn logic_md_documents(&self) -> Documents {
        walk_logic_md_documents(self)
    }
}

/// The LOGIC.md files of a project, as far as they were looked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Documents {
    /// Their ids, sorted.
    pub ids: Vec<String>,
    /// Why the walk stopped before the end (a bound reached), when it did: a rename would miss
    /// the files not walked.
    pub cut: Option<String>,
}

/// Whether a file's name says it is LOGIC.md: `*.logic.md`, `LOGIC.md`, or Markdown in a
/// `.logic/` directory (the names the language server watches).
pub fn is_logic_md_name(id: &str) -> bool {
    let name = id.rsplit('/').next().unwrap_or(id);
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".logic.md")
        || name == "LOGIC.md"
        || (id.starts_with(".logic/") || id.contains("/.logic/")) && lower.ends_with(".md")
}

/// The most entries (files and directories) a walk of the project looks at: the project is the
/// user's disk, of any size.
pub const MAX_WALKED_ENTRIES: usize = 200_000;

/// Why a walk stopped at [`MAX_WALKED_ENTRIES`].
pub fn walk_cut_message() -> String {
    format!(
        "the project has more than {MAX_WALKED_ENTRIES} files and directories to look through \
         (dependencies and build output left out); list the rest in .gitignore or open a smaller folder"
    )
}

/// [`ProjectFiles::logic_md_documents`] by listing directories from the root.
pub fn walk_logic_md_documents<F: ProjectFiles + ?Sized>(files: &F) -> Documents {
    let mut found = Documents::default();
    let mut directories = vec![String::new()];
    let mut seen = 0;
    while let Some(directory) = directories.pop() {
        for entry in files.list(&directory) {
            seen += 1;
            if seen > MAX_WALKED_ENTRIES {
                found.cut = Some(walk_cut_message());
                found.ids.sort();
                return found;
            }
            let id = if directory.is_empty() {
                entry.name
            } else {
                format!("{directory}/{}", entry.name)
            };
            if entry.is_dir {
                directories.push(id);
            } else if is_logic_md_name(&id) {
                found.ids.push(id);
            }
        }
    }
    found.ids.sort();
    found
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

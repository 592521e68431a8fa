//! The project on disk behind the language server's workspace: files under the root through the
//! CLI's bounded, root-confined loader, directory listings for import paths, and the mapping
//! between `file://` URIs and the workspace's ids (paths relative to the root).

use std::fs;
use std::path::{Component, Path, PathBuf};

use logicmd::loader::{LoadError, Loader};
use logicmd_ide::files::{
    is_logic_md_name, walk_cut_message, DirEntry, Documents, ProjectFiles, MAX_WALKED_ENTRIES,
};

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
    /// The walk of [`ProjectFiles::logic_md_documents`] over the disk as `logicmd lint DIR`
    /// searches it (`.gitignore` honoured, dependencies, build output and virtual environments
    /// left out), not following links: a link to a file would give that file a second id (a
    /// rename would edit it twice, once through each), a link to a directory above would loop.
    fn logic_md_documents(&self) -> Documents {
        let mut found = Documents::default();
        let mut seen = 0;
        let walked = crate::discover::project_entries(&self.root, |path, is_dir| {
            seen += 1;
            if seen > MAX_WALKED_ENTRIES {
                found.cut = Some(walk_cut_message());
                return false;
            }
            if !is_dir {
                let id = self.id_of_path(path);
                let is_file = fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
                if is_file && !id.starts_with('/') && is_logic_md_name(&id) {
                    found.ids.push(id);
                }
            }
            true
        });
        if let Err(why) = walked {
            found.cut = Some(why);
        }
        found.ids.sort();
        found
    }

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

    /// The project's LOGIC.md files, each once: links are not followed (a linked file would
    /// be renamed twice through its two ids; a link to a directory above loops); what a
    /// directory search leaves out (`.gitignore`, dependencies, virtual environments) is left.
    #[cfg(unix)]
    #[test]
    fn the_walk_of_the_project_lists_each_logic_md_file_once() {
        let root = std::env::temp_dir().join(format!("logicmd-walk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for dir in [
            "agents/.logic",
            "node_modules/x",
            ".git",
            "docs",
            "venv/lib",
            "ignored",
        ] {
            fs::create_dir_all(root.join(dir)).expect("a directory");
        }
        for file in [
            "main.logic.md",
            "agents/a.logic.md",
            "agents/.logic/helper.md",
            "node_modules/x/dep.logic.md",
            "docs/README.md",
            "LOGIC.md",
            "venv/lib/v.logic.md",
            "ignored/i.logic.md",
        ] {
            fs::write(root.join(file), "---\n---\n").expect("a file");
        }
        fs::write(root.join(".gitignore"), "ignored/\n").expect("a .gitignore");
        std::os::unix::fs::symlink(root.join("main.logic.md"), root.join("alias.logic.md"))
            .expect("a linked file");
        std::os::unix::fs::symlink(&root, root.join("agents/loop")).expect("a link loop");
        let project = Project::new(&root).expect("the project");
        assert_eq!(
            project.logic_md_documents().ids,
            [
                "LOGIC.md",
                "agents/.logic/helper.md",
                "agents/a.logic.md",
                "main.logic.md"
            ]
        );
        let _ = fs::remove_dir_all(&root);
    }
}

//! The file system behind core's `Loader`: files under one project root, and nothing outside it.

use std::fs;
use std::path::{Path, PathBuf};

use logicmd::loader::{resolve_relative, LoadError, Loader};
use logicmd::Limits;

/// Loads files under `root`. Ids are `/`-separated paths relative to the root; `..` may not
/// climb out of it, and a symlink that points outside it is refused.
pub struct FsLoader {
    root: PathBuf,
}

impl FsLoader {
    pub fn new(root: &Path) -> std::io::Result<FsLoader> {
        Ok(FsLoader {
            root: root.canonicalize()?,
        })
    }

    /// The project root for `file`: `root` when given, else the current directory when the
    /// file lies inside it, else the file's directory.
    pub fn for_file(file: &Path, root: Option<&Path>) -> std::io::Result<FsLoader> {
        if let Some(root) = root {
            return FsLoader::new(root);
        }
        let file = file.canonicalize()?;
        let cwd = std::env::current_dir()?.canonicalize()?;
        if file.starts_with(&cwd) {
            FsLoader::new(&cwd)
        } else {
            FsLoader::new(file.parent().unwrap_or(Path::new("/")))
        }
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
        Ok(relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"))
    }
}

impl Loader for FsLoader {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        resolve_relative(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        let path = self.root.join(id);
        let canonical = path.canonicalize().map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                LoadError::new(format!("no such file: {}", path.display()))
            } else {
                LoadError::new(format!("{}: {e}", path.display()))
            }
        })?;
        if !canonical.starts_with(&self.root) {
            return Err(LoadError::new(format!(
                "`{id}` resolves outside the project root (through a symlink)"
            )));
        }
        let limit = Limits::DEFAULT.max_bytes;
        let size = fs::metadata(&canonical)
            .map_err(|e| LoadError::new(format!("{id}: {e}")))?
            .len();
        if size > limit as u64 {
            return Err(LoadError::new(format!(
                "`{id}` is {size} bytes, over the {limit}-byte limit"
            )));
        }
        fs::read_to_string(&canonical).map_err(|e| LoadError::new(format!("{id}: {e}")))
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

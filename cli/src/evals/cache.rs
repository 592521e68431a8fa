//! Answers kept by (document, input, model, seed) (`--cache DIR`): a case run again with the
//! same four is not run again; its ending and trace come from the cache and are scored anew.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use logicmd::evals::Ran;

/// A kept answer: the run as it ended.
pub type Cached = Ran;

static NEXT_WRITER: AtomicU64 = AtomicU64::new(0);

pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn open(dir: &Path) -> Result<Cache, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the cache {}: {e}", dir.display()))?;
        Ok(Cache {
            dir: dir.to_owned(),
        })
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The answer kept under `key`; an unreadable entry is a miss.
    pub fn get(&self, key: &str) -> Option<Cached> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Keeps an answer: written beside, then renamed, so a reader never sees half of it.
    pub fn put(&self, key: &str, cached: &Cached) -> Result<(), String> {
        let path = self.path(key);
        // Unique per writer: two threads may answer the same key at once (equal inputs).
        let writer = NEXT_WRITER.fetch_add(1, Ordering::Relaxed);
        let partial = path.with_extension(format!("{}-{writer}.partial", std::process::id()));
        let text = serde_json::to_string(cached).unwrap_or_default();
        std::fs::write(&partial, text)
            .and_then(|()| std::fs::rename(&partial, &path))
            .map_err(|e| format!("cannot write the cache {}: {e}", path.display()))
    }
}

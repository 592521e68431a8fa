//! A tool's document: `text`, or a `path` under the roots, read within core's size limit, with
//! the loader its imports and `logic_ref`s resolve through (confined to the root it sits in).

use logicmd::analysis::{Depth, Options, DEFAULT_ID};
use logicmd::loader::{Loader, MemoryLoader};
use logicmd::{Diagnostic, Limits};
use schemars::JsonSchema;
use serde::Deserialize;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::roots::Roots;
use super::tools::Misuse;
use crate::config::{Finder, Found};

/// Where the document comes from: exactly one of `text` and `path`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Source {
    /// The document's text (a LOGIC.md file or a DRTL topology). Its imports resolve from the
    /// first root, as if it sat there. Give this or `path`.
    #[serde(default)]
    pub text: Option<String>,
    /// A file under the server's roots (relative to the first root, or absolute); `..` and
    /// symbolic links that lead outside the roots are refused. Give this or `text`.
    #[serde(default)]
    pub path: Option<String>,
}

/// A document read, ready for core's front door.
pub struct Loaded {
    /// What diagnostics are about: the path relative to its root, or `None` for `text`.
    pub name: Option<String>,
    /// The file's canonical path, for `path` (where `logicmd.toml` is looked for).
    pub file: Option<std::path::PathBuf>,
    /// The bytes as read (core checks UTF-8 and the size).
    pub bytes: Vec<u8>,
    /// The document's id for its imports.
    pub id: String,
    pub loader: Box<dyn Loader + Send + Sync>,
    /// The project's settings (`logicmd.toml`, `[tool.logicmd]`) that apply, as the CLI finds
    /// them, when they lie inside the document's root.
    pub settings: Option<Arc<Found>>,
}

impl Loaded {
    pub fn options(&self, depth: Depth) -> Options<'_> {
        Options {
            path: self.name.as_deref(),
            id: &self.id,
            depth,
            limits: Limits::DEFAULT,
        }
    }

    /// `diagnostics` as the project's settings want them (selected, ignored, severities), as
    /// `logicmd validate | lint | check` report them.
    pub fn configured(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        crate::config::applied(self.settings.as_deref(), &self.settings_path(), diagnostics)
    }

    /// Whether the settings leave `diagnostic` reported (an ignored rule is not fixed).
    pub fn reported(&self, diagnostic: &Diagnostic) -> bool {
        !self.configured(vec![diagnostic.clone()]).is_empty()
    }

    /// The path per-file settings match: the file, or for `text` none (`-`).
    fn settings_path(&self) -> PathBuf {
        self.file.clone().unwrap_or_else(|| PathBuf::from("-"))
    }

    /// The text, or core's diagnostic (not UTF-8, too large) as a tool result's problem.
    pub fn text(&self) -> Result<&str, logicmd::Diagnostic> {
        logicmd::document::text_of_bytes(&self.bytes, Limits::DEFAULT).map_err(|problem| *problem)
    }
}

impl Source {
    pub fn load(self, roots: &Roots) -> Result<Loaded, Misuse> {
        match (self.text, self.path) {
            (Some(text), None) => {
                let settings = match roots.first() {
                    Some(root) => settings_in(root, Finder::default().for_directory(root))?,
                    None => None,
                };
                let loader: Box<dyn Loader + Send + Sync> =
                    match roots.first().map(|root| roots.loader(root)) {
                        Some(Ok(loader)) => Box::new(loader),
                        _ => Box::new(MemoryLoader::new()),
                    };
                Ok(Loaded {
                    name: None,
                    file: None,
                    bytes: text.into_bytes(),
                    id: DEFAULT_ID.to_owned(),
                    loader,
                    settings,
                })
            }
            (None, Some(path)) => {
                let confined = roots.confine(&path).map_err(Misuse)?;
                let read = crate::input::read_document(&confined.file, Limits::DEFAULT.max_bytes)
                    .map_err(|error| Misuse(format!("cannot read `{path}`: {error}")))?;
                let loader = roots
                    .loader(&confined.root)
                    .map_err(|error| Misuse(format!("cannot open the root: {error}")))?;
                let settings = settings_in(
                    &confined.root,
                    Finder::default().for_document(&confined.file),
                )?;
                Ok(Loaded {
                    name: Some(confined.relative.clone()),
                    file: Some(confined.file.clone()),
                    bytes: read.bytes,
                    id: confined.relative,
                    loader: Box::new(loader),
                    settings,
                })
            }
            (Some(_), Some(_)) => Err(Misuse("give `text` or `path`, not both".to_owned())),
            (None, None) => Err(Misuse(
                "give the document as `text`, or a `path` under the roots".to_owned(),
            )),
        }
    }
}

/// The settings found, when their file is inside `root` (nothing above the roots is read into an
/// answer); a settings file that does not parse is misuse, its problems shown.
fn settings_in(
    root: &Path,
    found: Result<Option<Arc<Found>>, Arc<String>>,
) -> Result<Option<Arc<Found>>, Misuse> {
    match found {
        Ok(found) => Ok(found.filter(|found| found.file.starts_with(root))),
        Err(shown) => Err(Misuse(shown.to_string())),
    }
}

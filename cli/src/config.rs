//! Finding a document's settings (`logicmd::config`): the nearest `logicmd.toml`, or
//! `pyproject.toml` with a `[tool.logicmd]` table, in the document's directory or above it (the
//! working directory for standard input). The nearest file wins whole, as with ruff: settings
//! are not merged across levels. Each directory is looked at once per command.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use logicmd::config::{parse, FileKind, Settings, LOGICMD_TOML, PYPROJECT_TOML};

use crate::output;

/// A settings file found, read and valid.
#[derive(Debug)]
pub struct Found {
    /// The file, as found (absolute).
    pub file: PathBuf,
    /// Its directory: what `root` and the per-file patterns are relative to.
    pub dir: PathBuf,
    pub settings: Settings,
}

impl Found {
    /// `path` relative to the settings file's directory, `/`-separated (`None` for standard
    /// input, or a file outside it).
    pub fn relative(&self, path: &Path) -> Option<String> {
        if path.as_os_str() == "-" {
            return None;
        }
        let canonical = path.canonicalize().ok()?;
        let relative = canonical.strip_prefix(&self.dir).ok()?;
        Some(
            relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
        )
    }

    /// The import root the settings name, resolved against their directory.
    pub fn root(&self) -> Option<PathBuf> {
        self.settings
            .root
            .as_ref()
            .map(|root| self.dir.join(&root.value))
    }

    /// `[lint]` applied to the diagnostics of the file at `path`.
    pub fn apply(
        &self,
        path: &Path,
        diagnostics: Vec<logicmd::Diagnostic>,
    ) -> Vec<logicmd::Diagnostic> {
        let relative = self.relative(path);
        logicmd::config::apply(&self.settings.lint, relative.as_deref(), diagnostics)
    }
}

/// What looking in one directory gave: settings, none, or why they are unusable (shown text).
type Lookup = Result<Option<Arc<Found>>, Arc<String>>;

/// The settings of many documents, each directory read once.
#[derive(Default)]
pub struct Finder {
    cache: Mutex<HashMap<PathBuf, Lookup>>,
}

impl Finder {
    /// The settings of the document at `path` (`-`: standard input).
    pub fn for_document(&self, path: &Path) -> Lookup {
        self.for_directory(&start_of(path))
    }

    /// The settings that apply in `dir`.
    pub fn for_directory(&self, dir: &Path) -> Lookup {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        self.lookup(&dir)
    }

    fn lookup(&self, dir: &Path) -> Lookup {
        if let Some(known) = self.lock().get(dir) {
            return known.clone();
        }
        let found = match read_in(dir) {
            Ok(Some(found)) => Ok(Some(Arc::new(found))),
            Ok(None) => match dir.parent() {
                Some(parent) => self.lookup(parent),
                None => Ok(None),
            },
            Err(shown) => Err(Arc::new(shown)),
        };
        self.lock().insert(dir.to_path_buf(), found.clone());
        found
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Lookup>> {
        self.cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Where the search for `path`'s settings starts.
pub fn start_of(path: &Path) -> PathBuf {
    if path.as_os_str() == "-" {
        return PathBuf::from(".");
    }
    if path.is_dir() {
        return path.to_path_buf();
    }
    path.parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The most of a settings file read.
const LIMIT: usize = 1024 * 1024;

/// The settings in `dir` itself: `logicmd.toml` first, then `pyproject.toml` if it has
/// `[tool.logicmd]`.
fn read_in(dir: &Path) -> Result<Option<Found>, String> {
    for name in [LOGICMD_TOML, PYPROJECT_TOML] {
        let file = dir.join(name);
        if !file.is_file() {
            continue;
        }
        let kind = FileKind::of(name).unwrap_or(FileKind::Logicmd);
        let shown = file.display().to_string();
        let bytes = crate::input::read_bounded(&file, LIMIT)
            .map_err(|error| format!("error: cannot read {shown}: {error}"))?;
        if bytes.len() > LIMIT {
            return Err(format!("error: {shown} is larger than 1 MiB"));
        }
        let text =
            String::from_utf8(bytes).map_err(|_| format!("error: {shown} is not UTF-8 text"))?;
        match parse(&text, kind) {
            Ok(Some(settings)) => {
                return Ok(Some(Found {
                    file,
                    dir: dir.to_path_buf(),
                    settings,
                }))
            }
            Ok(None) => {}
            Err(problems) => return Err(output::human(&shown, &text, &problems)),
        }
    }
    Ok(None)
}

/// What the file-taking commands start from: the files the operands name (the project's
/// `extend-exclude` applied), the operand problems (already printed), and each file's settings.
pub struct Discovered {
    pub files: Vec<PathBuf>,
    pub problems: Vec<crate::discover::OperandError>,
    pub settings: Vec<Option<Arc<Found>>>,
}

impl Discovered {
    /// The exit status so far: 2 when an operand named nothing readable, else 0.
    pub fn status(&self) -> u8 {
        if self
            .problems
            .iter()
            .any(crate::discover::OperandError::is_error)
        {
            crate::EXIT_USAGE
        } else {
            crate::EXIT_OK
        }
    }
}

/// Discovers the files of `operands` and their settings, printing the operand problems; an
/// unusable settings file is printed and gives the exit status (2).
pub fn discover(operands: &crate::discover::Operands) -> Result<Discovered, u8> {
    let finder = Finder::default();
    let operands = with_project_excludes(operands, &finder).map_err(|shown| {
        eprintln!("{shown}");
        crate::EXIT_USAGE
    })?;
    let (files, problems) = crate::discover::files(&operands);
    for problem in &problems {
        eprintln!("{}", problem.line());
    }
    let settings = for_each(&files, &finder).map_err(|shown| {
        eprintln!("{shown}");
        crate::EXIT_USAGE
    })?;
    Ok(Discovered {
        files,
        problems,
        settings,
    })
}

/// `operands` with the `extend-exclude` of the settings that apply in the working directory
/// (the project's) added to `--exclude`.
pub fn with_project_excludes(
    operands: &crate::discover::Operands,
    finder: &Finder,
) -> Result<crate::discover::Operands, String> {
    let mut operands = operands.clone();
    if let Some(found) = finder
        .for_directory(Path::new("."))
        .map_err(|e| e.to_string())?
    {
        if let Some(excludes) = &found.settings.extend_exclude {
            operands.exclude.extend(excludes.value.iter().cloned());
        }
    }
    Ok(operands)
}

/// The settings of each of `files`, in order; the first unusable settings file stops it (its
/// problems, shown).
fn for_each(files: &[PathBuf], finder: &Finder) -> Result<Vec<Option<Arc<Found>>>, String> {
    files
        .iter()
        .map(|path| finder.for_document(path).map_err(|e| e.to_string()))
        .collect()
}

/// The import root: `--root` when given, else the settings' `root`, else none (found from the
/// file).
pub fn root_for(explicit: Option<&Path>, found: Option<&Found>) -> Option<PathBuf> {
    explicit
        .map(Path::to_path_buf)
        .or_else(|| found.and_then(Found::root))
}

/// `diagnostics` of the file at `path` as its settings (if any) want them.
pub fn applied(
    found: Option<&Found>,
    path: &Path,
    diagnostics: Vec<logicmd::Diagnostic>,
) -> Vec<logicmd::Diagnostic> {
    match found {
        Some(found) => found.apply(path, diagnostics),
        None => diagnostics,
    }
}

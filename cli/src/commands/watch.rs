//! `logicmd watch [PATH...]`: lint, then lint again whatever changes — a document, a file a
//! document imports (and so every document that imports it), a settings file (everything) —
//! after the changes settle (debounced). `--fix` fixes as it goes; a file is re-checked only when
//! its contents changed since it was last checked, so the fixes' own writes start no new round.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use notify::RecursiveMode;
use notify_debouncer_mini::{new_debouncer, DebounceEventResult};

use super::{front, lint};
use crate::config::{self, Finder};
use crate::{discover, EXIT_USAGE};

#[derive(clap::Args)]
pub struct WatchArgs {
    #[command(flatten)]
    lint: lint::Args,
    /// Clear the screen before each new report.
    #[arg(long)]
    clear: bool,
    /// How long changes must settle before they are checked, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    debounce: u64,
}

pub fn run(args: &WatchArgs) -> u8 {
    if let Some(problem) = refused(args) {
        eprintln!("error: {problem}");
        return EXIT_USAGE;
    }
    let (sender, events) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = match new_debouncer(Duration::from_millis(args.debounce), sender) {
        Ok(debouncer) => debouncer,
        Err(error) => {
            eprintln!("error: cannot watch for changes: {error}");
            return EXIT_USAGE;
        }
    };
    let mut state = State::default();
    let files = state.scan(&args.lint);
    let mut watched = BTreeSet::new();
    eprintln!(
        "watching {} file{} (Ctrl-C to stop)",
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    check(args, &files);
    state.remember_all();
    loop {
        for (dir, mode) in state.places_to_watch(&args.lint) {
            if watched.insert((dir.clone(), mode == RecursiveMode::Recursive)) {
                if let Err(error) = debouncer.watcher().watch(&dir, mode) {
                    eprintln!("warning: cannot watch {}: {error}", dir.display());
                }
            }
        }
        let changed: BTreeSet<PathBuf> = match events.recv() {
            Ok(Ok(events)) => events.into_iter().map(|event| event.path).collect(),
            Ok(Err(error)) => {
                eprintln!("warning: {error}");
                continue;
            }
            Err(_) => return crate::EXIT_OK,
        };
        let affected = state.affected(&args.lint, &changed);
        if affected.is_empty() {
            continue;
        }
        if args.clear {
            print!("\u{1b}[2J\u{1b}[H");
        }
        println!("[{}] {}", clock(), affected.headline);
        if !affected.files.is_empty() {
            check(args, &affected.files);
        }
        state.remember(&affected.seen);
    }
}

/// Options that make no sense while watching.
fn refused(args: &WatchArgs) -> Option<&'static str> {
    let operands = args.lint.operands();
    if operands.paths.iter().any(|p| p == "-") {
        return Some("standard input cannot be watched");
    }
    if args.lint.is_not_a_check() {
        return Some("watch checks files: --rules and --diff are `logicmd lint`'s");
    }
    None
}

fn check(args: &WatchArgs, files: &[String]) {
    lint::run(&args.lint.on(files.to_vec()));
}

/// What the last round knew.
#[derive(Default)]
struct State {
    /// The documents found, as shown (discovery's names), by canonical path.
    documents: BTreeMap<PathBuf, String>,
    /// What each document reads, canonical.
    dependencies: HashMap<PathBuf, Vec<PathBuf>>,
    /// A hash of each document's and dependency's contents when last checked.
    contents: HashMap<PathBuf, u64>,
}

/// What a round re-checks, and how it says why.
struct Affected {
    headline: String,
    files: Vec<String>,
    /// The files whose contents this round took in (remembered once it is checked).
    seen: Vec<PathBuf>,
}

impl Affected {
    fn is_empty(&self) -> bool {
        self.headline.is_empty()
    }
}

impl State {
    /// Discovers the documents and what each reads; their names, in discovery order.
    fn scan(&mut self, lint: &lint::Args) -> Vec<String> {
        let finder = Finder::default();
        let operands = config::with_project_excludes(lint.operands(), &finder)
            .unwrap_or_else(|_| lint.operands().clone());
        let (files, problems) = discover::files(&operands);
        for problem in problems.iter().filter(|p| p.is_error()) {
            eprintln!("{}", problem.line());
        }
        self.documents.clear();
        self.dependencies.clear();
        let mut names = Vec::new();
        for path in files {
            let name = super::each_file::display_name(&path);
            let Ok(canonical) = path.canonicalize() else {
                continue;
            };
            let bytes = std::fs::read(&path).unwrap_or_default();
            let found = finder.for_document(&path).ok().flatten();
            let root = config::root_for(lint.root(), found.as_deref());
            let reads = front::dependencies_of(&path, &bytes, root.as_deref());
            self.dependencies.insert(canonical.clone(), reads);
            self.documents.insert(canonical, name.clone());
            names.push(name);
        }
        names
    }

    /// Records the contents every document and dependency has now (after the first check).
    fn remember_all(&mut self) {
        let paths: Vec<PathBuf> = self
            .documents
            .keys()
            .chain(self.dependencies.values().flatten())
            .cloned()
            .collect();
        self.remember(&paths);
    }

    /// Records the contents `paths` have now: what was just checked (and what `--fix` wrote),
    /// so only a later edit counts as a change.
    fn remember(&mut self, paths: &[PathBuf]) {
        for path in paths {
            match std::fs::read(path) {
                Ok(bytes) => self.contents.insert(path.clone(), hash(&bytes)),
                Err(_) => self.contents.remove(path),
            };
        }
    }

    /// Whether `path` is a file a round cares about: a document (known or new), a file a
    /// document reads, or a settings file.
    fn concerns(&self, path: &Path) -> bool {
        self.documents.contains_key(path)
            || self.dependencies.values().flatten().any(|d| d == path)
            || path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| logicmd::config::FileKind::of(n).is_some())
    }

    /// The directories to watch: the operands (recursively), and the directory of every file a
    /// document reads and of the settings that apply here.
    fn places_to_watch(&self, lint: &lint::Args) -> Vec<(PathBuf, RecursiveMode)> {
        let mut places: Vec<(PathBuf, RecursiveMode)> = Vec::new();
        for operand in &lint.operands().paths {
            let path = Path::new(operand);
            if path.is_dir() {
                places.push((path.to_path_buf(), RecursiveMode::Recursive));
            } else if let Ok(parent) = config::start_of(path).canonicalize() {
                places.push((parent, RecursiveMode::NonRecursive));
            }
        }
        for dependency in self.dependencies.values().flatten() {
            if let Some(parent) = dependency.parent() {
                places.push((parent.to_path_buf(), RecursiveMode::NonRecursive));
            }
        }
        if let Ok(Some(found)) = Finder::default().for_directory(Path::new(".")) {
            places.push((found.dir.clone(), RecursiveMode::NonRecursive));
        }
        places
    }

    /// What `changed` means: the documents to check again and the line that says why.
    fn affected(&mut self, lint: &lint::Args, changed: &BTreeSet<PathBuf>) -> Affected {
        let before: BTreeMap<PathBuf, String> = self.documents.clone();
        let names = self.scan(lint);
        let after: BTreeSet<PathBuf> = self.documents.keys().cloned().collect();
        let removed: Vec<String> = before
            .iter()
            .filter(|(path, _)| !after.contains(*path))
            .map(|(_, shown)| shown.clone())
            .collect();
        // A file counts as changed when its contents differ from the last check (or it is new);
        // reading a file, or writing what it already holds, is no change.
        let edited: BTreeSet<PathBuf> = changed
            .iter()
            .filter_map(|path| path.canonicalize().ok())
            .filter(|path| self.concerns(path))
            .filter(|path| {
                let known = self.contents.get(path);
                let now = std::fs::read(path).ok().map(|bytes| hash(&bytes));
                now.is_some() && now.as_ref() != known
            })
            .collect();
        let settings = edited.iter().any(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| logicmd::config::FileKind::of(n).is_some())
        });
        // Files gone since the last check: what read them is checked again.
        let deleted: Vec<PathBuf> = changed
            .iter()
            .filter(|path| !path.exists() && self.contents.contains_key(*path))
            .cloned()
            .collect();
        let mut again: BTreeSet<PathBuf> = BTreeSet::new();
        for path in edited.iter().chain(&deleted) {
            if self.documents.contains_key(path) {
                again.insert(path.clone());
            }
            for (document, reads) in &self.dependencies {
                if reads.contains(path) {
                    again.insert(document.clone());
                }
            }
        }
        let mut reasons: Vec<String> = edited.iter().map(|p| self.shown(p)).collect();
        reasons.extend(removed.iter().map(|p| format!("{p} (removed)")));
        reasons.extend(
            deleted
                .iter()
                .filter(|p| !before.contains_key(*p))
                .map(|p| format!("{} (removed)", relative_to_cwd(p))),
        );
        if settings {
            reasons.push("settings".to_owned());
            again.extend(after.iter().cloned());
        }
        if reasons.is_empty() {
            return Affected {
                headline: String::new(),
                files: Vec::new(),
                seen: Vec::new(),
            };
        }
        let files: Vec<String> = names
            .into_iter()
            .filter(|name| {
                self.documents
                    .iter()
                    .any(|(path, shown)| shown == name && again.contains(path))
            })
            .collect();
        Affected {
            headline: format!(
                "changed: {}; checking {} file{}",
                reasons.join(", "),
                files.len(),
                if files.len() == 1 { "" } else { "s" }
            ),
            files,
            seen: again
                .iter()
                .flat_map(|document| {
                    let reads = self.dependencies.get(document).cloned().unwrap_or_default();
                    std::iter::once(document.clone()).chain(reads)
                })
                .chain(edited)
                .chain(deleted)
                .collect(),
        }
    }

    /// A path as discovery shows it, else as it is.
    fn shown(&self, path: &Path) -> String {
        self.documents
            .get(path)
            .cloned()
            .unwrap_or_else(|| relative_to_cwd(path))
    }
}

fn relative_to_cwd(path: &Path) -> String {
    let cwd = std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .unwrap_or_default();
    path.strip_prefix(&cwd)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn hash(bytes: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// The time of day, UTC, `HH:MM:SS`.
fn clock() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let day = seconds % 86_400;
    format!("{:02}:{:02}:{:02}", day / 3600, day % 3600 / 60, day % 60)
}

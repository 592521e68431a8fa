//! The files an editor works on: the open ones (their texts as typed, ahead of the disk) over
//! the project's other files, each file's analysis made on first use and kept until its text
//! or a file it loads changes, and who loads whom, so a change re-checks its importers.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::Value;

use logicmd::analysis::{self, Depth, Kind, Options, Parsed};
use logicmd::diagnostic::{has_errors, sort_diagnostics, Diagnostic};
use logicmd::document::Document;
use logicmd::limits::Limits;
use logicmd::loader::{LoadError, Loader};
use logicmd::source::Span;

use crate::files::ProjectFiles;
use crate::symbols::Symbols;

/// One file's parse: what every position query reads.
#[derive(Debug)]
pub struct FileAnalysis {
    /// The file's id.
    pub id: String,
    /// Its text.
    pub text: Arc<str>,
    /// The kind it was taken for (its id's extension decides first, as in the CLI).
    pub kind: Kind,
    /// The parse; `None` when the text does not parse.
    pub parsed: Option<Parsed>,
    /// What parsing found.
    pub parse_problems: Vec<Diagnostic>,
    line_index: OnceLock<logicmd::source::LineIndex>,
    symbols: OnceLock<Symbols>,
}

impl FileAnalysis {
    /// The analysis of `text`, derived from `previous` (taken back when it was not consumed).
    fn new(
        id: &str,
        text: Arc<str>,
        previous: Option<Arc<FileAnalysis>>,
    ) -> (FileAnalysis, Option<Arc<FileAnalysis>>) {
        let options = options(id);
        let (reparsed, previous) = match previous {
            Some(previous) => reparse(previous, &text),
            None => (None, None),
        };
        let (kind, parsed, parse_problems) = match reparsed {
            Some(document) => (
                Kind::Logic,
                Some(Parsed::Logic(Arc::new(document))),
                Vec::new(),
            ),
            None => analysis::parse_shared(&text, &options),
        };
        let made = FileAnalysis {
            id: id.to_owned(),
            text,
            kind,
            parsed,
            parse_problems,
            line_index: OnceLock::new(),
            symbols: OnceLock::new(),
        };
        (made, previous)
    }

    /// The LOGIC.md document, when the file is one and parses.
    pub fn document(&self) -> Option<&Document> {
        match &self.parsed {
            Some(Parsed::Logic(document)) => Some(document),
            _ => None,
        }
    }

    /// The DRTL topology, when the file is one and parses.
    pub fn topology(&self) -> Option<&logicmd::drtl::Topology> {
        match &self.parsed {
            Some(Parsed::Drtl(topology)) => Some(topology),
            _ => None,
        }
    }

    /// The parsed file's tree, text and lines, whichever kind it is.
    pub fn source(&self) -> Option<&dyn logicmd::schema::Source> {
        match &self.parsed {
            Some(Parsed::Logic(document)) => Some(&**document),
            Some(Parsed::Drtl(topology)) => Some(&**topology),
            None => None,
        }
    }

    /// The data as JSON, when the file parses: a LOGIC.md document's made for this call from
    /// its tree (a view kept per open document doubled the server's memory; position queries
    /// read [`FileAnalysis::json_at`]), a DRTL topology's borrowed.
    pub fn json(&self) -> Option<Cow<'_, Value>> {
        match self.parsed.as_ref()? {
            Parsed::Logic(document) => Some(document.json_for_call()),
            Parsed::Drtl(topology) => Some(Cow::Borrowed(topology.json())),
        }
    }

    /// The JSON of the value at `pointer`, when the file parses and has one there: only that
    /// value is made (from a LOGIC.md document's tree).
    pub fn json_at(&self, pointer: &str) -> Option<Cow<'_, Value>> {
        match self.parsed.as_ref()? {
            Parsed::Logic(document) => logicmd::json::node_at(document.root(), pointer)
                .map(|node| Cow::Owned(logicmd::json::to_json(node))),
            Parsed::Drtl(topology) => topology.json().pointer(pointer).map(Cow::Borrowed),
        }
    }

    /// Lines of the text.
    pub fn line_index(&self) -> &logicmd::source::LineIndex {
        match self.source() {
            Some(source) => source.line_index(),
            None => self
                .line_index
                .get_or_init(|| logicmd::source::LineIndex::new(&self.text)),
        }
    }

    /// What the file defines and refers to, with places (made on first use).
    pub fn symbols(&self) -> &Symbols {
        self.symbols.get_or_init(|| Symbols::of(self))
    }
}

/// The next parse from the previous one without parsing, when the edit stays inside one value:
/// the previous document changed in place when nothing else holds it (a copy of a large
/// document's tree and JSON costs more than parsing it again), else copied. The previous
/// analysis comes back when it was not consumed.
fn reparse(
    previous: Arc<FileAnalysis>,
    text: &Arc<str>,
) -> (Option<Document>, Option<Arc<FileAnalysis>>) {
    let mut owned = match Arc::try_unwrap(previous) {
        Ok(owned) => owned,
        Err(shared) => {
            let document = shared.document().and_then(|d| d.reparse_shared(text));
            return (document, Some(shared));
        }
    };
    let Some(Parsed::Logic(document)) = owned.parsed.take() else {
        return (None, Some(Arc::new(owned)));
    };
    match Arc::try_unwrap(document) {
        Ok(document) => match document.reparse_shared_owned(text) {
            Ok((next, _)) => (Some(next), None),
            Err(document) => {
                owned.parsed = Some(Parsed::Logic(Arc::new(document)));
                (None, Some(Arc::new(owned)))
            }
        },
        Err(shared) => {
            let next = shared.reparse_shared(text);
            owned.parsed = Some(Parsed::Logic(shared));
            (next, Some(Arc::new(owned)))
        }
    }
}

fn options(id: &str) -> Options<'_> {
    Options {
        path: Some(id),
        id,
        depth: Depth::Lint,
        limits: Limits::DEFAULT,
    }
}

/// The diagnostics of a file and the files they were found with.
#[derive(Debug, Clone)]
struct Checked {
    diagnostics: Arc<[Diagnostic]>,
    /// Every file loaded while checking (imports, workflow nodes, transitively).
    loaded: Vec<String>,
}

struct OpenFile {
    text: Arc<str>,
    analysis: Option<Arc<FileAnalysis>>,
    /// The previous analysis, kept while the current one is not made yet: the next parse may be
    /// derived from it.
    previous: Option<Arc<FileAnalysis>>,
    /// While the text does not parse, the last analysis that did: names to complete from.
    last_good: Option<Arc<FileAnalysis>>,
    checked: Option<Checked>,
}

/// The open files over the project's files.
pub struct Workspace {
    files: Arc<dyn ProjectFiles>,
    open: FxHashMap<String, OpenFile>,
    /// Analyses of files that are not open (imported, named by `logic_ref`), until they change.
    closed: RefCell<FxHashMap<String, Arc<FileAnalysis>>>,
}

impl Workspace {
    /// A workspace reading files that are not open from `files`.
    pub fn new(files: Arc<dyn ProjectFiles>) -> Workspace {
        Workspace {
            files,
            open: FxHashMap::default(),
            closed: RefCell::new(FxHashMap::default()),
        }
    }

    /// The project's files (for listing directories).
    pub fn files(&self) -> &dyn ProjectFiles {
        &*self.files
    }

    /// Opens (or replaces) the file `id` with `text`. Returns the open files whose diagnostics
    /// may have changed (the file and those that load it).
    pub fn open(&mut self, id: &str, text: String) -> Vec<String> {
        let (previous, last_good) = match self.open.remove(id) {
            Some(file) => (file.analysis.or(file.previous), file.last_good),
            None => (None, None),
        };
        self.open.insert(
            id.to_owned(),
            OpenFile {
                text: Arc::from(text),
                analysis: None,
                previous,
                last_good,
                checked: None,
            },
        );
        self.changed(id)
    }

    /// Replaces `span` of the open file `id` by `text` (an editor's incremental change).
    /// Returns the open files whose diagnostics may have changed; `Err` when the file is not
    /// open or the span is not inside its text on character boundaries.
    pub fn edit(&mut self, id: &str, span: Span, text: &str) -> Result<Vec<String>, String> {
        let file = self
            .open
            .get_mut(id)
            .ok_or_else(|| format!("`{id}` is not open"))?;
        let old = &file.text;
        if span.start > span.end
            || span.end > old.len()
            || !old.is_char_boundary(span.start)
            || !old.is_char_boundary(span.end)
        {
            return Err(format!(
                "the range {}..{} is not inside `{id}` ({} bytes) on character boundaries",
                span.start,
                span.end,
                old.len()
            ));
        }
        let mut new = String::with_capacity(old.len() + text.len());
        new.push_str(&old[..span.start]);
        new.push_str(text);
        new.push_str(&old[span.end..]);
        file.text = Arc::from(new);
        if let Some(analysis) = file.analysis.take() {
            file.previous = Some(analysis);
        }
        file.checked = None;
        Ok(self.changed(id))
    }

    /// Closes the file `id`: it is read from the project's files again. Returns the open files
    /// whose diagnostics may have changed (those that load it).
    pub fn close(&mut self, id: &str) -> Vec<String> {
        self.open.remove(id);
        let mut affected = self.changed(id);
        affected.retain(|other| other != id);
        affected
    }

    /// A file changed on disk (created, changed or deleted). Returns the open files whose
    /// diagnostics may have changed.
    pub fn changed_on_disk(&mut self, id: &str) -> Vec<String> {
        if self.open.contains_key(id) {
            // The editor's text wins over the disk while the file is open.
            return Vec::new();
        }
        self.changed(id)
    }

    /// Forgets what depended on `id`; the open files that did, and `id` itself when open.
    fn changed(&mut self, id: &str) -> Vec<String> {
        self.closed.get_mut().remove(id);
        let mut affected = Vec::new();
        for (other, file) in &mut self.open {
            let loads = file
                .checked
                .as_ref()
                .is_some_and(|checked| checked.loaded.iter().any(|l| l == id));
            if other == id || loads {
                file.checked = None;
                affected.push(other.clone());
            }
        }
        affected.sort();
        affected
    }

    /// Ids of the open files, sorted.
    pub fn open_files(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.open.keys().cloned().collect();
        ids.sort();
        ids
    }

    /// The files that may name `home`'s steps: the open ones, and the project's LOGIC.md files
    /// whose text names `home`'s file, or the file of one that does (imports through imports),
    /// without `home` itself. Those not open are read, not parsed: most projects are mostly
    /// files that import nothing of `home`.
    /// With them, why the project's walk stopped early, when it did.
    /// Each comes with its text when it is not open (read once here, analysed from it).
    pub(crate) fn possible_importers(&self, home: &str) -> (Vec<PossibleImporter>, Option<String>) {
        let mut found: Vec<PossibleImporter> = self
            .open_files()
            .into_iter()
            .filter(|id| id != home)
            .map(|id| (id, None))
            .collect();
        // An open file may import `home`: one that names it may be imported in turn.
        let mut names: Vec<String> = std::iter::once(home)
            .chain(found.iter().map(|(id, _)| id.as_str()))
            .map(|id| file_name(id).to_owned())
            .collect();
        let documents = self.files.logic_md_documents();
        let mut rest: Vec<(String, Arc<str>)> = documents
            .ids
            .into_iter()
            .filter(|id| id != home && !self.open.contains_key(id))
            .filter_map(|id| self.text(&id).map(|text| (id, text)))
            .collect();
        for _ in 0..logicmd::imports::MAX_IMPORT_DEPTH {
            let (named, unnamed): (Vec<_>, Vec<_>) = rest
                .into_iter()
                .partition(|(_, text)| names.iter().any(|name| text.contains(name.as_str())));
            rest = unnamed;
            if named.is_empty() {
                break;
            }
            for (id, text) in named {
                names.push(file_name(&id).to_owned());
                found.push((id, Some(text)));
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        (found, documents.cut)
    }

    /// The current text of `id`: the editor's when open, else the project's file.
    pub fn text(&self, id: &str) -> Option<Arc<str>> {
        match self.open.get(id) {
            Some(file) => Some(Arc::clone(&file.text)),
            None => self.files.load(id).ok().map(Arc::from),
        }
    }

    /// The analysis of `id` (open, or read from the project's files).
    pub fn analysis(&mut self, id: &str) -> Option<Arc<FileAnalysis>> {
        if let Some(file) = self.open.get_mut(id) {
            if file.analysis.is_none() {
                let (made, previous) =
                    FileAnalysis::new(id, Arc::clone(&file.text), file.previous.take());
                if made.parsed.is_some() {
                    file.last_good = None;
                } else if let Some(previous) = previous.filter(|p| p.parsed.is_some()) {
                    file.last_good = Some(previous);
                }
                file.analysis = Some(Arc::new(made));
            }
            return file.analysis.clone();
        }
        self.closed_analysis(id)
    }

    /// The most recent analysis of `id` that parsed, without analysing the text as it is now
    /// when one of the text a keystroke or so before is at hand: completion takes names and
    /// schemas from it, and reads where the cursor is from the text itself. *Why:* analysing
    /// 5,000 steps after each keystroke took 8 ms before the list could be made; the analysis
    /// of the new text comes with its diagnostics a moment later.
    pub fn recent_parsed(&mut self, id: &str) -> Option<Arc<FileAnalysis>> {
        if let Some(file) = self.open.get(id) {
            let parsed = |a: &&Arc<FileAnalysis>| a.parsed.is_some();
            let recent = file
                .analysis
                .as_ref()
                .filter(parsed)
                .or(file.previous.as_ref().filter(parsed))
                .or(file.last_good.as_ref());
            if let Some(recent) = recent {
                return Some(Arc::clone(recent));
            }
        }
        self.last_parsed(id)
    }

    /// The analysis of `id` when its text parses, else the last one that did (names and
    /// schemas to complete from while a person types).
    pub fn last_parsed(&mut self, id: &str) -> Option<Arc<FileAnalysis>> {
        let current = self.analysis(id)?;
        if current.parsed.is_some() {
            return Some(current);
        }
        self.open
            .get(id)
            .and_then(|file| file.last_good.clone())
            .or(Some(current))
    }

    /// The analysis of the file `id` that is not open, of `text` just read, for one answer: the
    /// kept one when it is of that text, else one made and not kept (the project's importers a
    /// rename reads are many, and only read once).
    pub(crate) fn passing_analysis(&self, id: &str, text: Arc<str>) -> Arc<FileAnalysis> {
        if let Some(kept) = self.closed.borrow().get(id) {
            if *kept.text == *text {
                return Arc::clone(kept);
            }
        }
        Arc::new(FileAnalysis::new(id, text, None).0)
    }

    /// The analysis of a file that is not open, of its text as it is now: kept while the file
    /// reads the same. *Why:* not every client reports changes on disk, and an answer placed by
    /// an old text's offsets in the new one corrupts it (a rename wrote into the middle of a
    /// description); reading a file is cheap beside parsing it.
    fn closed_analysis(&self, id: &str) -> Option<Arc<FileAnalysis>> {
        let text = self.files.load(id).ok()?;
        if let Some(found) = self.closed.borrow().get(id) {
            if *found.text == *text {
                return Some(Arc::clone(found));
            }
        }
        let made = Arc::new(FileAnalysis::new(id, Arc::from(text), None).0);
        self.closed
            .borrow_mut()
            .insert(id.to_owned(), Arc::clone(&made));
        Some(made)
    }

    /// The analysis of another file, for following a reference into it (never re-parses an
    /// open file's stale analysis: the open file's current analysis is made when needed).
    pub(crate) fn other_analysis(&mut self, id: &str) -> Option<Arc<FileAnalysis>> {
        self.analysis(id)
    }

    /// The loader that reads the open files' texts first, then the project's files.
    pub fn loader(&self) -> impl Loader + '_ {
        Overlay {
            workspace: self,
            loaded: RefCell::new(Vec::new()),
        }
    }

    /// Every problem of `id`, exactly as `logicmd lint` reports them (and, for a DRTL topology
    /// without errors, `logicmd check`'s findings too).
    pub fn raw_diagnostics(&mut self, id: &str) -> Arc<[Diagnostic]> {
        if let Some(checked) = self.open.get(id).and_then(|f| f.checked.as_ref()) {
            return Arc::clone(&checked.diagnostics);
        }
        let Some(analysis) = self.analysis(id) else {
            return Arc::from(Vec::new());
        };
        let overlay = Overlay {
            workspace: self,
            loaded: RefCell::new(Vec::new()),
        };
        let diagnostics: Arc<[Diagnostic]> = Arc::from(check(&analysis, &overlay));
        let mut loaded = overlay.loaded.into_inner();
        loaded.sort();
        loaded.dedup();
        if let Some(file) = self.open.get_mut(id) {
            file.checked = Some(Checked {
                diagnostics: Arc::clone(&diagnostics),
                loaded,
            });
        }
        diagnostics
    }

    /// The diagnostics of `id` placed for an editor (tags, related places).
    pub fn diagnostics(&mut self, id: &str) -> Vec<crate::diagnostics::IdeDiagnostic> {
        let raw = self.raw_diagnostics(id);
        match self.analysis(id) {
            Some(file) => crate::diagnostics::placed(&file, &raw),
            None => Vec::new(),
        }
    }

    /// The ids `id` loaded when it was last checked (imports and workflow nodes, transitively).
    pub fn loaded_by(&self, id: &str) -> Vec<String> {
        self.open
            .get(id)
            .and_then(|file| file.checked.as_ref())
            .map(|checked| checked.loaded.clone())
            .unwrap_or_default()
    }

    /// The open files that load `id` (as of their last check).
    pub fn importers_of(&self, id: &str) -> Vec<String> {
        let mut found: FxHashSet<&String> = FxHashSet::default();
        for (other, file) in &self.open {
            if file
                .checked
                .as_ref()
                .is_some_and(|c| c.loaded.iter().any(|l| l == id))
            {
                found.insert(other);
            }
        }
        let mut ids: Vec<String> = found.into_iter().cloned().collect();
        ids.sort();
        ids
    }
}

/// A file that may import another: its id, and its text when it is not open.
pub(crate) type PossibleImporter = (String, Option<Arc<str>>);

/// The last part of a path-like id.
fn file_name(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// The problems of one analysed file: parse, schema, lint (imports through `loader`) and, for
/// a DRTL topology that has no error, the obligation analysis.
fn check(file: &FileAnalysis, loader: &dyn Loader) -> Vec<Diagnostic> {
    let mut diagnostics = file.parse_problems.clone();
    if let Some(parsed) = &file.parsed {
        diagnostics.extend(analysis::check(parsed, &options(&file.id), loader));
        if let Parsed::Drtl(topology) = parsed {
            if !has_errors(&diagnostics) {
                diagnostics.extend(logicmd::check::topology_diagnostics(topology));
            }
        }
    }
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

/// Open texts first, then the project's files; records every id loaded.
struct Overlay<'w> {
    workspace: &'w Workspace,
    loaded: RefCell<Vec<String>>,
}

impl Loader for Overlay<'_> {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        self.workspace.files.resolve(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        self.loaded.borrow_mut().push(id.to_owned());
        match self.workspace.open.get(id) {
            Some(file) => Ok(file.text.to_string()),
            None => self.workspace.files.load(id),
        }
    }
}

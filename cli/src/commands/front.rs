//! The CLI's way into core's front door (`logicmd::analysis`): a file's bytes, its path and the
//! loader placed for it become one `Analysis`, the same one the npm package and the studio get.

use std::path::Path;

use logicmd::analysis::{
    analyze_bytes, compile_text, obligations, Analysis, Compiled, Depth, Options, DEFAULT_ID,
};
use logicmd::fix::{fix_selected, Fixed, Safety};
use logicmd::loader::{Loader, MemoryLoader};
use logicmd::{Diagnostic, Limits};

use crate::fs_loader::{FsLoader, Placed};

/// The text diagnostics point into: the parsed document's, or the raw bytes when it did not parse.
pub fn text_of(analysis: &Analysis, bytes: &[u8]) -> String {
    analysis.parsed.as_ref().map_or_else(
        || String::from_utf8_lossy(bytes).into_owned(),
        |parsed| parsed.text().to_owned(),
    )
}

/// Where a document's imports come from: the loader placed for `path` and the document's id in
/// it, or, when no root can be opened, nothing (and why).
struct Place {
    id: String,
    loader: Box<dyn Loader>,
    problem: Option<Diagnostic>,
}

fn place(path: &Path, root: Option<&Path>) -> Place {
    match FsLoader::place(path, root) {
        Ok(Placed { loader, id }) => Place {
            id,
            loader: Box::new(loader),
            problem: None,
        },
        Err(error) => Place {
            id: DEFAULT_ID.to_owned(),
            loader: Box::new(MemoryLoader::new()),
            problem: Some(Diagnostic::error("io-error", error.message)),
        },
    }
}

fn options<'a>(path: &'a str, id: &'a str, depth: Depth) -> Options<'a> {
    Options {
        path: (path != "-").then_some(path),
        id,
        depth,
        limits: Limits::DEFAULT,
    }
}

/// Analyses the bytes read from `path` to `depth`; at lint depth imports resolve inside the root
/// placed for the file (`root`, else found from the file; standard input sits in the working
/// directory).
pub fn analyze_file(path: &Path, bytes: &[u8], depth: Depth, root: Option<&Path>) -> Analysis {
    let name = path.to_string_lossy();
    if depth == Depth::Validate {
        return analyze_bytes(
            bytes,
            &options(&name, DEFAULT_ID, depth),
            &MemoryLoader::new(),
        );
    }
    let place = place(path, root);
    let mut analysis = analyze_bytes(bytes, &options(&name, &place.id, depth), &*place.loader);
    analysis.diagnostics.splice(0..0, place.problem);
    analysis
}

/// The most fixes `lint --fix` applies to one file (each is followed by a fresh analysis).
pub(crate) const FIX_LIMIT: usize = 200;

/// Core's fixes of at most `safety` (`logicmd::fix::fix_all`, the language server's quick fixes)
/// for the diagnostics `selected` keeps, applied to `text` read from `path`, analysed at lint depth with imports placed as for
/// [`analyze_file`]; nothing is fixed when no root can be opened (lint then says why).
pub fn fix_file(
    path: &Path,
    text: &str,
    root: Option<&Path>,
    safety: Safety,
    selected: &dyn Fn(&Diagnostic) -> bool,
) -> Fixed {
    let name = path.to_string_lossy();
    let place = place(path, root);
    if place.problem.is_some() {
        return Fixed {
            text: text.to_owned(),
            applied: Vec::new(),
        };
    }
    let options = options(&name, &place.id, Depth::Lint);
    fix_selected(text, &options, &*place.loader, safety, FIX_LIMIT, selected)
}

/// The obligation analysis of the bytes read from `path` (imports placed as for
/// [`analyze_file`]).
pub fn obligations_of_file(path: &Path, bytes: &[u8], root: Option<&Path>) -> Analysis {
    let name = path.to_string_lossy();
    let place = place(path, root);
    let options = options(&name, &place.id, Depth::Validate);
    let mut analysis = match logicmd::document::text_of_bytes(bytes, Limits::DEFAULT) {
        Ok(text) => obligations(text, &options, &*place.loader).analysis,
        // Not UTF-8, or too large: the front door says which.
        Err(_) => analyze_bytes(bytes, &options, &MemoryLoader::new()),
    };
    analysis.diagnostics.splice(0..0, place.problem);
    analysis
}

/// Compiles the text read from `path` (refused on any lint error), imports placed as for
/// [`analyze_file`].
pub fn compile_file(path: &Path, text: &str, root: Option<&Path>) -> Compiled {
    let name = path.to_string_lossy();
    let place = place(path, root);
    let mut compiled = compile_text(
        text,
        &options(&name, &place.id, Depth::Lint),
        &*place.loader,
    );
    if let Some(problem) = place.problem {
        compiled.analysis.diagnostics.insert(0, problem);
        compiled.workflow = None;
    }
    compiled
}

/// What a run of the text read from `path` needs (`logicmd::run::prepare_reporting`: no error
/// that stops a run, imports merged, workflow nodes and prompt files loaded) and the errors the
/// run can do without, with the loader placed as for [`analyze_file`].
pub fn prepare_run(
    path: &Path,
    text: &str,
    root: Option<&Path>,
) -> Result<logicmd::run::Prepared, Vec<Diagnostic>> {
    let name = path.to_string_lossy();
    let place = place(path, root);
    if let Some(problem) = place.problem {
        return Err(vec![problem]);
    }
    logicmd::run::prepare_reporting(
        text,
        &options(&name, &place.id, Depth::Lint),
        &*place.loader,
    )
}

/// Routes `input` through decision tree `tree` of the text read from `path`
/// (`logicmd::analysis::eval_tree`: refused on any lint error), imports placed as for
/// [`analyze_file`].
pub fn eval_tree_file(
    path: &Path,
    text: &str,
    root: Option<&Path>,
    tree: &str,
    input: &serde_json::Value,
) -> Result<logicmd::trees::TreeOutcome, Vec<Diagnostic>> {
    let name = path.to_string_lossy();
    let place = place(path, root);
    if let Some(problem) = place.problem {
        return Err(vec![problem]);
    }
    logicmd::analysis::eval_tree(
        text,
        &options(&name, &place.id, Depth::Lint),
        &*place.loader,
        tree,
        input,
    )
}

/// The graph of the bytes read from `path` (`logicmd::analysis::graph`, at validate depth),
/// workflow nodes loaded through the loader placed as for [`analyze_file`].
pub fn graph_file(path: &Path, bytes: &[u8], root: Option<&Path>) -> logicmd::analysis::Graphed {
    let name = path.to_string_lossy();
    let place = place(path, root);
    let options = options(&name, &place.id, Depth::Validate);
    let mut graphed = match logicmd::document::text_of_bytes(bytes, Limits::DEFAULT) {
        Ok(text) => logicmd::analysis::graph(text, &options, &*place.loader),
        // Not UTF-8, or too large: the front door says which.
        Err(_) => logicmd::analysis::Graphed {
            analysis: analyze_bytes(bytes, &options, &MemoryLoader::new()),
            graph: None,
        },
    };
    graphed.analysis.diagnostics.splice(0..0, place.problem);
    graphed
}

/// The files the document read from `path` reads while it is linted (imports, workflow nodes'
/// documents, prompt files), canonical, with the loader placed as for [`analyze_file`]; empty
/// when no root can be opened.
pub fn dependencies_of(path: &Path, bytes: &[u8], root: Option<&Path>) -> Vec<std::path::PathBuf> {
    let Ok(Placed { loader, id }) = FsLoader::place(path, root) else {
        return Vec::new();
    };
    let recording = Recording {
        inner: &loader,
        loaded: std::sync::Mutex::new(Vec::new()),
    };
    let name = path.to_string_lossy();
    let _ = analyze_bytes(bytes, &options(&name, &id, Depth::Lint), &recording);
    let loaded = recording
        .loaded
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    loaded
        .iter()
        .filter_map(|id| loader.root().join(id).canonicalize().ok())
        .collect()
}

/// A loader that remembers the ids it was asked for.
struct Recording<'a> {
    inner: &'a dyn Loader,
    loaded: std::sync::Mutex<Vec<String>>,
}

impl Loader for Recording<'_> {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, logicmd::loader::LoadError> {
        self.inner.resolve(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, logicmd::loader::LoadError> {
        if let Ok(mut loaded) = self.loaded.lock() {
            loaded.push(id.to_owned());
        }
        self.inner.load(id)
    }
}

//! Go to definition, find references, document highlights: steps and nodes, decision-tree
//! `next`, imported names (`alias.step`) into the imported file, workflow nodes' `logic_ref`
//! and imports' `ref` to the files they name.

use std::sync::Arc;

use logicmd::source::Span;
use serde::Serialize;

use crate::symbols::{Definition, SymbolKind};
use crate::workspace::{FileAnalysis, Workspace};
use crate::Location;

/// The definition and the file it is in, for the name under the cursor.
pub(crate) fn target(
    workspace: &mut Workspace,
    file: &Arc<FileAnalysis>,
    offset: usize,
) -> Option<(Arc<FileAnalysis>, Definition)> {
    let symbols = file.symbols();
    if let Some(definition) = symbols.definition_at(offset) {
        return Some((Arc::clone(file), definition.clone()));
    }
    let reference = symbols.reference_at(offset)?;
    if let Some(definition) = symbols.resolve(reference) {
        return Some((Arc::clone(file), definition.clone()));
    }
    imported(workspace, file, &reference.name)
}

/// The step an imported name (`alias.step`, or `a.b.step` through nested imports) names, in
/// the file that defines it.
pub(crate) fn imported(
    workspace: &mut Workspace,
    file: &FileAnalysis,
    name: &str,
) -> Option<(Arc<FileAnalysis>, Definition)> {
    let mut current_id = file.id.clone();
    let mut current_refs = file.symbols().files.clone();
    let mut rest = name;
    for _ in 0..logicmd::imports::MAX_IMPORT_DEPTH {
        let (alias, tail) = rest.split_once('.')?;
        let import = current_refs
            .iter()
            .find(|f| f.alias.as_deref() == Some(alias))?;
        let id = workspace
            .files()
            .resolve(&current_id, &import.reference)
            .ok()?;
        let target = workspace.other_analysis(&id)?;
        if let Some(definition) = target.symbols().definition(SymbolKind::Step, tail) {
            return Some((Arc::clone(&target), definition.clone()));
        }
        current_id = id;
        current_refs = target.symbols().files.clone();
        rest = tail;
    }
    None
}

/// Where the name (or file reference) at `offset` of `id` is defined.
pub fn definition(workspace: &mut Workspace, id: &str, offset: usize) -> Vec<Location> {
    let Some(file) = workspace.analysis(id) else {
        return Vec::new();
    };
    // A file reference, or a workflow node's own name: the file it names or runs.
    let named_node = file
        .symbols()
        .definition_at(offset)
        .filter(|d| d.kind == SymbolKind::WorkflowNode)
        .and_then(|d| {
            file.symbols()
                .files
                .iter()
                .find(|f| f.node.as_deref() == Some(&d.name))
        });
    if let Some(reference) = file.symbols().file_at(offset).or(named_node) {
        let Ok(target) = workspace.files().resolve(id, &reference.reference) else {
            return Vec::new();
        };
        if workspace.text(&target).is_none() {
            return Vec::new();
        }
        return vec![Location {
            file: target,
            span: Span::empty(0),
        }];
    }
    match target(workspace, &file, offset) {
        Some((file, definition)) => vec![Location {
            file: file.id.clone(),
            span: definition.span,
        }],
        None => Vec::new(),
    }
}

/// Every place that names the thing at `offset` of `id` (its definition first when asked),
/// in this file and in the open files that import it.
pub fn references(
    workspace: &mut Workspace,
    id: &str,
    offset: usize,
    include_declaration: bool,
) -> Vec<Location> {
    let Some(file) = workspace.analysis(id) else {
        return Vec::new();
    };
    let Some((home, definition)) = target(workspace, &file, offset) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if include_declaration {
        found.push(Location {
            file: home.id.clone(),
            span: definition.span,
        });
    }
    found.extend(home.symbols().references_to(&definition).map(|r| Location {
        file: home.id.clone(),
        span: r.span,
    }));
    if definition.kind == SymbolKind::Step {
        found.extend(
            importer_uses(workspace, &home.id, &definition.name)
                .0
                .into_iter()
                .map(|(file, span)| Location {
                    file: file.id.clone(),
                    span,
                }),
        );
    }
    found
}

/// Where other files name `home`'s step `name` through their imports (`alias.name`, or
/// `outer.alias.name` through an import of an importer), open or not: each file's analysis
/// (the text the span is in) and the reference's span; and why the answer may miss some, when
/// it may (the project's walk stopped early; a file that may name it does not parse).
pub(crate) fn importer_uses(
    workspace: &mut Workspace,
    home: &str,
    name: &str,
) -> (Vec<(Arc<FileAnalysis>, Span)>, Option<String>) {
    let mut found = Vec::new();
    let (candidates, mut cut) = workspace.possible_importers(home);
    for (other, text) in candidates {
        let importer = match text {
            Some(text) => workspace.passing_analysis(&other, text),
            None => match workspace.analysis(&other) {
                Some(open) => open,
                None => continue,
            },
        };
        if importer.parsed.is_none() && cut.is_none() && importer.text.contains(&format!(".{name}"))
        {
            cut = Some(format!(
                "`{other}` does not parse, and it may name `{name}`: fix it first"
            ));
        }
        for reference in &importer.symbols().references {
            let qualified = reference.kind == SymbolKind::Step
                && reference.name.ends_with(name)
                && reference.name[..reference.name.len() - name.len()].ends_with('.');
            if !qualified {
                continue;
            }
            let names_it = imported(workspace, &importer, &reference.name)
                .is_some_and(|(file, definition)| file.id == home && definition.name == name);
            if names_it {
                found.push((Arc::clone(&importer), reference.span));
            }
        }
    }
    (found, cut)
}

/// How a highlighted place uses the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HighlightKind {
    /// It defines the name.
    Write,
    /// It reads the name.
    Read,
}

/// A place in the current file that names the thing under the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Highlight {
    /// Where.
    pub span: Span,
    /// Definition or use.
    pub kind: HighlightKind,
}

/// The places in `id` that name the thing at `offset`.
pub fn highlights(workspace: &mut Workspace, id: &str, offset: usize) -> Vec<Highlight> {
    let Some(file) = workspace.analysis(id) else {
        return Vec::new();
    };
    let symbols = file.symbols();
    let definition = match symbols.definition_at(offset) {
        Some(definition) => definition.clone(),
        None => {
            let Some(reference) = symbols.reference_at(offset) else {
                return Vec::new();
            };
            match symbols.resolve(reference) {
                Some(definition) => definition.clone(),
                None => {
                    // A name defined elsewhere (an import): its uses in this file.
                    return symbols
                        .references
                        .iter()
                        .filter(|r| r.kind == reference.kind && r.name == reference.name)
                        .map(|r| Highlight {
                            span: r.span,
                            kind: HighlightKind::Read,
                        })
                        .collect();
                }
            }
        }
    };
    std::iter::once(Highlight {
        span: definition.span,
        kind: HighlightKind::Write,
    })
    .chain(symbols.references_to(&definition).map(|r| Highlight {
        span: r.span,
        kind: HighlightKind::Read,
    }))
    .collect()
}

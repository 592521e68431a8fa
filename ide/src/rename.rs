//! Renaming a step, a decision-tree node or terminal, a workflow node or a DRTL node, with every
//! place that names it — through core's edits, so each change is verified by re-parsing and
//! the patches are minimal. A step goes through `Edit::RenameStep` (what the CLI's
//! `--rename-step` and the studio do); the places it does not cover, and the other kinds, are
//! rewritten with `Edit::ReplaceText` at exactly the name's characters.

use std::sync::Arc;

use logicmd::edit::{apply, Edit};
use logicmd::source::Span;

use crate::navigation;
use crate::symbols::{Definition, SymbolKind};
use crate::workspace::{FileAnalysis, Workspace};
use crate::{TextEdit, WorkspaceEdit};

/// The name's range and text when the thing at `offset` can be renamed, else why not. On an
/// imported name (`alias.step`) the range is the step's part: that is what changes.
pub fn prepare_rename(
    workspace: &mut Workspace,
    id: &str,
    offset: usize,
) -> Result<(Span, String), String> {
    let file = workspace.analysis(id).ok_or("the file does not parse")?;
    let symbols = file.symbols();
    let (span, written) = if let Some(definition) = symbols.definition_at(offset) {
        (definition.span, definition.name.clone())
    } else if let Some(reference) = symbols.reference_at(offset) {
        (reference.span, reference.name.clone())
    } else {
        return Err("there is no step or node name here".to_owned());
    };
    let (home, definition) = navigation::target(workspace, &file, offset)
        .ok_or_else(|| format!("`{written}` names nothing that can be renamed"))?;
    if !definition.kind.renamable() {
        return Err(format!("a {} is not renamed here", definition.kind.noun()));
    }
    let inner = unquoted(&file.text, span);
    let inner = if home.id == file.id {
        inner
    } else {
        step_part(&file.text, inner)
    };
    Ok((inner, definition.name.into()))
}

/// The edits that rename the thing at `offset` of `id` (defined there, or in a file `id`
/// imports) to `new_name`: in the file that defines it and in every file of the project that
/// names it through an import, open or not.
pub fn rename(
    workspace: &mut Workspace,
    id: &str,
    offset: usize,
    new_name: &str,
) -> Result<WorkspaceEdit, String> {
    prepare_rename(workspace, id, offset)?;
    let file = workspace.analysis(id).ok_or("the file does not parse")?;
    let (home, definition) =
        navigation::target(workspace, &file, offset).ok_or("nothing to rename here")?;
    if new_name == definition.name {
        return Ok(WorkspaceEdit::default());
    }
    check_name(&home, &definition, new_name)?;
    let own = match definition.kind {
        SymbolKind::Step => rename_step(&home, &definition, new_name)?,
        _ => replace_all(&home.text, &occurrences(&home, &definition), new_name)?,
    };
    let mut edit = WorkspaceEdit {
        changes: vec![(home.id.clone(), own)],
    };
    if definition.kind == SymbolKind::Step {
        edit.changes
            .extend(importers(workspace, &home, &definition, new_name)?);
    }
    Ok(edit)
}

/// The step's part of an imported name as written (`lib.norm` → `norm`).
fn step_part(text: &str, span: Span) -> Span {
    match text[span.start..span.end].rfind('.') {
        Some(dot) => Span::new(span.start + dot + 1, span.end),
        None => span,
    }
}

/// A new name must be a plain name (it is written as a key, in lists and in expressions) not
/// taken by another thing of its kind.
fn check_name(file: &FileAnalysis, definition: &Definition, name: &str) -> Result<(), String> {
    // Letters of any script: `café_été` is a name lint and `edit --rename-step` take.
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if !plain {
        return Err(format!(
            "`{name}` is not a plain name: start with a letter or `_`, go on with letters, digits, `_` or `-`"
        ));
    }
    let taken = file
        .symbols()
        .definitions
        .iter()
        .any(|d| d.kind == definition.kind && d.scope == definition.scope && d.name == name);
    if taken {
        return Err(format!(
            "a {} `{name}` already exists",
            definition.kind.noun()
        ));
    }
    Ok(())
}

/// The definition's name and every reference to it in its file, and its canvas position key.
fn occurrences(file: &FileAnalysis, definition: &Definition) -> Vec<Span> {
    let mut spans = vec![definition.span];
    spans.extend(file.symbols().references_to(definition).map(|r| r.span));
    spans.extend(position_key(file, &definition.name));
    spans
}

/// The key of the definition's canvas position (`metadata.logicmd.positions.NAME`).
fn position_key(file: &FileAnalysis, name: &str) -> Option<Span> {
    let source = file.source()?;
    let pointer = format!(
        "/metadata/logicmd/positions/{}",
        crate::symbols::token(name)
    );
    logicmd::json::entry_at(source.root(), &pointer).map(|entry| entry.key_span())
}

/// A span without the quotes of a quoted scalar.
fn unquoted(text: &str, span: Span) -> Span {
    let written = &text[span.start..span.end];
    let quoted = written.len() >= 2
        && (written.starts_with('"') && written.ends_with('"')
            || written.starts_with('\'') && written.ends_with('\''));
    if quoted {
        Span::new(span.start + 1, span.end - 1)
    } else {
        span
    }
}

/// Replaces every span's name (quotes kept) by `name`, each through core's `ReplaceText` (the
/// text must still parse), from the last to the first; the edits against the original text.
fn replace_all(text: &str, spans: &[Span], name: &str) -> Result<Vec<TextEdit>, String> {
    let mut spans: Vec<Span> = spans.iter().map(|s| unquoted(text, *s)).collect();
    spans.sort_by_key(|s| s.start);
    spans.dedup();
    let mut current = text.to_owned();
    for span in spans.iter().rev() {
        let edit = Edit::ReplaceText {
            start: span.start,
            end: span.end,
            text: name.to_owned(),
        };
        current = apply(&current, &edit).map_err(|d| d.message)?.text;
    }
    Ok(spans
        .into_iter()
        .map(|span| TextEdit {
            span,
            text: name.to_owned(),
        })
        .collect())
}

/// A step: core's `RenameStep` (routes, expressions, `on_breach`, terminal actions,
/// `fallback_to`, inspector keys), then any reference the symbol index knows that its patches do
/// not cover, rewritten in place, so the editor's rename and its references agree.
fn rename_step(
    file: &FileAnalysis,
    definition: &Definition,
    name: &str,
) -> Result<Vec<TextEdit>, String> {
    let renamed = apply(
        &file.text,
        &Edit::RenameStep {
            from: definition.name.to_string(),
            to: name.to_owned(),
        },
    )
    .map_err(|d| d.message)?;
    // Core rewrites a whole string holding an expression; the edit an editor gets is only the
    // characters that change.
    let mut edits: Vec<TextEdit> = renamed
        .patches
        .iter()
        .map(|p| {
            let mut edit = crate::actions::diff(&file.text[p.start..p.end], &p.text);
            edit.span = Span::new(p.start + edit.span.start, p.start + edit.span.end);
            edit
        })
        .collect();
    // What core rewrote is judged by its patches, not by the shrunk edits: renaming `a` to
    // `alpha` shrinks to an insertion after the `a`, which contains no reference, and the
    // reference was edited a second time (`alphalpha`).
    let covered = |span: Span| {
        renamed
            .patches
            .iter()
            .any(|p| p.start <= span.start && span.end <= p.end)
    };
    let left: Vec<Span> = file
        .symbols()
        .references_to(definition)
        .map(|r| unquoted(&file.text, r.span))
        .filter(|span| !covered(*span))
        .collect();
    let mut after = renamed.text.clone();
    let shifted = |span: Span| -> Span {
        let delta: isize = edits
            .iter()
            .filter(|e| e.span.end <= span.start)
            .map(|e| e.text.len() as isize - e.span.len() as isize)
            .sum();
        Span::new(
            (span.start as isize + delta) as usize,
            (span.end as isize + delta) as usize,
        )
    };
    let mut extra = Vec::new();
    for span in left.iter().rev() {
        let at = shifted(*span);
        after = apply(
            &after,
            &Edit::ReplaceText {
                start: at.start,
                end: at.end,
                text: name.to_owned(),
            },
        )
        .map_err(|d| d.message)?
        .text;
        extra.push(TextEdit {
            span: *span,
            text: name.to_owned(),
        });
    }
    edits.extend(extra);
    edits.sort_by_key(|e| e.span.start);
    Ok(edits)
}

/// In the files that import the step's file: `alias.OLD` becomes `alias.NEW`, in the text
/// each reference was found in.
fn importers(
    workspace: &mut Workspace,
    home: &Arc<FileAnalysis>,
    definition: &Definition,
    name: &str,
) -> Result<Vec<(String, Vec<TextEdit>)>, String> {
    let (uses, cut) = navigation::importer_uses(workspace, &home.id, &definition.name);
    if let Some(why) = cut {
        return Err(format!(
            "not every file that may import `{}` could be looked at: {why}",
            home.id
        ));
    }
    let mut spans: Vec<(Arc<FileAnalysis>, Vec<Span>)> = Vec::new();
    for (file, span) in uses {
        let step = step_part(&file.text, unquoted(&file.text, span));
        match spans.iter_mut().find(|(f, _)| f.id == file.id) {
            Some((_, list)) => list.push(step),
            None => spans.push((file, vec![step])),
        }
    }
    spans
        .into_iter()
        .map(|(file, list)| Ok((file.id.clone(), replace_all(&file.text, &list, name)?)))
        .collect()
}

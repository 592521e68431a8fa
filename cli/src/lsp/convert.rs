//! The ide layer's values as LSP values: byte offsets as (line, UTF-16 column), ids as URIs.

use std::borrow::Cow;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use logicmd::diagnostic::Severity;
use logicmd::source::{LineIndex, Span};
use logicmd_ide::actions::{Action, ActionKind};
use logicmd_ide::completion::{CompletionItem, ItemKind};
use logicmd_ide::diagnostics::{IdeDiagnostic, Tag};
use logicmd_ide::lines::{self, Position as IdePosition};
use logicmd_ide::outline::{OutlineKind, Symbol};
use logicmd_ide::{FileAnalysis, Location, TextEdit, WorkspaceEdit};
use lsp_types as lsp;

use super::project::Project;

/// Positions of offsets in order, each counted on from the last one when it lies further on the
/// same line. *Why:* a column is counted in UTF-16 units from the line's start, and the tokens
/// of one long line (thousands of `{{ }}` in a value) were each counted from there: quadratic.
pub struct Walk<'a, 't> {
    text: &'a Text<'t>,
    last: Option<(usize, lsp::Position)>,
}

impl Walk<'_, '_> {
    pub fn position(&mut self, offset: usize) -> lsp::Position {
        let text = self.text.text;
        let offset = logicmd::source::clamp_to_char_boundary(text, offset);
        let on = self.last.filter(|(at, last)| {
            *at <= offset && self.text.index.line_of(offset) == last.line as usize
        });
        let position = match on {
            Some((at, last)) => {
                let more: usize = text[at..offset].chars().map(char::len_utf16).sum();
                lsp::Position::new(last.line, last.character + more as u32)
            }
            None => self.text.position(offset),
        };
        self.last = Some((offset, position));
        position
    }
}

/// A text and its lines, for converting positions.
pub struct Text<'t> {
    pub text: &'t str,
    pub index: Cow<'t, LineIndex>,
}

impl<'t> Text<'t> {
    pub fn new(text: &'t str) -> Text<'t> {
        Text {
            text,
            index: Cow::Owned(LineIndex::new(text)),
        }
    }

    /// The text of an analysed file, with the lines its parse already found.
    pub fn of(file: &'t FileAnalysis) -> Text<'t> {
        Text {
            text: &file.text,
            index: Cow::Borrowed(file.line_index()),
        }
    }

    pub fn position(&self, offset: usize) -> lsp::Position {
        let at = lines::position(self.text, &self.index, offset);
        lsp::Position::new(at.line, at.character)
    }

    /// A walker for positions of offsets that mostly increase (a document's tokens in order).
    pub fn walk(&self) -> Walk<'_, 't> {
        Walk {
            text: self,
            last: None,
        }
    }

    pub fn range(&self, span: Span) -> lsp::Range {
        lsp::Range::new(self.position(span.start), self.position(span.end))
    }

    pub fn offset(&self, position: lsp::Position) -> usize {
        lines::offset(
            self.text,
            &self.index,
            IdePosition {
                line: position.line,
                character: position.character,
            },
        )
    }

    pub fn span(&self, range: lsp::Range) -> Span {
        let (start, end) = (self.offset(range.start), self.offset(range.end));
        Span::new(start.min(end), start.max(end))
    }
}

pub fn uri(project: &Project, id: &str) -> lsp::Uri {
    let text = project.uri_of(id);
    lsp::Uri::from_str(&text).unwrap_or_else(|_| {
        // Our encoder writes only characters a URI allows; this is never reached in practice.
        lsp::Uri::from_str("file:///").expect("a valid URI")
    })
}

pub fn diagnostic(
    project: &Project,
    id: &str,
    text: &Text<'_>,
    found: &IdeDiagnostic,
    texts: &dyn Fn(&str) -> Option<Arc<str>>,
) -> lsp::Diagnostic {
    let d = &found.diagnostic;
    let severity = match d.severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    };
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let tags: Vec<lsp::DiagnosticTag> = found
        .tags
        .iter()
        .map(|tag| match tag {
            Tag::Unnecessary => lsp::DiagnosticTag::UNNECESSARY,
            Tag::Deprecated => lsp::DiagnosticTag::DEPRECATED,
        })
        .collect();
    let related: Vec<lsp::DiagnosticRelatedInformation> = found
        .related
        .iter()
        .filter_map(|r| {
            let range = if r.location.file == id {
                text.range(r.location.span)
            } else {
                let other = texts(&r.location.file)?;
                Text::new(&other).range(r.location.span)
            };
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri(project, &r.location.file), range),
                message: r.message.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: text.range(found.span),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.clone())),
        code_description: None,
        source: Some("logicmd".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: (!tags.is_empty()).then_some(tags),
        data: None,
    }
}

/// The end of the name the cursor at `offset` is inside (letters, digits, `_`, `-`).
pub fn word_end(text: &str, offset: usize) -> usize {
    let rest = text.get(offset..).unwrap_or("");
    offset
        + rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len())
}

/// An item as LSP says it. With `word_end` (the client takes insert-and-replace edits), an
/// item that ends at the cursor may also replace the rest of the word after it: the editor's
/// setting chooses which.
pub fn completion(
    text: &Text<'_>,
    item: &CompletionItem,
    word_end: Option<usize>,
) -> lsp::CompletionItem {
    let kind = match item.kind {
        ItemKind::Property => lsp::CompletionItemKind::PROPERTY,
        ItemKind::Value => lsp::CompletionItemKind::VALUE,
        ItemKind::Reference => lsp::CompletionItemKind::REFERENCE,
        ItemKind::Variable => lsp::CompletionItemKind::VARIABLE,
        ItemKind::Field => lsp::CompletionItemKind::FIELD,
        ItemKind::Method => lsp::CompletionItemKind::METHOD,
        ItemKind::Operator => lsp::CompletionItemKind::OPERATOR,
        ItemKind::File => lsp::CompletionItemKind::FILE,
        ItemKind::Folder => lsp::CompletionItemKind::FOLDER,
        ItemKind::Rule => lsp::CompletionItemKind::CONSTANT,
    };
    lsp::CompletionItem {
        label: item.label.clone(),
        kind: Some(kind),
        detail: item.detail.clone(),
        documentation: item.documentation.as_ref().map(|d| {
            lsp::Documentation::MarkupContent(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: d.clone(),
            })
        }),
        text_edit: Some(match word_end {
            Some(end) if end > item.replace.end => {
                lsp::CompletionTextEdit::InsertAndReplace(lsp::InsertReplaceEdit {
                    new_text: item.insert.clone(),
                    insert: text.range(item.replace),
                    replace: text.range(Span::new(item.replace.start, end)),
                })
            }
            _ => lsp::CompletionTextEdit::Edit(lsp::TextEdit::new(
                text.range(item.replace),
                item.insert.clone(),
            )),
        }),
        filter_text: item.filter.clone(),
        ..lsp::CompletionItem::default()
    }
}

pub fn location(
    project: &Project,
    location: &Location,
    texts: &dyn Fn(&str) -> Option<Arc<str>>,
) -> Option<lsp::Location> {
    let text = texts(&location.file)?;
    Some(lsp::Location::new(
        uri(project, &location.file),
        Text::new(&text).range(location.span),
    ))
}

pub fn text_edits(text: &Text<'_>, edits: &[TextEdit]) -> Vec<lsp::TextEdit> {
    edits
        .iter()
        .map(|e| lsp::TextEdit::new(text.range(e.span), e.text.clone()))
        .collect()
}

#[allow(
    clippy::mutable_key_type,
    reason = "lsp-types keys `WorkspaceEdit::changes` by `Uri`, hashed by its text, which never changes"
)]
pub fn workspace_edit(
    project: &Project,
    edit: &WorkspaceEdit,
    texts: &dyn Fn(&str) -> Option<Arc<str>>,
) -> lsp::WorkspaceEdit {
    let mut changes = HashMap::new();
    for (id, edits) in &edit.changes {
        let Some(current) = texts(id) else { continue };
        changes.insert(uri(project, id), text_edits(&Text::new(&current), edits));
    }
    lsp::WorkspaceEdit {
        changes: Some(changes),
        ..lsp::WorkspaceEdit::default()
    }
}

/// A workspace edit with its files in order: `lsp_types` keeps them in a `HashMap`, so the
/// same rename would list its files in a different order each time it is asked.
#[derive(serde::Serialize)]
pub struct OrderedEdit {
    changes: std::collections::BTreeMap<String, Vec<lsp::TextEdit>>,
}

impl From<lsp::WorkspaceEdit> for OrderedEdit {
    fn from(edit: lsp::WorkspaceEdit) -> Self {
        OrderedEdit {
            changes: edit
                .changes
                .unwrap_or_default()
                .into_iter()
                .map(|(uri, edits)| (uri.to_string(), edits))
                .collect(),
        }
    }
}

pub fn action(
    project: &Project,
    action: &Action,
    diagnostics: &[lsp::Diagnostic],
    text: &Text<'_>,
    texts: &dyn Fn(&str) -> Option<Arc<str>>,
) -> lsp::CodeActionOrCommand {
    let kind = match action.kind {
        ActionKind::QuickFix => lsp::CodeActionKind::QUICKFIX,
        ActionKind::Rewrite => lsp::CodeActionKind::REFACTOR_REWRITE,
    };
    let fixed: Vec<lsp::Diagnostic> = match (action.diagnostic, &action.code) {
        (Some(span), Some(code)) => {
            let range = text.range(span);
            diagnostics
                .iter()
                .filter(|d| {
                    d.range == range && d.code == Some(lsp::NumberOrString::String(code.clone()))
                })
                .cloned()
                .collect()
        }
        _ => Vec::new(),
    };
    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title: action.title.clone(),
        kind: Some(kind),
        diagnostics: (!fixed.is_empty()).then_some(fixed),
        edit: Some(workspace_edit(project, &action.edit, texts)),
        is_preferred: action.preferred.then_some(true),
        ..lsp::CodeAction::default()
    })
}

#[allow(
    deprecated,
    reason = "`DocumentSymbol::deprecated` must be written; `tags` replaces it"
)]
pub fn symbol(text: &Text<'_>, symbol: &Symbol) -> lsp::DocumentSymbol {
    let kind = match symbol.kind {
        OutlineKind::Function => lsp::SymbolKind::FUNCTION,
        OutlineKind::Namespace => lsp::SymbolKind::NAMESPACE,
        OutlineKind::EnumMember => lsp::SymbolKind::ENUM_MEMBER,
        OutlineKind::Event => lsp::SymbolKind::EVENT,
        OutlineKind::Module => lsp::SymbolKind::MODULE,
        OutlineKind::Package => lsp::SymbolKind::PACKAGE,
        OutlineKind::Field => lsp::SymbolKind::FIELD,
    };
    let children: Vec<lsp::DocumentSymbol> = symbol
        .children
        .iter()
        .map(|c| self::symbol(text, c))
        .collect();
    lsp::DocumentSymbol {
        name: symbol.name.clone(),
        detail: Some(symbol.detail.clone()),
        kind,
        tags: None,
        deprecated: None,
        range: text.range(symbol.span),
        selection_range: text.range(symbol.selection),
        children: (!children.is_empty()).then_some(children),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The walker gives every offset the position counted from its line's start, whatever
        /// the order the offsets come in (forward on a line, to another line, or back).
        #[test]
        fn a_walk_gives_the_positions_counted_from_each_lines_start(
            text in "(a|é|😀|\n|\r\n| ){0,40}",
            offsets in proptest::collection::vec(0usize..60, 0..20),
            sorted in any::<bool>(),
        ) {
            let text_of = Text::new(&text);
            let mut offsets = offsets;
            if sorted {
                offsets.sort_unstable();
            }
            let mut walk = text_of.walk();
            for offset in offsets {
                prop_assert_eq!(walk.position(offset), text_of.position(offset), "{}", offset);
            }
        }
    }
}

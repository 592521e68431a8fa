//! Each request and notification: parameters in, the ide layer asked, LSP values out.

use logicmd_ide::{completion, hints, hover, navigation, outline, rename, shortlist, tokens};
use lsp_server::{Notification, Request};
use lsp_types as lsp;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::convert::{self, Text};
use super::transport::Outgoing;
use super::Server;
use super::{project, settings};

/// Why a request gets no result.
pub enum Failure {
    /// A method this server does not answer.
    Unknown,
    /// Parameters that do not read.
    Params(String),
}

/// What the server offers.
pub fn capabilities() -> lsp::ServerCapabilities {
    let legend = lsp::SemanticTokensLegend {
        token_types: tokens::TOKEN_TYPES
            .iter()
            .map(|t| lsp::SemanticTokenType::new(t))
            .collect(),
        token_modifiers: tokens::TOKEN_MODIFIERS
            .iter()
            .map(|m| lsp::SemanticTokenModifier::new(m))
            .collect(),
    };
    lsp::ServerCapabilities {
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                ..lsp::TextDocumentSyncOptions::default()
            },
        )),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(
                [".", " ", "/", "[", ",", "{", "'", "\""]
                    .map(str::to_owned)
                    .to_vec(),
            ),
            ..lsp::CompletionOptions::default()
        }),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_highlight_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
        })),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::REFACTOR_REWRITE,
                ]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_range_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(
            lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp::SemanticTokensOptions {
                    legend,
                    full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
                },
            ),
        ),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        ..lsp::ServerCapabilities::default()
    }
}

fn params<P: DeserializeOwned>(value: &Value) -> Result<P, Failure> {
    serde_json::from_value(value.clone()).map_err(|e| Failure::Params(e.to_string()))
}

/// An answer written as JSON text straight from the values (no `serde_json::Value` between:
/// see [`super::transport`]).
fn json(value: impl serde::Serialize) -> Result<Answer, Failure> {
    serde_json::to_string(&value)
        .map(Answer)
        .map_err(|e| Failure::Params(e.to_string()))
}

/// A request's result as JSON text.
pub struct Answer(String);

impl Answer {
    fn null() -> Answer {
        Answer("null".to_owned())
    }

    /// The response to request `id` carrying this result.
    pub fn into_message(self, id: &lsp_server::RequestId) -> serde_json::Result<Outgoing> {
        let id = serde_json::to_string(id)?;
        let mut text = String::with_capacity(self.0.len() + id.len() + 32);
        text.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
        text.push_str(&id);
        text.push_str(",\"result\":");
        text.push_str(&self.0);
        text.push('}');
        Ok(Outgoing::text(text))
    }
}

/// The id of a document the client names (`None` for a URI outside `file://`).
fn id_of(server: &Server<'_>, uri: &lsp::Uri) -> Option<String> {
    server.project.id_of(uri.as_str())
}

/// Whether a request's document (when it names an open one) is LOGIC.md or DRTL: other
/// Markdown and YAML get no answer (`null`), as they get no diagnostics.
fn about_a_served_document(server: &Server<'_>, params: &Value) -> bool {
    let Some(uri) = params
        .get("textDocument")
        .and_then(|d| d.get("uri"))
        .and_then(Value::as_str)
    else {
        return true;
    };
    server
        .project
        .id_of(uri)
        .is_none_or(|id| serves(server, &id))
}

/// Whether the server answers for `id`: LOGIC.md or DRTL, or a file not open (its answer is
/// then made from what is on disk, or is empty).
fn serves(server: &Server<'_>, id: &str) -> bool {
    server
        .workspace
        .text(id)
        .is_none_or(|text| super::served::served(id, &text))
}

/// The current text of any file, for converting places in it.
fn texts<'a>(server: &'a Server<'_>) -> impl Fn(&str) -> Option<std::sync::Arc<str>> + 'a {
    move |id: &str| server.workspace.text(id)
}

/// Answers a request.
pub fn request(server: &mut Server<'_>, request: &Request) -> Result<Answer, Failure> {
    let p = &request.params;
    if !about_a_served_document(server, p) {
        return Ok(Answer::null());
    }
    match request.method.as_str() {
        "textDocument/completion" => {
            let at: lsp::CompletionParams = params(p)?;
            let position = at.text_document_position.position;
            let Some(id) = id_of(server, &at.text_document_position.text_document.uri) else {
                return Ok(Answer::null());
            };
            // Placed on the text as it is, not on its analysis: completion comes at once while
            // one types, and analysing the new text first cost the answer its time.
            let Some(current) = server.workspace.text(&id) else {
                return Ok(Answer::null());
            };
            // The line index of the analysis when it is of this text, else one made for it.
            let recent = server.workspace.recent_parsed(&id);
            let text = match recent
                .as_deref()
                .filter(|f| std::sync::Arc::ptr_eq(&f.text, &current))
            {
                Some(file) => Text::of(file),
                None => Text::new(&current),
            };
            let offset = text.offset(position);
            let word_end = server
                .insert_replace
                .then(|| convert::word_end(&current, offset));
            let (items, complete) = shortlist::shortlist(
                completion::completion(&mut server.workspace, &id, offset),
                &current,
                shortlist::MAX_ITEMS,
            );
            json(lsp::CompletionResponse::List(lsp::CompletionList {
                is_incomplete: !complete,
                items: items
                    .iter()
                    .map(|item| convert::completion(&text, item, word_end))
                    .collect(),
            }))
        }
        "textDocument/hover" => {
            let at: lsp::HoverParams = params(p)?;
            position_request(
                server,
                &at.text_document_position_params,
                |server, id, file, offset| {
                    let text = Text::of(file);
                    json(
                        hover::hover(&mut server.workspace, id, offset).map(|h| lsp::Hover {
                            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                                kind: lsp::MarkupKind::Markdown,
                                value: h.markdown,
                            }),
                            range: Some(text.range(h.span)),
                        }),
                    )
                },
            )
        }
        "textDocument/definition" => {
            let at: lsp::GotoDefinitionParams = params(p)?;
            position_request(
                server,
                &at.text_document_position_params,
                |server, id, _, offset| {
                    let found = navigation::definition(&mut server.workspace, id, offset);
                    let locations: Vec<lsp::Location> = found
                        .iter()
                        .filter_map(|l| convert::location(&server.project, l, &texts(server)))
                        .collect();
                    json(lsp::GotoDefinitionResponse::Array(locations))
                },
            )
        }
        "textDocument/references" => {
            let at: lsp::ReferenceParams = params(p)?;
            let declaration = at.context.include_declaration;
            position_request(
                server,
                &at.text_document_position,
                |server, id, _, offset| {
                    let found =
                        navigation::references(&mut server.workspace, id, offset, declaration);
                    let locations: Vec<lsp::Location> = found
                        .iter()
                        .filter_map(|l| convert::location(&server.project, l, &texts(server)))
                        .collect();
                    json(locations)
                },
            )
        }
        "textDocument/documentHighlight" => {
            let at: lsp::DocumentHighlightParams = params(p)?;
            position_request(
                server,
                &at.text_document_position_params,
                |server, id, file, offset| {
                    let text = Text::of(file);
                    let found: Vec<lsp::DocumentHighlight> =
                        navigation::highlights(&mut server.workspace, id, offset)
                            .into_iter()
                            .map(|h| lsp::DocumentHighlight {
                                range: text.range(h.span),
                                kind: Some(match h.kind {
                                    navigation::HighlightKind::Write => {
                                        lsp::DocumentHighlightKind::WRITE
                                    }
                                    navigation::HighlightKind::Read => {
                                        lsp::DocumentHighlightKind::READ
                                    }
                                }),
                            })
                            .collect();
                    json(found)
                },
            )
        }
        "textDocument/prepareRename" => {
            let at: lsp::TextDocumentPositionParams = params(p)?;
            position_request(server, &at, |server, id, file, offset| {
                let text = Text::of(file);
                match rename::prepare_rename(&mut server.workspace, id, offset) {
                    Ok((span, placeholder)) => {
                        json(lsp::PrepareRenameResponse::RangeWithPlaceholder {
                            range: text.range(span),
                            placeholder,
                        })
                    }
                    Err(why) => Err(Failure::Params(why)),
                }
            })
        }
        "textDocument/rename" => {
            let at: lsp::RenameParams = params(p)?;
            let name = at.new_name.clone();
            position_request(
                server,
                &at.text_document_position,
                |server, id, _, offset| match rename::rename(
                    &mut server.workspace,
                    id,
                    offset,
                    &name,
                ) {
                    Ok(edit) => json(convert::OrderedEdit::from(convert::workspace_edit(
                        &server.project,
                        &edit,
                        &texts(server),
                    ))),
                    Err(why) => Err(Failure::Params(why)),
                },
            )
        }
        "textDocument/codeAction" => {
            let at: lsp::CodeActionParams = params(p)?;
            document_request(server, &at.text_document, |server, id, file| {
                let text = Text::of(file);
                // At a cursor (a collapsed range, perhaps before the problem's column) the
                // diagnostics the client names on the cursor's line count as in range: Neovim
                // asks that way. A selection keeps its own range.
                let cursor = at.range.start;
                let range = at
                    .context
                    .diagnostics
                    .iter()
                    .filter(|d| {
                        at.range.start == at.range.end
                            && (d.range.start.line..=d.range.end.line).contains(&cursor.line)
                    })
                    .fold(text.span(at.range), |range, d| {
                        range.cover(text.span(d.range))
                    });
                // The client's diagnostics that are ours: a quick fix is offered for those only
                // (another tool's diagnostics there leave ours as they are).
                let named: Vec<(logicmd::source::Span, &str)> = at
                    .context
                    .diagnostics
                    .iter()
                    .filter(|d| d.source.as_deref().is_none_or(|s| s == "logicmd"))
                    .filter_map(|d| match &d.code {
                        Some(lsp::NumberOrString::String(code)) => {
                            Some((text.span(d.range), code.as_str()))
                        }
                        _ => None,
                    })
                    .collect();
                let actions = logicmd_ide::actions::for_named(
                    logicmd_ide::actions::code_actions(&mut server.workspace, id, range),
                    &named,
                );
                let listed: Vec<lsp::CodeActionOrCommand> = actions
                    .iter()
                    .map(|a| {
                        convert::action(
                            &server.project,
                            a,
                            &at.context.diagnostics,
                            &text,
                            &texts(server),
                        )
                    })
                    .collect();
                json(listed)
            })
        }
        "textDocument/formatting" => {
            let at: lsp::DocumentFormattingParams = params(p)?;
            document_request(server, &at.text_document, |_, id, file| {
                let text = Text::of(file);
                match logicmd_ide::format::format_document(id, &file.text) {
                    Ok(edits) => json(convert::text_edits(&text, &edits)),
                    // `fmt` leaves the file alone: no edits (the reason is `fmt`'s to give).
                    Err(_) => json(Vec::<lsp::TextEdit>::new()),
                }
            })
        }
        "textDocument/rangeFormatting" => {
            let at: lsp::DocumentRangeFormattingParams = params(p)?;
            document_request(server, &at.text_document, |_, id, file| {
                let text = Text::of(file);
                let range = text.span(at.range);
                match logicmd_ide::format::format_range(id, &file.text, range) {
                    Ok(edits) => json(convert::text_edits(&text, &edits)),
                    Err(_) => json(Vec::<lsp::TextEdit>::new()),
                }
            })
        }
        "textDocument/documentSymbol" => {
            let at: lsp::DocumentSymbolParams = params(p)?;
            document_request(server, &at.text_document, |_, _, file| {
                let text = Text::of(file);
                let symbols: Vec<lsp::DocumentSymbol> = outline::document_symbols(file)
                    .iter()
                    .map(|s| convert::symbol(&text, s))
                    .collect();
                json(lsp::DocumentSymbolResponse::Nested(symbols))
            })
        }
        "textDocument/foldingRange" => {
            let at: lsp::FoldingRangeParams = params(p)?;
            document_request(server, &at.text_document, |_, _, file| {
                let ranges: Vec<lsp::FoldingRange> = outline::folding_ranges(file)
                    .into_iter()
                    .map(|f| lsp::FoldingRange {
                        start_line: f.start_line,
                        end_line: f.end_line,
                        ..lsp::FoldingRange::default()
                    })
                    .collect();
                json(ranges)
            })
        }
        "textDocument/semanticTokens/full" => {
            let at: lsp::SemanticTokensParams = params(p)?;
            document_request(server, &at.text_document, |_, _, file| {
                json(lsp::SemanticTokensResult::Tokens(lsp::SemanticTokens {
                    result_id: None,
                    data: encode_tokens(&Text::of(file), &tokens::semantic_tokens(file)),
                }))
            })
        }
        "textDocument/inlayHint" => {
            let at: lsp::InlayHintParams = params(p)?;
            document_request(server, &at.text_document, |server, id, file| {
                let text = Text::of(file);
                let range = text.span(at.range);
                let found: Vec<lsp::InlayHint> =
                    hints::inlay_hints(&mut server.workspace, id, range)
                        .into_iter()
                        .map(|h| lsp::InlayHint {
                            position: text.position(h.offset),
                            label: lsp::InlayHintLabel::String(h.label),
                            kind: None,
                            text_edits: None,
                            tooltip: Some(lsp::InlayHintTooltip::String(h.tooltip)),
                            padding_left: None,
                            padding_right: None,
                            data: None,
                        })
                        .collect();
                json(found)
            })
        }
        _ => Err(Failure::Unknown),
    }
}

/// A request about a position in an open or project file.
fn position_request(
    server: &mut Server<'_>,
    at: &lsp::TextDocumentPositionParams,
    answer: impl FnOnce(
        &mut Server<'_>,
        &str,
        &logicmd_ide::FileAnalysis,
        usize,
    ) -> Result<Answer, Failure>,
) -> Result<Answer, Failure> {
    let position = at.position;
    document_request(server, &at.text_document, |server, id, file| {
        let offset = Text::of(file).offset(position);
        answer(server, id, file, offset)
    })
}

/// A request about a document: `null` when the server does not know it.
fn document_request(
    server: &mut Server<'_>,
    document: &lsp::TextDocumentIdentifier,
    answer: impl FnOnce(&mut Server<'_>, &str, &logicmd_ide::FileAnalysis) -> Result<Answer, Failure>,
) -> Result<Answer, Failure> {
    let Some(id) = id_of(server, &document.uri) else {
        return Ok(Answer::null());
    };
    let Some(file) = server.workspace.analysis(&id) else {
        return Ok(Answer::null());
    };
    answer(server, &id, &file)
}

/// Semantic tokens as the protocol's relative five-number groups (single-line tokens only).
fn encode_tokens(text: &Text<'_>, found: &[tokens::SemanticToken]) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::with_capacity(found.len());
    let (mut line, mut column) = (0u32, 0u32);
    let mut walk = text.walk();
    for token in found {
        let start = walk.position(token.span.start);
        let end = walk.position(token.span.end);
        if start.line != end.line || end.character <= start.character {
            continue;
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - column
        } else {
            start.character
        };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: token.kind,
            token_modifiers_bitset: token.modifiers,
        });
        line = start.line;
        column = start.character;
    }
    out
}

/// Handles a notification; the open files whose diagnostics may have changed.
pub fn notification(server: &mut Server<'_>, notification: Notification) -> Vec<String> {
    // The parameters are read by value: an opened document's text is not copied.
    let Notification { method, params: p } = notification;
    match method.as_str() {
        "textDocument/didOpen" => {
            let Ok(opened) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(p) else {
                return Vec::new();
            };
            let Some(id) = id_of(server, &opened.text_document.uri) else {
                return Vec::new();
            };
            server
                .versions
                .insert(id.clone(), opened.text_document.version);
            server.workspace.open(&id, opened.text_document.text)
        }
        "textDocument/didChange" => {
            let Ok(changed) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(p) else {
                return Vec::new();
            };
            let Some(id) = id_of(server, &changed.text_document.uri) else {
                return Vec::new();
            };
            server
                .versions
                .insert(id.clone(), changed.text_document.version);
            let mut affected = Vec::new();
            for change in changed.content_changes {
                let result = match change.range {
                    Some(range) => {
                        let Some(current) = server.workspace.text(&id) else {
                            continue;
                        };
                        let span = Text::new(&current).span(range);
                        server.workspace.edit(&id, span, &change.text)
                    }
                    None => Ok(server.workspace.open(&id, change.text)),
                };
                match result {
                    Ok(ids) => affected.extend(ids),
                    Err(message) => eprintln!("logicmd lsp: {message}"),
                }
            }
            affected
        }
        "textDocument/didClose" => {
            let Ok(closed) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(p) else {
                return Vec::new();
            };
            let Some(id) = id_of(server, &closed.text_document.uri) else {
                return Vec::new();
            };
            server.versions.remove(&id);
            server.notify(
                "textDocument/publishDiagnostics",
                lsp::PublishDiagnosticsParams::new(closed.text_document.uri, Vec::new(), None),
            );
            server.workspace.close(&id)
        }
        "workspace/didChangeWatchedFiles" => {
            let Ok(changed) = serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(p) else {
                return Vec::new();
            };
            let mut affected = Vec::new();
            for change in changed.changes {
                let settings_changed = project::path_of_uri(change.uri.as_str())
                    .is_some_and(|path| settings::is_settings_file(&path));
                if settings_changed {
                    affected.extend(server.versions.keys().cloned());
                    continue;
                }
                if let Some(id) = id_of(server, &change.uri) {
                    affected.extend(server.workspace.changed_on_disk(&id));
                }
            }
            affected
        }
        _ => Vec::new(),
    }
}

/// The diagnostics of an open file, as published.
pub fn diagnostics(server: &mut Server<'_>, id: &str) -> lsp::PublishDiagnosticsParams {
    let version = server.versions.get(id).copied();
    let uri = convert::uri(&server.project, id);
    if !serves(server, id) {
        // Other Markdown and YAML: nothing (an empty list clears what an earlier text had).
        return lsp::PublishDiagnosticsParams::new(uri, Vec::new(), version);
    }
    let (found, problem) = settings::applied(
        &server.project.path_of(id),
        server.workspace.diagnostics(id),
    );
    if let Some(problem) = problem {
        if server.settings_problems.insert(problem.clone()) {
            let message =
                format!("logicmd: the project's settings are not applied until fixed:\n{problem}");
            server.notify(
                "window/showMessage",
                lsp::ShowMessageParams {
                    typ: lsp::MessageType::WARNING,
                    message,
                },
            );
        }
    }
    let Some(file) = server.workspace.analysis(id) else {
        return lsp::PublishDiagnosticsParams::new(uri, Vec::new(), version);
    };
    let text = Text::of(&file);
    let converted = found
        .iter()
        .map(|d| convert::diagnostic(&server.project, id, &text, d, &texts(server)))
        .collect();
    lsp::PublishDiagnosticsParams::new(uri, converted, version)
}

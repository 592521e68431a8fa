//! Semantic tokens: inside `{{ }}` (delimiters, variables, members, methods, operators,
//! literals, step names) and for every step, node and tree-node reference and definition.

use logicmd::expr::{tokenize, Token};
use logicmd::source::Span;
use logicmd::yaml::Node;
use logicmd::yaml::ValuePlaces;
use serde::Serialize;

use crate::expr_at::regions;
use crate::symbols::SymbolKind;
use crate::workspace::FileAnalysis;

/// The token types, in legend order (indices are [`SemanticToken::kind`]).
pub const TOKEN_TYPES: &[&str] = &[
    "macro",
    "variable",
    "property",
    "method",
    "operator",
    "number",
    "string",
    "keyword",
    "function",
    "class",
    "enumMember",
    "namespace",
];

/// The token modifiers, in legend order (bits of [`SemanticToken::modifiers`]).
pub const TOKEN_MODIFIERS: &[&str] = &["declaration", "readonly"];

const MACRO: u32 = 0;
const VARIABLE: u32 = 1;
const PROPERTY: u32 = 2;
const METHOD: u32 = 3;
const OPERATOR: u32 = 4;
const NUMBER: u32 = 5;
const STRING: u32 = 6;
const KEYWORD: u32 = 7;
const FUNCTION: u32 = 8;
const CLASS: u32 = 9;
const ENUM_MEMBER: u32 = 10;
const NAMESPACE: u32 = 11;
const DECLARATION: u32 = 1;

/// One token: a byte range, its type (an index into [`TOKEN_TYPES`]) and modifier bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SemanticToken {
    /// Where.
    pub span: Span,
    /// Index into [`TOKEN_TYPES`].
    pub kind: u32,
    /// Bits of [`TOKEN_MODIFIERS`].
    pub modifiers: u32,
}

/// The tokens of a file, sorted and not overlapping.
pub fn semantic_tokens(file: &FileAnalysis) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let Some(source) = file.source() else {
        return out;
    };
    let symbols = file.symbols();
    for definition in &symbols.definitions {
        if let Some(kind) = kind_of(definition.kind) {
            out.push(SemanticToken {
                span: definition.span,
                kind,
                modifiers: DECLARATION,
            });
        }
    }
    let mut expression_spans = Vec::new();
    strings(source.root(), &mut |node, value| {
        expression_tokens(source.text(), node, value, &mut out, &mut expression_spans);
    });
    for reference in &symbols.references {
        let inside = expression_spans
            .iter()
            .any(|s: &Span| s.start <= reference.span.start && reference.span.end <= s.end);
        if inside && reference.kind != SymbolKind::Step {
            continue;
        }
        if let Some(kind) = kind_of(reference.kind) {
            out.push(SemanticToken {
                span: unquoted(source.text(), reference.span),
                kind,
                modifiers: 0,
            });
        }
    }
    out.sort_by_key(|t| (t.span.start, std::cmp::Reverse(t.span.end)));
    // A step name inside an expression is both a property and a step: the step wins.
    let mut kept: Vec<SemanticToken> = Vec::with_capacity(out.len());
    for token in out {
        match kept.last_mut() {
            Some(last) if last.span == token.span => {
                if token.kind == FUNCTION {
                    *last = token;
                }
            }
            Some(last) if token.span.start < last.span.end => {}
            _ => kept.push(token),
        }
    }
    kept
}

fn kind_of(kind: SymbolKind) -> Option<u32> {
    Some(match kind {
        SymbolKind::Step => FUNCTION,
        SymbolKind::DrtlNode | SymbolKind::WorkflowNode => CLASS,
        SymbolKind::TreeNode | SymbolKind::Terminal => ENUM_MEMBER,
        SymbolKind::Tree | SymbolKind::Import => NAMESPACE,
        SymbolKind::InputField => return None,
    })
}

fn unquoted(text: &str, span: Span) -> Span {
    let written = &text[span.start..span.end];
    if written.len() >= 2 && (written.starts_with('"') || written.starts_with('\'')) {
        Span::new(span.start + 1, span.end - 1)
    } else {
        span
    }
}

/// Calls `visit` on every string scalar holding `{{`.
fn strings(node: &Node, visit: &mut dyn FnMut(&Node, &str)) {
    if let Some(entries) = node.as_map() {
        for entry in entries {
            strings(&entry.value, visit);
        }
    } else if let Some(items) = node.as_seq() {
        for item in items {
            strings(item, visit);
        }
    } else if let Some(value) = node.as_str() {
        if value.contains("{{") {
            visit(node, value);
        }
    }
}

fn expression_tokens(
    text: &str,
    node: &Node,
    value: &str,
    out: &mut Vec<SemanticToken>,
    spans: &mut Vec<Span>,
) {
    let places = ValuePlaces::new(text, node, value);
    for region in regions(value) {
        let open = region.start - 2;
        out.push(SemanticToken {
            span: places.span(open, 2),
            kind: MACRO,
            modifiers: 0,
        });
        if region.end + 2 <= value.len() {
            out.push(SemanticToken {
                span: places.span(region.end, 2),
                kind: MACRO,
                modifiers: 0,
            });
        }
        spans.push(places.span(region.start, region.len()));
        let Ok(lexemes) = tokenize(&value[region.clone()], region.start) else {
            continue;
        };
        for (index, lexeme) in lexemes.iter().enumerate() {
            let previous = index.checked_sub(1).map(|i| &lexemes[i].token);
            let next = lexemes.get(index + 1).map(|l| &l.token);
            let kind = match &lexeme.token {
                Token::Number(_) => NUMBER,
                Token::String(_) => STRING,
                Token::Punct(p) if matches!(*p, "(" | ")" | "[" | "]" | "," | "." | "?.") => {
                    continue
                }
                Token::Punct(_) => OPERATOR,
                Token::Identifier(name)
                    if matches!(name.as_str(), "true" | "false" | "null" | "undefined") =>
                {
                    KEYWORD
                }
                Token::Identifier(_) if matches!(previous, Some(Token::Punct("." | "?."))) => {
                    if matches!(next, Some(Token::Punct("("))) {
                        METHOD
                    } else {
                        PROPERTY
                    }
                }
                Token::Identifier(_) => VARIABLE,
                Token::End => continue,
            };
            out.push(SemanticToken {
                span: places.span(lexeme.start, lexeme.end - lexeme.start),
                kind,
                modifiers: 0,
            });
        }
    }
}

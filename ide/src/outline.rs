//! The outline (steps, decision trees with their nodes and terminals, quality gates, workflow
//! nodes, imports, DRTL nodes) and folding ranges (every block mapping and list spanning
//! lines, and the markdown body).

use logicmd::source::Span;
use logicmd::yaml::Node;
use serde::Serialize;

use crate::symbols::{map, seq, SymbolKind};
use crate::workspace::FileAnalysis;

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Symbol {
    /// Its name.
    pub name: String,
    /// What it is (`step`, `decision tree`, `gate`, …).
    pub detail: String,
    /// The kind an editor shows an icon for.
    pub kind: OutlineKind,
    /// The whole entry.
    pub span: Span,
    /// Its name.
    pub selection: Span,
    /// What it contains.
    pub children: Vec<Symbol>,
}

/// Icons of outline entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutlineKind {
    /// A step or a DRTL node.
    Function,
    /// A decision tree, a section.
    Namespace,
    /// A tree node or terminal.
    EnumMember,
    /// A quality gate or invariant.
    Event,
    /// A workflow node.
    Module,
    /// An import.
    Package,
    /// A contract input or output.
    Field,
}

/// The outline of a file.
pub fn document_symbols(file: &FileAnalysis) -> Vec<Symbol> {
    let symbols = file.symbols();
    let mut out = Vec::new();
    let definition_symbol = |d: &crate::symbols::Definition, kind: OutlineKind| Symbol {
        name: d.name.to_string(),
        detail: d.kind.noun().to_owned(),
        kind,
        span: d.full,
        selection: d.span,
        children: Vec::new(),
    };
    for definition in &symbols.definitions {
        let kind = match definition.kind {
            SymbolKind::Step | SymbolKind::DrtlNode => OutlineKind::Function,
            SymbolKind::Tree => OutlineKind::Namespace,
            SymbolKind::WorkflowNode => OutlineKind::Module,
            SymbolKind::Import => OutlineKind::Package,
            SymbolKind::InputField => OutlineKind::Field,
            SymbolKind::TreeNode | SymbolKind::Terminal => continue,
        };
        let mut symbol = definition_symbol(definition, kind);
        if definition.kind == SymbolKind::Tree {
            symbol.children = symbols
                .definitions
                .iter()
                .filter(|d| {
                    matches!(d.kind, SymbolKind::TreeNode | SymbolKind::Terminal)
                        && d.scope.as_deref() == Some(&definition.name)
                })
                .map(|d| definition_symbol(d, OutlineKind::EnumMember))
                .collect();
        }
        out.push(symbol);
    }
    if let Some(document) = file.document() {
        out.extend(gates(document.root()));
    }
    out.sort_by_key(|s| s.span.start);
    out
}

/// The named quality gates and invariants.
fn gates(root: &Node) -> Vec<Symbol> {
    let mut out = Vec::new();
    for section in map(root.get("quality_gates")) {
        for (_, gate) in seq(Some(&section.value)) {
            let Some(name) = gate.get("name").filter(|n| n.as_str().is_some()) else {
                continue;
            };
            out.push(Symbol {
                name: name.as_str().unwrap_or_default().to_owned(),
                detail: format!("{} gate", section.key),
                kind: OutlineKind::Event,
                span: gate.span(),
                selection: name.span(),
                children: Vec::new(),
            });
        }
    }
    out
}

/// A foldable range of lines (0-based, inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fold {
    /// First line.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
}

/// Every block mapping entry and list item spanning more than one line, and the body.
pub fn folding_ranges(file: &FileAnalysis) -> Vec<Fold> {
    let index = file.line_index();
    let mut out = Vec::new();
    if let Some(source) = file.source() {
        collect_folds(source.root(), index, &mut out);
    }
    if let Some(document) = file.document() {
        let body = document.sections().body;
        let first = index.line_of(body.start) as u32;
        let last = index.line_of(body.end.saturating_sub(1).max(body.start)) as u32;
        if !body.is_empty() && last > first {
            out.push(Fold {
                start_line: first,
                end_line: last,
            });
        }
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out.dedup();
    out
}

fn collect_folds(node: &Node, index: &logicmd::source::LineIndex, out: &mut Vec<Fold>) {
    if let Some(entries) = node.as_map() {
        for entry in entries {
            fold(index, out, entry.key_span().start, entry.value.span().end);
            collect_folds(&entry.value, index, out);
        }
    } else if let Some(items) = node.as_seq() {
        for item in items {
            fold(index, out, item.span().start, item.span().end);
            collect_folds(item, index, out);
        }
    }
}

/// The lines of `start..end` as a fold, when they are more than one.
fn fold(index: &logicmd::source::LineIndex, out: &mut Vec<Fold>, start: usize, end: usize) {
    let first = index.line_of(start) as u32;
    let last = index.line_of(end.saturating_sub(1).max(start)) as u32;
    if last > first {
        out.push(Fold {
            start_line: first,
            end_line: last,
        });
    }
}

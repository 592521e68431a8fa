//! What a file defines (steps, decision trees and their nodes, workflow nodes, DRTL nodes,
//! imports, contract inputs) and every place that names one (`needs`, `then`, `next`,
//! `parallel_steps`, `depends_on`, edge ends, routes, `steps.NAME` and `input.NAME` inside
//! expressions), each with its span: what definition, references, highlights, rename, semantic
//! tokens and inlay hints read.

use logicmd::analysis::Kind;
use logicmd::source::Span;
use logicmd::yaml::{Entry, Node, NodeValue, Text, ValuePlaces};
use serde::Serialize;

use crate::expr_at::{expressions, members_of};
use crate::workspace::FileAnalysis;

/// What kind of thing a name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// A LOGIC.md step (`steps.NAME`).
    Step,
    /// A decision tree (`decision_trees.NAME`).
    Tree,
    /// A node of a decision tree (scoped by its tree).
    TreeNode,
    /// A terminal of a decision tree (scoped by its tree).
    Terminal,
    /// A node of a multi-agent workflow (`nodes.NAME`, spec §9.1).
    WorkflowNode,
    /// A DRTL node (`nodes[].id`).
    DrtlNode,
    /// An import's namespace (`imports[].as`).
    Import,
    /// A contract input (`contracts.inputs[].name`), read as `input.NAME`.
    InputField,
}

impl SymbolKind {
    /// How a person calls it.
    pub fn noun(self) -> &'static str {
        match self {
            SymbolKind::Step => "step",
            SymbolKind::Tree => "decision tree",
            SymbolKind::TreeNode => "tree node",
            SymbolKind::Terminal => "terminal",
            SymbolKind::WorkflowNode => "workflow node",
            SymbolKind::DrtlNode => "node",
            SymbolKind::Import => "import",
            SymbolKind::InputField => "input",
        }
    }

    /// Whether a definition of this kind can be renamed with its references.
    pub fn renamable(self) -> bool {
        matches!(
            self,
            SymbolKind::Step
                | SymbolKind::TreeNode
                | SymbolKind::Terminal
                | SymbolKind::WorkflowNode
                | SymbolKind::DrtlNode
        )
    }
}

/// A name being defined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Definition {
    /// What it is.
    pub kind: SymbolKind,
    /// Its name (shares the file's text when written there as it reads).
    pub name: Text,
    /// The decision tree it belongs to (tree nodes and terminals).
    pub scope: Option<Text>,
    /// Where the name is written (a key, or an `id` / `name` value).
    pub span: Span,
    /// The whole definition (key and value), for outlines and folding.
    pub full: Span,
    /// JSON Pointer of the definition's value.
    pub pointer: String,
}

/// Where a name is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Usage {
    /// In a `needs` list.
    Needs,
    /// In `parallel_steps`.
    Parallel,
    /// A branch's `then`.
    Then,
    /// A decision tree's `root`.
    Root,
    /// A decision-tree branch's `next`.
    Next,
    /// A terminal's `action` naming a step.
    Action,
    /// An invariant's `on_breach` naming a step.
    OnBreach,
    /// A degradation's `fallback_to` naming a step.
    FallbackTo,
    /// A workflow node's `depends_on`.
    DependsOn,
    /// An edge's `from` or `to`.
    EdgeEnd,
    /// A DRTL gate's `on_pass`/`on_fail` or a review action's `next`.
    Route,
    /// A DRTL `input` naming a node's output (`draft.output`).
    Input,
    /// Inside a `{{ }}` expression.
    Expression,
}

/// A name used somewhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reference {
    /// What it names (for a `next`: the tree node, terminal or step it resolved to).
    pub kind: SymbolKind,
    /// The name as written (shares the file's text when written there as it reads).
    pub name: Text,
    /// The decision tree a tree node or terminal is looked up in.
    pub scope: Option<Text>,
    /// Where the name is written.
    pub span: Span,
    /// How it is used.
    pub usage: Usage,
}

/// A file reference (`imports[].ref`, a workflow node's `logic_ref`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileRef {
    /// The reference as written.
    pub reference: String,
    /// Where it is written.
    pub span: Span,
    /// The import's namespace, for an import.
    pub alias: Option<String>,
    /// The workflow node, for a `logic_ref`.
    pub node: Option<String>,
}

/// Everything a file defines and refers to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Symbols {
    /// Definitions in file order.
    pub definitions: Vec<Definition>,
    /// References in file order.
    pub references: Vec<Reference>,
    /// File references in file order.
    pub files: Vec<FileRef>,
}

impl Symbols {
    /// The symbols of an analysed file (empty when it does not parse).
    pub fn of(file: &FileAnalysis) -> Symbols {
        let mut symbols = Symbols::default();
        let Some(source) = file.source() else {
            return symbols;
        };
        let mut walk = Walk {
            text: source.text(),
            out: &mut symbols,
        };
        match file.kind {
            Kind::Logic => walk.logic(source.root()),
            Kind::Drtl => walk.drtl(source.root()),
        }
        symbols.references.sort_by_key(|r| r.span.start);
        // Kept as long as the file is open: no spare capacity (a large file's references
        // doubled their vector's size in it).
        symbols.definitions.shrink_to_fit();
        symbols.references.shrink_to_fit();
        symbols
    }

    /// The definition of `name` of `kind` (any scope).
    pub fn definition(&self, kind: SymbolKind, name: &str) -> Option<&Definition> {
        self.definitions
            .iter()
            .find(|d| d.kind == kind && d.name == name)
    }

    /// The definition a reference names, in this file.
    pub fn resolve(&self, reference: &Reference) -> Option<&Definition> {
        self.definitions.iter().find(|d| {
            d.kind == reference.kind && d.name == reference.name && d.scope == reference.scope
        })
    }

    /// The first definition of a step, node or tree node called `name`.
    pub fn any_definition(&self, name: &str) -> Option<&Definition> {
        self.definitions
            .iter()
            .find(|d| d.name == name && d.kind != SymbolKind::Import)
    }

    /// The definition whose name is written at `offset`.
    pub fn definition_at(&self, offset: usize) -> Option<&Definition> {
        self.definitions.iter().find(|d| contains(d.span, offset))
    }

    /// The reference written at `offset`.
    pub fn reference_at(&self, offset: usize) -> Option<&Reference> {
        let after = self.references.partition_point(|r| r.span.start <= offset);
        self.references[..after]
            .iter()
            .rev()
            .take(8)
            .find(|r| contains(r.span, offset))
    }

    /// The file reference written at `offset`.
    pub fn file_at(&self, offset: usize) -> Option<&FileRef> {
        self.files.iter().find(|f| contains(f.span, offset))
    }

    /// Every reference to the definition `definition`.
    pub fn references_to<'s>(
        &'s self,
        definition: &'s Definition,
    ) -> impl Iterator<Item = &'s Reference> + 's {
        self.references.iter().filter(move |r| {
            r.kind == definition.kind && r.name == definition.name && r.scope == definition.scope
        })
    }
}

/// Whether `offset` is in `span` or just after it (a cursor at the end of a name is on it).
pub(crate) fn contains(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

struct Walk<'a> {
    text: &'a str,
    out: &'a mut Symbols,
}

impl Walk<'_> {
    fn define(&mut self, kind: SymbolKind, entry: &Entry, pointer: String, scope: Option<&Text>) {
        self.out.definitions.push(Definition {
            kind,
            name: entry.key.clone(),
            scope: scope.cloned(),
            span: entry.key_span(),
            full: entry.key_span().cover(entry.value.span()),
            pointer,
        });
    }

    fn refer(&mut self, kind: SymbolKind, node: &Node, usage: Usage) {
        self.refer_in(kind, node, usage, None);
    }

    fn refer_in(&mut self, kind: SymbolKind, node: &Node, usage: Usage, scope: Option<&Text>) {
        if let Some((name, _)) = text_of(node) {
            self.out.references.push(Reference {
                kind,
                name,
                scope: scope.cloned(),
                span: node.span(),
                usage,
            });
        }
    }

    fn refer_all(&mut self, kind: SymbolKind, list: Option<&Node>, usage: Usage) {
        for (_, item) in seq(list) {
            self.refer(kind, item, usage);
        }
    }

    fn logic(&mut self, root: &Node) {
        let steps: Vec<String> = map(root.get("steps")).map(|e| e.key.to_string()).collect();
        let is_step = |name: &str| steps.iter().any(|s| s == name);
        for entry in map(root.get("steps")) {
            let at = format!("/steps/{}", token(&entry.key));
            self.define(SymbolKind::Step, entry, at.clone(), None);
            let step = &entry.value;
            self.refer_all(SymbolKind::Step, step.get("needs"), Usage::Needs);
            self.refer_all(
                SymbolKind::Step,
                step.get("parallel_steps"),
                Usage::Parallel,
            );
            for (_, branch) in seq(step.get("branches")) {
                if let Some(then) = branch.get("then") {
                    self.refer(SymbolKind::Step, then, Usage::Then);
                }
            }
        }
        self.trees(root, &is_step);
        for (_, invariant) in seq(root.get("quality_gates").and_then(|q| q.get("invariants"))) {
            if let Some(target) = invariant
                .get("on_breach")
                .filter(|t| t.as_str().is_some_and(is_step))
            {
                self.refer(SymbolKind::Step, target, Usage::OnBreach);
            }
        }
        for (_, rule) in seq(root.get("fallback").and_then(|f| f.get("degradation"))) {
            if let Some(target) = rule
                .get("fallback_to")
                .filter(|t| t.as_str().is_some_and(is_step))
            {
                self.refer(SymbolKind::Step, target, Usage::FallbackTo);
            }
        }
        self.workflow(root);
        self.imports(root);
        for (index, input) in seq(root.get("contracts").and_then(|c| c.get("inputs"))) {
            if let Some((name, node)) = input.get("name").and_then(text_of) {
                self.out.definitions.push(Definition {
                    kind: SymbolKind::InputField,
                    name,
                    scope: None,
                    span: node.span(),
                    full: input.span(),
                    pointer: format!("/contracts/inputs/{index}"),
                });
            }
        }
        self.expressions(root);
    }

    fn trees(&mut self, root: &Node, is_step: &dyn Fn(&str) -> bool) {
        for tree_entry in map(root.get("decision_trees")) {
            let tree = &tree_entry.key;
            let at = format!("/decision_trees/{}", token(tree));
            self.define(SymbolKind::Tree, tree_entry, at.clone(), None);
            let value = &tree_entry.value;
            let nodes: Vec<String> = map(value.get("nodes")).map(|e| e.key.to_string()).collect();
            let terminals: Vec<String> = map(value.get("terminals"))
                .map(|e| e.key.to_string())
                .collect();
            for node in map(value.get("nodes")) {
                let pointer = format!("{at}/nodes/{}", token(&node.key));
                self.define(SymbolKind::TreeNode, node, pointer, Some(tree));
            }
            for terminal in map(value.get("terminals")) {
                let pointer = format!("{at}/terminals/{}", token(&terminal.key));
                self.define(SymbolKind::Terminal, terminal, pointer, Some(tree));
                if let Some(action) = terminal
                    .value
                    .get("action")
                    .filter(|a| a.as_str().is_some_and(is_step))
                {
                    self.refer(SymbolKind::Step, action, Usage::Action);
                }
            }
            if let Some(start) = value.get("root") {
                let kind = if start
                    .as_str()
                    .is_some_and(|s| terminals.iter().any(|t| t == s))
                {
                    SymbolKind::Terminal
                } else {
                    SymbolKind::TreeNode
                };
                self.refer_in(kind, start, Usage::Root, Some(tree));
            }
            for node in map(value.get("nodes")) {
                for (_, branch) in seq(node.value.get("branches")) {
                    let Some(next) = branch.get("next") else {
                        continue;
                    };
                    let name = next.as_str().unwrap_or_default();
                    let (kind, scope) = if nodes.iter().any(|n| n == name) {
                        (SymbolKind::TreeNode, Some(tree))
                    } else if terminals.iter().any(|t| t == name) {
                        (SymbolKind::Terminal, Some(tree))
                    } else {
                        (SymbolKind::Step, None)
                    };
                    self.refer_in(kind, next, Usage::Next, scope);
                }
            }
        }
    }

    fn workflow(&mut self, root: &Node) {
        for entry in map(root.get("nodes")) {
            let at = format!("/nodes/{}", token(&entry.key));
            self.define(SymbolKind::WorkflowNode, entry, at, None);
            self.refer_all(
                SymbolKind::WorkflowNode,
                entry.value.get("depends_on"),
                Usage::DependsOn,
            );
            if let Some(reference) = entry.value.get("logic_ref") {
                if let Some(text) = reference.as_str() {
                    self.out.files.push(FileRef {
                        reference: text.to_owned(),
                        span: reference.span(),
                        alias: None,
                        node: Some(entry.key.to_string()),
                    });
                }
            }
        }
        if root.get("nodes").and_then(Node::as_map).is_some() {
            for (_, edge) in seq(root.get("edges")) {
                for end in ["from", "to"] {
                    if let Some(node) = edge.get(end) {
                        self.refer(SymbolKind::WorkflowNode, node, Usage::EdgeEnd);
                    }
                }
            }
        }
    }

    fn imports(&mut self, root: &Node) {
        for (index, import) in seq(root.get("imports")) {
            let alias = import.get("as").and_then(text_of);
            if let Some((name, node)) = &alias {
                self.out.definitions.push(Definition {
                    kind: SymbolKind::Import,
                    name: name.clone(),
                    scope: None,
                    span: node.span(),
                    full: import.span(),
                    pointer: format!("/imports/{index}"),
                });
            }
            if let Some(reference) = import.get("ref") {
                if let Some(text) = reference.as_str() {
                    self.out.files.push(FileRef {
                        reference: text.to_owned(),
                        span: reference.span(),
                        alias: alias.as_ref().map(|(a, _)| a.to_string()),
                        node: None,
                    });
                }
            }
        }
    }

    /// `steps.NAME` and `input.NAME` inside every string holding `{{`.
    fn expressions(&mut self, node: &Node) {
        if let Some(entries) = node.as_map() {
            for entry in entries {
                self.expressions(&entry.value);
            }
        } else if let Some(items) = node.as_seq() {
            for item in items {
                self.expressions(item);
            }
        } else if let Some(value) = node.as_str() {
            let Some(found) = expressions(value) else {
                return;
            };
            let mut places = None;
            for expr in &found {
                for (root, kind) in [
                    ("steps", SymbolKind::Step),
                    ("input", SymbolKind::InputField),
                ] {
                    for (name, range) in members_of(expr, root) {
                        self.out.references.push(Reference {
                            kind,
                            name: Text::from(name),
                            scope: None,
                            span: places
                                .get_or_insert_with(|| ValuePlaces::new(self.text, node, value))
                                .span(range.start, range.len()),
                            usage: Usage::Expression,
                        });
                    }
                }
            }
        }
    }

    fn drtl(&mut self, root: &Node) {
        let ids: Vec<String> = seq(root.get("nodes"))
            .filter_map(|(_, n)| n.get("id").and_then(Node::as_str).map(str::to_owned))
            .collect();
        let is_node = |name: &str| ids.iter().any(|id| id == name);
        for (index, node) in seq(root.get("nodes")) {
            if let Some((name, id)) = node.get("id").and_then(text_of) {
                self.out.definitions.push(Definition {
                    kind: SymbolKind::DrtlNode,
                    name,
                    scope: None,
                    span: id.span(),
                    full: node.span(),
                    pointer: format!("/nodes/{index}"),
                });
            }
            for route in ["on_pass", "on_fail"] {
                if let Some(value) = node.get(route) {
                    let target = value.get("next").unwrap_or(value);
                    self.refer(SymbolKind::DrtlNode, target, Usage::Route);
                }
            }
            for (_, action) in seq(node.get("actions")) {
                for entry in action.as_map().unwrap_or_default() {
                    if let Some(next) = entry.value.get("next") {
                        self.refer(SymbolKind::DrtlNode, next, Usage::Route);
                    }
                }
            }
            if let Some(input) = node.get("input") {
                self.drtl_input(input, &is_node);
            }
        }
        for (_, edge) in seq(root.get("edges")) {
            for end in ["from", "to"] {
                if let Some(node) = edge.get(end) {
                    self.refer(SymbolKind::DrtlNode, node, Usage::EdgeEnd);
                }
            }
        }
        self.drtl_expressions(root, &is_node);
    }

    /// A node's `input`: `node.field` (a string, or the strings of a mapping) names a node.
    fn drtl_input(&mut self, input: &Node, is_node: &dyn Fn(&str) -> bool) {
        if let Some(entries) = input.as_map() {
            for entry in entries {
                self.drtl_input(&entry.value, is_node);
            }
            return;
        }
        let Some(text) = input.as_str() else {
            return;
        };
        if text.contains("{{") {
            return;
        }
        let head = text.split('.').next().unwrap_or_default();
        if is_node(head) {
            let span = ValuePlaces::new(self.text, input, text).span(0, head.len());
            self.out.references.push(Reference {
                kind: SymbolKind::DrtlNode,
                name: Text::from(head),
                scope: None,
                span,
                usage: Usage::Input,
            });
        }
    }

    /// Node ids read as the roots of `{{ }}` expressions (and of bare gate conditions).
    fn drtl_expressions(&mut self, root: &Node, is_node: &dyn Fn(&str) -> bool) {
        let mut strings = Vec::new();
        collect_strings(root, String::new(), &mut strings);
        for (pointer, node) in strings {
            if pointer.starts_with("/metadata") {
                continue;
            }
            let Some(value) = node.as_str() else {
                continue;
            };
            let parsed = if pointer.starts_with("/nodes/")
                && pointer.ends_with("/condition")
                && !value.contains("{{")
            {
                logicmd::expr::parse_expression(value, 0, logicmd::expr::ExprLimits::DEFAULT)
                    .ok()
                    .map(|e| vec![e])
            } else {
                expressions(value)
            };
            let mut places = None;
            for expr in parsed.unwrap_or_default() {
                for (name, range) in expr.roots() {
                    if is_node(&name) {
                        self.out.references.push(Reference {
                            kind: SymbolKind::DrtlNode,
                            name: Text::from(name),
                            scope: None,
                            span: places
                                .get_or_insert_with(|| ValuePlaces::new(self.text, node, value))
                                .span(range.start, range.len()),
                            usage: Usage::Expression,
                        });
                    }
                }
            }
        }
    }
}

fn collect_strings<'n>(node: &'n Node, pointer: String, out: &mut Vec<(String, &'n Node)>) {
    if let Some(entries) = node.as_map() {
        for entry in entries {
            collect_strings(
                &entry.value,
                format!("{pointer}/{}", token(&entry.key)),
                out,
            );
        }
    } else if let Some(items) = node.as_seq() {
        for (index, item) in items.iter().enumerate() {
            collect_strings(item, format!("{pointer}/{index}"), out);
        }
    } else if node.as_str().is_some() {
        out.push((pointer, node));
    }
}

/// A string scalar's text (shared, not copied) with its node.
fn text_of(node: &Node) -> Option<(Text, &Node)> {
    match &node.value {
        NodeValue::String(text) => Some((text.clone(), node)),
        _ => None,
    }
}

/// The entries of a mapping node (none for anything else).
pub(crate) fn map(node: Option<&Node>) -> impl Iterator<Item = &Entry> {
    node.and_then(Node::as_map).unwrap_or_default().iter()
}

/// The items of a sequence node with their indices (none for anything else).
pub(crate) fn seq(node: Option<&Node>) -> impl Iterator<Item = (usize, &Node)> {
    node.and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
}

/// A key as a JSON Pointer token.
pub(crate) fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

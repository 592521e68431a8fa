//! The run's state packet (DRTL §2.3: `artifacts` by output key, `claims`, `obligations`,
//! `trace`, `variables`) and what an expression reads: `input` (the node's input), `state`,
//! `injected`, every node id (its output as `node.<output_key>`, `node.output`, `node.outputs`,
//! `node.result`, `node.report`, and its input as `node.input`) and the `state_defaults` names
//! (their current values) — exactly the scope the static checks allow (`drtl::VARIABLES`).

use serde_json::{json, Map, Value};

use super::graph::Graph;
use crate::expr::{evaluate, parse_expression, Expr, ExprKind, ExprLimits, JsValue, Template};

/// Where an obligation stands, as the trace writes it.
pub(super) use crate::trace::ObligationStatus as Status;
/// How a rule's failure counts (§3.4), as the trace writes it.
pub(super) use crate::trace::RuleMode as Mode;

/// A check a verify node owes (§7.1.4: verification updates `state.obligations`).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Obligation {
    /// The verify node (index and id) and the rule's place in its `rules`.
    pub verify: usize,
    pub node: String,
    pub index: usize,
    pub rule: String,
    pub target: Option<String>,
    pub mode: Mode,
    pub status: Status,
    pub evidence: Value,
}

impl Obligation {
    /// A failed `block` rule nothing has discharged: the run may not publish past it.
    pub fn is_open(&self) -> bool {
        self.mode == Mode::Block && self.status == Status::Failed
    }

    pub fn to_json(&self) -> Value {
        json!({
            "node": self.node,
            "rule": self.rule,
            "target": self.target,
            "mode": self.mode.name(),
            "status": self.status.name(),
            "evidence": self.evidence,
        })
    }
}

/// The packet every node reads and the run returns.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    pub artifacts: Map<String, Value>,
    pub claims: Vec<Value>,
    pub obligations: Vec<Obligation>,
    pub trace: Vec<Value>,
    pub variables: Map<String, Value>,
    /// Messages of failed `warn` rules, given to every later model call (§3.4: "inject warning
    /// into context").
    pub warnings: Vec<String>,
}

impl State {
    pub fn to_json(&self) -> Value {
        json!({
            "artifacts": self.artifacts,
            "claims": self.claims,
            "obligations": self.obligations.iter().map(Obligation::to_json).collect::<Vec<_>>(),
            "trace": self.trace,
            "variables": self.variables,
            "warnings": self.warnings,
        })
    }
}

/// Everything expressions can read, and the node outputs and inputs so far.
pub(super) struct Store {
    pub state: State,
    pub outputs: Vec<Option<Value>>,
    pub inputs: Vec<Option<Value>>,
    /// What the route that activated each node injected (`null` when nothing).
    pub injected: Vec<Value>,
    pub run_input: Value,
    defaults: Vec<String>,
}

/// A node's own place in the scope: its input and what was injected into it.
#[derive(Clone, Copy)]
pub(super) struct Local<'v> {
    pub input: &'v Value,
    pub injected: &'v Value,
}

impl Store {
    pub fn new(topology: &Value, nodes: usize, run_input: &Value) -> Store {
        let variables = topology
            .get("state_defaults")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        Store {
            defaults: variables.keys().cloned().collect(),
            state: State {
                variables,
                ..State::default()
            },
            outputs: vec![None; nodes],
            inputs: vec![None; nodes],
            injected: vec![Value::Null; nodes],
            run_input: run_input.clone(),
        }
    }

    /// Records what a node made: readable by its id, and under its output key in
    /// `state.artifacts`.
    pub fn record(&mut self, graph: &Graph, node: usize, output: &Value) {
        self.outputs[node] = Some(output.clone());
        if let Some(key) = &graph.nodes[node].output_key {
            self.state.artifacts.insert(key.clone(), output.clone());
        }
    }

    /// The scope of an expression that reads `roots`: only those names are built.
    fn scope<'r>(
        &self,
        graph: &Graph,
        roots: impl IntoIterator<Item = &'r str>,
        local: Local<'_>,
    ) -> Value {
        let mut scope = Map::new();
        for root in roots {
            if scope.contains_key(root) {
                continue;
            }
            let value = match root {
                "input" => local.input.clone(),
                "state" => self.state.to_json(),
                "injected" => local.injected.clone(),
                name => match graph.nodes.iter().position(|n| n.id == name) {
                    Some(node) => self.view(graph, node),
                    None if self.defaults.iter().any(|d| d == name) => self
                        .state
                        .variables
                        .get(name)
                        .cloned()
                        .unwrap_or(Value::Null),
                    None => continue,
                },
            };
            scope.insert(root.to_owned(), value);
        }
        Value::Object(scope)
    }

    /// A node as expressions see it: `null` until it has run.
    fn view(&self, graph: &Graph, node: usize) -> Value {
        let Some(output) = &self.outputs[node] else {
            return Value::Null;
        };
        let mut view = Map::new();
        if let Some(key) = &graph.nodes[node].output_key {
            view.insert(key.clone(), output.clone());
        }
        for alias in ["output", "outputs", "result", "report"] {
            view.entry(alias).or_insert_with(|| output.clone());
        }
        view.entry("input")
            .or_insert_with(|| self.inputs[node].clone().unwrap_or(Value::Null));
        Value::Object(view)
    }

    fn names_in_scope(&self, graph: &Graph, name: &str) -> bool {
        crate::drtl::VARIABLES.contains(&name)
            || graph.nodes.iter().any(|n| n.id == name)
            || self.defaults.iter().any(|d| d == name)
    }

    /// A `{{ }}` template (a whole-string expression gives its JSON value; text interpolates).
    pub fn template(&self, graph: &Graph, text: &str, local: Local<'_>) -> Result<Value, String> {
        let template = Template::parse(text).map_err(|e| e.message)?;
        let roots: Vec<String> = template
            .expressions()
            .iter()
            .flat_map(|e| e.roots())
            .map(|(root, _)| root)
            .collect();
        let scope = self.scope(graph, roots.iter().map(String::as_str), local);
        template.evaluate(&scope).map_err(|e| e.message)
    }

    /// A gate condition: one expression, bare or alone inside `{{ }}`, truthy or not.
    pub fn condition(&self, graph: &Graph, text: &str, local: Local<'_>) -> Result<bool, String> {
        if text.contains("{{") {
            return self
                .template(graph, text, local)
                .map(|v| JsValue::from_json(&v).truthy());
        }
        let expr = parse_expression(text, 0, ExprLimits::DEFAULT).map_err(|e| e.message)?;
        self.evaluate(graph, &expr, local).map(|v| v.truthy())
    }

    fn evaluate(&self, graph: &Graph, expr: &Expr, local: Local<'_>) -> Result<JsValue, String> {
        let roots = expr.roots();
        let scope = self.scope(graph, roots.iter().map(|(r, _)| r.as_str()), local);
        evaluate(expr, &scope, ExprLimits::DEFAULT).map_err(|e| e.message)
    }

    /// A value as `input` and `inject` write it: a template is evaluated, a plain reference
    /// (`node.key`, `state.variables.x`, a `state_defaults` name) is read, other strings are
    /// literal text; maps and lists are resolved item by item.
    pub fn resolve_references(
        &self,
        graph: &Graph,
        value: &Value,
        local: Local<'_>,
    ) -> Result<Value, String> {
        Ok(match value {
            Value::String(text) if text.contains("{{") => self.template(graph, text, local)?,
            Value::String(text) => match self.reference(graph, text) {
                Some(expr) => self
                    .evaluate(graph, &expr, local)?
                    .to_json(0, 0)
                    .map_err(|e| e.message)?,
                None => value.clone(),
            },
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| self.resolve_references(graph, item, local))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, item)| {
                        Ok((key.clone(), self.resolve_references(graph, item, local)?))
                    })
                    .collect::<Result<_, String>>()?,
            ),
            other => other.clone(),
        })
    }

    /// `text` as a plain reference: a member chain whose root is in scope.
    fn reference(&self, graph: &Graph, text: &str) -> Option<Expr> {
        if text.chars().any(char::is_whitespace) {
            return None;
        }
        let expr = parse_expression(text, 0, ExprLimits::DEFAULT).ok()?;
        let root = chain_root(&expr)?;
        self.names_in_scope(graph, root).then_some(expr)
    }
}

/// The root identifier of `a.b[0].c`, when the expression is only such a chain.
fn chain_root(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Identifier(name) => Some(name),
        ExprKind::Member(object, _) => chain_root(object),
        ExprKind::Index(object, index) if matches!(index.kind, ExprKind::Number(_)) => {
            chain_root(object)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fixture() -> (Graph, Store) {
        let topology = json!({
            "name": "t",
            "state_defaults": {"loop_count": 2},
            "nodes": [
                {"id": "draft", "type": "generate", "output_key": "essay"},
                {"id": "check", "type": "verify", "input": "draft.essay", "rules": [{"id": "x", "mode": "warn"}]},
            ],
            "edges": [{"from": "draft", "to": "check"}]
        });
        let graph = Graph::new(&topology).unwrap();
        let mut store = Store::new(&topology, 2, &json!({"topic": "t"}));
        store.record(&graph, 0, &json!({"title": "T", "words": 120}));
        store.inputs[0] = Some(json!({"topic": "t"}));
        (graph, store)
    }

    #[test]
    fn references_read_outputs_variables_and_state_and_other_text_is_literal() {
        let (graph, store) = fixture();
        let input = json!({"k": 1});
        let local = Local {
            input: &input,
            injected: &Value::Null,
        };
        let resolved = store
            .resolve_references(
                &graph,
                &json!({
                    "essay": "draft.essay",
                    "title": "draft.output.title",
                    "given": "draft.input.topic",
                    "count": "loop_count",
                    "variables": "state.variables",
                    "text": "just words",
                    "unknown": "other.key",
                    "sum": "{{ draft.essay.words + loop_count }}",
                    "said": "{{ input.k }} and {{ draft.essay.title }}",
                }),
                local,
            )
            .unwrap();
        assert_eq!(
            resolved,
            json!({
                "essay": {"title": "T", "words": 120},
                "title": "T",
                "given": "t",
                "count": 2,
                "variables": {"loop_count": 2},
                "text": "just words",
                "unknown": "other.key",
                "sum": 122,
                "said": "1 and T",
            })
        );
        assert_eq!(store.condition(&graph, "loop_count < 3", local), Ok(true));
        assert_eq!(
            store.condition(&graph, "{{ check.report.passed }}", local),
            Ok(false),
            "a node that has not run reads as null"
        );
    }
}

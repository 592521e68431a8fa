//! What the units of one document share while it runs: the typed spec and compiled scaffolds,
//! the input, every step's latest output, and the expression context `{{ }}` checks read. The
//! context is one value kept up to date as outputs arrive; building it afresh for each check
//! copied every output each time, which made a run quadratic in its steps.

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Map, Value};

use super::context::confidence_of;
use crate::compile::{compile, CompiledStep};
use crate::model::Spec;

/// A declared `thinking_budget` of none is no limit (kept within JavaScript's safe integers).
const NO_BUDGET: u64 = u64::MAX >> 11;

pub(crate) struct Shared {
    pub spec: Spec,
    json: Value,
    pub compiled: HashMap<String, CompiledStep>,
    pub finals: Vec<String>,
    pub input: Value,
    /// The latest output of every step that produced one.
    outputs: Map<String, Value>,
    /// The expression context (spec §4.2, and the runtime variables lint knows): `input`,
    /// `output`, `steps.NAME.output`, `attempts`, `confidence`, `iteration`, `reasoning`,
    /// `contracts`, `metadata`, and `reason` for escalation triggers.
    scope: Value,
    /// Trace node ids are `prefix` + step name (`researcher/search` inside a workflow node).
    pub prefix: String,
    pub tokens_used: u64,
    pub iteration: u64,
    pub max_iterations: u64,
    pub tools_disabled: BTreeSet<usize>,
}

impl Shared {
    pub fn new(
        spec: Spec,
        json: Value,
        compiled: Vec<CompiledStep>,
        finals: Vec<String>,
        input: Value,
        prefix: &str,
        max_iterations: u64,
    ) -> Shared {
        let scope = json!({
            "input": input,
            "output": null,
            "steps": {},
            "attempts": 0,
            "confidence": null,
            "iteration": 0,
            "reasoning": {},
            "contracts": json.get("contracts"),
            "metadata": json.get("metadata"),
            "reason": null,
        });
        Shared {
            spec,
            json,
            compiled: compiled.into_iter().map(|s| (s.name.clone(), s)).collect(),
            finals,
            input,
            outputs: Map::new(),
            scope,
            prefix: prefix.to_owned(),
            tokens_used: 0,
            iteration: 0,
            max_iterations,
            tools_disabled: BTreeSet::new(),
        }
    }

    pub fn node_id(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The trace node of the document itself: its workflow node, or none for a document run
    /// on its own.
    pub fn document_node(&self) -> Option<String> {
        self.prefix.strip_suffix('/').map(str::to_owned)
    }

    /// Step `name`'s latest output.
    pub fn output(&self, name: &str) -> Option<&Value> {
        self.outputs.get(name)
    }

    /// Step `name` produced `output`.
    pub fn record(&mut self, name: &str, output: Value) {
        if let Some(steps) = self.scope["steps"].as_object_mut() {
            steps.insert(name.to_owned(), json!({ "output": output.clone() }));
        }
        self.outputs.insert(name.to_owned(), output);
    }

    /// Step `name` has no output (it was skipped).
    pub fn forget(&mut self, name: &str) {
        if let Some(steps) = self.scope["steps"].as_object_mut() {
            steps.remove(name);
        }
        self.outputs.remove(name);
    }

    /// The context a check of `output` reads, at the `attempts`-th attempt.
    pub fn context(&mut self, output: Option<&Value>, attempts: u32) -> &Value {
        self.context_with_reason(output, attempts, None)
    }

    /// The context with `reason` (why an escalation trigger is being read).
    pub fn context_with_reason(
        &mut self,
        output: Option<&Value>,
        attempts: u32,
        reason: Option<&str>,
    ) -> &Value {
        let reasoning = json!({
            "strategy": self.spec.reasoning.strategy,
            "current_iteration": self.iteration,
            "max_iterations": self.max_iterations,
            "tokens_used": self.tokens_used,
            "thinking_budget": self.spec.reasoning.thinking_budget.unwrap_or(NO_BUDGET),
        });
        if let Some(scope) = self.scope.as_object_mut() {
            scope.insert("output".into(), output.cloned().unwrap_or(Value::Null));
            scope.insert("attempts".into(), attempts.into());
            scope.insert(
                "confidence".into(),
                output
                    .and_then(confidence_of)
                    .map_or(Value::Null, Value::from),
            );
            scope.insert("iteration".into(), self.iteration.into());
            scope.insert("reasoning".into(), reasoning);
            scope.insert("reason".into(), reason.map_or(Value::Null, Value::from));
        }
        &self.scope
    }

    /// Step `index`'s scaffold as if the document's strategy were `strategy`.
    pub fn scaffold_with_strategy(&self, index: usize, strategy: &str) -> String {
        let mut json = self.json.clone();
        json["reasoning"]["strategy"] = strategy.into();
        let name = &self.spec.steps[index].name;
        compile(&json)
            .ok()
            .and_then(|c| c.steps.into_iter().find(|s| &s.name == name))
            .map(|s| s.scaffold)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Shared {
        let json =
            json!({"name": "t", "metadata": {"team": "a"}, "reasoning": {"strategy": "cot"}});
        Shared::new(
            Spec::read(&json),
            json,
            Vec::new(),
            Vec::new(),
            json!({"q": 1}),
            "",
            3,
        )
    }

    #[test]
    fn the_context_follows_the_outputs_and_the_check_at_hand() {
        let mut shared = shared();
        shared.record("a", json!({"n": 1}));
        shared.record("b", json!("text"));
        shared.forget("b");
        shared.tokens_used = 40;
        let context = shared
            .context_with_reason(Some(&json!({"confidence": 0.4})), 2, Some("low"))
            .clone();
        assert_eq!(
            context,
            json!({
                "input": {"q": 1},
                "output": {"confidence": 0.4},
                "steps": {"a": {"output": {"n": 1}}},
                "attempts": 2,
                "confidence": 0.4,
                "iteration": 0,
                "reasoning": {"strategy": "cot", "current_iteration": 0, "max_iterations": 3, "tokens_used": 40, "thinking_budget": NO_BUDGET},
                "contracts": null,
                "metadata": {"team": "a"},
                "reason": "low",
            })
        );
        let later = shared.context(None, 0);
        assert_eq!(later["output"], Value::Null);
        assert_eq!(later["reason"], Value::Null);
        assert_eq!(later["confidence"], Value::Null);
    }
}

//! The plan a trace carries in `run_started`: every node, what it runs after, what may choose
//! it, its retry bound and join. The built-in rules read the run's obligations from it, so a
//! trace is checked on its own, without the document.

use rustc_hash::FxHashMap;
use serde_json::Value;

/// A parallel step that may start before all its members settle (LOGIC.md §4.3 `join`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Join {
    /// `any`: one member finished is enough; otherwise a majority.
    pub any: bool,
    pub of: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlanNode {
    pub id: String,
    /// `step`, `tree` or `node` (workflow nodes) for LOGIC.md; the node type for DRTL.
    pub kind: String,
    pub after: Vec<usize>,
    pub chosen_by: Vec<usize>,
    pub max_attempts: Option<u64>,
    pub join: Option<Join>,
    /// The node this one is part of (`researcher` for `researcher/search`).
    pub parent: Option<usize>,
    /// Nodes that run after this one or may be chosen by it.
    pub dependents: Vec<usize>,
    pub children: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    pub nodes: Vec<PlanNode>,
    index: FxHashMap<String, usize>,
}

impl Plan {
    /// The plan of the trace's first `run_started`, or what is missing.
    pub fn of_trace(events: &[Value]) -> Result<Plan, String> {
        let started = events
            .iter()
            .find(|e| e.get("event").and_then(Value::as_str) == Some("run_started"))
            .ok_or("the trace has no `run_started` event, so no plan to check against")?;
        let nodes = started
            .pointer("/plan/nodes")
            .and_then(Value::as_array)
            .ok_or("`run_started` has no `plan.nodes` list to check against")?;
        let mut plan = Plan {
            nodes: Vec::with_capacity(nodes.len()),
            index: FxHashMap::default(),
        };
        for (i, entry) in nodes.iter().enumerate() {
            plan.read_entry(entry)
                .ok_or_else(|| format!("`run_started.plan.nodes[{i}]` has no `id`"))?;
        }
        plan.link();
        Ok(plan)
    }

    fn intern(&mut self, id: &str) -> usize {
        if let Some(&node) = self.index.get(id) {
            return node;
        }
        self.nodes.push(PlanNode {
            id: id.to_owned(),
            kind: "unknown".to_owned(),
            after: Vec::new(),
            chosen_by: Vec::new(),
            max_attempts: None,
            join: None,
            parent: None,
            dependents: Vec::new(),
            children: Vec::new(),
        });
        self.index.insert(id.to_owned(), self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    /// The nodes named by a list of ids (each once: a workflow edge and `depends_on` may both
    /// name the same source).
    fn ids(&mut self, list: Option<&Value>) -> Vec<usize> {
        let ids = list
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str);
        let mut nodes: Vec<usize> = Vec::new();
        for id in ids {
            let node = self.intern(id);
            if !nodes.contains(&node) {
                nodes.push(node);
            }
        }
        nodes
    }

    /// Reads one entry, its fields in one pass; `None` when it has no `id`.
    fn read_entry(&mut self, entry: &Value) -> Option<()> {
        let (mut id, mut kind, mut after, mut chosen_by) = (None, None, None, None);
        let (mut max_attempts, mut join, mut join_of) = (None, None, None);
        for (key, value) in entry.as_object()? {
            match key.as_str() {
                "id" => id = value.as_str(),
                "kind" => kind = value.as_str(),
                "after" => after = Some(value),
                "chosen_by" => chosen_by = Some(value),
                "max_attempts" => max_attempts = value.as_u64(),
                "join" => join = value.as_str(),
                "join_of" => join_of = Some(value),
                _ => {}
            }
        }
        let node = self.intern(id?);
        let after = self.ids(after);
        let chosen_by = self.ids(chosen_by);
        let join_of = self.ids(join_of);
        let node = &mut self.nodes[node];
        node.kind = kind.unwrap_or("unknown").to_owned();
        node.after = after;
        node.chosen_by = chosen_by;
        node.max_attempts = max_attempts;
        node.join = join.map(|mode| Join {
            any: mode == "any",
            of: join_of,
        });
        Some(())
    }

    /// Dependents, and parents: the longest proper prefix `p/` of an id that is a node.
    fn link(&mut self) {
        for node in 0..self.nodes.len() {
            for source in self.nodes[node]
                .after
                .clone()
                .into_iter()
                .chain(self.nodes[node].chosen_by.clone())
            {
                if !self.nodes[source].dependents.contains(&node) {
                    self.nodes[source].dependents.push(node);
                }
            }
            let id = &self.nodes[node].id;
            let parent = id
                .char_indices()
                .rev()
                .filter(|&(_, c)| c == '/')
                .find_map(|(at, _)| self.index.get(&id[..at]).copied());
            if let Some(parent) = parent {
                self.nodes[node].parent = Some(parent);
                self.nodes[parent].children.push(node);
            }
        }
    }

    pub fn node(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The id of `name` as chosen by `chooser`: both inside the same parent.
    pub fn sibling(&self, chooser: usize, name: &str) -> Option<usize> {
        match self.nodes[chooser].parent {
            Some(parent) => self.node(&format!("{}/{name}", self.nodes[parent].id)),
            None => self.node(name),
        }
    }

    /// Everything after `node`: its dependents, their dependents, and the parts of each.
    pub fn after_closure(&self, node: usize) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<usize> = self.nodes[node]
            .dependents
            .iter()
            .chain(&self.nodes[node].children)
            .copied()
            .collect();
        while let Some(next) = stack.pop() {
            if std::mem::replace(&mut seen[next], true) {
                continue;
            }
            stack.extend(&self.nodes[next].dependents);
            stack.extend(&self.nodes[next].children);
        }
        seen
    }

    /// `node` and every node it is part of.
    pub fn with_ancestors(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(node), |&n| self.nodes[n].parent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_plan_with_dependents_and_parents() {
        let events = [json!({"event": "run_started", "plan": {"nodes": [
            {"id": "a", "kind": "node", "after": [], "chosen_by": [], "max_attempts": 3},
            {"id": "b", "kind": "node", "after": ["a", "a"], "chosen_by": []},
            {"id": "a/x", "kind": "step", "after": [], "chosen_by": []},
            {"id": "a/tree:t", "kind": "tree", "after": ["a/x"], "chosen_by": []},
            {"id": "a/y", "kind": "step", "after": [], "chosen_by": ["a/tree:t"], "join": "any", "join_of": ["a/x"]},
            {"id": "c", "kind": "step", "after": ["ghost"]}
        ]}})];
        let plan = Plan::of_trace(&events).unwrap();
        let id = |n: usize| plan.nodes[n].id.as_str();
        let a = plan.node("a").unwrap();
        assert_eq!(plan.nodes[a].max_attempts, Some(3));
        assert_eq!(plan.nodes[plan.node("b").unwrap()].after, [a]);
        assert_eq!(
            plan.nodes[a]
                .dependents
                .iter()
                .map(|&n| id(n))
                .collect::<Vec<_>>(),
            ["b"]
        );
        assert_eq!(
            plan.nodes[a]
                .children
                .iter()
                .map(|&n| id(n))
                .collect::<Vec<_>>(),
            ["a/x", "a/tree:t", "a/y"]
        );
        let y = plan.node("a/y").unwrap();
        assert_eq!(plan.nodes[y].parent, Some(a));
        assert_eq!(
            plan.nodes[y].join,
            Some(Join {
                any: true,
                of: vec![plan.node("a/x").unwrap()]
            })
        );
        assert_eq!(plan.sibling(plan.node("a/tree:t").unwrap(), "y"), Some(y));
        assert_eq!(plan.nodes[plan.node("ghost").unwrap()].kind, "unknown");
        let after_x: Vec<&str> = plan
            .after_closure(plan.node("a/x").unwrap())
            .iter()
            .enumerate()
            .filter(|(_, &s)| s)
            .map(|(n, _)| id(n))
            .collect();
        assert_eq!(after_x, ["a/tree:t", "a/y"]);
        assert_eq!(
            plan.with_ancestors(y).map(id).collect::<Vec<_>>(),
            ["a/y", "a"]
        );
    }

    #[test]
    fn a_trace_without_a_plan_says_what_is_missing() {
        assert_eq!(
            Plan::of_trace(&[json!({"event": "node_started"})]).unwrap_err(),
            "the trace has no `run_started` event, so no plan to check against"
        );
        assert_eq!(
            Plan::of_trace(&[json!({"event": "run_started"})]).unwrap_err(),
            "`run_started` has no `plan.nodes` list to check against"
        );
        assert_eq!(
            Plan::of_trace(&[
                json!({"event": "run_started", "plan": {"nodes": [{"kind": "step"}]}})
            ])
            .unwrap_err(),
            "`run_started.plan.nodes[0]` has no `id`"
        );
    }
}

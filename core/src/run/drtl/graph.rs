//! The topology as the runtime walks it: each node with its definition, every route as a
//! [`Link`] (a plain edge, a gate branch, a review action, or the end `terminate`), the entries,
//! and which links go back (loops). Routes come from the DRTL routes model
//! (`Topology::nodes`), and a gate's labelled edges are branches as the obligation analysis reads
//! them (`check::branch_kind`), so the runtime and `logicmd check` walk the same graph.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::check::branch_kind;
use crate::drtl::{RouteKind, TERMINATE};
use crate::run::RunError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Generate,
    FanOut,
    Aggregate,
    Verify,
    Gate,
    Debate,
    Transform,
    Review,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        Some(match name {
            "generate" => Kind::Generate,
            "fan_out" => Kind::FanOut,
            "aggregate" => Kind::Aggregate,
            "verify" => Kind::Verify,
            "gate" => Kind::Gate,
            "debate" => Kind::Debate,
            "transform" => Kind::Transform,
            "review" => Kind::Review,
            _ => return None,
        })
    }
}

/// A node of the topology.
#[derive(Debug, Clone)]
pub(super) struct NodeDef {
    pub id: String,
    pub kind: Kind,
    /// The node's definition as written.
    pub def: Value,
    pub output_key: Option<String>,
}

impl NodeDef {
    pub fn text(&self, field: &str) -> Option<&str> {
        self.def.get(field).and_then(Value::as_str)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Target {
    Node(usize),
    /// `terminate`: the run ends here (DRTL §3.8).
    Terminate,
}

/// When a link fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Trigger {
    /// Whenever its source finishes: a plain edge (an `if` without `{{ }}` is a label).
    Always,
    /// A plain edge whose `if` is a `{{ }}` template: when it holds.
    Condition(String),
    /// A gate's pass branch (`on_pass`, or an edge with a label that is not a failure's).
    Pass,
    /// A gate's fail branch (`on_fail`, or an edge labelled with fail, reject or exceed).
    Fail,
    /// A review action with a route.
    Action(String),
}

#[derive(Debug, Clone)]
pub(super) struct Link {
    pub from: usize,
    pub to: Target,
    pub trigger: Trigger,
    /// What the route hands its target as `injected` (`{next, inject}`).
    pub inject: Option<Value>,
    /// The link closes a loop: its target is an ancestor of its source in the depth-first
    /// search from the entries.
    pub back: bool,
}

impl Link {
    pub fn target(&self) -> Option<usize> {
        match self.to {
            Target::Node(n) => Some(n),
            Target::Terminate => None,
        }
    }

    /// A link a join waits for: a route forwards to a node.
    pub fn is_forward(&self) -> bool {
        !self.back && self.target().is_some()
    }
}

pub(super) struct Graph {
    pub nodes: Vec<NodeDef>,
    pub links: Vec<Link>,
    /// Links by source, in declaration order (node routes, then edges).
    pub outgoing: Vec<Vec<usize>>,
    /// Forward links by target: what a node waits for.
    pub incoming: Vec<Vec<usize>>,
    /// Nodes nothing routes to (else the first node): they start the run.
    pub entries: Vec<usize>,
}

impl Graph {
    pub fn new(topology: &Value) -> Result<Graph, RunError> {
        let routes = routes_model(topology)?;
        let mut ids = BTreeMap::new();
        let mut nodes = Vec::new();
        for (index, node) in routes.iter().enumerate() {
            if ids.insert(node.id.clone(), index).is_some() {
                return Err(RunError::new(format!(
                    "node id `{}` is used twice",
                    node.id
                )));
            }
            let kind = Kind::of(&node.kind).ok_or_else(|| {
                RunError::new(format!(
                    "node `{}` has the unknown type `{}`",
                    node.id, node.kind
                ))
            })?;
            nodes.push(NodeDef {
                id: node.id.clone(),
                kind,
                def: topology.pointer(&node.pointer).cloned().unwrap_or_default(),
                output_key: node.output_key.clone(),
            });
        }
        let mut links = Vec::new();
        for (from, node) in routes.iter().enumerate() {
            for route in &node.routes {
                let to = match ids.get(&route.target) {
                    Some(&n) => Target::Node(n),
                    None if route.target == TERMINATE => Target::Terminate,
                    None => {
                        return Err(RunError::new(format!(
                            "`{}` routes to `{}`, which is not a node",
                            node.id, route.target
                        )))
                    }
                };
                links.push(Link {
                    from,
                    to,
                    trigger: trigger(route, &node.kind),
                    inject: route_object(topology, &route.pointer)
                        .and_then(|r| r.get("inject"))
                        .cloned(),
                    back: false,
                });
            }
        }
        let mut graph = Graph {
            outgoing: vec![Vec::new(); nodes.len()],
            incoming: vec![Vec::new(); nodes.len()],
            entries: Vec::new(),
            nodes,
            links,
        };
        for (index, link) in graph.links.iter().enumerate() {
            graph.outgoing[link.from].push(index);
        }
        graph.entries = graph.find_entries();
        graph.mark_back_links();
        for (index, link) in graph.links.iter().enumerate() {
            if let (true, Some(to)) = (link.is_forward(), link.target()) {
                graph.incoming[to].push(index);
            }
        }
        Ok(graph)
    }

    fn find_entries(&self) -> Vec<usize> {
        let mut routed = vec![false; self.nodes.len()];
        for link in &self.links {
            if let Some(to) = link.target() {
                routed[to] = true;
            }
        }
        let entries: Vec<usize> = (0..self.nodes.len()).filter(|&n| !routed[n]).collect();
        if entries.is_empty() && !self.nodes.is_empty() {
            return vec![0];
        }
        entries
    }

    /// Depth-first search from the entries, then from any node not yet seen, in declaration
    /// order (iterative: topologies can be large); a link to a node on the search path is a
    /// loop.
    fn mark_back_links(&mut self) {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            OnPath,
            Done,
        }
        let mut marks = vec![Mark::New; self.nodes.len()];
        let roots: Vec<usize> = self
            .entries
            .iter()
            .copied()
            .chain(0..self.nodes.len())
            .collect();
        for root in roots {
            if marks[root] != Mark::New {
                continue;
            }
            marks[root] = Mark::OnPath;
            // (node, position in its outgoing links)
            let mut stack = vec![(root, 0usize)];
            while let Some(top) = stack.last_mut() {
                let (node, position) = *top;
                top.1 += 1;
                let Some(&link) = self.outgoing[node].get(position) else {
                    marks[node] = Mark::Done;
                    stack.pop();
                    continue;
                };
                let Some(to) = self.links[link].target() else {
                    continue;
                };
                match marks[to] {
                    Mark::OnPath => self.links[link].back = true,
                    Mark::New => {
                        marks[to] = Mark::OnPath;
                        stack.push((to, 0));
                    }
                    Mark::Done => {}
                }
            }
        }
    }

    /// Every node reachable from `start` by any route, `start` included.
    pub fn reachable_from(&self, start: usize) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        seen[start] = true;
        let mut pending = vec![start];
        while let Some(node) = pending.pop() {
            for &link in &self.outgoing[node] {
                if let Some(to) = self.links[link].target() {
                    if !seen[to] {
                        seen[to] = true;
                        pending.push(to);
                    }
                }
            }
        }
        seen
    }

    /// The nodes a loop back to `start` runs again: those reachable from it by forward links.
    pub fn loop_region(&self, start: usize) -> Vec<usize> {
        let mut seen = vec![false; self.nodes.len()];
        seen[start] = true;
        let mut pending = vec![start];
        let mut region = vec![start];
        while let Some(node) = pending.pop() {
            for &link in &self.outgoing[node] {
                let link = &self.links[link];
                if let (true, Some(to)) = (link.is_forward(), link.target()) {
                    if !seen[to] {
                        seen[to] = true;
                        pending.push(to);
                        region.push(to);
                    }
                }
            }
        }
        crate::sorting::sort(&mut region);
        region
    }

    pub fn is_entry(&self, node: usize) -> bool {
        self.entries.contains(&node)
    }
}

/// The DRTL routes model of `topology` (written as JSON, which is YAML, and read back).
fn routes_model(topology: &Value) -> Result<Vec<crate::drtl::DrtlNode>, RunError> {
    let text = serde_json::to_string(topology)
        .map_err(|error| RunError::new(format!("the topology cannot be read: {error}")))?;
    match crate::drtl::parse(&text) {
        (Some(parsed), _) => Ok(parsed.nodes()),
        (None, problems) => Err(RunError::new(format!(
            "the topology cannot be read: {}",
            problems
                .first()
                .map_or("it is not a mapping", |p| p.message.as_str())
        ))),
    }
}

fn trigger(route: &crate::drtl::Route, node_kind: &str) -> Trigger {
    match branch_kind(route, node_kind) {
        RouteKind::Pass => Trigger::Pass,
        RouteKind::Fail => Trigger::Fail,
        RouteKind::Action => Trigger::Action(route.label.clone().unwrap_or_default()),
        RouteKind::Edge => match &route.label {
            Some(label) if label.contains("{{") => Trigger::Condition(label.clone()),
            _ => Trigger::Always,
        },
    }
}

/// The `{next, inject}` object a route's target was written in, if that form was used.
fn route_object<'t>(topology: &'t Value, target_pointer: &str) -> Option<&'t Value> {
    let object = target_pointer.strip_suffix("/next")?;
    topology.pointer(object).filter(|v| v.is_object())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn loops_are_the_links_back_to_the_search_path() {
        let topology = json!({
            "name": "t",
            "nodes": [
                {"id": "a", "type": "generate", "output_key": "a"},
                {"id": "g", "type": "gate", "condition": "true", "on_pass": "b", "on_fail": {"next": "a", "inject": "a.a"}},
                {"id": "b", "type": "review", "input": "a.a", "actions": [{"retry": {"next": "a"}}, {"stop": {"next": "terminate"}}, "done"]},
            ],
            "edges": [{"from": "a", "to": "g"}]
        });
        let graph = Graph::new(&topology).unwrap();
        let shown: Vec<String> = graph
            .links
            .iter()
            .map(|l| {
                format!(
                    "{}->{:?} {:?}{}{}",
                    graph.nodes[l.from].id,
                    l.target().map(|t| graph.nodes[t].id.as_str()),
                    l.trigger,
                    if l.back { " back" } else { "" },
                    l.inject
                        .as_ref()
                        .map_or(String::new(), |i| format!(" inject {i}"))
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                "a->Some(\"g\") Always",
                "g->Some(\"b\") Pass",
                "g->Some(\"a\") Fail back inject \"a.a\"",
                "b->Some(\"a\") Action(\"retry\") back",
                "b->None Action(\"stop\")",
            ]
        );
        assert_eq!(
            graph.entries,
            [0],
            "every node is routed to: the first enters"
        );
        assert_eq!(graph.loop_region(0), [0, 1, 2]);
        assert_eq!(graph.incoming[0], Vec::<usize>::new());
    }

    #[test]
    fn an_unknown_route_is_an_error_not_a_panic() {
        let topology = json!({"name": "t", "nodes": [{"id": "g", "type": "gate", "condition": "true", "on_pass": "nowhere"}]});
        let error = Graph::new(&topology).err().map(|e| e.message);
        assert_eq!(
            error.as_deref(),
            Some("`g` routes to `nowhere`, which is not a node")
        );
    }
}

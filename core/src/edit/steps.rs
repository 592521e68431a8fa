//! Edits expressed in terms of the document's meaning (steps, their dependencies, positions),
//! each made of verified primitive edits.

use serde_json::{json, Map, Value};

use super::workflow::remove_matching;
use super::{refused, to_pointer, Edit, Session};
use crate::diagnostic::Diagnostic;
use crate::expr::Template;
use crate::json::pointer_push;

pub(super) fn run(session: &mut Session, edit: &Edit) -> Result<(), Diagnostic> {
    match edit {
        Edit::Set { path, value } => {
            let pointer = to_pointer(path)?;
            if let Some(why) = super::dotted_key_conflict(session.json(), path) {
                return Err(refused(why));
            }
            session.set(&pointer, value)
        }
        Edit::Remove { path } => {
            let pointer = to_pointer(path)?;
            // Removing a step or a topology node is the structural removal: its references go
            // (or refuse) with it.
            let element = removed_element(&pointer);
            let element = element.as_ref().map(|(c, k)| (c.as_str(), k.as_str()));
            match (session.is_drtl(), element) {
                (false, Some(("steps", name))) => remove_step(session, name),
                (false, Some(("nodes", name))) => super::workflow::remove_node(session, name),
                (true, Some(("nodes", index))) => match super::drtl::id_at(session, index) {
                    Some(id) => super::drtl::remove_node(session, &id),
                    None => session.remove(&pointer),
                },
                _ => session.remove(&pointer),
            }
        }
        Edit::Insert { path, index, value } => session.insert(&to_pointer(path)?, *index, value),
        Edit::AddNode { node, after } => super::drtl::add_node(session, node, after.as_deref()),
        Edit::RemoveNode { id } => super::drtl::remove_node(session, id),
        Edit::SetRoute {
            node,
            route,
            target,
        } => super::drtl::set_route(session, node, route, target),
        Edit::Connect {
            from,
            to,
            from_port,
            to_port,
        } => {
            super::connect::check(
                session,
                &super::connect::Wire {
                    from,
                    to,
                    from_port: from_port.as_deref(),
                    to_port: to_port.as_deref(),
                },
            )?;
            if session.is_drtl() {
                super::drtl::connect(session, from, to)
            } else {
                connect(session, from, to)
            }
        }
        Edit::Disconnect { from, to } if session.is_drtl() => {
            super::drtl::disconnect(session, from, to)
        }
        Edit::AddStep { .. }
        | Edit::RemoveStep { .. }
        | Edit::RemoveSteps { .. }
        | Edit::RenameStep { .. }
            if session.is_drtl() =>
        {
            Err(refused(
                "a topology has no steps: step edits (add, remove, rename a step) apply to LOGIC.md files; a topology's nodes are edited as nodes (remove a node, connect two, set a field)",
            ))
        }
        Edit::AddStep { name, after, step } => add_step(session, name, after.as_deref(), step),
        Edit::RemoveStep { name } => remove_step(session, name),
        Edit::RemoveSteps { names } => remove_steps(session, names),
        Edit::RenameStep { from, to } => rename_step(session, from, to),
        Edit::Disconnect { from, to } => disconnect(session, from, to),
        Edit::SetPosition { node, x, y } => set_position(session, node, *x, *y),
        Edit::ReplaceText { .. } => Err(refused("text replacement is applied directly")),
    }
}

/// `(collection, key)` when `pointer` names an element of a root collection: `/steps/NAME`
/// or `/nodes/INDEX`.
fn removed_element(pointer: &str) -> Option<(String, String)> {
    match crate::json::pointer_tokens(pointer).as_slice() {
        [collection, key] if collection == "steps" || collection == "nodes" => {
            Some((collection.clone(), key.clone()))
        }
        _ => None,
    }
}

fn step_pointer(name: &str) -> String {
    pointer_push("/steps", name)
}

fn require_step(session: &Session, name: &str) -> Result<(), Diagnostic> {
    if session.json().pointer(&step_pointer(name)).is_some() {
        Ok(())
    } else {
        Err(refused(format!("there is no step `{name}`")))
    }
}

fn valid_step_name(name: &str) -> Result<(), Diagnostic> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Err(refused(format!(
            "`{name}` is not a usable step name (no spaces, not empty)"
        )))
    } else {
        Ok(())
    }
}

fn step_names(session: &Session) -> Vec<String> {
    session
        .json()
        .get("steps")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn add_step(
    session: &mut Session,
    name: &str,
    after: Option<&str>,
    step: &Value,
) -> Result<(), Diagnostic> {
    valid_step_name(name)?;
    if session.json().pointer(&step_pointer(name)).is_some() {
        return Err(refused(format!("a step `{name}` already exists")));
    }
    let step = if step.is_null() {
        Value::Object(Map::new())
    } else {
        step.clone()
    };
    match after {
        Some(after) => {
            require_step(session, after)?;
            session.insert_entry_after("/steps", after, name, &step)
        }
        None => session.set(&step_pointer(name), &step),
    }
}

fn list_of<'v>(value: &'v Value, field: &str) -> Vec<&'v str> {
    value
        .get(field)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Removes a step and what only points at it: `needs` and `parallel_steps` entries, branches
/// and decision-tree branches routing to it, degradations falling back to it, its canvas
/// position (each with its comments, each reported in a note). Refused when an expression
/// reads its output, or when it is a decision-tree node's only branch.
fn remove_step(session: &mut Session, name: &str) -> Result<(), Diagnostic> {
    remove_step_among(session, name, &[name.to_owned()])
}

/// Removes several steps as one edit: what the removed steps say about each other goes with
/// them (a step may read the output of another one removed alongside).
fn remove_steps(session: &mut Session, names: &[String]) -> Result<(), Diagnostic> {
    if names.is_empty() {
        return Err(refused("no steps to remove"));
    }
    for name in names {
        require_step(session, name)?;
    }
    for name in names {
        if session.json().pointer(&step_pointer(name)).is_some() {
            remove_step_among(session, name, names)?;
        }
    }
    Ok(())
}

/// Removes step `name`; `going` are the steps removed in the same edit (`name` among them),
/// whose own fields are neither readers nor worth rewriting.
fn remove_step_among(
    session: &mut Session,
    name: &str,
    going: &[String],
) -> Result<(), Diagnostic> {
    require_step(session, name)?;
    let own = step_pointer(name);
    let readers: Vec<String> = expression_strings(session.json())
        .into_iter()
        .filter(|(pointer, _)| !going.iter().any(|g| within(pointer, &step_pointer(g))))
        .filter(|(_, text)| reads_step(text, name))
        .map(|(pointer, _)| session.place(&pointer))
        .collect();
    if !readers.is_empty() {
        return Err(refused(format!(
            "step `{name}` is not removed: its output is read at {}; change those first",
            readers.join(" and ")
        )));
    }
    // A degradation falling back to it goes with it (below); an action that runs it is refused.
    let actions: Vec<String> = step_actions(session.json())
        .into_iter()
        .filter(|(pointer, value)| value == name && !pointer.starts_with("/fallback/"))
        .map(|(pointer, _)| session.place(&pointer))
        .collect();
    if !actions.is_empty() {
        return Err(refused(format!(
            "step `{name}` is not removed: it is the action at {}; change that first",
            actions.join(" and ")
        )));
    }
    let tree_routes = tree_routes_to(session.json(), name);
    if let Some(only) = tree_routes.iter().find(|r| r.only_branch) {
        return Err(refused(format!(
            "step `{name}` is not removed: it is the only branch of decision tree `{}` at node `{}` ({}); route that node elsewhere first",
            only.tree,
            only.node,
            session.place_line(&only.branch)
        )));
    }
    for other in step_names(session) {
        if going.contains(&other) {
            continue;
        }
        let base = step_pointer(&other);
        if remove_matching(session, &format!("{base}/needs"), |v| {
            v.as_str() == Some(name)
        })? {
            session.note(format!("step `{other}` no longer needs `{name}`"));
        }
        if remove_matching(session, &format!("{base}/parallel_steps"), |v| {
            v.as_str() == Some(name)
        })? {
            session.note(format!(
                "step `{other}` no longer runs `{name}` in parallel"
            ));
        }
        if remove_matching(session, &format!("{base}/branches"), |b| {
            b.get("then").and_then(Value::as_str) == Some(name)
        })? {
            session.note(format!(
                "the branch of step `{other}` to `{name}` was removed"
            ));
        }
    }
    for route in tree_routes.iter().rev() {
        session.remove(&route.branch)?;
    }
    for route in &tree_routes {
        session.note(format!(
            "the branch of decision tree `{}` at node `{}` to `{name}` was removed",
            route.tree, route.node
        ));
    }
    if remove_matching(session, "/fallback/degradation", |d| {
        d.get("fallback_to").and_then(Value::as_str) == Some(name)
    })? {
        session.note(format!(
            "the degradation falling back to `{name}` was removed"
        ));
        super::workflow::remove_if_emptied(session, "/fallback")?;
    }
    super::workflow::remove_inspector_controls(session, "steps", name)?;
    session.remove(&own)?;
    super::workflow::remove_position(session, name)
}

/// The fields that name a step to run, besides routes: degradations' `fallback_to`, invariants'
/// `on_breach`, decision-tree terminals' `action` (each a step name or a built-in action), with
/// their values.
fn step_actions(json: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut push = |pointer: String, value: Option<&Value>| {
        if let Some(Value::String(text)) = value {
            found.push((pointer, text.clone()));
        }
    };
    let list = |pointer: &str| {
        json.pointer(pointer)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for (i, item) in list("/fallback/degradation").iter().enumerate() {
        push(
            format!("/fallback/degradation/{i}/fallback_to"),
            item.get("fallback_to"),
        );
    }
    for (i, item) in list("/quality_gates/invariants").iter().enumerate() {
        push(
            format!("/quality_gates/invariants/{i}/on_breach"),
            item.get("on_breach"),
        );
    }
    let trees = json.get("decision_trees").and_then(Value::as_object);
    for (tree_name, tree) in trees.into_iter().flatten() {
        let terminals = tree.get("terminals").and_then(Value::as_object);
        for (terminal, body) in terminals.into_iter().flatten() {
            let base = pointer_push(&pointer_push("/decision_trees", tree_name), "terminals");
            push(
                format!("{}/action", pointer_push(&base, terminal)),
                body.get("action"),
            );
        }
    }
    found
}

/// Whether `pointer` is `root` or inside it.
fn within(pointer: &str, root: &str) -> bool {
    pointer == root || pointer.starts_with(&format!("{root}/"))
}

/// Whether a `{{ }}` template reads `steps.NAME` (or `steps['NAME']`).
fn reads_step(text: &str, name: &str) -> bool {
    let Ok(template) = Template::parse(text) else {
        return false;
    };
    template.expressions().iter().any(|expr| {
        expr.paths()
            .iter()
            .any(|(path, _)| path.len() >= 2 && path[0] == "steps" && path[1] == name)
    })
}

/// A decision-tree branch whose `next` is a step (not a node or terminal of its tree).
struct TreeRoute {
    tree: String,
    node: String,
    /// The branch's pointer.
    branch: String,
    /// It is its node's only branch.
    only_branch: bool,
}

/// The decision-tree branches routing to step `name`, in document order.
fn tree_routes_to(json: &Value, name: &str) -> Vec<TreeRoute> {
    let mut routes = Vec::new();
    let trees = json.get("decision_trees").and_then(Value::as_object);
    for (tree_name, tree) in trees.into_iter().flatten() {
        let local = |key: &str| tree.get(key).and_then(|n| n.get(name)).is_some();
        if local("nodes") || local("terminals") {
            continue;
        }
        let nodes = tree.get("nodes").and_then(Value::as_object);
        for (node_name, node) in nodes.into_iter().flatten() {
            let branches = node.get("branches").and_then(Value::as_array);
            let branches = branches.map(Vec::as_slice).unwrap_or_default();
            let node_pointer = pointer_push(
                &pointer_push(&pointer_push("/decision_trees", tree_name), "nodes"),
                node_name,
            );
            let to_step = |b: &Value| b.get("next").and_then(Value::as_str) == Some(name);
            let only_branch = branches.iter().all(to_step);
            for (index, _) in branches.iter().enumerate().filter(|(_, b)| to_step(b)) {
                routes.push(TreeRoute {
                    tree: tree_name.clone(),
                    node: node_name.clone(),
                    branch: format!("{node_pointer}/branches/{index}"),
                    only_branch,
                });
            }
        }
    }
    routes
}

/// Removes `name` from the list `field` of step `step`; drops the list when it empties.
fn remove_from_list(
    session: &mut Session,
    step: &str,
    field: &str,
    name: &str,
) -> Result<(), Diagnostic> {
    let pointer = format!("{}/{field}", step_pointer(step));
    remove_matching(session, &pointer, |v| v.as_str() == Some(name)).map(|_| ())
}

fn rename_step(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    require_step(session, from)?;
    valid_step_name(to)?;
    if from == to {
        return Ok(());
    }
    if session.json().pointer(&step_pointer(to)).is_some() {
        return Err(refused(format!("a step `{to}` already exists")));
    }
    session.rename_key(&step_pointer(from), to)?;
    for other in step_names(session) {
        let base = step_pointer(&other);
        for field in ["needs", "parallel_steps"] {
            let items: Vec<String> =
                list_of(session.json().pointer(&base).unwrap_or(&Value::Null), field)
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
            for (index, item) in items.iter().enumerate() {
                if item == from {
                    session.set(&format!("{base}/{field}/{index}"), &json!(to))?;
                }
            }
        }
        let targets: Vec<Option<String>> = session
            .json()
            .pointer(&format!("{base}/branches"))
            .and_then(Value::as_array)
            .map(|b| {
                b.iter()
                    .map(|b| b.get("then").and_then(Value::as_str).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        for (index, target) in targets.iter().enumerate() {
            if target.as_deref() == Some(from) {
                session.set(&format!("{base}/branches/{index}/then"), &json!(to))?;
            }
        }
    }
    rename_in_trees(session, from, to)?;
    rename_in_expressions(session, from, to)?;
    for (pointer, value) in step_actions(session.json()) {
        if value == from {
            session.set(&pointer, &json!(to))?;
        }
    }
    super::workflow::rename_in_inspector_keys(session, "steps", from, to)?;
    let position = format!(
        "/metadata/logicmd/positions/{}",
        crate::json::escape_token(from)
    );
    if session.json().pointer(&position).is_some() {
        session.rename_key(&position, to)?;
    }
    Ok(())
}

/// Decision-tree `next` values that route to the renamed step (not to a node of the tree).
fn rename_in_trees(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    let trees = session
        .json()
        .get("decision_trees")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (tree_name, tree) in &trees {
        let local = |name: &str| {
            tree.get("nodes").and_then(|n| n.get(name)).is_some()
                || tree.get("terminals").and_then(|t| t.get(name)).is_some()
        };
        if local(from) {
            continue;
        }
        let Some(nodes) = tree.get("nodes").and_then(Value::as_object) else {
            continue;
        };
        for (node_name, node) in nodes {
            let Some(branches) = node.get("branches").and_then(Value::as_array) else {
                continue;
            };
            for (index, branch) in branches.iter().enumerate() {
                if branch.get("next").and_then(Value::as_str) == Some(from) {
                    let pointer = format!(
                        "{}/branches/{index}/next",
                        pointer_push(
                            &pointer_push(&pointer_push("/decision_trees", tree_name), "nodes"),
                            node_name
                        )
                    );
                    session.set(&pointer, &json!(to))?;
                }
            }
        }
    }
    Ok(())
}

/// Makes `to` need `from`; the rules were checked (`connect::check`).
fn connect(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    let needs_pointer = format!("{}/needs", step_pointer(to));
    let step = session
        .json()
        .pointer(&step_pointer(to))
        .cloned()
        .unwrap_or(Value::Null);
    if list_of(&step, "needs").contains(&from) {
        return Err(refused(format!("`{to}` already needs `{from}`")));
    }
    session.insert(&needs_pointer, None, &json!(from))
}

fn disconnect(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    require_step(session, to)?;
    let step = session
        .json()
        .pointer(&step_pointer(to))
        .cloned()
        .unwrap_or(Value::Null);
    if !list_of(&step, "needs").contains(&from) {
        return Err(refused(format!("`{to}` does not need `{from}`")));
    }
    remove_from_list(session, to, "needs", from)
}

fn set_position(session: &mut Session, node: &str, x: f64, y: f64) -> Result<(), Diagnostic> {
    if !x.is_finite() || !y.is_finite() {
        return Err(refused("a position must be finite"));
    }
    let round = |v: f64| {
        let r = (v * 10.0).round() / 10.0;
        if r.fract() == 0.0 && r.abs() < 1e15 {
            json!(r as i64)
        } else {
            json!(r)
        }
    };
    let pointer = format!(
        "/metadata/logicmd/positions/{}",
        crate::json::escape_token(node)
    );
    session.set(&pointer, &json!({"x": round(x), "y": round(y)}))
}

/// Rewrites `steps.FROM` (and `steps['FROM']`) inside every `{{ }}` expression of the document.
fn rename_in_expressions(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    for (pointer, text) in expression_strings(session.json()) {
        let renamed =
            crate::expr::rename_step_reads(&text, |name| (name == from).then(|| to.to_owned()));
        if let Some(rewritten) = renamed {
            session.set(&pointer, &Value::String(rewritten))?;
        }
    }
    Ok(())
}

/// Every string of the document holding a `{{ }}` template, with its pointer.
fn expression_strings(json: &Value) -> Vec<(String, String)> {
    let mut strings = Vec::new();
    collect_expression_strings(json, String::new(), &mut strings);
    strings
}

fn collect_expression_strings(value: &Value, pointer: String, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) if s.contains("{{") => out.push((pointer, s.clone())),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_expression_strings(item, format!("{pointer}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                collect_expression_strings(item, pointer_push(&pointer, key), out);
            }
        }
        _ => {}
    }
}

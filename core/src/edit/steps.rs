//! Edits expressed in terms of the document's meaning (steps, their dependencies, positions),
//! each made of verified primitive edits.

use serde_json::{json, Map, Value};

use super::{refused, to_pointer, Edit, Session};
use crate::dag::StepDag;
use crate::diagnostic::Diagnostic;
use crate::expr::Template;
use crate::json::pointer_push;

pub(super) fn run(session: &mut Session, edit: &Edit) -> Result<(), Diagnostic> {
    match edit {
        Edit::Set { path, value } => session.set(&to_pointer(path)?, value),
        Edit::Remove { path } => session.remove(&to_pointer(path)?),
        Edit::Insert { path, index, value } => session.insert(&to_pointer(path)?, *index, value),
        Edit::AddNode { node, after } => super::drtl::add_node(session, node, after.as_deref()),
        Edit::RemoveNode { id } => super::drtl::remove_node(session, id),
        Edit::SetRoute {
            node,
            route,
            target,
        } => super::drtl::set_route(session, node, route, target),
        Edit::Connect { from, to } if session.is_drtl() => super::drtl::connect(session, from, to),
        Edit::Disconnect { from, to } if session.is_drtl() => {
            super::drtl::disconnect(session, from, to)
        }
        Edit::AddStep { .. } | Edit::RemoveStep { .. } | Edit::RenameStep { .. }
            if session.is_drtl() =>
        {
            Err(refused(
                "step edits apply to LOGIC.md files; use add_node/remove_node on a topology",
            ))
        }
        Edit::AddStep { name, after, step } => add_step(session, name, after.as_deref(), step),
        Edit::RemoveStep { name } => remove_step(session, name),
        Edit::RenameStep { from, to } => rename_step(session, from, to),
        Edit::Connect { from, to } => connect(session, from, to),
        Edit::Disconnect { from, to } => disconnect(session, from, to),
        Edit::SetPosition { node, x, y } => set_position(session, node, *x, *y),
        Edit::ReplaceText { .. } => Err(refused("text replacement is applied directly")),
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
            // Rebuild the order: the new step right after `after`. Written as: insert at the end,
            // then move every later step after it, keeping each one's text and comments.
            let names = step_names(session);
            session.set(&step_pointer(name), &step)?;
            let position = names.iter().position(|n| n == after).unwrap_or(names.len());
            for later in &names[position + 1..] {
                move_to_end(session, later)?;
            }
            Ok(())
        }
        None => session.set(&step_pointer(name), &step),
    }
}

/// Moves a step's entry to the end of `steps`, keeping its text (comments included).
fn move_to_end(session: &mut Session, name: &str) -> Result<(), Diagnostic> {
    let value = session
        .json()
        .pointer(&step_pointer(name))
        .cloned()
        .ok_or_else(|| refused(format!("there is no step `{name}`")))?;
    session.remove(&step_pointer(name))?;
    session.set(&step_pointer(name), &value)
}

fn list_of<'v>(value: &'v Value, field: &str) -> Vec<&'v str> {
    value
        .get(field)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn remove_step(session: &mut Session, name: &str) -> Result<(), Diagnostic> {
    require_step(session, name)?;
    for other in step_names(session) {
        if other == name {
            continue;
        }
        for field in ["needs", "parallel_steps"] {
            remove_from_list(session, &other, field, name)?;
        }
        let branches: Vec<String> = session
            .json()
            .pointer(&format!("{}/branches", step_pointer(&other)))
            .and_then(Value::as_array)
            .map(|b| {
                b.iter()
                    .filter_map(|b| b.get("then").and_then(Value::as_str).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if branches.iter().any(|t| t == name) {
            session.note(format!(
                "step `{other}` still branches to the removed step `{name}`"
            ));
        }
    }
    session.remove(&step_pointer(name))?;
    let position = format!(
        "/metadata/logicmd/positions/{}",
        crate::json::escape_token(name)
    );
    if session.json().pointer(&position).is_some() {
        session.remove(&position)?;
    }
    Ok(())
}

/// Removes `name` from the list `field` of step `step`; drops the list when it empties.
fn remove_from_list(
    session: &mut Session,
    step: &str,
    field: &str,
    name: &str,
) -> Result<(), Diagnostic> {
    let pointer = format!("{}/{field}", step_pointer(step));
    loop {
        let items: Vec<String> = session
            .json()
            .pointer(&pointer)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default();
        let Some(index) = items.iter().position(|i| i == name) else {
            return Ok(());
        };
        if items.len() == 1 {
            return session.remove(&pointer);
        }
        session.remove(&format!("{pointer}/{index}"))?;
    }
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

fn connect(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    require_step(session, from)?;
    require_step(session, to)?;
    let needs_pointer = format!("{}/needs", step_pointer(to));
    let step = session
        .json()
        .pointer(&step_pointer(to))
        .cloned()
        .unwrap_or(Value::Null);
    if list_of(&step, "needs").contains(&from) {
        return Err(refused(format!("`{to}` already needs `{from}`")));
    }
    let steps = session
        .json()
        .get("steps")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let dag = StepDag::new(steps.iter().map(|(name, step)| {
        let mut needs = list_of(step, "needs");
        if name == to {
            needs.push(from);
        }
        (name.as_str(), needs)
    }));
    if let Some(cycle) = dag.cycles().first() {
        return Err(refused(format!(
            "connecting `{from}` to `{to}` would create a cycle: {}",
            cycle.display()
        )));
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
    let mut strings = Vec::new();
    collect_expression_strings(session.json(), String::new(), &mut strings);
    for (pointer, text) in strings {
        let Ok(template) = Template::parse(&text) else {
            continue;
        };
        let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for expr in template.expressions() {
            for (path, range) in expr.paths() {
                if path.len() >= 2 && path[0] == "steps" && path[1] == from {
                    if let Some(edit) = step_segment_edit(&text, range.start, from, to) {
                        edits.push(edit);
                    }
                }
            }
        }
        if edits.is_empty() {
            continue;
        }
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        edits.dedup_by_key(|(range, _)| range.start);
        let mut rewritten = text.clone();
        for (range, replacement) in edits {
            rewritten.replace_range(range, &replacement);
        }
        session.set(&pointer, &Value::String(rewritten))?;
    }
    Ok(())
}

/// In `text`, the chain starting at `chain_start` reads `steps.FROM...` or `steps['FROM']...`:
/// the range to replace and its replacement naming `to`.
fn step_segment_edit(
    text: &str,
    chain_start: usize,
    from: &str,
    to: &str,
) -> Option<(std::ops::Range<usize>, String)> {
    let after_root = chain_start + "steps".len();
    let rest = text.get(after_root..)?;
    let skipped = rest.len() - rest.trim_start().len();
    let at = after_root + skipped;
    let identifier = |name: &str| {
        name.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    if text[at..].starts_with('.') || text[at..].starts_with("?.") {
        let dot_len = if text[at..].starts_with('.') { 1 } else { 2 };
        let name_start =
            at + dot_len + (text[at + dot_len..].len() - text[at + dot_len..].trim_start().len());
        if !text[name_start..].starts_with(from) {
            return None;
        }
        let name_end = name_start + from.len();
        if identifier(to) {
            Some((name_start..name_end, to.to_owned()))
        } else {
            Some((
                at..name_end,
                format!("['{}']", to.replace('\\', "\\\\").replace('\'', "\\'")),
            ))
        }
    } else if text[at..].starts_with('[') {
        let inner = &text[at + 1..];
        let quote_at = at + 1 + (inner.len() - inner.trim_start().len());
        let quote = text[quote_at..].chars().next()?;
        let literal_end = text[quote_at + 1..].find(quote)? + quote_at + 1;
        Some((
            quote_at + 1..literal_end,
            to.replace('\\', "\\\\")
                .replace(quote, &format!("\\{quote}")),
        ))
    } else {
        None
    }
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

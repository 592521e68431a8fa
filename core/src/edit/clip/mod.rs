//! Copy and paste of steps as LOGIC.md text: what is copied is a whole document holding the
//! chosen steps, so it can be pasted into any document (or saved as a file); pasting adds the
//! steps of any LOGIC.md text under names the target does not use yet.

use std::collections::HashSet;

use serde_json::{Map, Value};

mod drtl;

pub use drtl::{copy_nodes, paste_nodes};

use super::{apply, refused, Edit};
use crate::diagnostic::Diagnostic;
use crate::document::Document;

/// Fields of a step that name other steps as lists; entries naming a step outside the copied
/// set are dropped so the copy never depends on steps it does not hold.
const STEP_LISTS: [&str; 2] = ["needs", "parallel_steps"];

/// The result of a paste.
#[derive(Debug, Clone, PartialEq)]
pub struct Pasted {
    /// The whole new text.
    pub text: String,
    /// The names the pasted steps have in it, in the order they were added.
    pub names: Vec<String>,
}

/// The steps of `text` named in `names` (in the document's order) as a LOGIC.md document
/// with the source's `spec_version` and `name`. `needs` and `parallel_steps` keep only the
/// copied steps.
pub fn copy_steps(text: &str, names: &[String]) -> Result<String, Diagnostic> {
    let json = logic_json(text, "copy from")?;
    let steps = json.get("steps").and_then(Value::as_object);
    let chosen: HashSet<&str> = names.iter().map(String::as_str).collect();
    let copied: Vec<(String, Value)> = steps
        .into_iter()
        .flatten()
        .filter(|(name, _)| chosen.contains(name.as_str()))
        .map(|(name, body)| (name.clone(), keep_lists_within(body, &chosen)))
        .collect();
    if copied.is_empty() {
        return Err(refused("no steps to copy"));
    }
    let spec_version = json
        .get("spec_version")
        .and_then(Value::as_str)
        .unwrap_or("1.0");
    let name = json
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("copied-steps");
    let mut frontmatter = Map::new();
    frontmatter.insert("spec_version".to_owned(), spec_version.into());
    frontmatter.insert("name".to_owned(), name.into());
    let mut out = format!(
        "---\n{}\n---\n",
        super::render::block(&Value::Object(frontmatter), 0)
    );
    let mut previous: Option<String> = None;
    for (name, body) in copied {
        let edit = Edit::AddStep {
            name: name.clone(),
            after: previous.take(),
            step: body,
        };
        out = apply(&out, &edit)?.text;
        previous = Some(name);
    }
    Ok(out)
}

/// Adds the steps of the LOGIC.md text `clip` to `text` after step `after` (at the end when
/// absent), renaming those whose names are taken to `name_2`, `name_3`… (every reference among
/// the pasted steps follows). `needs` and `parallel_steps` naming steps `clip` does not hold
/// are dropped.
pub fn paste_steps(text: &str, clip: &str, after: Option<&str>) -> Result<Pasted, Diagnostic> {
    let target = logic_json(text, "paste into")?;
    let clip = as_document(clip);
    let source = logic_json(&clip, "paste from")
        .map_err(|_| refused("the clipboard holds no LOGIC.md steps"))?;
    let clip_names: Vec<String> = step_names(&source);
    if clip_names.is_empty() {
        return Err(refused("the clipboard holds no LOGIC.md steps"));
    }
    let existing: HashSet<String> = step_names(&target).into_iter().collect();
    let mut clip = clip;
    let mut names = Vec::with_capacity(clip_names.len());
    for (name, fresh) in fresh_names(&existing, &clip_names) {
        if fresh != name {
            let edit = Edit::RenameStep {
                from: name,
                to: fresh.clone(),
            };
            clip = apply(&clip, &edit)?.text;
        }
        names.push(fresh);
    }
    let renamed = logic_json(&clip, "paste from")?;
    let kept: HashSet<&str> = names.iter().map(String::as_str).collect();
    let mut out = text.to_owned();
    let mut previous = after.map(str::to_owned);
    for name in &names {
        let body = renamed
            .pointer(&crate::json::pointer_push("/steps", name))
            .map(|b| keep_lists_within(b, &kept))
            .unwrap_or(Value::Null);
        let edit = Edit::AddStep {
            name: name.clone(),
            after: previous.take(),
            step: body,
        };
        out = apply(&out, &edit)?.text;
        previous = Some(name.clone());
    }
    Ok(Pasted { text: out, names })
}

/// Each clip name with its name in the target, in the clip's order: its own, or the first free
/// `name_n` when the target (or an earlier pasted name) has it.
fn fresh_names(existing: &HashSet<String>, clip: &[String]) -> Vec<(String, String)> {
    let mut taken = existing.clone();
    taken.extend(clip.iter().cloned());
    clip.iter()
        .map(|name| {
            let fresh = if existing.contains(name) {
                free_name(name, &taken)
            } else {
                name.clone()
            };
            taken.insert(fresh.clone());
            (name.clone(), fresh)
        })
        .collect()
}

/// `base_2`, `base_3`… the first that is not taken.
fn free_name(base: &str, taken: &HashSet<String>) -> String {
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_else(|| base.to_owned())
}

/// Text copied without its `---` lines (the frontmatter alone) is read as a document too.
fn as_document(clip: &str) -> String {
    if clip.trim_start().starts_with("---") {
        clip.to_owned()
    } else {
        format!("---\n{}\n---\n", clip.trim_end())
    }
}

/// The frontmatter of a LOGIC.md document that parses; `doing` names the action refused.
fn logic_json(text: &str, doing: &str) -> Result<Value, Diagnostic> {
    if crate::analysis::detect(text, None) != crate::analysis::Kind::Logic {
        return Err(refused(format!(
            "steps are copied and pasted in LOGIC.md documents; cannot {doing} this one"
        )));
    }
    Document::parse(text)
        .document
        .map(|d| d.json().clone())
        .ok_or_else(|| refused(format!("the document does not parse; cannot {doing} it")))
}

fn step_names(json: &Value) -> Vec<String> {
    json.get("steps")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

/// `body` with its step lists reduced to the steps in `within` (an emptied list goes).
fn keep_lists_within(body: &Value, within: &HashSet<&str>) -> Value {
    let mut body = body.clone();
    if let Value::Object(map) = &mut body {
        for field in STEP_LISTS {
            let Some(Value::Array(items)) = map.get_mut(field) else {
                continue;
            };
            items.retain(|v| v.as_str().is_some_and(|s| within.contains(s)));
            if items.is_empty() {
                map.shift_remove(field);
            }
        }
    }
    body
}

#[cfg(test)]
mod tests;

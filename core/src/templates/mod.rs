//! Starting documents: the templates `logicmd init` writes (and the MCP server, the npm and the
//! Python packages offer), as data and one function, so every front end starts users from the
//! same texts.
//!
//! Each template is a complete document in `templates/files/`: the spec's reasoning strategies
//! (§3.2), its patterns (§7 decision trees, §11's analyst with contracts, gates and escalation)
//! and the DRTL topologies (§9.2's fact-check, §3.6's debate, §4.3's review loop, §3.2/§3.3's
//! fan-out). Every one validates, lints without a finding, passes the obligation analysis without
//! a finding, is already in `fmt`'s canonical form, and completes a dry run (`tests`).

#[cfg(test)]
mod tests;

use serde::Serialize;
use serde_json::Value;

use crate::analysis::Kind;
use crate::diagnostic::Diagnostic;
use crate::edit::{apply, Edit};

/// One starting document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Template {
    /// What `--template` takes: `react`, `fact-check`.
    pub name: &'static str,
    /// A LOGIC.md document or a DRTL topology.
    pub kind: Kind,
    /// What it is for, in one line.
    pub summary: &'static str,
    /// The part of the specifications it follows.
    pub follows: &'static str,
    /// The document, named [`PLACEHOLDER_NAME`].
    #[serde(skip)]
    pub text: &'static str,
}

/// The `name` every template text carries until [`render`] gives it the user's.
pub const PLACEHOLDER_NAME: &str = "my-reasoning";

/// The template `init` uses when none is named.
pub const DEFAULT_TEMPLATE: &str = "minimal";

const fn template(
    kind: Kind,
    name: &'static str,
    summary: &'static str,
    follows: &'static str,
    text: &'static str,
) -> Template {
    Template {
        name,
        kind,
        summary,
        follows,
        text,
    }
}

/// Every template, LOGIC.md documents first, in the order `init --list` shows them.
pub const TEMPLATES: &[Template] = &[
    template(
        Kind::Logic,
        "minimal",
        "One checked step with input and output contracts",
        "LOGIC.md §1, §4, §5",
        include_str!("files/minimal.logic.md"),
    ),
    template(
        Kind::Logic,
        "chain-of-thought",
        "Step-by-step deduction: understand, deduce, conclude (cot)",
        "LOGIC.md §3.2 cot, §4.1.1",
        include_str!("files/chain-of-thought.logic.md"),
    ),
    template(
        Kind::Logic,
        "react",
        "A tool-using agent: search, then evaluate what was found (react)",
        "LOGIC.md §3.2 react, §9.2",
        include_str!("files/react.logic.md"),
    ),
    template(
        Kind::Logic,
        "tree-of-thoughts",
        "Several approaches scored and pruned; the best one solved (tot)",
        "LOGIC.md §3.1, §3.2 tot",
        include_str!("files/tree-of-thoughts.logic.md"),
    ),
    template(
        Kind::Logic,
        "plan-execute",
        "Plan checkable subtasks, carry them out, review against the plan",
        "LOGIC.md §3.2 plan-execute, §8",
        include_str!("files/plan-execute.logic.md"),
    ),
    template(
        Kind::Logic,
        "analyst",
        "Research and synthesis with contracts, gates and escalation",
        "LOGIC.md §6, §8, §11",
        include_str!("files/analyst.logic.md"),
    ),
    template(
        Kind::Logic,
        "decision-tree",
        "Classify the input, route it to its step with a decision tree",
        "LOGIC.md §7",
        include_str!("files/decision-tree.logic.md"),
    ),
    template(
        Kind::Drtl,
        "fact-check",
        "Extract claims, verify them; publish through a gate, else an editor",
        "DRTL §3.4, §3.5, §3.8, §9.2",
        include_str!("files/fact-check.drtl.yaml"),
    ),
    template(
        Kind::Drtl,
        "debate",
        "Three participants debate a proposal; only consensus is recorded",
        "DRTL §3.6, §9.3",
        include_str!("files/debate.drtl.yaml"),
    ),
    template(
        Kind::Drtl,
        "review-loop",
        "Write, check, revise at most three times; then a person decides",
        "DRTL §3.7, §3.8, §4.3",
        include_str!("files/review-loop.drtl.yaml"),
    ),
    template(
        Kind::Drtl,
        "fan-out",
        "Parallel drafts from several models, aggregated and checked",
        "DRTL §3.2, §3.3, §4.4",
        include_str!("files/fan-out.drtl.yaml"),
    ),
];

/// The template called `name`; an error with the closest name (or the list) otherwise.
pub fn find(name: &str) -> Result<&'static Template, Diagnostic> {
    TEMPLATES
        .iter()
        .find(|template| template.name == name)
        .ok_or_else(|| {
            let names = TEMPLATES.iter().map(|t| t.name);
            let help = match crate::schema::closest(name, names.clone()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("templates: {}", names.collect::<Vec<_>>().join(", ")),
            };
            Diagnostic::error("unknown-template", format!("no template named `{name}`"))
                .with_help(help)
        })
}

impl Template {
    /// The file name a document of this template called `name` gets by default: a LOGIC.md
    /// document's `NAME.logic.md` (spec §16.1), a topology's `NAME.drtl.yaml` (the suffix that
    /// decides the kind).
    pub fn file_name(&self, name: &str) -> String {
        match self.kind {
            Kind::Logic => format!("{name}.logic.md"),
            Kind::Drtl => format!("{name}.drtl.yaml"),
        }
    }
}

/// The template's text with `name` as the document's `name` (written by core's lossless edit,
/// so it is quoted as YAML needs); `None` keeps the placeholder. An empty name is refused (the
/// schema requires one).
pub fn render(template: &Template, name: Option<&str>) -> Result<String, Diagnostic> {
    let Some(name) = name.filter(|name| *name != PLACEHOLDER_NAME) else {
        return Ok(template.text.to_owned());
    };
    if name.trim().is_empty() {
        return Err(Diagnostic::error(
            "invalid-name",
            "a document's name cannot be empty",
        ));
    }
    let edit = Edit::Set {
        path: "/name".to_owned(),
        value: Value::String(name.to_owned()),
    };
    apply(template.text, &edit).map(|applied| applied.text)
}

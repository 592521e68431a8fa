//! `explain_rule`: what a diagnostic code means — the rule's family, severity, what it finds,
//! why it exists and the fixture that triggers it (as `logicmd lint --rules` lists them).

use logicmd::lint::rules::{Family, LintRule, FAMILIES};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::tools::{tool, Misuse, ToolDef};

#[derive(Deserialize, JsonSchema)]
pub struct RuleArgs {
    /// A diagnostic's `code` (`unknown-need`, `step-cycle`, ...).
    code: String,
}

#[derive(Serialize, JsonSchema)]
pub struct Explained {
    /// `logic` (LOGIC.md's lint rules), `drtl` (DRTL's) or `check` (obligation rules).
    pub family: String,
    pub code: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// What the rule finds.
    pub summary: String,
    /// Why it exists: what goes wrong at run time, or where the spec says so.
    pub reason: String,
    /// The fixture in the logicmd repository that triggers it.
    pub fixture: String,
}

impl Explained {
    pub fn of(family: &Family, rule: &LintRule) -> Explained {
        Explained {
            family: family.name.to_owned(),
            code: rule.code.to_owned(),
            severity: rule.severity.as_str().to_owned(),
            summary: rule.summary.to_owned(),
            reason: rule.reason.to_owned(),
            fixture: family.fixture(rule),
        }
    }
}

/// Every rule of every family, in `lint --rules` order.
pub fn all() -> impl Iterator<Item = Explained> {
    FAMILIES
        .iter()
        .flat_map(|family| family.rules.iter().map(|rule| Explained::of(family, rule)))
}

pub fn explain_rule() -> ToolDef {
    tool(
        "explain_rule",
        "Explain a rule",
        "Explain a diagnostic code of `lint` or `check`: what the rule finds, why, its severity \
         and a fixture that triggers it. The whole list is the resource `logicmd://rules`.",
        |_, args: RuleArgs| {
            let code = args.code.trim();
            if let Some(found) = all().find(|rule| rule.code == code) {
                return Ok(found);
            }
            let mut near: Vec<(f64, String)> = all()
                .map(|rule| (strsim::jaro_winkler(code, &rule.code), rule.code))
                .filter(|(score, _)| *score > 0.8)
                .collect();
            near.sort_by(|a, b| b.0.total_cmp(&a.0));
            let hint = match near.first() {
                Some((_, best)) => format!(" (did you mean `{best}`?)"),
                None => String::new(),
            };
            Err(Misuse(format!(
                "no rule has the code `{code}`{hint}; the resource `logicmd://rules` lists them all"
            )))
        },
    )
}

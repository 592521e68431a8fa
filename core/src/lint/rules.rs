//! Every lint rule: a stable code, a default severity and a one-line summary.

use crate::diagnostic::Severity;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub code: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

const fn rule(code: &'static str, severity: Severity, summary: &'static str) -> Rule {
    Rule {
        code,
        severity,
        summary,
    }
}

use Severity::{Error, Info, Warning};

pub const UNKNOWN_NEED: Rule = rule(
    "unknown-need",
    Error,
    "`needs` names a step that does not exist",
);
pub const STEP_CYCLE: Rule = rule("step-cycle", Error, "`needs` form a cycle");
pub const UNKNOWN_BRANCH_TARGET: Rule = rule(
    "unknown-branch-target",
    Error,
    "a branch's `then` names no step",
);
pub const UNKNOWN_PARALLEL_STEP: Rule = rule(
    "unknown-parallel-step",
    Warning,
    "`parallel_steps` names a step that is not defined",
);
pub const UNBOUNDED_LOOP: Rule = rule("unbounded-loop", Warning, "a branch loops back without a bound (retry.max_attempts, reasoning.max_iterations or verification.on_fail)");
pub const EXPRESSION_SYNTAX: Rule = rule(
    "expression-syntax",
    Error,
    "a `{{ }}` expression does not parse",
);
pub const UNKNOWN_EXPRESSION_ROOT: Rule = rule(
    "unknown-expression-root",
    Warning,
    "an expression reads a variable no runtime provides",
);
pub const UNKNOWN_STEP_REFERENCE: Rule = rule(
    "unknown-step-reference",
    Error,
    "an expression reads `steps.NAME` for a step that does not exist",
);
pub const MISSING_DESCRIPTION: Rule = rule(
    "missing-description",
    Info,
    "a step, tree or document has no description",
);
pub const UNUSED_IMPORT: Rule = rule(
    "unused-import",
    Warning,
    "an import contributes nothing that is used",
);
pub const CONFIDENCE_ORDER: Rule = rule(
    "confidence-order",
    Error,
    "confidence thresholds are out of order (escalate_below ≤ minimum ≤ target)",
);
pub const INVALID_DURATION: Rule = rule(
    "invalid-duration",
    Error,
    "a duration does not parse (\"500ms\", \"30s\", \"2m\", \"1h\")",
);
pub const RETRY_INTERVAL_ORDER: Rule = rule(
    "retry-interval-order",
    Error,
    "retry `initial_interval` is longer than `maximum_interval`",
);
pub const TOOL_ALLOWED_AND_DENIED: Rule = rule(
    "tool-allowed-and-denied",
    Error,
    "a tool is both allowed and denied",
);
pub const REVISE_WITHOUT_MESSAGE: Rule = rule(
    "revise-without-message",
    Warning,
    "`on_fail: revise` without a message to revise by",
);
pub const UNKNOWN_INSPECTOR_KEY: Rule = rule(
    "unknown-inspector-key",
    Warning,
    "a `visual.inspector` key names no field of the spec",
);
pub const DUPLICATE_NAME: Rule = rule(
    "duplicate-name",
    Error,
    "two ports, contract fields, gates or criteria share a name",
);
pub const RUBRIC_WEIGHTS: Rule = rule("rubric-weights", Warning, "rubric weights do not sum to 1");
pub const JOIN_WITHOUT_PARALLEL: Rule = rule(
    "join-without-parallel",
    Warning,
    "`join`/`parallel_steps` on a step whose execution is not parallel",
);
pub const UNKNOWN_TREE_ROOT: Rule = rule(
    "unknown-tree-root",
    Error,
    "a decision tree's `root` is not one of its nodes",
);
pub const UNKNOWN_TREE_TARGET: Rule = rule(
    "unknown-tree-target",
    Error,
    "a decision-tree `next` is not a node, terminal or step",
);
pub const UNREACHABLE_TREE_NODE: Rule = rule(
    "unreachable-tree-node",
    Warning,
    "a decision-tree node or terminal cannot be reached from the root",
);
pub const MISSING_DEFAULT_BRANCH: Rule = rule(
    "missing-default-branch",
    Warning,
    "a decision-tree node or branch list has no default",
);
pub const UNKNOWN_NODE: Rule = rule(
    "unknown-node",
    Error,
    "`depends_on` or an edge names a node that does not exist",
);
pub const NODE_CYCLE: Rule = rule(
    "node-cycle",
    Error,
    "workflow nodes depend on each other in a cycle",
);
pub const UNRESOLVED_REFERENCE: Rule = rule(
    "unresolved-reference",
    Error,
    "an import or `logic_ref` cannot be loaded",
);
pub const INVALID_OVERRIDE: Rule = rule(
    "invalid-override",
    Error,
    "a node override path does not parse or does not apply",
);
pub const CONTRACT_MISMATCH: Rule = rule(
    "contract-mismatch",
    Error,
    "an edge's contract is not satisfied by its source or does not satisfy its target",
);
pub const ESCALATION_ORDER: Rule = rule(
    "escalation-order",
    Warning,
    "fallback escalation levels are not strictly increasing",
);

/// All rules, for `logicmd lint --rules` and documentation.
pub const ALL: &[Rule] = &[
    UNKNOWN_NEED,
    STEP_CYCLE,
    UNKNOWN_BRANCH_TARGET,
    UNKNOWN_PARALLEL_STEP,
    UNBOUNDED_LOOP,
    EXPRESSION_SYNTAX,
    UNKNOWN_EXPRESSION_ROOT,
    UNKNOWN_STEP_REFERENCE,
    MISSING_DESCRIPTION,
    UNUSED_IMPORT,
    CONFIDENCE_ORDER,
    INVALID_DURATION,
    RETRY_INTERVAL_ORDER,
    TOOL_ALLOWED_AND_DENIED,
    REVISE_WITHOUT_MESSAGE,
    UNKNOWN_INSPECTOR_KEY,
    DUPLICATE_NAME,
    RUBRIC_WEIGHTS,
    JOIN_WITHOUT_PARALLEL,
    UNKNOWN_TREE_ROOT,
    UNKNOWN_TREE_TARGET,
    UNREACHABLE_TREE_NODE,
    MISSING_DEFAULT_BRANCH,
    UNKNOWN_NODE,
    NODE_CYCLE,
    UNRESOLVED_REFERENCE,
    INVALID_OVERRIDE,
    CONTRACT_MISMATCH,
    ESCALATION_ORDER,
];

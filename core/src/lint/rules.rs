//! Every lint rule: a stable code, a default severity and a one-line summary.

use crate::diagnostic::Severity;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub code: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

macro_rules! rules {
    ($($name:ident: $code:literal, $severity:ident, $summary:literal;)*) => {
        $(pub const $name: Rule = Rule { code: $code, severity: Severity::$severity, summary: $summary };)*
        /// All rules, for `logicmd lint --rules` and documentation.
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    UNKNOWN_NEED: "unknown-need", Error,
        "`needs` names a step that does not exist";
    STEP_CYCLE: "step-cycle", Error,
        "`needs` form a cycle";
    UNKNOWN_BRANCH_TARGET: "unknown-branch-target", Error,
        "a branch's `then` names no step";
    UNKNOWN_PARALLEL_STEP: "unknown-parallel-step", Warning,
        "`parallel_steps` names a step that is not defined";
    UNBOUNDED_LOOP: "unbounded-loop", Warning,
        "a branch loops back without a bound (retry.max_attempts, reasoning.max_iterations or verification.on_fail)";
    EXPRESSION_SYNTAX: "expression-syntax", Error,
        "a `{{ }}` expression does not parse";
    UNKNOWN_EXPRESSION_ROOT: "unknown-expression-root", Warning,
        "an expression reads a variable no runtime provides";
    UNKNOWN_STEP_REFERENCE: "unknown-step-reference", Error,
        "an expression reads `steps.NAME` for a step that does not exist";
    MISSING_DESCRIPTION: "missing-description", Info,
        "a step, tree or document has no description";
    UNUSED_IMPORT: "unused-import", Warning,
        "an import contributes nothing that is used";
    CONFIDENCE_ORDER: "confidence-order", Error,
        "confidence thresholds are out of order (escalate_below ≤ minimum ≤ target)";
    INVALID_DURATION: "invalid-duration", Error,
        "a duration does not parse (\"500ms\", \"30s\", \"2m\", \"1h\")";
    RETRY_INTERVAL_ORDER: "retry-interval-order", Error,
        "retry `initial_interval` is longer than `maximum_interval`";
    TOOL_ALLOWED_AND_DENIED: "tool-allowed-and-denied", Error,
        "a tool is both allowed and denied";
    REVISE_WITHOUT_MESSAGE: "revise-without-message", Warning,
        "`on_fail: revise` without a message to revise by";
    UNKNOWN_INSPECTOR_KEY: "unknown-inspector-key", Warning,
        "a `visual.inspector` key names no field of the spec";
    DUPLICATE_NAME: "duplicate-name", Error,
        "two ports, contract fields, gates or criteria share a name";
    RUBRIC_WEIGHTS: "rubric-weights", Warning,
        "rubric weights do not sum to 1";
    JOIN_WITHOUT_PARALLEL: "join-without-parallel", Warning,
        "`join`/`parallel_steps` on a step whose execution is not parallel";
    UNKNOWN_TREE_ROOT: "unknown-tree-root", Error,
        "a decision tree's `root` is not one of its nodes";
    UNKNOWN_TREE_TARGET: "unknown-tree-target", Error,
        "a decision-tree `next` is not a node, terminal or step";
    UNREACHABLE_TREE_NODE: "unreachable-tree-node", Warning,
        "a decision-tree node or terminal cannot be reached from the root";
    MISSING_DEFAULT_BRANCH: "missing-default-branch", Warning,
        "a decision-tree node or branch list has no default";
    UNKNOWN_NODE: "unknown-node", Error,
        "`depends_on` or an edge names a node that does not exist";
    NODE_CYCLE: "node-cycle", Error,
        "workflow nodes depend on each other in a cycle";
    UNRESOLVED_REFERENCE: "unresolved-reference", Error,
        "an import or `logic_ref` cannot be loaded";
    DUPLICATE_IMPORT_ALIAS: "duplicate-import-alias", Error,
        "two imports share an `as` (the later one is not merged)";
    INVALID_IMPORT_ALIAS: "invalid-import-alias", Error,
        "an import's `as` is not a plain name ([A-Za-z_][A-Za-z0-9_-]*)";
    INVALID_OVERRIDE: "invalid-override", Error,
        "a node override path does not parse or does not apply";
    CONTRACT_MISMATCH: "contract-mismatch", Error,
        "an edge's contract is not satisfied by its source or does not satisfy its target";
    UNKNOWN_FALLBACK_TARGET: "unknown-fallback-target", Warning,
        "a degradation `fallback_to` is neither a known fallback mode nor a step";
    ESCALATION_ORDER: "escalation-order", Warning,
        "fallback escalation levels are not strictly increasing";
}

//! Every lint rule: a stable code, a default severity, a one-line summary and the reason it
//! exists. Severity: an error where the document cannot work as written, a warning where it is
//! merely suspicious, info for advice.

use crate::diagnostic::Severity;

/// A lint rule: the constants of this module, listed in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable code its diagnostics carry (`unknown-need`, ...).
    pub code: &'static str,
    /// The severity its diagnostics get.
    pub severity: Severity,
    /// What the rule finds, in one line.
    pub summary: &'static str,
    /// Why the rule exists: what goes wrong at run time, or where the spec says so.
    pub reason: &'static str,
}

macro_rules! rules {
    ($($name:ident: $code:literal, $severity:ident, $summary:literal, $reason:literal;)*) => {
        // A summary is plain text for `logicmd lint --rules`, not markdown: brackets in it
        // (`[A-Za-z_]`) are not links.
        $(#[doc = concat!("`", $code, "`: ", $summary)]
        #[allow(rustdoc::broken_intra_doc_links)]
        pub const $name: Rule = Rule {
            code: $code,
            severity: Severity::$severity,
            summary: $summary,
            reason: $reason,
        };)*
        /// All rules, for `logicmd lint --rules` and documentation.
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    UNKNOWN_NEED: "unknown-need", Error,
        "`needs` names a step that does not exist",
        "A step waits for the steps it needs; one that does not exist never completes.";
    STEP_CYCLE: "step-cycle", Error,
        "`needs` form a cycle",
        "Steps in a `needs` cycle each wait for another, so none can start.";
    UNKNOWN_BRANCH_TARGET: "unknown-branch-target", Error,
        "a branch's `then` names no step",
        "A branch hands control to the step it names; there is no such step to run.";
    UNKNOWN_PARALLEL_STEP: "unknown-parallel-step", Warning,
        "`parallel_steps` names a step that is not defined",
        "The spec allows naming steps defined elsewhere, but a typo here silently runs nothing.";
    UNBOUNDED_LOOP: "unbounded-loop", Warning,
        "a branch loops back without a bound (retry.max_attempts, reasoning.max_iterations or verification.on_fail)",
        "A loop with no limit can run until the model's budget is gone.";
    EXPRESSION_SYNTAX: "expression-syntax", Error,
        "a `{{ }}` expression does not parse",
        "The runtime cannot evaluate an expression it cannot parse (spec §4.2).";
    UNKNOWN_EXPRESSION_ROOT: "unknown-expression-root", Warning,
        "an expression reads a variable no runtime provides",
        "Reading a variable that does not exist gives `undefined`, which is almost always a typo.";
    UNKNOWN_STEP_REFERENCE: "unknown-step-reference", Error,
        "an expression reads `steps.NAME` for a step that does not exist",
        "The output of a step that does not exist is always `undefined`.";
    MISSING_DESCRIPTION: "missing-description", Info,
        "a step, tree or document has no description",
        "Descriptions are shown in builders and compiled into the prompt scaffold.";
    UNUSED_IMPORT: "unused-import", Warning,
        "an import contributes nothing that is used",
        "An import whose steps nothing names only adds loading time and confusion.";
    CONFIDENCE_ORDER: "confidence-order", Error,
        "confidence thresholds are out of order (escalate_below ≤ minimum ≤ target)",
        "Out of order, a step escalates outputs it accepts or aims below what it requires.";
    INVALID_DURATION: "invalid-duration", Error,
        "a duration does not parse (\"500ms\", \"30s\", \"2m\", \"1h\")",
        "A timeout or interval the runtime cannot read is no limit at all.";
    RETRY_INTERVAL_ORDER: "retry-interval-order", Error,
        "retry `initial_interval` is longer than `maximum_interval`",
        "The first wait would already exceed the longest allowed wait.";
    TOOL_ALLOWED_AND_DENIED: "tool-allowed-and-denied", Error,
        "a tool is both allowed and denied",
        "The two lists contradict each other; denied wins at run time.";
    REVISE_WITHOUT_MESSAGE: "revise-without-message", Warning,
        "`on_fail: revise` without a message to revise by",
        "Revision re-prompts the model with feedback; without a message it is not told what to fix.";
    UNKNOWN_INSPECTOR_KEY: "unknown-inspector-key", Warning,
        "a `visual.inspector` key names no field of the spec",
        "An inspector control bound to no field edits nothing (spec §10.1).";
    DUPLICATE_NAME: "duplicate-name", Error,
        "two ports, contract fields, gates or criteria share a name",
        "Names identify these entries; with two of one name the second shadows the first.";
    RUBRIC_WEIGHTS: "rubric-weights", Warning,
        "rubric weights do not sum to 1",
        "Weighted scores are compared with `minimum_score` on a 0 to 1 scale.";
    JOIN_WITHOUT_PARALLEL: "join-without-parallel", Warning,
        "`join`/`parallel_steps` on a step whose execution is not parallel",
        "These settings only take effect with `execution: parallel`.";
    UNKNOWN_TREE_ROOT: "unknown-tree-root", Error,
        "a decision tree's `root` is not one of its nodes",
        "Evaluation starts at the root node; a tree without it cannot start.";
    UNKNOWN_TREE_TARGET: "unknown-tree-target", Error,
        "a decision-tree `next` is not a node, terminal or step",
        "A branch that leads nowhere stops the tree without an outcome.";
    UNREACHABLE_TREE_NODE: "unreachable-tree-node", Warning,
        "a decision-tree node or terminal cannot be reached from the root",
        "A node no branch leads to is never evaluated; usually a branch is missing.";
    MISSING_DEFAULT_BRANCH: "missing-default-branch", Warning,
        "a decision-tree node or branch list has no default",
        "A value no branch matches stops the tree without an outcome.";
    UNKNOWN_NODE: "unknown-node", Error,
        "`depends_on` or an edge names a node that does not exist",
        "A workflow cannot wait for or pass data to a node it does not have.";
    NODE_CYCLE: "node-cycle", Error,
        "workflow nodes depend on each other in a cycle",
        "Nodes in a dependency cycle each wait for another, so none can start.";
    UNRESOLVED_REFERENCE: "unresolved-reference", Error,
        "an import or `logic_ref` cannot be loaded",
        "The document depends on a file that cannot be read or is not a valid LOGIC.md.";
    DUPLICATE_IMPORT_ALIAS: "duplicate-import-alias", Error,
        "two imports share an `as` (the later one is not merged)",
        "Both imports would land in one namespace, and which step `as.name` means would depend on their order.";
    INVALID_IMPORT_ALIAS: "invalid-import-alias", Error,
        "an import's `as` is not a plain name ([A-Za-z_][A-Za-z0-9_-]*)",
        "Imported steps are named `as.step`; a `.` or a space in `as` makes those names ambiguous.";
    INVALID_OVERRIDE: "invalid-override", Error,
        "a node override path does not parse or does not apply",
        "An override that does not apply leaves the node unchanged, or breaks it.";
    CONTRACT_MISMATCH: "contract-mismatch", Error,
        "an edge's contract is not satisfied by its source or does not satisfy its target",
        "Data along the edge would miss fields the receiving node requires (spec §16.3).";
    UNKNOWN_FALLBACK_TARGET: "unknown-fallback-target", Warning,
        "a degradation `fallback_to` is neither a known fallback mode nor a step",
        "A fallback the runtime does not know leaves the failure unhandled.";
    ESCALATION_ORDER: "escalation-order", Warning,
        "fallback escalation levels are not strictly increasing",
        "The chain is walked in order of severity; equal or falling levels make the order unclear.";

    // What the canonical schema leaves open but a document cannot work with (or most likely did
    // not mean): our earlier schema rejected these; they are lint rules now.
    MAX_ITERATIONS_ZERO: "max-iterations-zero", Error,
        "`reasoning.max_iterations` is below 1",
        "Output is forced after `max_iterations` reasoning loops; below 1 there is no loop at all.";
    TEMPERATURE_OUT_OF_RANGE: "temperature-out-of-range", Warning,
        "`reasoning.temperature` is outside 0 to 2",
        "Model providers accept temperatures from 0 to 2 (some only up to 1); a runtime would clamp or reject other values.";
    COUNT_BELOW_ONE: "count-below-one", Error,
        "`retry.max_attempts`, `global.max_parallelism` or `capabilities.max_input_tokens` is below 1",
        "Each counts something that must happen at least once: the first attempt, one running node, one input token.";
    NEGATIVE_VALUE: "negative-value", Error,
        "`thinking_budget`, `reflection.max_revisions` or `global.max_total_cost` is negative",
        "A budget or a limit below zero can never be met; 0 is the way to say none.";
    BACKOFF_BELOW_ONE: "backoff-below-one", Warning,
        "`retry.backoff_coefficient` is below 1",
        "The interval is multiplied by the coefficient after each attempt: below 1 retries come faster instead of backing off.";
    ESCALATION_LEVEL_BELOW_ONE: "escalation-level-below-one", Warning,
        "a fallback escalation `level` is below 1",
        "Escalation levels count up from 1, higher being more severe (spec §8).";
    INSPECTOR_STEP_NOT_POSITIVE: "inspector-step-not-positive", Error,
        "a `visual.inspector` control's `step` is 0 or negative",
        "A slider or number control moves by `step`; with 0 or less it cannot move.";
    INVALID_STRATEGY_CONFIG: "invalid-strategy-config", Warning,
        "a `reasoning.strategy_config` key of spec §3 has a value of the wrong type, range or choice",
        "The canonical schema leaves strategy_config open (it varies by strategy), but spec §3 documents these keys and their values.";
    UNKNOWN_CONTRACT_TYPE: "unknown-contract-type", Warning,
        "a contract field's `type` is not a JSON Schema type or `any`",
        "Contract compatibility (spec §16.3) compares JSON Schema types; any other type matches only itself, so a typo hides mismatches.";
    UNKNOWN_PORT_TYPE: "unknown-port-type", Warning,
        "a `visual.ports` port's `type` is not a JSON Schema type or `any`",
        "Builders wire ports whose types fit (spec §10.1); any other type fits only itself, so a typo refuses good wires.";
    UNKNOWN_INSPECTOR_TYPE: "unknown-inspector-type", Warning,
        "a `visual.inspector` control's `type` is not select, number, boolean, slider or text",
        "Builders know these controls (spec §10.1); any other is shown as a text box.";
    UNKNOWN_CONTRACT_VIOLATION_ACTION: "unknown-contract-violation-action", Warning,
        "an edge's `on_contract_violation` is not retry_source, skip or abort",
        "These are the actions spec §9.1 defines; a runtime does not know what to do on any other.";
    EMPTY_NAME: "empty-name", Error,
        "a contract field, port, gate, invariant, criterion or import namespace has an empty name",
        "Names are how these are referred to and reported; an empty one cannot be.";
    EMPTY_BRANCH_TARGET: "empty-branch-target", Error,
        "a branch's `then` or a decision-tree branch's `next` is empty",
        "A branch hands control to what it names; an empty name leads nowhere.";
    EMPTY_REFERENCE: "empty-reference", Error,
        "`needs`, `depends_on`, `root`, an edge end, an import `ref`, a `logic_ref`, a `fallback_to` or an inspector `key` is empty",
        "An empty reference names nothing, so what depends on it cannot work.";
    EMPTY_ACTION: "empty-action", Error,
        "a terminal's or escalation's `action`, or a degradation's `when`, is empty",
        "The runtime cannot perform an empty action or wait for an empty condition.";
    BRANCH_WITHOUT_TARGET: "branch-without-target", Error,
        "a step branch has no `then`",
        "A branch hands control to the step `then` names; without it there is nowhere to go.";
    BRANCH_WITHOUT_CONDITION: "branch-without-condition", Error,
        "a branch has neither a condition (`if`, or a tree branch's `value`) nor `default`",
        "The runtime takes a branch when its condition holds or when it is the default; with neither it is never chosen.";
    NODE_WITHOUT_BRANCHES: "node-without-branches", Error,
        "a decision-tree node has no branches",
        "Evaluation stops at a node with nowhere to go, without an outcome.";
    TREE_WITHOUT_NODES: "tree-without-nodes", Error,
        "a decision tree has no nodes",
        "Evaluation starts at the root node; a tree without nodes cannot start.";
    MISSING_LOGIC_REF: "missing-logic-ref", Error,
        "a workflow node has no `logic_ref`",
        "A node runs the LOGIC.md file its `logic_ref` names (spec §9.1); without one it has nothing to run.";
    UNWAITED_STEP_READ: "unwaited-step-read", Warning,
        "a step's expression reads `steps.X` but the step does not run after X",
        "A step that does not wait for X (through `needs`, `parallel_steps`, a branch or a decision tree) may run before it, and then reads `undefined`.";
    AMBIGUOUS_SCALAR: "ambiguous-scalar", Warning,
        "an unquoted value is a string here (YAML 1.2) but not in YAML 1.1 readers or js-yaml (`yes`, `on`, `0777`, `2026-03-31`)",
        "Other tools reading the same file (PyYAML, go-yaml v2, the reference implementation's js-yaml) would see a boolean, a number or a date; quoted, every reader sees the same string.";
    DUPLICATE_DEPENDENCY: "duplicate-dependency", Warning,
        "`needs` or `depends_on` names the same step or node twice",
        "The repeat changes nothing, and is often a typo for another name.";
}

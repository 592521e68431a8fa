//! Every lint rule: a stable code, a default severity, a one-line summary and the reason it
//! exists. Severity: an error where the document cannot work as written, a warning where it is
//! merely suspicious, info for advice.

use crate::diagnostic::Severity;

/// A lint rule: the constants of this module, listed in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LintRule {
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
    ($list:ident, $list_doc:literal; $($name:ident: $code:literal, $severity:ident, $summary:literal, $reason:literal;)*) => {
        // A summary is plain text for `logicmd lint --rules`, not markdown: brackets in it
        // (`[A-Za-z_]`) are not links.
        $(#[doc = concat!("`", $code, "`: ", $summary)]
        #[allow(rustdoc::broken_intra_doc_links)]
        pub const $name: LintRule = LintRule {
            code: $code,
            severity: Severity::$severity,
            summary: $summary,
            reason: $reason,
        };)*
        #[doc = $list_doc]
        pub const $list: &[LintRule] = &[$($name),*];
    };
}

rules! {
    ALL, "The LOGIC.md rules (`logicmd lint`), for `logicmd lint --rules` and documentation.";
    UNKNOWN_NEED: "unknown-need", Error,
        "`needs` names a step that does not exist",
        "A step waits for the steps it needs; one that does not exist never completes.";
    STEP_CYCLE: "step-cycle", Error,
        "`needs` form a cycle",
        "Steps in a `needs` cycle each wait for another, so none can start.";
    UNKNOWN_BRANCH_TARGET: "unknown-branch-target", Error,
        "a branch's `then` names no step",
        "A branch hands control to the step it names; there is no such step to run.";
    BRANCH_AFTER_DEFAULT: "branch-after-default", Warning,
        "a step branch comes after the `default: true` branch",
        "Branches are tried in order and the default always matches, so a branch after it is never taken.";
    DUPLICATE_DEFAULT: "duplicate-default", Warning,
        "a step's branches or a decision-tree node have two `default: true` branches",
        "Only the first default is ever taken; the second one's target is never reached through it.";
    BRANCH_IF_AND_DEFAULT: "branch-if-and-default", Warning,
        "a step branch has both an `if` and `default: true`",
        "A branch with an `if` is taken only when its condition holds: its `default` is ignored, so it is not the fallback it looks like.";
    DUPLICATE_BRANCH_VALUE: "duplicate-branch-value", Warning,
        "two branches of a decision-tree node have the same `value`",
        "The first branch with a value is taken; a later one with the same value is never reached.";
    TREE_CYCLE: "tree-cycle", Error,
        "decision-tree nodes route to each other in a cycle (or a node to itself)",
        "Every node of a tree reads the same input, so a walk that enters the cycle never leaves it (spec §7: trees route to terminals and steps).";
    PARALLEL_STEP_IS_ITSELF: "parallel-step-is-itself", Error,
        "a step lists itself in its `parallel_steps`",
        "A parallel step waits for its `parallel_steps` to finish; waiting for itself, it never starts.";
    PARALLEL_WITHOUT_STEPS: "parallel-without-steps", Warning,
        "`execution: parallel` without `parallel_steps`",
        "There is nothing to run in parallel, so the step runs as a sequential one (spec §4.3).";
    UNKNOWN_PARALLEL_STEP: "unknown-parallel-step", Warning,
        "`parallel_steps` names a step that is not defined",
        "The spec allows naming steps defined elsewhere, but a typo here silently runs nothing.";
    UNBOUNDED_LOOP: "unbounded-loop", Warning,
        "a branch loops back without a bound (retry.max_attempts, reasoning.max_iterations or verification.on_fail)",
        "A loop with no limit can run until the model's budget is gone.";
    EXPRESSION_SYNTAX: "expression-syntax", Error,
        "a `{{ }}` expression does not parse",
        "The runtime cannot evaluate an expression it cannot parse (spec §4.2).";
    UNBRACED_CONDITION: "unbraced-condition", Error,
        "a condition (a check, gate, branch `if`, tree `condition` or escalation `trigger`) is an expression written without `{{ }}`",
        "Without `{{ }}` the runtime reads the condition as text: a check always passes, a gate never blocks, a branch always fires, a tree condition matches no value (spec §4.2).";
    CONDITION_IS_TEXT: "condition-is-text", Error,
        "a condition is prose, empty, or text around `{{ }}`, not one expression",
        "A condition is one `{{ }}` expression (spec §4.1.1, §6, §7); text is a constant, so the condition decides nothing.";
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
        "an import contributes nothing that is used (its steps, which nothing names, are not run)",
        "An import whose steps nothing names only adds loading time and confusion.";
    UNSUPPORTED_IMPORT_REF: "unsupported-import-ref", Warning,
        "an import's `ref` is a URI or an absolute path, which are not read",
        "Spec §2.2 allows a file path or a URI; remote files are not fetched and absolute paths leave the project, so the import contributes nothing.";
    CONFIDENCE_ORDER: "confidence-order", Error,
        "confidence thresholds are out of order (escalate_below ≤ minimum ≤ target)",
        "Out of order, a step escalates outputs it accepts or aims below what it requires.";
    INVALID_DURATION: "invalid-duration", Error,
        "a duration does not parse (\"500ms\", \"30s\", \"2m\", \"1h\"), has no unit, or is a zero timeout",
        "A timeout or interval the runtime cannot read is no limit at all; a bare number does not say its unit; a zero timeout ends what it limits before it starts.";
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
        "a `visual.inspector` key names no field of the spec, or a step, node or tree that does not exist",
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
    UNUSED_SUPPRESSION: "unused-suppression", Warning,
        "a `# logicmd: ignore[...]` comment names a code that nothing it covers reports (also in topologies)",
        "A suppression left behind after the problem was fixed would silence the next, unrelated finding on that line; errors cannot be suppressed.";
    INVALID_SUPPRESSION: "invalid-suppression", Warning,
        "a `# logicmd:` comment is neither `ignore[code, ...]` nor `ignore-file[code, ...]` (also in topologies)",
        "A suppression that cannot be read silences nothing, though its author believes it does.";
}

rules! {
    DRTL, "The DRTL topology rules (`logicmd lint` on a topology; `expression-syntax` and `unknown-expression-root` apply too).";
    DRTL_DUPLICATE_ID: "drtl-duplicate-id", Error,
        "two nodes share an `id`",
        "Routes, edges and inputs name nodes by id; with two of one id they would name either.";
    DRTL_UNKNOWN_ROUTE: "drtl-unknown-route", Error,
        "a gate's `on_pass`/`on_fail` or a review action routes to a node that does not exist",
        "A route hands the run to the node it names; there is no such node to run.";
    DRTL_UNKNOWN_NODE: "drtl-unknown-node", Error,
        "an edge's `from` or `to` names a node that does not exist",
        "An edge connects two nodes of the topology (DRTL §4).";
    DRTL_LABEL_NOT_CONDITION: "drtl-label-not-condition", Warning,
        "an edge `if` without `{{ }}` reads like a condition, but is a label: the edge is always taken",
        "Only a `{{ }}` edge condition is evaluated (§4.2's `passed`, §4.3's `under_limit` are labels); a label that tests a counter bounds nothing.";
    DRTL_INPUT_NOT_UPSTREAM: "drtl-input-not-upstream", Error,
        "a node reads the output of a node that has no path to it",
        "A node runs after the nodes with a path to it; it cannot read an output that is not there yet.";
    DRTL_UNKNOWN_OUTPUT_KEY: "drtl-unknown-output-key", Warning,
        "a node reads `node.key` where `key` is not the source's `output_key`",
        "The source stores its output under its `output_key`; any other key reads nothing.";
    DRTL_UNKNOWN_ARTIFACT: "drtl-unknown-artifact", Error,
        "a `prompt_ref` or `protocol_ref` names an artifact the topology does not declare",
        "References go through `artifacts` (DRTL §6); one that is not declared has no file to read.";
    DRTL_EXTERNAL_FILE: "drtl-external-file", Info,
        "a `prompt_ref` or `protocol_ref` names a file directly, not an `artifacts` entry",
        "References are meant to go through `artifacts` (DRTL §6), where a topology's files are listed in one place.";
    DRTL_VERIFY_UNSTRUCTURED: "drtl-verify-unstructured", Error,
        "a `verify` node reads a node that does not declare `output_format: json`",
        "Verification requires structured input (DRTL §3.4, §9.2): extract claims as JSON first.";
    DRTL_UNKNOWN_STANDARD_RULE: "drtl-unknown-standard-rule", Error,
        "a verify rule `std.*` is not in the standard verification library",
        "Only the standard library's rules (DRTL §3.4) have a meaning; another `std.` name checks nothing.";
}

rules! {
    CHECK, "The obligation rules (`logicmd check`), on LOGIC.md documents and DRTL topologies.";
    UNVERIFIED_OUTPUT: "unverified-output", Error,
        "a generated output can reach an end unchecked: no blocking verify, no gate that checks it and refuses on failure, no review",
        "A reasoning runtime refuses to produce output when its obligations are unmet (DRTL §9.3).";
    HUMAN_OVERRIDE: "human-override", Info,
        "an end is reachable through a review's decision on an output that failed its check",
        "A person (or policy) may decide for a refused output; the decision is worth seeing (DRTL §3.8, §9.3).";
    UNBOUNDED_CYCLE: "unbounded-cycle", Error,
        "a cycle has no bound: no counter tested by a gate or `{{ }}` edge condition, no `max_rounds`, no review",
        "A loop nothing bounds can run until the budget is gone.";
    NO_EXIT: "no-exit", Error,
        "a cycle has no way out",
        "A run that enters it can neither complete nor be abandoned.";
    UNREACHABLE: "unreachable", Error,
        "a node cannot be reached from an entry node",
        "A node no route leads to never runs; usually a route is missing.";
    CANNOT_TERMINATE: "cannot-terminate", Error,
        "from a node no path leads to an end",
        "The formal specification's temporal obligation: eventually every run completes or is abandoned.";
    GATE_BRANCH_MISSING: "gate-branch-missing", Error,
        "a gate has no pass or no fail branch",
        "Where the run goes when the gate's condition holds, or does not, must be declared (DRTL §3.5).";
    UNVERIFIED_CONTRACT: "unverified-contract", Warning,
        "a step promises structured output (an output schema or contract) but nothing checks it",
        "A promise nothing checks is not kept by the runtime: add a verification or an output gate.";
    ESCALATION_NEVER_FIRES: "escalation-never-fires", Error,
        "an escalation trigger compares `confidence` with a bound outside 0 to 1",
        "Confidence is between 0 and 1 (spec §4.1): such a trigger can never hold.";
    UNKNOWN_FALLBACK: "unknown-fallback", Error,
        "a degradation falls back to neither a fallback mode nor a step",
        "A fallback the runtime does not know leaves the failure unhandled (spec §8).";
}

/// A family of rules, the command that applies them, and where each one's fixture is.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// `logic`, `drtl` or `check`: the directory of its fixtures under `tests/rules/`.
    pub name: &'static str,
    /// What it is, for `logicmd lint --rules`.
    pub title: &'static str,
    /// Its rules.
    pub rules: &'static [LintRule],
}

impl Family {
    /// The fixture that triggers `rule`, relative to the repository: `tests/rules/<family>/<code>`
    /// with the kind's extension (`.logic.md`, or `.drtl.yaml` for DRTL rules and the check rules
    /// that are about topologies).
    pub fn fixture(&self, rule: &LintRule) -> String {
        let topology =
            self.name == "drtl" || (self.name == "check" && TOPOLOGY_CHECKS.contains(&rule.code));
        let extension = if topology { "drtl.yaml" } else { "logic.md" };
        format!("tests/rules/{}/{}.{extension}", self.name, rule.code)
    }
}

/// The check rules about DRTL topologies (the others are about LOGIC.md documents).
const TOPOLOGY_CHECKS: &[&str] = &[
    "unverified-output",
    "human-override",
    "unbounded-cycle",
    "no-exit",
    "unreachable",
    "cannot-terminate",
    "gate-branch-missing",
];

/// Every rule, by family: what `logicmd lint --rules` lists.
pub const FAMILIES: &[Family] = &[
    Family {
        name: "logic",
        title: "LOGIC.md rules (lint)",
        rules: ALL,
    },
    Family {
        name: "drtl",
        title: "DRTL rules (lint)",
        rules: DRTL,
    },
    Family {
        name: "check",
        title: "Obligation rules (check)",
        rules: CHECK,
    },
];

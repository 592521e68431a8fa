#!/usr/bin/env python3
"""Generates core/src/schema/logic-md-1.0.schema.json (LOGIC.md spec v1.0, JSON Schema draft-07).

The schema is written here as Python data so that shared shapes stay in one place; the JSON
file is checked in and embedded in the crate. Run: python3 scripts/gen-schema.py
"""
import json
import pathlib

from schema_helpers import closed, ref, string  # noqa: E402 (scripts/ is on sys.path)

def strings(description):
    return {"type": "array", "description": description, "items": {"type": "string"}}

def integer(description, minimum=None):
    schema = {"type": "integer", "description": description}
    if minimum is not None:
        schema["minimum"] = minimum
    return schema

def boolean(description):
    return {"type": "boolean", "description": description}

def probability(description):
    return {"type": "number", "description": description, "minimum": 0, "maximum": 1}

def described(schema, description):
    return {"description": description, **schema}

ON_FAIL = ["retry", "escalate", "skip", "abort", "revise"]
STRATEGIES = ["react", "cot", "tot", "got", "plan-execute", "custom"]
VALUE_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null", "any"]
# JSON Schema keywords a contract field may carry besides its LOGIC.md fields.
FIELD_KEYWORDS = {
    "enum": {"type": "array", "description": "Allowed values."},
    "const": {"description": "The only allowed value."},
    "format": string("String format (uri, date-time, email, ...)."),
    "pattern": string("Regular expression a string must match."),
    "minimum": {"type": "number", "description": "Smallest allowed number."},
    "maximum": {"type": "number", "description": "Largest allowed number."},
    "minLength": integer("Shortest allowed string.", 0),
    "maxLength": integer("Longest allowed string.", 0),
    "minItems": integer("Fewest allowed items.", 0),
    "maxItems": integer("Most allowed items.", 0),
    "default": {"description": "Value used when none is given."},
    "examples": {"type": "array", "description": "Example values."},
}

definitions = {
    "Duration": {
        "description": "A duration such as \"500ms\", \"30s\", \"2m\" or \"1h\" (a bare number is seconds).",
        "type": ["string", "number"],
    },
    "Expression": string("A {{ }} expression."),
    "JsonSchema": {
        "description": "An embedded JSON Schema (not checked further by the LOGIC.md schema).",
        "type": ["object", "boolean"],
    },
    "Strategy": {"description": "Reasoning strategy.", "enum": STRATEGIES},
    "Import": closed(
        {
            "ref": string("File path or URI of the LOGIC.md file to import.", minLength=1),
            "as": string("Namespace prefix for the imported values.", minLength=1),
        },
        ["ref", "as"],
        "An external LOGIC.md file composed into this one (§2.2).",
    ),
    "Reasoning": closed(
        {
            "strategy": ref("Strategy"),
            "max_iterations": integer("Reasoning loops before output is forced.", 1),
            "temperature": {"type": "number", "description": "Suggested sampling temperature.", "minimum": 0, "maximum": 2},
            "thinking_budget": integer("Maximum tokens for internal reasoning.", 0),
            "strategy_config": {
                "type": "object",
                "description": "Strategy-specific parameters; open to custom keys.",
                "properties": {
                    "branching_factor": integer("Tree of Thoughts: candidates per expansion.", 1),
                    "evaluation_method": {"description": "Tree of Thoughts: how candidates are judged.", "enum": ["vote", "score", "compare"]},
                    "pruning_threshold": probability("Tree of Thoughts: branches scoring below this are dropped."),
                    "max_depth": integer("Tree of Thoughts: deepest expansion.", 1),
                    "operations": {
                        "type": "array",
                        "description": "Graph of Thoughts: operations to apply.",
                        "items": {"type": "string"},
                    },
                    "observation_source": {"description": "ReAct: where observations come from.", "enum": ["tools", "memory", "both"]},
                    "max_actions_per_thought": integer("ReAct: actions per thought.", 1),
                    "replan_on_failure": boolean("Plan-Execute: replan when a step fails."),
                    "max_replans": integer("Plan-Execute: most replans.", 0),
                },
                "additionalProperties": True,
            },
        },
        description="Global reasoning strategy configuration (§3).",
    ),
    "Confidence": closed(
        {
            "minimum": probability("Below this confidence the step fails."),
            "target": probability("The confidence to aim for."),
            "escalate_below": probability("Below this confidence the step escalates."),
        },
        description="Confidence thresholds of a step.",
    ),
    "Branch": closed(
        {
            "if": ref("Expression"),
            "then": string("The step to go to.", minLength=1),
            "default": boolean("Taken when no other branch matches."),
        },
        ["then"],
        "A conditional route to another step.",
        anyOf=[{"required": ["if"]}, {"required": ["default"]}],
    ),
    "Retry": closed(
        {
            "max_attempts": integer("Most attempts, the first included.", 1),
            "initial_interval": ref("Duration"),
            "backoff_coefficient": {"type": "number", "description": "Multiplier applied to the interval after each attempt.", "minimum": 1},
            "maximum_interval": ref("Duration"),
            "non_retryable_errors": strings("Errors that are never retried."),
        },
        description="Retry policy of a step.",
    ),
    "Verification": closed(
        {
            "check": ref("Expression"),
            "on_fail": {"description": "What happens when the check is falsy (default retry).", "enum": ON_FAIL},
            "on_fail_message": string("Why the check failed; the feedback for revise."),
        },
        ["check"],
        "A check run after the step (§4.1.1).",
    ),
    "Step": closed(
        {
            "description": string("What this step accomplishes."),
            "needs": {"type": "array", "description": "Steps that must complete first.", "items": {"type": "string", "minLength": 1}, "uniqueItems": True},
            "instructions": string("Reasoning instructions injected for this step."),
            "input_schema": ref("JsonSchema"),
            "output_schema": ref("JsonSchema"),
            "confidence": ref("Confidence"),
            "branches": {"type": "array", "description": "Conditional routes after this step.", "items": ref("Branch")},
            "retry": ref("Retry"),
            "verification": ref("Verification"),
            "timeout": ref("Duration"),
            "allowed_tools": strings("Tools this step may use."),
            "denied_tools": strings("Tools this step must not use."),
            "execution": {"description": "How the step runs.", "enum": ["sequential", "parallel", "conditional"]},
            "parallel_steps": strings("Steps run in parallel by this step."),
            "join": {"description": "When parallel steps count as done.", "enum": ["all", "any", "majority"]},
            "join_timeout": ref("Duration"),
        },
        description="A named reasoning step (§4.1).",
    ),
    "ContractField": closed(
        {
            "name": string("Field name.", minLength=1),
            "type": {"description": "Value type.", "enum": VALUE_TYPES},
            "required": {
                "description": "Whether the field must be present, or (objects) which properties must be.",
                "type": ["boolean", "array"],
                "items": {"type": "string"},
            },
            "description": string("What the field holds."),
            "constraints": {"type": "object", "description": "Free-form constraints (max_length, ...).", "additionalProperties": True},
            "items": ref("JsonSchema"),
            "properties": {"type": "object", "description": "Property schemas of an object field.", "additionalProperties": ref("JsonSchema")},
            **FIELD_KEYWORDS,
        },
        ["name"],
        "A typed input or output of the agent (§5.1).",
    ),
    "Capabilities": closed(
        {
            "name": string("Display name of the agent."),
            "version": string("Version of the agent."),
            "description": string("What the agent does."),
            "supported_domains": strings("Domains the agent covers."),
            "max_input_tokens": integer("Largest input the agent accepts.", 1),
            "avg_response_time": ref("Duration"),
            "languages": strings("Languages the agent works in."),
        },
        description="Capability advertisement (§5.1, §16.3).",
    ),
    "ContractValidation": closed(
        {
            "mode": {"description": "How strictly contracts are enforced.", "enum": ["strict", "warn", "permissive"]},
            "on_input_violation": {"description": "What happens to non-conforming input.", "enum": ["reject", "coerce", "warn"]},
            "on_output_violation": {"description": "What happens to non-conforming output.", "enum": ["retry", "warn", "escalate"]},
        },
        description="Contract validation modes (§5.2).",
    ),
    "Contracts": closed(
        {
            "inputs": {"type": "array", "description": "What the agent accepts.", "items": ref("ContractField")},
            "outputs": {"type": "array", "description": "What the agent promises to produce.", "items": ref("ContractField")},
            "capabilities": ref("Capabilities"),
            "validation": ref("ContractValidation"),
        },
        description="Input/output type contracts (§5).",
    ),
    "Gate": closed(
        {
            "name": string("Gate name.", minLength=1),
            "check": ref("Expression"),
            "message": string("Shown when the check fails."),
            "severity": {"description": "How serious a failure is.", "enum": ["error", "warning", "info"]},
            "on_fail": {"description": "What happens when the check fails.", "enum": ON_FAIL},
        },
        ["name", "check"],
        "A quality gate (§6.1).",
    ),
    "Invariant": closed(
        {
            "name": string("Invariant name.", minLength=1),
            "check": ref("Expression"),
            "message": string("Shown when the invariant breaks."),
            "severity": {"description": "How serious a breach is.", "enum": ["error", "warning", "info"]},
            "on_breach": string("What happens when the invariant breaks (e.g. summarize_and_conclude)."),
        },
        ["name", "check"],
        "A condition checked continuously during reasoning (§6.1).",
    ),
    "Criterion": closed(
        {
            "name": string("Criterion name.", minLength=1),
            "weight": probability("Share of the score."),
            "description": string("What the criterion means."),
        },
        ["name"],
        "A rubric criterion.",
    ),
    "SelfVerification": closed(
        {
            "enabled": boolean("Whether self-verification runs."),
            "strategy": {"description": "How the agent verifies itself.", "enum": ["reflection", "rubric", "checklist", "critic"]},
            "reflection": closed(
                {
                    "prompt": string("The review prompt."),
                    "max_revisions": integer("Most revisions.", 0),
                },
                description="Reflection settings.",
            ),
            "rubric": closed(
                {
                    "criteria": {"type": "array", "description": "Scored criteria.", "items": ref("Criterion")},
                    "minimum_score": probability("The lowest acceptable weighted score."),
                },
                description="Rubric settings.",
            ),
            "checklist": strings("Binary pass/fail items."),
        },
        description="Self-verification loop (§6.2).",
    ),
    "QualityGates": closed(
        {
            "pre_output": {"type": "array", "description": "Checks before output.", "items": ref("Gate")},
            "post_output": {"type": "array", "description": "Checks after output; may trigger revision.", "items": ref("Gate")},
            "invariants": {"type": "array", "description": "Conditions checked continuously.", "items": ref("Invariant")},
            "self_verification": ref("SelfVerification"),
        },
        description="Global quality and verification rules (§6).",
    ),
    "Escalation": closed(
        {
            "level": integer("Escalation level; levels increase.", 1),
            "trigger": ref("Expression"),
            "action": string("What to do (retry_with_different_strategy, request_human_review, abort, ...).", minLength=1),
            "new_strategy": ref("Strategy"),
            "message": string("Explanation surfaced with the action."),
            "include_reasoning_trace": boolean("Attach the reasoning trace."),
        },
        ["level", "trigger", "action"],
        "One level of the escalation chain.",
    ),
    "Degradation": closed(
        {
            "when": string("The condition (tools_unavailable, timeout_exceeded, ...).", minLength=1),
            "fallback_to": string("What to fall back to (reasoning_only, partial_output, ...).", minLength=1),
            "message": string("Explanation surfaced with the fallback."),
            "include_fields": strings("Output fields to keep."),
            "exclude_fields": strings("Output fields to drop."),
        },
        ["when", "fallback_to"],
        "A graceful degradation rule.",
    ),
    "Fallback": closed(
        {
            "strategy": {"description": "Global fallback strategy.", "enum": ["graceful_degrade", "escalate", "abort", "retry_different"]},
            "escalation": {"type": "array", "description": "Escalation chain.", "items": ref("Escalation")},
            "degradation": {"type": "array", "description": "Degradation rules.", "items": ref("Degradation")},
        },
        description="Global fallback strategy and escalation chain (§8).",
    ),
    "TreeBranch": closed(
        {
            "value": {"description": "The condition value that selects this branch."},
            "default": boolean("Taken when no value matches."),
            "next": string("A node, terminal or step.", minLength=1),
        },
        ["next"],
        "A branch of a decision-tree node.",
        anyOf=[{"required": ["value"]}, {"required": ["default"]}],
    ),
    "TreeNode": closed(
        {
            "condition": ref("Expression"),
            "branches": {"type": "array", "description": "Routes by condition value.", "items": ref("TreeBranch"), "minItems": 1},
            "description": string("What this node decides."),
        },
        ["condition", "branches"],
        "A decision node.",
    ),
    "Terminal": closed(
        {
            "action": string("The action taken (request_clarification, escalate, ...).", minLength=1),
            "message": string("Message surfaced with the action."),
            "step": string("A step to run."),
        },
        ["action"],
        "A terminal of a decision tree.",
    ),
    "DecisionTree": closed(
        {
            "description": string("What the tree routes."),
            "root": string("The first node.", minLength=1),
            "nodes": {"type": "object", "description": "Decision nodes by name.", "additionalProperties": ref("TreeNode"), "minProperties": 1},
            "terminals": {"type": "object", "description": "Terminals by name.", "additionalProperties": ref("Terminal")},
        },
        ["root", "nodes"],
        "A named conditional routing tree (§7).",
    ),
    "InspectorField": closed(
        {
            "key": string("Dotted path of the field the control edits.", minLength=1),
            "label": string("Label shown in the inspector."),
            "type": {"description": "Control type.", "enum": ["select", "number", "boolean", "slider", "text"]},
            "options": {"type": "array", "description": "Choices of a select."},
            "min": {"type": "number", "description": "Smallest value."},
            "max": {"type": "number", "description": "Largest value."},
            "step": {"type": "number", "description": "Increment of a slider or number.", "exclusiveMinimum": 0},
            "default": {"description": "Initial value."},
            "description": string("Help text."),
        },
        ["key", "label", "type"],
        "A control in the node inspector panel (§10.1).",
    ),
    "Port": closed(
        {
            "name": string("Port name.", minLength=1),
            "type": {"description": "Value type carried by the port.", "enum": VALUE_TYPES},
            "required": boolean("Whether the port must be connected."),
            "description": string("What flows through the port."),
        },
        ["name"],
        "A typed port for visual wiring.",
    ),
    "Visual": closed(
        {
            "icon": string("Icon identifier."),
            "category": string("Palette category."),
            "color": string("Node colour, e.g. #6366F1."),
            "inspector": {"type": "array", "description": "Inspector panel controls.", "items": ref("InspectorField")},
            "ports": closed(
                {
                    "inputs": {"type": "array", "description": "Input ports.", "items": ref("Port")},
                    "outputs": {"type": "array", "description": "Output ports.", "items": ref("Port")},
                },
                description="Ports for visual wiring.",
            ),
        },
        description="Visual builder integration metadata (§10).",
    ),
    "Global": closed(
        {
            "max_total_time": ref("Duration"),
            "max_total_cost": {"type": "number", "description": "Most cost of a run (USD).", "minimum": 0},
            "fail_fast": boolean("Stop other branches when one fails."),
            "max_parallelism": integer("Most nodes running at once.", 1),
        },
        description="Workflow-level cross-cutting constraints (§9.1).",
    ),
    "WorkflowNode": closed(
        {
            "logic_ref": string("The node's LOGIC.md file.", minLength=1),
            "description": string("What the node does."),
            "overrides": {"type": "object", "description": "Values overriding the node's LOGIC.md, by dotted path.", "additionalProperties": True},
            "depends_on": {"type": "array", "description": "Nodes that must complete first.", "items": {"type": "string", "minLength": 1}, "uniqueItems": True},
        },
        ["logic_ref"],
        "A node of a multi-agent workflow (§9.1).",
    ),
    "Edge": closed(
        {
            "from": string("Source node.", minLength=1),
            "to": string("Target node.", minLength=1),
            "contract": ref("JsonSchema"),
            "on_contract_violation": {"description": "What happens when data breaks the contract.", "enum": ["retry_source", "skip", "abort"]},
            "description": string("What flows along the edge."),
        },
        ["from", "to"],
        "Data flow between two workflow nodes (§9.1).",
    ),
}

root = closed(
    {
        "spec_version": {"type": "string", "description": "Specification version; this schema supports \"1.0\".", "const": "1.0"},
        "name": string("Unique identifier of this reasoning configuration.", minLength=1),
        "description": string("Human-readable summary."),
        "imports": {"type": "array", "description": "External LOGIC.md files to compose.", "items": ref("Import")},
        "reasoning": ref("Reasoning"),
        "steps": {"type": "object", "description": "Named reasoning steps.", "additionalProperties": ref("Step")},
        "contracts": ref("Contracts"),
        "quality_gates": ref("QualityGates"),
        "fallback": ref("Fallback"),
        "decision_trees": {"type": "object", "description": "Named conditional routing trees.", "additionalProperties": ref("DecisionTree")},
        "visual": ref("Visual"),
        "global": ref("Global"),
        "nodes": {"type": "object", "description": "Nodes of a multi-agent workflow.", "additionalProperties": ref("WorkflowNode")},
        "edges": {"type": "array", "description": "Data flow contracts between nodes.", "items": ref("Edge")},
        "metadata": {"type": "object", "description": "Arbitrary key-value metadata.", "additionalProperties": True},
    },
    ["spec_version", "name"],
    "A LOGIC.md frontmatter: the declarative reasoning configuration of an agent.",
)

schema = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://logicmd.dev/schema/logic-md-1.0.schema.json",
    "title": "LOGIC.md v1.0",
    **root,
    "definitions": definitions,
}

out = pathlib.Path(__file__).resolve().parent.parent / "core/src/schema/logic-md-1.0.schema.json"
out.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
print(f"wrote {out}")

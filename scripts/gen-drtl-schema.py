#!/usr/bin/env python3
"""Generates core/src/drtl/drtl-0.1.1.schema.json (DRTL v0.1.1, JSON Schema draft-07).

Run: python3 scripts/gen-drtl-schema.py
"""
import json
import pathlib

from schema_helpers import closed, ref, string  # noqa: E402 (scripts/ is on sys.path)

MODES = ["block", "warn", "observe"]
NODE_TYPES = ["generate", "fan_out", "aggregate", "verify", "gate", "debate", "transform", "review"]
COMMON = {
    "id": string("Unique node id.", minLength=1),
    "type": {"description": "Node type.", "enum": NODE_TYPES},
    "description": string("What the node does."),
    "input": {"description": "Input: a reference `node.key`, a `{{template}}`, or a map of named inputs.", "type": ["string", "object", "array"]},
    "output_key": string("Key of the node's output in state.artifacts.", minLength=1),
    "output_format": {"description": "Format of the output.", "enum": ["text", "json", "markdown"]},
}
# The fields each node type adds to the common ones (§3).
TYPE_FIELDS = {
    "generate": {
        "model": string("Model identifier, e.g. anthropic/claude-3-sonnet."),
        "prompt_ref": string("Prompt file or artifacts.prompts.NAME."),
        "prompt": string("Inline prompt text."),
        "temperature": {"type": "number", "minimum": 0, "maximum": 2, "description": "Sampling temperature."},
    },
    "fan_out": {
        "participants": {"type": "array", "minItems": 1, "items": ref("Participant"), "description": "Parallel generators."},
    },
    "aggregate": {
        "strategy": {"enum": ["synthesize", "vote", "rank", "concat"], "description": "How outputs combine."},
        "model": string("Model for LLM-powered synthesis."),
        "prompt_ref": string("Prompt file or artifacts.prompts.NAME."),
    },
    "verify": {
        "rules": {"type": "array", "minItems": 1, "items": ref("Rule"), "description": "Verification rules."},
    },
    "gate": {
        "condition": string("Predicate over the input.", minLength=1),
        "on_pass": ref("Route"),
        "on_fail": ref("Route"),
    },
    "debate": {
        "protocol_ref": string("Protocol file or artifacts.protocols.NAME."),
        "max_rounds": {"type": "integer", "minimum": 1, "description": "Most rounds."},
        "consensus": closed(
            {"type": {"enum": ["unanimous", "majority", "threshold"]}, "requires": string("What counts as agreement."), "threshold": {"type": "number", "minimum": 0, "maximum": 1}},
            description="How the debate ends in agreement.",
        ),
        "participants": {"type": "array", "minItems": 2, "items": ref("DebateParticipant"), "description": "Debaters."},
    },
    "transform": {
        "operations": {"type": "array", "minItems": 1, "items": ref("Operation"), "description": "State mutations."},
    },
    "review": {
        "actor": {"enum": ["human", "policy", "agent", "webhook"], "description": "Hint about the decision-maker."},
        "message": string("Why review is needed."),
        "actions": {"type": "array", "minItems": 1, "items": ref("Action"), "description": "Valid decisions."},
    },
}
REQUIRED = {
    "generate": ["output_key"],
    "fan_out": ["participants"],
    "aggregate": ["input", "strategy"],
    "verify": ["input", "rules"],
    # Routes may come from edges with `if` labels instead (§4.2); `check` requires both branches.
    "gate": ["condition"],
    "debate": ["participants"],
    "transform": ["operations"],
    "review": ["input", "actions"],
}

def node_schema():
    branches = []
    for kind, fields in TYPE_FIELDS.items():
        properties = dict(COMMON)
        properties.update(fields)
        branches.append({
            "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
            "then": {"properties": properties, "required": ["id", "type"] + REQUIRED[kind], "additionalProperties": False},
        })
    return {"type": "object", "description": "A reasoning step (§3).", "required": ["id", "type"],
            "properties": {"id": COMMON["id"], "type": COMMON["type"]}, "allOf": branches}

definitions = {
    "Node": node_schema(),
    "Participant": closed({"model": string("Model identifier."), "prompt_ref": string("Prompt reference."), "prompt": string("Inline prompt."), "persona": string("Persona.")}, ["model"], "A fan-out participant."),
    "DebateParticipant": closed({
        "id": string("Participant id.", minLength=1), "role": {"enum": ["author", "reviewer", "investor", "pitcher", "participant"], "description": "Role."},
        "model": string("Model identifier."), "persona": string("Persona."), "prompt_ref": string("Prompt reference."),
    }, ["id", "model"], "A debate participant."),
    "Rule": closed({
        "id": string("Rule id (std.* from the standard library, or a custom id).", minLength=1),
        "target": string("JSON key of the input the rule checks.", minLength=1),
        "mode": {"enum": MODES, "description": "Enforcement: block halts, warn injects a warning, observe logs."},
    }, ["id", "mode"], "A verification rule."),
    "Route": {
        "description": "Where to go: a node id, or {next, inject}.",
        "anyOf": [string("Node id.", minLength=1), closed({"next": string("Node id.", minLength=1), "inject": string("State to pass along.")}, ["next"])],
    },
    "Operation": closed({"set": string("State path to set.", minLength=1), "value": {"description": "New value (may be a {{template}})."}}, ["set", "value"], "A state mutation."),
    "Action": {
        "description": "A review decision: a label, or {label: {next}}.",
        "anyOf": [string("Action label.", minLength=1), {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": ref("Route")}],
    },
    "Edge": closed({"from": string("Source node id.", minLength=1), "to": string("Target node id.", minLength=1), "if": string("Condition label or predicate.")}, ["from", "to"], "A connection (§4)."),
}

schema = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://logicmd.dev/schema/drtl-0.1.1.schema.json",
    "title": "DRTL v0.1.1 topology",
    **closed({
        "name": string("Topology name.", minLength=1),
        "description": string("What the topology does."),
        "version": {"type": ["string", "number"], "description": "Topology version."},
        "artifacts": closed({
            "prompts": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Prompt files by name."},
            "protocols": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Protocol files by name."},
        }, description="External files referenced by nodes (§6)."),
        "state_defaults": {"type": "object", "additionalProperties": True, "description": "Initial state.variables."},
        "nodes": {"type": "array", "minItems": 1, "items": ref("Node"), "description": "The reasoning steps."},
        "edges": {"type": "array", "items": ref("Edge"), "description": "Connections."},
        "metadata": {"type": "object", "additionalProperties": True, "description": "Free metadata (canvas positions live here)."},
    }, ["name", "nodes"], "A DRTL topology."),
    "definitions": definitions,
}
out = pathlib.Path(__file__).resolve().parent.parent / "core/src/drtl/drtl-0.1.1.schema.json"
out.write_text(json.dumps(schema, indent=2) + "\n")
print(f"wrote {out}")

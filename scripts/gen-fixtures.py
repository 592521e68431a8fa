#!/usr/bin/env python3
"""Generates tests/fixtures/schema/: one fixture per closed object, enum, numeric bound, length
bound and required property of core/src/schema/logic-md-1.0.schema.json, each with exactly one
defect in an otherwise valid document, plus a valid document per object shape.

Run: python3 scripts/gen-fixtures.py   (the output is checked in; tests read it)
"""
import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "core/src/schema/logic-md-1.0.schema.json").read_text())
OUT = ROOT / "tests/fixtures/schema"

# Where each object shape lives in a document, and a minimal valid instance of it.
HOSTS = {
    "Import": ("/imports/0", {"ref": "./shared/policies.logic.md", "as": "policies"}),
    "Reasoning": ("/reasoning", {"strategy": "cot"}),
    "Reasoning.strategy_config": ("/reasoning/strategy_config", {"branching_factor": 3}),
    "Step": ("/steps/analyze", {"description": "Analyze the sources"}),
    "Confidence": ("/steps/analyze/confidence", {"minimum": 0.6}),
    "Branch": ("/steps/analyze/branches/0", {"if": "{{ output.confidence < 0.6 }}", "then": "analyze"}),
    "Retry": ("/steps/analyze/retry", {"max_attempts": 3}),
    "Verification": ("/steps/analyze/verification", {"check": "{{ output.findings.length > 0 }}"}),
    "Contracts": ("/contracts", {"inputs": [{"name": "query", "type": "string"}]}),
    "ContractField": ("/contracts/inputs/0", {"name": "query", "type": "string"}),
    "Capabilities": ("/contracts/capabilities", {"name": "Research agent"}),
    "ContractValidation": ("/contracts/validation", {"mode": "strict"}),
    "QualityGates": ("/quality_gates", {"pre_output": [{"name": "grounded", "check": "{{ output.citations.length > 0 }}"}]}),
    "Gate": ("/quality_gates/pre_output/0", {"name": "grounded", "check": "{{ output.citations.length > 0 }}"}),
    "Invariant": ("/quality_gates/invariants/0", {"name": "budget", "check": "{{ reasoning.tokens_used < 8000 }}"}),
    "SelfVerification": ("/quality_gates/self_verification", {"enabled": True}),
    "SelfVerification.reflection": ("/quality_gates/self_verification/reflection", {"prompt": "Review your output."}),
    "SelfVerification.rubric": ("/quality_gates/self_verification/rubric", {"minimum_score": 0.7}),
    "Criterion": ("/quality_gates/self_verification/rubric/criteria/0", {"name": "accuracy", "weight": 0.5}),
    "Fallback": ("/fallback", {"strategy": "graceful_degrade"}),
    "Escalation": ("/fallback/escalation/0", {"level": 1, "trigger": "{{ confidence < 0.5 }}", "action": "request_human_review"}),
    "Degradation": ("/fallback/degradation/0", {"when": "tools_unavailable", "fallback_to": "reasoning_only"}),
    "DecisionTree": ("/decision_trees/router", {"root": "start", "nodes": {"start": {"condition": "{{ input.kind }}", "branches": [{"default": True, "next": "analyze"}]}}}),
    "TreeNode": ("/decision_trees/router/nodes/start", {"condition": "{{ input.kind }}", "branches": [{"default": True, "next": "analyze"}]}),
    "TreeBranch": ("/decision_trees/router/nodes/start/branches/0", {"value": "question", "next": "analyze"}),
    "Terminal": ("/decision_trees/router/terminals/done", {"action": "request_clarification"}),
    "Visual": ("/visual", {"icon": "brain"}),
    "Visual.ports": ("/visual/ports", {"inputs": [{"name": "query", "type": "string"}]}),
    "InspectorField": ("/visual/inspector/0", {"key": "reasoning.strategy", "label": "Strategy", "type": "select"}),
    "Port": ("/visual/ports/inputs/0", {"name": "query", "type": "string"}),
    "Global": ("/global", {"fail_fast": False}),
    "WorkflowNode": ("/nodes/researcher", {"logic_ref": "./nodes/researcher.logic.md"}),
    "Edge": ("/edges/0", {"from": "researcher", "to": "writer"}),
}
# What a document needs around a host so that only the defect is wrong.
CONTEXT = {
    "/decision_trees/router/terminals/done": ("/decision_trees/router", HOSTS["DecisionTree"][1]),
    "/decision_trees/router/nodes/start/branches/0": ("/decision_trees/router", HOSTS["DecisionTree"][1]),
    "/decision_trees/router/nodes/start": ("/decision_trees/router", HOSTS["DecisionTree"][1]),
}
BASE = {"spec_version": "1.0", "name": "fixture", "description": "Generated schema fixture"}


def resolve(schema):
    while "$ref" in schema:
        schema = SCHEMA["definitions"][schema["$ref"].split("/")[-1]]
    return schema


def shape(name):
    if "." in name:
        parent, prop = name.split(".")
        return SCHEMA["definitions"][parent]["properties"][prop]
    return SCHEMA["definitions"][name]


def tokens(pointer):
    return [t for t in pointer.split("/")[1:]]


def place(doc, pointer, value):
    parts = tokens(pointer)
    current = doc
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        nxt = None if last else parts[i + 1]
        if isinstance(current, list):
            index = int(part)
            while len(current) <= index:
                current.append({})
            if last:
                current[index] = value
            else:
                if not isinstance(current[index], (dict, list)):
                    current[index] = [] if nxt.isdigit() else {}
                current = current[index]
        else:
            if last:
                current[part] = value
            else:
                if part not in current:
                    current[part] = [] if nxt.isdigit() else {}
                current = current[part]
    return doc


def document(pointer, instance):
    doc = json.loads(json.dumps(BASE))
    if pointer in CONTEXT:
        ctx_pointer, ctx_value = CONTEXT[pointer]
        place(doc, ctx_pointer, json.loads(json.dumps(ctx_value)))
    return place(doc, pointer, instance)


PLAIN = re.compile(r"^[A-Za-z_./][A-Za-z0-9_./ -]*$")
SPECIAL = {"true", "false", "null", "yes", "no", "on", "off", "~", "True", "False", "Null", "NULL"}


def scalar(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if PLAIN.match(value) and value not in SPECIAL and not value.endswith(" ") and ": " not in value:
        return value
    return json.dumps(value, ensure_ascii=False)


def dump(value, indent=0):
    pad = " " * indent
    lines = []
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}{key}:")
                lines.extend(dump(item, indent + 2))
            else:
                lines.append(f"{pad}{key}: {scalar(item) if not isinstance(item, (dict, list)) else ('{}' if isinstance(item, dict) else '[]')}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and item:
                inner = dump(item, indent + 2)
                inner[0] = pad + "- " + inner[0].lstrip()
                lines.extend(inner)
            elif isinstance(item, list) and item:
                inner = dump(item, indent + 2)
                inner[0] = pad + "- " + inner[0].lstrip()
                lines.extend(inner)
            else:
                lines.append(f"{pad}- {scalar(item)}")
    return lines


def write(kind, name, doc, note, errors=None):
    folder = OUT / kind
    folder.mkdir(parents=True, exist_ok=True)
    text = "---\n# " + note + "\n" + "\n".join(dump(doc)) + "\n---\n"
    (folder / f"{name}.logic.md").write_text(text)
    expected = {"valid": errors is None, "note": note}
    if errors is not None:
        expected["errors"] = errors
    (folder / f"{name}.expected.json").write_text(json.dumps(expected, indent=2) + "\n")


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def bad_enum(schema):
    return "not_a_valid_choice"


count = 0
if OUT.exists():
    shutil.rmtree(OUT)
for name, (pointer, instance) in HOSTS.items():
    schema = resolve(shape(name))
    base_name = slug(name)
    write("valid", f"{base_name}-minimal", document(pointer, instance), f"a minimal valid {name} at {pointer}")
    count += 1
    if schema.get("additionalProperties") is False:
        bad = dict(instance, unexpected_field=1)
        write("invalid", f"{base_name}-unknown-property", document(pointer, bad),
              f"{name} is closed: an unknown property is an error at the object",
              [{"path": pointer, "keyword": "additionalProperties", "message": "unknown property"}])
        count += 1
    for prop in schema.get("required", []):
        bad = {k: v for k, v in instance.items() if k != prop}
        write("invalid", f"{base_name}-missing-{slug(prop)}", document(pointer, bad),
              f"{name} requires `{prop}`",
              [{"path": pointer, "keyword": "required", "message": f"missing {prop}"}])
        count += 1
    for prop, prop_schema in schema.get("properties", {}).items():
        prop_schema = resolve(prop_schema)
        at = f"{pointer}/{prop}"
        if "enum" in prop_schema:
            write("invalid", f"{base_name}-{slug(prop)}-enum", document(pointer, dict(instance, **{prop: bad_enum(prop_schema)})),
                  f"{name}.{prop} must be one of {', '.join(map(str, prop_schema['enum']))}",
                  [{"path": at, "keyword": "enum", "message": "not allowed"}])
            count += 1
        if "const" in prop_schema:
            write("invalid", f"{base_name}-{slug(prop)}-const", document(pointer, dict(instance, **{prop: "9.9"})),
                  f"{name}.{prop} must be {prop_schema['const']}",
                  [{"path": at, "keyword": "const", "message": "unsupported"}])
            count += 1
        for bound, delta in (("minimum", -0.5), ("maximum", 0.5), ("exclusiveMinimum", 0)):
            if bound in prop_schema:
                limit = prop_schema[bound]
                value = limit + delta
                if prop_schema.get("type") == "integer":
                    value = limit - 1 if bound == "minimum" else limit + 1
                write("invalid", f"{base_name}-{slug(prop)}-{slug(bound)}", document(pointer, dict(instance, **{prop: value})),
                      f"{name}.{prop} has {bound} {limit}",
                      [{"path": at, "keyword": bound, "message": "out of range"}])
                count += 1
        if prop_schema.get("minLength") == 1:
            write("invalid", f"{base_name}-{slug(prop)}-empty", document(pointer, dict(instance, **{prop: ""})),
                  f"{name}.{prop} must not be empty",
                  [{"path": at, "keyword": "minLength", "message": "empty"}])
            count += 1
    if "anyOf" in schema:
        for alternative in schema["anyOf"]:
            for prop in alternative.get("required", []):
                if prop in instance:
                    bad = {k: v for k, v in instance.items() if k != prop}
                    write("invalid", f"{base_name}-without-{slug(prop)}", document(pointer, bad),
                          f"{name} needs one of " + " or ".join(r for a in schema["anyOf"] for r in a["required"]),
                          [{"path": pointer, "keyword": "anyOf", "message": "no alternative"}])
                    count += 1
# The root object and the type of each top-level section.
ROOT_CASES = [
    ("root-unknown-property", dict(BASE, agent_name="x"), "the root is closed", "", "additionalProperties"),
    ("root-missing-name", {k: v for k, v in BASE.items() if k != "name"}, "name is required", "", "required"),
    ("root-missing-spec-version", {k: v for k, v in BASE.items() if k != "spec_version"}, "spec_version is required", "", "required"),
    ("root-spec-version-unsupported", dict(BASE, spec_version="1.1"), "only spec_version 1.0 is supported", "/spec_version", "const"),
    ("root-name-empty", dict(BASE, name=""), "name must not be empty", "/name", "minLength"),
    ("root-name-not-a-string", dict(BASE, name=42), "name is a string", "/name", "type"),
]
for section, wrong in (("steps", ["a"]), ("imports", {"ref": "x"}), ("reasoning", "cot"), ("metadata", ["x"]),
                       ("edges", {"from": "a"}), ("nodes", ["a"]), ("decision_trees", "t")):
    ROOT_CASES.append((f"root-{slug(section)}-wrong-type", dict(BASE, **{section: wrong}),
                       f"{section} has the wrong type", f"/{section}", "type"))
for name, doc, note, path, keyword in ROOT_CASES:
    write("invalid", name, doc, note, [{"path": path, "keyword": keyword, "message": note}])
    count += 1
print(f"wrote {count} fixtures to {OUT}")

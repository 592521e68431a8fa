#!/usr/bin/env python3
"""Generates tests/fixtures/schema/ from the canonical LOGIC.md v1.0 JSON Schema embedded in core
(core/src/schema/logic-md-schema-v1.0.json): a valid minimal document per object shape, and one
invalid document per closed object, required property, enum, const, numeric bound, length bound,
type and oneOf, each with exactly one defect in an otherwise valid document (one error, at an
exact path and keyword: the canonical schema's verdict). It also writes `valid/former-*`
documents: constraints our earlier, stricter schema had, which the canonical schema accepts;
each names the lint rule that reports it now.

Run: python3 scripts/gen-fixtures.py   (the output is checked in; tests read it)
"""
import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "core/src/schema/logic-md-schema-v1.0.json").read_text())
OUT = ROOT / "tests/fixtures/schema"

# Where each object shape (a definition of the canonical schema, or `Parent.property` for an
# inline one) lives in a document, and a minimal valid instance of it.
HOSTS = {
    "Import": ("/imports/0", {"ref": "./shared/policies.logic.md", "as": "policies"}),
    "Reasoning": ("/reasoning", {"strategy": "cot"}),
    "Reasoning.strategy_config": ("/reasoning/strategy_config", {"branching_factor": 3}),
    "Step": ("/steps/analyze", {"description": "Analyze the sources"}),
    "ConfidenceConfig": ("/steps/analyze/confidence", {"minimum": 0.6}),
    "Branch": ("/steps/analyze/branches/0", {"if": "{{ output.confidence < 0.6 }}", "then": "analyze"}),
    "RetryConfig": ("/steps/analyze/retry", {"max_attempts": 3}),
    "Verification": ("/steps/analyze/verification", {"check": "{{ output.findings.length > 0 }}", "on_fail": "retry"}),
    "Contracts": ("/contracts", {"inputs": [{"name": "query", "type": "string"}]}),
    "ContractField": ("/contracts/inputs/0", {"name": "query", "type": "string"}),
    "Capabilities": ("/contracts/capabilities", {"name": "Research agent"}),
    "ContractValidation": ("/contracts/validation", {"mode": "strict"}),
    "QualityGates": ("/quality_gates", {"pre_output": [{"name": "grounded", "check": "{{ output.citations.length > 0 }}"}]}),
    "Gate": ("/quality_gates/pre_output/0", {"name": "grounded", "check": "{{ output.citations.length > 0 }}"}),
    "Invariant": ("/quality_gates/invariants/0", {"name": "budget", "check": "{{ reasoning.tokens_used < 8000 }}"}),
    "SelfVerification": ("/quality_gates/self_verification", {"enabled": True}),
    "ReflectionConfig": ("/quality_gates/self_verification/reflection", {"prompt": "Review your output."}),
    "RubricConfig": ("/quality_gates/self_verification/rubric", {"minimum_score": 0.7}),
    "RubricCriterion": ("/quality_gates/self_verification/rubric/criteria/0", {"name": "accuracy", "weight": 0.5}),
    "Fallback": ("/fallback", {"strategy": "graceful_degrade"}),
    "EscalationLevel": ("/fallback/escalation/0", {"level": 1, "trigger": "{{ confidence < 0.5 }}", "action": "request_human_review"}),
    "DegradationRule": ("/fallback/degradation/0", {"when": "tools_unavailable", "fallback_to": "reasoning_only"}),
    "DecisionTree": ("/decision_trees/router", {"root": "start", "nodes": {"start": {"condition": "{{ input.kind }}", "branches": [{"default": True, "next": "analyze"}]}}}),
    "DecisionNode": ("/decision_trees/router/nodes/start", {"condition": "{{ input.kind }}", "branches": [{"default": True, "next": "analyze"}]}),
    "DecisionBranch": ("/decision_trees/router/nodes/start/branches/0", {"value": "question", "next": "analyze"}),
    "Terminal": ("/decision_trees/router/terminals/done", {"action": "request_clarification"}),
    "Visual": ("/visual", {"icon": "brain"}),
    "VisualPorts": ("/visual/ports", {"inputs": [{"name": "query", "type": "string"}]}),
    "InspectorField": ("/visual/inspector/0", {"key": "reasoning.strategy", "label": "Strategy", "type": "select"}),
    "VisualPort": ("/visual/ports/inputs/0", {"name": "query", "type": "string"}),
    "GlobalConfig": ("/global", {"fail_fast": False}),
    "NodeRef": ("/nodes/researcher", {"logic_ref": "./nodes/researcher.logic.md"}),
    "Edge": ("/edges/0", {"from": "researcher", "to": "writer"}),
}
# What a document needs around a host so that only the defect is wrong.
CONTEXT = {
    "/reasoning/strategy_config": ("/reasoning", HOSTS["Reasoning"][1]),
    "/decision_trees/router/terminals/done": ("/decision_trees/router", HOSTS["DecisionTree"][1]),
    "/decision_trees/router/nodes/start/branches/0": ("/decision_trees/router", HOSTS["DecisionTree"][1]),
    "/decision_trees/router/nodes/start": ("/decision_trees/router", HOSTS["DecisionTree"][1]),
}
BASE = {"spec_version": "1.0", "name": "fixture", "description": "Generated schema fixture"}
# A value of another type than the one a schema expects (YAML 1.2 reads `yes` as a string).
WRONG = {"string": 42, "number": "many", "integer": "many", "boolean": "yes", "array": "x", "object": "x"}


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


def write(kind, name, doc, note, errors=None, lint=None):
    folder = OUT / kind
    folder.mkdir(parents=True, exist_ok=True)
    text = "---\n# " + note + "\n" + "\n".join(dump(doc)) + "\n---\n"
    (folder / f"{name}.logic.md").write_text(text)
    expected = {"valid": errors is None, "note": note}
    if errors is not None:
        expected["errors"] = errors
    if lint is not None:
        expected["lint"] = lint
    (folder / f"{name}.expected.json").write_text(json.dumps(expected, indent=2) + "\n")


def error(path, keyword, message):
    return [{"path": path, "keyword": keyword, "message": message}]


def type_cases(prop, prop_schema, at):
    """(slug, value, error path, note) for values of the wrong type at a property, its items or
    its map entries."""
    cases = []
    expected = prop_schema.get("type")
    if isinstance(expected, str):
        cases.append(("type", WRONG[expected], at, f"`{prop}` is {'an' if expected[0] in 'aeiou' else 'a'} {expected}"))
        if expected == "integer":
            cases.append(("fraction", 2.5, at, f"`{prop}` is an integer: 2.5 is not"))
    if "oneOf" in prop_schema:
        cases.append(("one-of", "yes", at, f"`{prop}` is one of its allowed forms"))
    items = prop_schema.get("items")
    if isinstance(items, dict) and isinstance(resolve(items).get("type"), str):
        item_type = resolve(items)["type"]
        cases.append(("item-type", [WRONG[item_type]], f"{at}/0", f"items of `{prop}` are of type {item_type}"))
    entries = prop_schema.get("additionalProperties")
    if isinstance(entries, dict) and isinstance(resolve(entries).get("type"), str):
        entry_type = resolve(entries)["type"]
        cases.append(("entry-type", {"key": WRONG[entry_type]}, f"{at}/key", f"entries of `{prop}` are of type {entry_type}"))
    return cases


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
              error(pointer, "additionalProperties", "unknown property"))
        count += 1
    for prop in schema.get("required", []):
        bad = {k: v for k, v in instance.items() if k != prop}
        write("invalid", f"{base_name}-missing-{slug(prop)}", document(pointer, bad),
              f"{name} requires `{prop}`", error(pointer, "required", f"missing {prop}"))
        count += 1
    for prop, prop_schema in schema.get("properties", {}).items():
        prop_schema = resolve(prop_schema)
        at = f"{pointer}/{prop}"
        if "enum" in prop_schema:
            write("invalid", f"{base_name}-{slug(prop)}-enum", document(pointer, dict(instance, **{prop: "not_a_valid_choice"})),
                  f"{name}.{prop} must be one of {', '.join(map(str, prop_schema['enum']))}",
                  error(at, "enum", "not allowed"))
            count += 1
        if "const" in prop_schema:
            write("invalid", f"{base_name}-{slug(prop)}-const", document(pointer, dict(instance, **{prop: "9.9"})),
                  f"{name}.{prop} must be {prop_schema['const']}", error(at, "const", "unsupported"))
            count += 1
        for bound, delta in (("minimum", -0.5), ("maximum", 0.5)):
            if bound in prop_schema:
                limit = prop_schema[bound]
                write("invalid", f"{base_name}-{slug(prop)}-{slug(bound)}", document(pointer, dict(instance, **{prop: limit + delta})),
                      f"{name}.{prop} has {bound} {limit}", error(at, bound, "out of range"))
                count += 1
        if prop_schema.get("minLength") == 1:
            write("invalid", f"{base_name}-{slug(prop)}-empty", document(pointer, dict(instance, **{prop: ""})),
                  f"{name}.{prop} must not be empty", error(at, "minLength", "empty"))
            count += 1
        for case, value, path, note in type_cases(prop, prop_schema, at):
            keyword = "oneOf" if case == "one-of" else "type"
            # With `type` failing, the other keywords of that schema (an `enum`, a `const`) are not
            # reported: the canonical schema's list has them at the same place.
            if keyword == "type" and path == at and ("enum" in prop_schema or "const" in prop_schema):
                note += " (the enum is then not reported separately)"
            write("invalid", f"{base_name}-{slug(prop)}-{case}", document(pointer, dict(instance, **{prop: value})),
                  f"{name}.{note}", error(path, keyword, "wrong type"))
            count += 1
# The root object and the type of each top-level section.
ROOT_CASES = [
    ("root-unknown-property", dict(BASE, agent_name="x"), "the root is closed", "", "additionalProperties"),
    ("root-missing-name", {k: v for k, v in BASE.items() if k != "name"}, "name is required", "", "required"),
    ("root-missing-spec-version", {k: v for k, v in BASE.items() if k != "spec_version"}, "spec_version is required", "", "required"),
    ("root-spec-version-unsupported", dict(BASE, spec_version="1.1"), "only spec_version 1.0 is supported", "/spec_version", "const"),
    ("root-spec-version-number", dict(BASE, spec_version=1.0), "spec_version is a string (the const is then not reported separately)", "/spec_version", "type"),
    ("root-name-empty", dict(BASE, name=""), "name must not be empty", "/name", "minLength"),
    ("root-name-not-a-string", dict(BASE, name=42), "name is a string", "/name", "type"),
]
for section, wrong in (("steps", ["a"]), ("imports", {"ref": "x"}), ("reasoning", "cot"), ("metadata", ["x"]),
                       ("edges", {"from": "a"}), ("nodes", ["a"]), ("decision_trees", "t"), ("contracts", []),
                       ("quality_gates", "x"), ("fallback", 1), ("global", []), ("visual", True), ("description", 1)):
    ROOT_CASES.append((f"root-{slug(section)}-wrong-type", dict(BASE, **{section: wrong}),
                       f"{section} has the wrong type", f"/{section}", "type"))
for section in ("steps", "decision_trees", "nodes"):
    ROOT_CASES.append((f"root-{slug(section)}-entry-wrong-type", dict(BASE, **{section: {"key": "x"}}),
                       f"entries of {section} are objects", f"/{section}/key", "type"))
for name, doc, note, path, keyword in ROOT_CASES:
    write("invalid", name, doc, note, error(path, keyword, note))
    count += 1

# Constraints of our earlier, stricter schema that the canonical schema does not have: each
# document is schema-valid, and the named lint rule reports it at the given place.
# (name, host, property changes on the host's minimal instance, lint code, path under the host)
FORMER = [
    ("max-iterations-zero", "Reasoning", {"max_iterations": 0}, "max-iterations-zero", "/max_iterations"),
    ("temperature-above-two", "Reasoning", {"temperature": 3}, "temperature-out-of-range", "/temperature"),
    ("temperature-negative", "Reasoning", {"temperature": -0.5}, "temperature-out-of-range", "/temperature"),
    ("thinking-budget-negative", "Reasoning", {"thinking_budget": -1}, "negative-value", "/thinking_budget"),
    ("max-attempts-zero", "RetryConfig", {"max_attempts": 0}, "count-below-one", "/max_attempts"),
    ("backoff-below-one", "RetryConfig", {"backoff_coefficient": 0.5}, "backoff-below-one", "/backoff_coefficient"),
    ("max-parallelism-zero", "GlobalConfig", {"max_parallelism": 0}, "count-below-one", "/max_parallelism"),
    ("max-total-cost-negative", "GlobalConfig", {"max_total_cost": -1}, "negative-value", "/max_total_cost"),
    ("max-input-tokens-zero", "Capabilities", {"max_input_tokens": 0}, "count-below-one", "/max_input_tokens"),
    ("max-revisions-negative", "ReflectionConfig", {"max_revisions": -1}, "negative-value", "/max_revisions"),
    ("escalation-level-zero", "EscalationLevel", {"level": 0}, "escalation-level-below-one", "/level"),
    ("inspector-step-zero", "InspectorField", {"step": 0}, "inspector-step-not-positive", "/step"),
    ("strategy-config-branching-factor-zero", "Reasoning.strategy_config", {"branching_factor": 0}, "invalid-strategy-config", "/branching_factor"),
    ("strategy-config-evaluation-method", "Reasoning.strategy_config", {"evaluation_method": "voting"}, "invalid-strategy-config", "/evaluation_method"),
    ("strategy-config-pruning-threshold", "Reasoning.strategy_config", {"pruning_threshold": 1.5}, "invalid-strategy-config", "/pruning_threshold"),
    ("strategy-config-max-depth-zero", "Reasoning.strategy_config", {"max_depth": 0}, "invalid-strategy-config", "/max_depth"),
    ("strategy-config-operations", "Reasoning.strategy_config", {"operations": "generate"}, "invalid-strategy-config", "/operations"),
    ("strategy-config-observation-source", "Reasoning.strategy_config", {"observation_source": "web"}, "invalid-strategy-config", "/observation_source"),
    ("strategy-config-max-actions-zero", "Reasoning.strategy_config", {"max_actions_per_thought": 0}, "invalid-strategy-config", "/max_actions_per_thought"),
    ("strategy-config-replan-on-failure", "Reasoning.strategy_config", {"replan_on_failure": "yes"}, "invalid-strategy-config", "/replan_on_failure"),
    ("strategy-config-max-replans-negative", "Reasoning.strategy_config", {"max_replans": -1}, "invalid-strategy-config", "/max_replans"),
    ("contract-type-unknown", "ContractField", {"type": "date"}, "unknown-contract-type", "/type"),
    ("port-type-unknown", "VisualPort", {"type": "date"}, "unknown-port-type", "/type"),
    ("inspector-type-unknown", "InspectorField", {"type": "dropdown"}, "unknown-inspector-type", "/type"),
    ("contract-violation-action-unknown", "Edge", {"on_contract_violation": "retry"}, "unknown-contract-violation-action", "/on_contract_violation"),
    ("import-as-empty", "Import", {"as": ""}, "empty-name", "/as"),
    ("contract-field-name-empty", "ContractField", {"name": ""}, "empty-name", "/name"),
    ("gate-name-empty", "Gate", {"name": ""}, "empty-name", "/name"),
    ("invariant-name-empty", "Invariant", {"name": ""}, "empty-name", "/name"),
    ("criterion-name-empty", "RubricCriterion", {"name": ""}, "empty-name", "/name"),
    ("port-name-empty", "VisualPort", {"name": ""}, "empty-name", "/name"),
    ("branch-then-empty", "Branch", {"then": ""}, "empty-branch-target", "/then"),
    ("tree-branch-next-empty", "DecisionBranch", {"next": ""}, "empty-branch-target", "/next"),
    ("import-ref-empty", "Import", {"ref": ""}, "empty-reference", "/ref"),
    ("needs-empty", "Step", {"needs": [""]}, "empty-reference", "/needs/0"),
    ("tree-root-empty", "DecisionTree", {"root": ""}, "empty-reference", "/root"),
    ("fallback-to-empty", "DegradationRule", {"fallback_to": ""}, "empty-reference", "/fallback_to"),
    ("logic-ref-empty", "NodeRef", {"logic_ref": ""}, "empty-reference", "/logic_ref"),
    ("depends-on-empty", "NodeRef", {"depends_on": [""]}, "empty-reference", "/depends_on/0"),
    ("edge-from-empty", "Edge", {"from": ""}, "empty-reference", "/from"),
    ("edge-to-empty", "Edge", {"to": ""}, "empty-reference", "/to"),
    ("inspector-key-empty", "InspectorField", {"key": ""}, "empty-reference", "/key"),
    ("terminal-action-empty", "Terminal", {"action": ""}, "empty-action", "/action"),
    ("escalation-action-empty", "EscalationLevel", {"action": ""}, "empty-action", "/action"),
    ("degradation-when-empty", "DegradationRule", {"when": ""}, "empty-action", "/when"),
    ("branch-without-then", "Branch", {"then": None}, "branch-without-target", ""),
    ("branch-without-if-or-default", "Branch", {"if": None}, "branch-without-condition", ""),
    ("tree-branch-without-value-or-default", "DecisionBranch", {"value": None}, "branch-without-condition", ""),
    ("tree-node-without-branches", "DecisionNode", {"branches": []}, "node-without-branches", "/branches"),
    ("tree-without-nodes", "DecisionTree", {"nodes": {}}, "tree-without-nodes", "/nodes"),
    ("workflow-node-without-logic-ref", "NodeRef", {"logic_ref": None, "depends_on": []}, "missing-logic-ref", ""),
    ("needs-repeated", "Step", {"needs": ["gather", "gather"]}, "duplicate-dependency", "/needs/1"),
    ("depends-on-repeated", "NodeRef", {"depends_on": ["writer", "writer"]}, "duplicate-dependency", "/depends_on/1"),
]
for name, host, changes, code, suffix in FORMER:
    pointer, instance = HOSTS[host]
    changed = {k: v for k, v in dict(instance, **changes).items() if v is not None}
    write("valid", f"former-{name}", document(pointer, changed),
          f"schema-valid; our earlier schema refused it, now lint rule {code} reports it",
          lint=[{"code": code, "path": pointer + suffix}])
    count += 1
print(f"wrote {count} fixtures to {OUT}")

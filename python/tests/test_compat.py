"""``logicmd.compat`` against the reference SDK (``logic-md`` 0.1.1, installed beside it): its
README's examples and the cases its own documentation and tests describe give the same shapes,
the same ``ok``, the same data and body, and errors at the same places."""

from __future__ import annotations

from typing import Any, Dict, List

import logic_md  # the reference
import pytest

from logicmd import compat

EXAMPLE = "---\nspec_version: '1.0'\nname: my-agent\n---\n# My Agent"

TEXTS = [
    EXAMPLE,
    '---\nspec_version: "1.0"\nname: test-agent\n---\n\nThis is the markdown body.\n',
    '---\nspec_version: "1.0"\nname: reasoner\nreasoning:\n  strategy: cot\n  max_iterations: 5\n---\n\nReasoning spec.\n',
    '---\nspec_version: "1.0"\nname: no-body\n---\n',
    '---\n---\n\nBody content.\n',
    '---\nspec_version: "1.0"\nname: complex\nsteps:\n  step1:\n    description: "First step"\n    needs: []\n'
    '  step2:\n    description: "Second step"\n    needs:\n      - step1\n---\n\nComplex spec.\n',
]
BROKEN = [
    "",
    "Just markdown, no frontmatter.",
    '---\nspec_version: "1.0"\nname: test\n\nNo closing delimiter\n',
    '---\nspec_version: "1.0"\nname: [invalid: yaml: syntax\n---\n\nBody.\n',
    "---\n- item1\n- item2\n---\n\nBody.\n",
]
SPECS: List[Dict[str, Any]] = [
    {"spec_version": "1.0", "name": "my-agent"},
    {"name": "test-agent"},
    {"spec_version": "1.0"},
    {"spec_version": "2.0", "name": "test-agent"},
    {"spec_version": "1.0", "name": "test-agent", "reasoning": {"strategy": "invalid-strategy"}},
    {"spec_version": "1.0", "name": "test-agent", "unknown_property": "value"},
    {"spec_version": "1.0", "name": "reasoner", "reasoning": {"strategy": "cot", "max_iterations": 5, "temperature": 0.7}},
    {"spec_version": "1.0", "name": "s", "steps": {"step1": {"description": "First"}, "step2": {"needs": ["step1"]}}},
    {"spec_version": "1.0", "name": "with-metadata", "metadata": {"custom_field": "custom_value", "another": 42}},
    {"spec_version": "1.0", "name": ""},
    {"spec_version": "1.0", "name": "x", "imports": [{"ref": "./a.logic.md"}]},
]


def test_the_readme_examples() -> None:
    result = compat.parse(EXAMPLE)
    assert result.ok is True and result["ok"] is True
    assert result.data == {"spec_version": "1.0", "name": "my-agent"}
    assert result.content == "# My Agent"
    validated = compat.validate({"spec_version": "1.0", "name": "my-agent"})
    assert validated.ok and validated.data == {"spec_version": "1.0", "name": "my-agent"}
    assert compat.validate(result.data).ok


@pytest.mark.parametrize("text", TEXTS)
def test_parse_gives_the_references_result(text: str) -> None:
    assert dict(compat.parse(text)) == dict(logic_md.parse(text))


@pytest.mark.parametrize("text", BROKEN)
def test_broken_files_fail_as_in_the_reference_with_placed_errors(text: str) -> None:
    ours, theirs = compat.parse(text), logic_md.parse(text)
    assert set(ours) == set(theirs) == {"ok", "errors"}
    assert ours["ok"] is theirs["ok"] is False
    assert ours["errors"] and all(e.startswith("line ") for e in ours["errors"])


@pytest.mark.parametrize("spec", SPECS)
def test_validate_gives_the_references_verdict_and_error_places(spec: Dict[str, Any]) -> None:
    ours, theirs = compat.validate(spec), logic_md.validate(spec)
    assert set(ours) == set(theirs)
    assert ours["ok"] is theirs["ok"]
    if ours["ok"]:
        assert ours["data"] == theirs["data"]
    else:
        assert {(e["path"], e["keyword"]) for e in ours["errors"]} == {
            (e["path"], e["keyword"]) for e in theirs["errors"]
        }


def test_messages_name_what_is_wrong() -> None:
    assert any("spec_version" in e["message"] for e in compat.validate({"name": "a"})["errors"])
    bad = compat.validate({"spec_version": "1.0", "name": "a", "reasoning": {"strategy": "invalid-strategy"}})
    assert any("strategy" in e["message"] for e in bad["errors"])


def test_validate_takes_text_too() -> None:
    text = '---\nspec_version: "1.0"\nname: from-string\n---\n\nBody.\n'
    assert compat.validate(text) == logic_md.validate(text)
    assert compat.validate(text.replace("1.0", "2.0"))["ok"] is False
    failed = compat.validate("no frontmatter")
    assert failed["errors"][0]["keyword"] == "parse"


def test_yaml_is_read_as_yaml_1_2_where_the_reference_reads_1_1() -> None:
    text = "---\nspec_version: '1.0'\nname: x\nmetadata:\n  enabled: yes\n  created: 2024-01-01\n---\n"
    assert compat.parse(text).data["metadata"] == {"enabled": "yes", "created": "2024-01-01"}
    assert logic_md.parse(text)["data"]["metadata"]["enabled"] is True


def test_the_canonical_schema_is_stricter_than_the_references_copy() -> None:
    # The reference ships an older schema without the bounds of a confidence; logicmd uses the
    # canonical one (the conformance fixture invalid/out-of-range-confidence holds it).
    spec = {"spec_version": "1.0", "name": "x", "steps": {"a": {"confidence": {"minimum": 2}}}}
    assert logic_md.validate(spec)["ok"] is True
    assert compat.validate(spec)["errors"] == [
        {"path": "steps.a.confidence.minimum", "keyword": "maximum", "message": "`2` is greater than the maximum 1"}
    ]

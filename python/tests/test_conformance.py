"""The conformance suite (spec §15.3) through the Python package: the verdicts and diagnostics
the CLI gives, and the expected files' errors (path and keyword exact) and parsed data."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

import logicmd
from conftest import cli_json, conformance_dir

FIXTURES = sorted(conformance_dir().glob("*/*.logic.md"))


def test_the_suite_is_all_there(conformance_fixtures: List[Path]) -> None:
    assert {f.parent.name for f in conformance_fixtures} == {"valid", "invalid", "edge-cases"}


def test_validate_gives_the_clis_answers_on_every_fixture() -> None:
    by_cli = {Path(entry["file"]).name: entry for entry in cli_json("validate", *map(str, FIXTURES))}
    assert len(by_cli) == len(FIXTURES)
    for fixture in FIXTURES:
        report = logicmd.validate(fixture.read_text(encoding="utf-8"), path=fixture.name)
        cli = by_cli[fixture.name]
        assert report.valid == cli["valid"], fixture.name
        assert [d.to_json() for d in report.diagnostics] == cli["diagnostics"], fixture.name


def without_root(diagnostic: Dict[str, Any]) -> Dict[str, Any]:
    """The CLI's file loader names the project root it reads from; the Python caller's files
    have none. Everything else must be equal."""
    message = re.sub(r" in the project root `[^`]*`", "", diagnostic["message"])
    return {**diagnostic, "message": message}


def test_lint_gives_the_clis_answers_on_every_fixture() -> None:
    by_cli = {Path(entry["file"]).name: entry for entry in cli_json("lint", *map(str, FIXTURES))}
    for fixture in FIXTURES:
        report = logicmd.lint(fixture.read_text(encoding="utf-8"), path=fixture.name)
        assert report.valid == by_cli[fixture.name]["valid"], fixture.name
        expected = [without_root(d) for d in by_cli[fixture.name]["diagnostics"]]
        assert [d.to_json() for d in report.diagnostics] == expected, fixture.name


def test_every_fixture_has_the_expected_verdict_errors_and_data() -> None:
    for fixture in FIXTURES:
        expected = json.loads(fixture.with_name(fixture.name.replace(".logic.md", ".expected.json")).read_text())
        text = fixture.read_text(encoding="utf-8")
        report = logicmd.validate(text)
        assert report.valid == expected["valid"], fixture.name
        found = {(d.pointer, d.keyword) for d in report.errors}
        for error in expected.get("errors", []):
            assert (error["path"], error["keyword"]) in found, (fixture.name, error, found)
        if "parsed" in expected:
            assert logicmd.parse(text).data == expected["parsed"], fixture.name

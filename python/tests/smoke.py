"""The wheel in the oldest Python it claims (3.9, run by scripts/test-python.sh without pytest):
the conformance verdicts, a run, compat and the types at import time."""

from __future__ import annotations

import json
import sys

import logicmd
from logicmd import compat
from paths import conformance_dir


def main() -> None:
    fixtures = sorted(conformance_dir().glob("*/*.logic.md"))
    assert len(fixtures) >= 29
    for fixture in fixtures:
        expected = json.loads(fixture.with_name(fixture.name.replace(".logic.md", ".expected.json")).read_text())
        assert logicmd.validate(fixture.read_text(encoding="utf-8")).valid == expected["valid"], fixture
    doc = '---\nspec_version: "1.0"\nname: x\nsteps:\n  a:\n    description: A\n---\n'
    result = logicmd.run(doc, {}, provider=lambda request: "an answer")
    assert result.status == "completed" and logicmd.check_trace(result.trace).ok
    assert compat.parse(doc).ok and compat.validate(compat.parse(doc).data).ok
    print(f"smoke: {len(fixtures) + 2} passed, 0 failed (Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()

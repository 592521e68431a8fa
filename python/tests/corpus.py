"""The corpus of real documents the Rust benchmarks use (core/benches/support/corpus.rs): the
fixtures, the examples and the conformance suite, every ``*.logic.md``, sorted by path;
``typical`` leaves out the fixtures built to hit a limit (alias bombs, deep nesting)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

from paths import REPO, conformance_dir


def corpus(typical: bool = True) -> List[Tuple[Path, str]]:
    roots = [REPO / "tests" / "fixtures", REPO / "examples", conformance_dir()]
    paths = sorted(p for root in roots for p in root.rglob("*.logic.md") if p.is_file())
    if typical:
        paths = [p for p in paths if "alias-bomb" not in str(p) and "/deep-" not in str(p)]
    return [(p, p.read_text(encoding="utf-8")) for p in paths]

"""Where the tests find the repository and the conformance suite (no pytest here: smoke.py
uses it in Python 3.9 too)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def conformance_dir() -> Path:
    """``$LOGICMD_CONFORMANCE_DIR``, else ``shared/conformance`` in the nearest ancestor of the
    checkout that has one (as the Rust tests find it)."""
    given = os.environ.get("LOGICMD_CONFORMANCE_DIR")
    if given:
        return Path(given)
    for ancestor in REPO.parents:
        candidate = ancestor / "shared" / "conformance"
        if candidate.is_dir():
            return candidate
    raise RuntimeError("conformance suite not found (set LOGICMD_CONFORMANCE_DIR)")

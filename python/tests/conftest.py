"""Where the tests find the repository, the conformance suite and the CLI binary they compare
with. Nothing is skipped silently: a missing CLI or suite is a failure."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, List

import pytest

from paths import REPO, conformance_dir

__all__ = ["REPO", "conformance_dir", "cli_path", "cli_json"]

def cli_path() -> Path:
    path = Path(os.environ.get("LOGICMD_CLI", REPO / "target" / "debug" / "logicmd"))
    if not path.is_file():
        raise RuntimeError(f"the CLI binary {path} is missing: cargo build -p logicmd-cli (or set LOGICMD_CLI)")
    return path


def cli_json(*args: str, cwd: Path = REPO) -> Any:
    """The CLI's ``--format json`` output for ``args``."""
    done = subprocess.run(
        [str(cli_path()), *args, "--format", "json"], cwd=cwd, capture_output=True, text=True
    )
    if not done.stdout.strip():
        raise AssertionError(f"the CLI printed nothing (exit {done.returncode}): {done.stderr}")
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def conformance_fixtures() -> List[Path]:
    fixtures = sorted(conformance_dir().glob("*/*.logic.md"))
    assert len(fixtures) >= 29, f"only {len(fixtures)} conformance fixtures"
    return fixtures

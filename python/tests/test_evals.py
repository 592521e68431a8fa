"""logicmd.evals on the local pool: the CLI's rows (`logicmd evals run`), and a bad dataset
refused at its line and column."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

import logicmd.evals
from conftest import REPO, cli_path

FIXTURES = REPO / "cli" / "tests" / "evals"


def test_the_local_pool_gives_the_clis_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    scorers = ["subset", "schema:city.schema.json", "trace:terminates"]
    rows = logicmd.evals.run(
        "capital.logic.md", "cases.jsonl", variants=["capital-v2.logic.md"], scorers=scorers, script="answers.yaml", batch_size=2
    )
    out = tmp_path / "rows.jsonl"
    args = [str(cli_path()), "evals", "run", "capital.logic.md", "--variant", "capital-v2.logic.md", "--data", "cases.jsonl"]
    args += ["--provider", "scripted:answers.yaml", "--out", str(out)] + sum((["--scorer", s] for s in scorers), [])
    subprocess.run(args, capture_output=True, check=False)
    by_cli = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["id"], r["variant"], r["pass"]) for r in rows] == [
        ("fr", "capital.logic.md", True),
        ("fr", "capital-v2.logic.md", False),
        ("de", "capital.logic.md", False),
        ("de", "capital-v2.logic.md", False),
        ("fr-trace", "capital.logic.md", True),
        ("fr-trace", "capital-v2.logic.md", False),
    ]
    # Whole rows: a scripted run's latency is the script's, and the fingerprints agree.
    assert rows == by_cli


def test_a_crlf_document_gives_the_clis_rows_and_fingerprints(tmp_path: Path) -> None:
    """The text is hashed as it is on the disk: Python must not translate its line ends."""
    for name in ["cases.jsonl", "answers.yaml"]:
        (tmp_path / name).write_bytes((FIXTURES / name).read_bytes())
    text = (FIXTURES / "capital.logic.md").read_text(encoding="utf-8").replace("\n", "\r\n")
    (tmp_path / "capital.logic.md").write_bytes(text.encode("utf-8"))
    rows = logicmd.evals.run(
        str(tmp_path / "capital.logic.md"), str(tmp_path / "cases.jsonl"), scorers=["subset"], script=str(tmp_path / "answers.yaml")
    )
    out = tmp_path / "rows.jsonl"
    args = [str(cli_path()), "evals", "run", "capital.logic.md", "--data", "cases.jsonl", "--provider", "scripted:answers.yaml"]
    subprocess.run(args + ["--scorer", "subset", "--out", str(out)], capture_output=True, check=False, cwd=tmp_path)
    by_cli = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["fingerprint"] for r in rows] == [r["fingerprint"] for r in by_cli]
    assert [r["pass"] for r in rows] == [True, False, True]


def test_rows_as_batches_finish_are_the_rows_of_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    settings: Dict[str, Any] = dict(variants=["capital-v2.logic.md"], scorers=["subset"], script="answers.yaml", batch_size=1, jobs=3)
    ordered = logicmd.evals.run("capital.logic.md", "cases.jsonl", **settings)
    finished = list(logicmd.evals.run_as_finished("capital.logic.md", "cases.jsonl", **settings))
    key = lambda row: (row["id"], row["variant"])  # noqa: E731
    assert sorted(finished, key=key) == sorted(ordered, key=key)
    assert len(finished) == 6


def test_the_command_line_streams_rows_to_standard_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    args = [sys.executable, "-m", "logicmd.evals", "run", "capital.logic.md", "--data", "cases.jsonl", "--dry-run", "--out", "-"]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    passed = sum(1 for row in rows if row["pass"])
    note = "note: 1 case lists metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE\n"
    assert done.stderr == f"{note}3 rows, {passed} passed; results: -\n"
    assert done.returncode == (0 if passed == 3 else 1)
    assert sorted(row["id"] for row in rows) == ["de", "fr", "fr-trace"]


def test_a_bad_dataset_is_refused_at_its_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text('id,input\na,"{}\n', encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        logicmd.evals.run(FIXTURES / "capital.logic.md", bad)
    assert str(raised.value) == f'{bad}:2:3: a quoted cell is never closed: expected `"`'
    with pytest.raises(ValueError, match="engine must be 'local' or 'ray', not 'spark'"):
        logicmd.evals.run(FIXTURES / "capital.logic.md", [], engine="spark")

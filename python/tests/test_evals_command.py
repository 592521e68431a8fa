"""``python -m logicmd.evals run … --out FILE`` as ``logicmd evals run`` behaves: a document's
imports resolve under its project root, rows reach the file as batches finish, Ctrl-C keeps
them (exit 130, no traceback), and running the same command again resumes."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import logicmd.evals
from conftest import REPO, cli_path

FIXTURES = REPO / "cli" / "tests" / "evals"
EVALS = [sys.executable, "-m", "logicmd.evals", "run"]
# The fixtures' case fr-trace lists obligations; the small eval scores without a trace scorer.
NOTE = "note: 1 case lists metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE\n"


def rows_of(path: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def evals(*args: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([*EVALS, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_imports_resolve_under_the_documents_project_as_the_cli_resolves_them(tmp_path: Path) -> None:
    """A copy of examples/: the document imports ./shared/retry-defaults.logic.md."""
    shutil.copy(REPO / "examples" / "competitive-analyst.logic.md", tmp_path)
    shutil.copytree(REPO / "examples" / "shared", tmp_path / "shared")
    cases = [{"id": "a", "input": {"market_segment": "CRM"}}, {"id": "b", "input": {"product": "x"}}]
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    args = ["competitive-analyst.logic.md", "--data", "c.jsonl", "--dry-run"]
    by_python = evals(*args, "--out", "py.jsonl", cwd=tmp_path)
    by_cli = subprocess.run([str(cli_path()), "evals", "run", *args, "--out", "cli.jsonl"], cwd=tmp_path, capture_output=True, check=False)
    assert (by_python.returncode, by_python.stderr) == (by_cli.returncode, "")
    assert rows_of(tmp_path / "py.jsonl") == rows_of(tmp_path / "cli.jsonl")
    # The library reads them too, from another working directory, for every engine's batches.
    rows = logicmd.evals.run(tmp_path / "competitive-analyst.logic.md", tmp_path / "c.jsonl", seed=0, batch_size=1)
    assert [r["fingerprint"] for r in rows] == [r["fingerprint"] for r in rows_of(tmp_path / "cli.jsonl")]


def test_an_import_outside_the_project_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / ".git").mkdir()
    text = (REPO / "examples" / "competitive-analyst.logic.md").read_text(encoding="utf-8")
    (tmp_path / "project" / "doc.logic.md").write_text(text.replace("./shared/", "./missing/"), encoding="utf-8")
    (tmp_path / "c.jsonl").write_text('{"id": "a", "input": {}}\n', encoding="utf-8")
    done = evals("project/doc.logic.md", "--data", "c.jsonl", "--dry-run", "--out", "r.jsonl", cwd=tmp_path)
    assert done.returncode == 2
    root = (tmp_path / "project").resolve()
    assert done.stderr == (
        "error: project/doc.logic.md was not run: cannot import `./missing/retry-defaults.logic.md`: "
        f"no file `missing/retry-defaults.logic.md` in the project root `{root}`\n"
    )


def small_eval(tmp_path: Path) -> List[str]:
    for name in ["capital.logic.md", "capital-v2.logic.md", "cases.jsonl", "answers.yaml", "city.schema.json"]:
        shutil.copy(FIXTURES / name, tmp_path)
    return ["capital.logic.md", "--variant", "capital-v2.logic.md", "--data", "cases.jsonl", "--provider", "scripted:answers.yaml", "--scorer", "subset"]


def test_an_interrupted_file_resumes_with_only_the_missing_rows(tmp_path: Path) -> None:
    args = small_eval(tmp_path)
    first = evals(*args, "--out", "r.jsonl", cwd=tmp_path)
    assert (first.returncode, first.stderr) == (1, NOTE)
    whole = (tmp_path / "r.jsonl").read_text(encoding="utf-8")
    lines = whole.splitlines(keepends=True)
    # Two rows kept and a third cut short by the interruption.
    (tmp_path / "r.jsonl").write_text("".join(lines[:2]) + lines[2][:40], encoding="utf-8")
    again = evals(*args, "--out", "r.jsonl", cwd=tmp_path)
    assert (again.returncode, again.stderr) == (1, NOTE + "resuming r.jsonl: 2 rows kept, 4 to run\n")
    assert again.stdout == "6 rows, 2 passed; results: r.jsonl\n"
    assert (tmp_path / "r.jsonl").read_text(encoding="utf-8") == whole
    # Nothing left: nothing runs.
    done = evals(*args, "--out", "r.jsonl", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, NOTE + "resuming r.jsonl: 6 rows kept, 0 to run\n")
    assert (tmp_path / "r.jsonl").read_text(encoding="utf-8") == whole


def test_rows_made_from_a_changed_document_run_again(tmp_path: Path) -> None:
    args = small_eval(tmp_path)
    evals(*args, "--out", "r.jsonl", cwd=tmp_path)
    v2 = tmp_path / "capital-v2.logic.md"
    v2.write_text(v2.read_text(encoding="utf-8") + "\n<!-- changed -->\n", encoding="utf-8")
    again = evals(*args, "--out", "r.jsonl", cwd=tmp_path)
    assert again.stderr == NOTE + (
        "3 rows of r.jsonl were made from a case, document, import, script, schema or server that has changed since: they run again\n"
        "resuming r.jsonl: 3 rows kept, 3 to run\n"
    )
    fresh = evals(*args, "--out", "fresh.jsonl", cwd=tmp_path)
    assert fresh.returncode == again.returncode
    # The kept rows first, then those run again (as the CLI writes them).
    key = lambda row: (row["id"], row["variant"])  # noqa: E731
    assert sorted(rows_of(tmp_path / "r.jsonl"), key=key) == sorted(rows_of(tmp_path / "fresh.jsonl"), key=key)


def test_rows_of_another_eval_are_refused_naming_restart(tmp_path: Path) -> None:
    args = small_eval(tmp_path)
    evals(*args, "--out", "r.jsonl", cwd=tmp_path)
    before = (tmp_path / "r.jsonl").read_bytes()
    scorers = evals(*args, "--scorer", "exact", "--out", "r.jsonl", cwd=tmp_path)
    assert (scorers.returncode, scorers.stderr) == (
        2,
        NOTE + "error: r.jsonl holds rows scored by [subset], not by [subset, exact]: give the same --scorer list to resume, or --restart\n",
    )
    (tmp_path / "other.jsonl").write_text('{"id": "fr", "input": {"country": "France"}}\n', encoding="utf-8")
    other = evals(*[a if a != "cases.jsonl" else "other.jsonl" for a in args], "--out", "r.jsonl", cwd=tmp_path)
    assert (other.returncode, other.stderr) == (
        2,
        "error: r.jsonl holds rows of another eval (case `de`, variant `capital.logic.md` is not in this one): resume with the same --data and documents, or --restart\n",
    )
    assert (tmp_path / "r.jsonl").read_bytes() == before
    restarted = evals(*args, "--scorer", "exact", "--out", "r.jsonl", "--restart", cwd=tmp_path)
    assert (restarted.returncode, restarted.stderr) == (1, NOTE)
    assert [list(r["scores"]) for r in rows_of(tmp_path / "r.jsonl")] == [["subset", "exact"]] * 6


def big_eval(tmp_path: Path, cases: int) -> List[str]:
    shutil.copy(FIXTURES / "capital.logic.md", tmp_path)
    with open(tmp_path / "big.jsonl", "w", encoding="utf-8") as out:
        for i in range(cases):
            out.write(json.dumps({"id": f"c{i}", "input": {"country": f"n{i}"}, "expected": {"city": "Paris"}}) + "\n")
    return [*EVALS, "capital.logic.md", "--data", "big.jsonl", "--dry-run", "--jobs", "1", "--out", "r.jsonl"]


def started(process: "subprocess.Popen[str]", out: Path, rows: bool) -> None:
    """Waits until the eval has opened its results file (and written a row, with ``rows``)."""
    for _ in range(600):
        if out.exists() and (not rows or b"\n" in out.read_bytes()):
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("the eval wrote nothing in 30 s")


def test_ctrl_c_keeps_the_rows_written_and_says_how_to_resume(tmp_path: Path) -> None:
    process = subprocess.Popen(big_eval(tmp_path, 20_000) + ["--batch-size", "20"], cwd=tmp_path, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    started(process, tmp_path / "r.jsonl", rows=True)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    kept = rows_of(tmp_path / "r.jsonl")
    assert 0 < len(kept) < 20_000
    assert process.returncode == 130
    assert stderr == (
        "\ninterrupted: no new case starts; finishing the cases in flight (Ctrl-C again stops at once)\n"
        f"interrupted: {len(kept)} rows are kept in r.jsonl; run the same command again to resume\n"
    )
    assert (tmp_path / "r.jsonl").read_text(encoding="utf-8").endswith("\n")


def test_a_second_ctrl_c_stops_at_once(tmp_path: Path) -> None:
    # One batch of every case: the first Ctrl-C would wait for all of them.
    process = subprocess.Popen(big_eval(tmp_path, 20_000) + ["--batch-size", "20000"], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    started(process, tmp_path / "r.jsonl", rows=False)
    process.send_signal(signal.SIGINT)
    assert process.stderr is not None
    assert process.stderr.readline() == "\n"
    assert process.stderr.readline() == "interrupted: no new case starts; finishing the cases in flight (Ctrl-C again stops at once)\n"
    process.send_signal(signal.SIGINT)
    rest = process.stderr.read()
    assert process.wait(timeout=60) == 130
    assert rest == "\ninterrupted: 0 rows are kept in r.jsonl; run the same command again to resume\n"
    assert (tmp_path / "r.jsonl").read_bytes() == b""


def test_a_results_file_another_eval_writes_is_refused(tmp_path: Path) -> None:
    """The CLI's lock (`flock` on FILE.lock): the CLI and this command refuse each other."""
    import fcntl

    args = small_eval(tmp_path)
    with open(tmp_path / "r.jsonl.lock", "w", encoding="utf-8") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("pid 1: logicmd evals run")
        held.flush()
        refused = evals(*args, "--out", "r.jsonl", cwd=tmp_path)
        by_cli = subprocess.run([str(cli_path()), "evals", "run", *args, "--out", "r.jsonl"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert (refused.returncode, refused.stderr) == (
        2,
        NOTE + "error: the results file r.jsonl is in use by another logicmd run (pid 1: logicmd evals run): one run at a time may write it (wait for it to end, or stop it)\n",
    )
    assert (by_cli.returncode, by_cli.stderr) == (refused.returncode, refused.stderr)
    assert not (tmp_path / "r.jsonl").exists()
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    empty = evals("capital.logic.md", "--data", "empty.jsonl", "--dry-run", "--out", "e.jsonl", cwd=tmp_path)
    assert (empty.returncode, empty.stderr) == (2, "error: empty.jsonl holds no cases: an eval of nothing would pass\n")

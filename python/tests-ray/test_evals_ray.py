"""logicmd.evals on a local single-node Ray (started here, usage stats off): 1,000 cases with
the synthetic provider and with a scripted one give the same rows as the local pool and as
the CLI (`logicmd evals run`), measured wall times aside."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
import ray

import logicmd.evals

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "cli" / "tests" / "evals"
CASES = 1000


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray.init(include_dashboard=False, num_cpus=2, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("evals") / "cases.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        for i in range(CASES):
            expected = {"city": "Paris"} if i % 3 else {"city": "Berlin"}
            out.write(json.dumps({"id": f"c{i}", "input": {"country": f"n{i}"}, "expected": expected}) + "\n")
    return path


def cli_rows(args: List[str], cwd: Path) -> List[Dict[str, Any]]:
    cli = os.environ.get("LOGICMD_CLI", str(REPO / "target" / "debug" / "logicmd"))
    out = Path(tempfile.mkdtemp()) / "rows.jsonl"
    subprocess.run([cli, "evals", "run", *args, "--out", str(out), "--restart"], cwd=cwd, capture_output=True, check=False)
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_synthetic_on_ray_gives_the_local_pools_and_the_clis_rows(local_ray: None, data: Path) -> None:
    os.chdir(FIXTURES)
    scorers = ["schema:city.schema.json", "trace:terminates"]
    on_ray = logicmd.evals.run("capital.logic.md", data, scorers=scorers, seed=5, engine="ray")
    local = logicmd.evals.run("capital.logic.md", data, scorers=scorers, seed=5, engine="local", jobs=2)
    assert len(on_ray) == CASES
    assert on_ray == local
    by_cli = cli_rows(["capital.logic.md", "--data", str(data), "--dry-run", "--seed", "5", "--jobs", "2", *sum((["--scorer", s] for s in scorers), [])], FIXTURES)
    assert on_ray == by_cli


def test_scripted_two_variants_on_ray_give_the_local_pools_and_the_clis_rows(local_ray: None, data: Path) -> None:
    os.chdir(FIXTURES)
    scorers = ["subset", "expr:{{ output.city == expected.city }}"]
    kwargs: Dict[str, Any] = dict(variants=["capital-v2.logic.md"], scorers=scorers, script="answers.yaml")
    on_ray = logicmd.evals.run("capital.logic.md", data, engine="ray", batch_size=64, **kwargs)
    local = logicmd.evals.run("capital.logic.md", data, engine="local", **kwargs)
    assert len(on_ray) == 2 * CASES
    assert on_ray == local
    passed = sum(1 for row in on_ray if row["pass"])
    # c0, c3, c6, … expect Berlin; the second variant's step is not in the script.
    assert passed == CASES - (CASES + 2) // 3
    by_cli = cli_rows(["capital.logic.md", "--variant", "capital-v2.logic.md", "--data", str(data), "--provider", "scripted:answers.yaml", *sum((["--scorer", s] for s in scorers), [])], FIXTURES)
    assert on_ray == by_cli


def test_the_command_line_on_ray_writes_rows_logicmd_compare_reads(data: Path, tmp_path: Path) -> None:
    os.chdir(FIXTURES)
    out = tmp_path / "ray.jsonl"
    args = [sys.executable, "-m", "logicmd.evals", "run", "capital.logic.md", "--data", str(data), "--dry-run", "--seed", "5"]
    args += ["--scorer", "schema:city.schema.json", "--engine", "ray", "--out", str(out)]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, f"{CASES} rows, {CASES} passed; results: {out}\n")
    cli = os.environ.get("LOGICMD_CLI", str(REPO / "target" / "debug" / "logicmd"))
    local = tmp_path / "local.jsonl"
    subprocess.run([cli, "evals", "run", "capital.logic.md", "--data", str(data), "--dry-run", "--seed", "5", "--scorer", "schema:city.schema.json", "--out", str(local)], capture_output=True, check=True)
    compared = subprocess.run([cli, "evals", "compare", str(local), str(out)], capture_output=True, text=True, check=False)
    assert (compared.returncode, compared.stdout) == (0, f"0 regressed, 0 fixed, {CASES} still passing, 0 still failing\n")


def test_logicmd_evals_run_engine_ray_resumes_and_gives_the_local_pools_rows(data: Path, tmp_path: Path) -> None:
    """The Rust CLI's `--engine ray` runs what an interrupted eval lacks on Ray, through this
    interpreter's package, and ends with the rows the local pool writes."""
    os.chdir(FIXTURES)
    cli = os.environ.get("LOGICMD_CLI", str(REPO / "target" / "debug" / "logicmd"))
    common = ["evals", "run", "capital.logic.md", "--data", str(data), "--dry-run", "--seed", "5"]
    common += ["--scorer", "schema:city.schema.json", "--scorer", "trace:terminates"]
    local = tmp_path / "local.jsonl"
    subprocess.run([cli, *common, "--out", str(local)], capture_output=True, check=True)
    on_ray = tmp_path / "ray.jsonl"
    half = CASES // 2
    on_ray.write_text("".join(local.read_text(encoding="utf-8").splitlines(keepends=True)[:half]), encoding="utf-8")
    done = subprocess.run([cli, *common, "--engine", "ray", "--python", sys.executable, "--out", str(on_ray)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"resuming {on_ray}: {half} rows kept, {CASES - half} to run\n"
    assert read_rows(on_ray) == read_rows(local)


def test_imports_travel_to_the_workers_and_give_the_clis_rows(local_ray: None, tmp_path: Path) -> None:
    """The document's imports are read by the driver and handed to every task: the rows are
    the CLI's, whose imports resolve from the disk."""
    shutil.copy(REPO / "examples" / "competitive-analyst.logic.md", tmp_path)
    shutil.copytree(REPO / "examples" / "shared", tmp_path / "shared")
    cases = tmp_path / "c.jsonl"
    cases.write_text("".join(json.dumps({"id": f"c{i}", "input": {"market_segment": f"m{i}"}}) + "\n" for i in range(20)), encoding="utf-8")
    plan = logicmd.evals.Plan(tmp_path / "competitive-analyst.logic.md", cases, [], [], 0, None)
    files = plan.options["documents"][str(tmp_path / "competitive-analyst.logic.md")]["files"]
    assert files == {"shared/retry-defaults.logic.md": (tmp_path / "shared" / "retry-defaults.logic.md").read_text(encoding="utf-8")}
    os.chdir(tmp_path)
    on_ray = logicmd.evals.run("competitive-analyst.logic.md", "c.jsonl", seed=0, engine="ray", batch_size=5)
    assert on_ray == cli_rows(["competitive-analyst.logic.md", "--data", "c.jsonl", "--dry-run"], tmp_path)


def test_ctrl_c_on_ray_keeps_the_rows_written_and_says_how_to_resume(data: Path, tmp_path: Path) -> None:
    """Ctrl-C in a terminal reaches the whole process group (the driver and the Ray it
    started): no task is handed out any more, those in flight finish, their rows are kept."""
    os.chdir(FIXTURES)
    out = tmp_path / "ray.jsonl"
    args = [sys.executable, "-m", "logicmd.evals", "run", "capital.logic.md", "--data", str(data), "--dry-run"]
    args += ["--engine", "ray", "--batch-size", "10", "--out", str(out)]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    for _ in range(1200):
        if out.exists() and b"\n" in out.read_bytes():
            break
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    kept = read_rows(out)
    assert process.returncode == 130, stderr
    assert 0 < len(kept) < CASES
    assert stderr.endswith(
        "\ninterrupted: no new case starts; finishing the cases in flight (Ctrl-C again stops at once)\n"
        f"interrupted: {len(kept)} rows are kept in {out}; run the same command again to resume\n"
    )
    assert "Traceback" not in stderr


def read_rows(path: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]

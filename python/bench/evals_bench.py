"""Benchmark of logicmd.evals: N cases with the synthetic provider on the local pool and on a
local single-node Ray (started here, usage stats off), the same batches, medians of --rounds
runs. Prints cases/s per engine and Ray's overhead per case (its median wall time less the
local pool's, over the cases). Run with the release wheel installed (and its `ray` extra):

    maturin build --release -m python/Cargo.toml --out wheels && pip install 'wheels/logicmd-….whl[ray]'
    python python/bench/evals_bench.py --cases 10000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402

import logicmd.evals  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "cli" / "tests" / "evals" / "capital.logic.md"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--batch", type=int, default=logicmd.evals.DEFAULT_BATCH)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp()) / "cases.jsonl"
    with open(data, "w", encoding="utf-8") as out:
        for i in range(args.cases):
            out.write(json.dumps({"id": f"c{i}", "input": {"country": f"n{i}"}, "expected": {"city": "x"}}) + "\n")
    scorers = ["trace:terminates", "expr:{{ output.city != '' }}"]

    def timed(engine: str) -> float:
        started = time.perf_counter()
        rows = logicmd.evals.run(DOC, data, scorers=scorers, seed=1, engine=engine, jobs=args.jobs, batch_size=args.batch)
        took = time.perf_counter() - started
        assert len(rows) == args.cases
        return took

    local = [timed("local") for _ in range(args.rounds)]
    started = time.perf_counter()
    ray.init(include_dashboard=False, num_cpus=args.jobs, log_to_driver=False)
    ray_start = time.perf_counter() - started
    timed("ray")  # warm-up: starts the workers and imports the package in each
    on_ray = [timed("ray") for _ in range(args.rounds)]
    ray.shutdown()
    t_local, t_ray = statistics.median(local), statistics.median(on_ray)
    print(f"cases: {args.cases}, jobs/CPUs: {args.jobs}, batch: {args.batch}, rounds: {args.rounds} (medians)")
    print(f"local pool: {t_local:.3f} s, {args.cases / t_local:,.0f} cases/s, {t_local * 1e6 * args.jobs / args.cases:,.0f} µs of a core per case")
    print(f"ray (single node, warm): {t_ray:.3f} s, {args.cases / t_ray:,.0f} cases/s")
    print(f"ray overhead per case: {(t_ray - t_local) * 1e6 / args.cases:,.0f} µs; ray.init: {ray_start:.2f} s")


if __name__ == "__main__":
    main()

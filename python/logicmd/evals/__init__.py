"""logicmd.evals: a document (and its variants) over a dataset of cases, each output scored —
the rows of ``logicmd evals run``, from the same Rust core.

    import logicmd.evals

    rows = logicmd.evals.run("agent.logic.md", "cases.jsonl", scorers=["subset"], seed=0)
    rows = logicmd.evals.run("agent.logic.md", "cases.jsonl", engine="ray", script="answers.yaml")

Cases run in batches on the Rust core without the GIL: on a local pool of threads
(``engine="local"``) or as Ray tasks (``engine="ray"``: ``pip install logicmd[ray]``), each
task running its batch in the worker's own copy of the core. Rows come back in case order,
variant after variant within a case, whichever engine ran them.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from .. import _logicmd

Row = Dict[str, Any]
Cases = Union[str, "os.PathLike[str]", Sequence[Dict[str, Any]]]

__all__ = ["run", "Row"]

#: Cases per batch (per Ray task): large enough that a task's overhead is small against its work.
DEFAULT_BATCH = 100


def run(
    document: Union[str, "os.PathLike[str]"],
    cases: Cases,
    *,
    variants: Iterable[Union[str, "os.PathLike[str]"]] = (),
    scorers: Iterable[str] = (),
    seed: Optional[int] = None,
    script: Optional[Union[str, "os.PathLike[str]"]] = None,
    engine: str = "local",
    jobs: Optional[int] = None,
    batch_size: int = DEFAULT_BATCH,
    address: Optional[str] = None,
) -> List[Row]:
    """Runs every case with ``document`` and each of ``variants`` (paths), answered by the
    synthetic provider (``seed``, the default) or by a script (``script``: a path), and scores
    each output with ``scorers`` (the CLI's ``--scorer`` texts). ``cases`` is a JSONL or CSV
    path, or a list of ``{id, input, expected?, metadata?}`` dicts. ``engine`` is ``"local"``
    (``jobs`` threads) or ``"ray"`` (Ray tasks; ``address`` is given to ``ray.init`` when Ray is
    not started yet). Returns the rows: ``{id, variant, status, output, pass, scores,
    latency_ms, tokens, cost, obligations, error?, trace}``."""
    if engine not in ("local", "ray"):
        raise ValueError(f"engine must be 'local' or 'ray', not {engine!r}")
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    documents = [os.fspath(document)] + [os.fspath(v) for v in variants]
    texts = [_read(path) for path in documents]
    script_text = _read(os.fspath(script)) if script is not None else None
    lines = _case_lines(cases)
    batches = [lines[i : i + batch_size] for i in range(0, len(lines), batch_size)]
    work = [(d, t, "\n".join(b)) for b in batches for d, t in zip(documents, texts)]
    scorers = list(scorers)
    # Read here: a Ray worker may run where these paths mean nothing.
    schemas = {s[len("schema:") :]: _read(s[len("schema:") :]) for s in scorers if s.startswith("schema:")}
    options = {"scorers": scorers, "seed": seed, "script": script_text, "schemas": schemas}
    if engine == "ray":
        outputs = _on_ray(work, options, address)
    else:
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            outputs = list(pool.map(lambda w: _run_batch(w, options), work))
    return _case_order(outputs, len(documents))


def _run_batch(work: Any, options: Dict[str, Any]) -> str:
    path, text, cases = work
    return str(
        _logicmd.evals_run_cases(
            text,
            path,
            cases,
            options["scorers"],
            seed=options["seed"],
            script=options["script"],
            path=path,
            schemas=options["schemas"],
        )
    )


def _on_ray(work: List[Any], options: Dict[str, Any], address: Optional[str]) -> List[str]:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError as error:  # pragma: no cover - depends on the extra
        raise ImportError("engine='ray' needs Ray: pip install 'logicmd[ray]'") from error
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False)
    remote = ray.remote(_run_batch)
    shared = ray.put(options)
    return list(ray.get([remote.remote(w, shared) for w in work]))


def _case_order(outputs: List[str], variants: int) -> List[Row]:
    """Batches come variant after variant per batch of cases; rows go case by case."""
    rows: List[Row] = []
    for start in range(0, len(outputs), variants):
        per_variant = [[json.loads(l) for l in out.splitlines() if l] for out in outputs[start : start + variants]]
        for case_rows in zip(*per_variant):
            rows.extend(case_rows)
    return rows


def _case_lines(cases: Cases) -> List[str]:
    if isinstance(cases, (str, os.PathLike)):
        path = os.fspath(cases)
        # Read by the core, as the CLI reads it (errors at path:line:column).
        read = json.loads(_logicmd.evals_read_cases(path, _read(path)))
        return [json.dumps(case) for case in read]
    return [json.dumps(case) for case in cases]


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as file:
        return file.read()

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
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from .. import _logicmd

Row = Dict[str, Any]
Cases = Union[str, "os.PathLike[str]", Sequence[Dict[str, Any]]]

__all__ = ["run", "run_as_finished", "Row"]

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
    latency_ms, tokens, cost, obligations, error?, warnings?, fingerprint, trace}``, in case
    order."""
    documents, work, options = _prepared(document, cases, variants, scorers, seed, script, engine, batch_size)
    outputs: List[str] = [""] * len(work)
    for index, output in _finished(work, options, engine, jobs, address):
        outputs[index] = output
    return _case_order(outputs, len(documents))


def run_as_finished(
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
) -> Iterator[Row]:
    """As ``run``, but yields each batch's rows as soon as the batch finishes (batches in the
    order they finish, cases in order within one): for progress, and for keeping what is done
    when a long eval is interrupted."""
    _, work, options = _prepared(document, cases, variants, scorers, seed, script, engine, batch_size)
    for _, output in _finished(work, options, engine, jobs, address):
        for line in output.splitlines():
            if line:
                yield json.loads(line)


Work = Tuple[str, str, str]


def _prepared(
    document: Union[str, "os.PathLike[str]"],
    cases: Cases,
    variants: Iterable[Union[str, "os.PathLike[str]"]],
    scorers: Iterable[str],
    seed: Optional[int],
    script: Optional[Union[str, "os.PathLike[str]"]],
    engine: str,
    batch_size: int,
) -> Tuple[List[str], List[Work], Dict[str, Any]]:
    """The documents, the batches (each batch of cases by each document), and the options."""
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
    return documents, work, options


def _finished(
    work: List[Work], options: Dict[str, Any], engine: str, jobs: Optional[int], address: Optional[str]
) -> Iterator[Tuple[int, str]]:
    """Each batch's index and output, as batches finish."""
    if engine == "ray":
        yield from _on_ray(work, options, address)
        return
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        futures = {pool.submit(_run_batch, w, options): i for i, w in enumerate(work)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _run_batch(work: Work, options: Dict[str, Any]) -> str:
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


def _on_ray(work: List[Work], options: Dict[str, Any], address: Optional[str]) -> Iterator[Tuple[int, str]]:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError as error:  # pragma: no cover - depends on the extra
        raise ImportError("engine='ray' needs Ray: pip install 'logicmd[ray]'") from error
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False)
    remote = ray.remote(_run_batch)
    shared = ray.put(options)
    # A window of tasks in flight (twice the cluster's CPUs): each wait looks at the window,
    # not at every task of a million-case eval, and finished rows do not pile up in the store.
    window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    queued = iter(enumerate(work))
    in_flight: Dict[Any, int] = {}
    while True:
        for i, w in queued:
            in_flight[remote.remote(w, shared)] = i
            if len(in_flight) >= window:
                break
        if not in_flight:
            return
        done, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in done:
            yield in_flight.pop(ref), str(ray.get(ref))


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
    # The text as the CLI reads it (no newline translation): rows' fingerprints hash it.
    with open(path, encoding="utf-8", newline="") as file:
        return file.read()

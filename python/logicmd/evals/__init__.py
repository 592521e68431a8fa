"""logicmd.evals: a document (and its variants) over a dataset of cases, each output scored —
the rows of ``logicmd evals run``, from the same Rust core.

    import logicmd.evals

    rows = logicmd.evals.run("agent.logic.md", "cases.jsonl", scorers=["subset"], seed=0)
    rows = logicmd.evals.run("agent.logic.md", "cases.jsonl", engine="ray", script="answers.yaml")

A document's imports resolve as ``logicmd evals run`` resolves them (under its project root:
``root``, else the nearest directory above it holding ``.git``, ``LOGIC.md`` or ``.logic/``,
else its own directory); they are read here and handed to every batch with the document.
Cases run in batches on the Rust core without the GIL: on a local pool of threads
(``engine="local"``) or as Ray tasks (``engine="ray"``: ``pip install logicmd[ray]``), each
task running its batch in the worker's own copy of the core. Rows come back in case order,
variant after variant within a case, whichever engine ran them.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import AbstractSet, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from .. import _logicmd
from ._files import placed

Row = Dict[str, Any]
Cases = Union[str, "os.PathLike[str]", Sequence[Dict[str, Any]]]

__all__ = ["run", "run_as_finished", "Row", "Plan"]

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
    root: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> List[Row]:
    """Runs every case with ``document`` and each of ``variants`` (paths), answered by the
    synthetic provider (``seed``, the default) or by a script (``script``: a path), and scores
    each output with ``scorers`` (the CLI's ``--scorer`` texts). ``cases`` is a JSONL or CSV
    path, or a list of ``{id, input, expected?, metadata?}`` dicts. ``engine`` is ``"local"``
    (``jobs`` threads) or ``"ray"`` (Ray tasks; ``address`` is given to ``ray.init`` when Ray is
    not started yet). ``root`` is the directory the documents' imports may be read from (the
CLI's ``--root``). Returns the rows: ``{id, variant, status, output, pass, scores,
    latency_ms, tokens, cost, obligations, error?, warnings?, fingerprint, trace}``, in case
    order."""
    _engine(engine)
    plan = Plan(document, cases, variants, scorers, seed, script, root)
    rows = [row for output in finished(plan.batches(batch_size), plan.options, engine, jobs, address) for row in _rows(output)]
    return sorted(rows, key=plan.order)


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
    root: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Iterator[Row]:
    """As ``run``, but yields each batch's rows as soon as the batch finishes (batches in the
    order they finish, cases in order within one): for progress, and for keeping what is done
    when a long eval is interrupted."""
    _engine(engine)
    plan = Plan(document, cases, variants, scorers, seed, script, root)
    for output in finished(plan.batches(batch_size), plan.options, engine, jobs, address):
        yield from _rows(output)


Work = Tuple[str, str]
"""One batch: a variant's name and the cases it runs (JSON Lines)."""


class Plan:
    """An eval before it runs: its variants (the document first), its cases, what each row
    would be made from, and what every batch needs (the documents' texts and the files they
    import, the script, the schemas), read here once: a Ray worker may run where these paths
    mean nothing."""

    def __init__(
        self,
        document: Union[str, "os.PathLike[str]"],
        cases: Cases,
        variants: Iterable[Union[str, "os.PathLike[str]"]],
        scorers: Iterable[str],
        seed: Optional[int],
        script: Optional[Union[str, "os.PathLike[str]"]],
        root: Optional[Union[str, "os.PathLike[str]"]] = None,
    ) -> None:
        self.variants = [os.fspath(document)] + [os.fspath(v) for v in variants]
        read = _cases(cases)
        self.ids: List[str] = [case["id"] for case in read]
        self.lines = [json.dumps(case) for case in read]
        #: Cases whose metadata lists obligations (only a trace scorer checks them).
        self.listing_obligations = sum(1 for case in read if "obligations" in (case.get("metadata") or {}))
        scorers = list(scorers)
        schemas = {s[len("schema:") :]: _read(s[len("schema:") :]) for s in scorers if s.startswith("schema:")}
        script_text = _read(os.fspath(script)) if script is not None else None
        self.options: Dict[str, Any] = {"scorers": scorers, "seed": seed, "script": script_text, "schemas": schemas}
        self.documents: Dict[str, Dict[str, Any]] = {}
        self.fingerprints: Dict[Tuple[str, str], str] = {}
        self.scorer_names: List[str] = []
        every_case = "\n".join(self.lines)
        for variant in self.variants:
            text = _read(variant)
            id, files = placed(variant, None if root is None else os.fspath(root))
            prepared = _logicmd.EvalsVariant(text, variant, scorers, id=id, files=files, **self._answers())
            # What preparing it read is what every batch of it needs.
            self.documents[variant] = {"text": text, "id": id, "files": dict(files.read)}
            self.scorer_names = prepared.scorer_names()
            for case_id, made_from in zip(self.ids, prepared.fingerprints(every_case)):
                self.fingerprints[(case_id, variant)] = made_from
        self.options["documents"] = self.documents
        self._case_at = {case_id: i for i, case_id in enumerate(self.ids)}
        self._variant_at = {variant: i for i, variant in enumerate(self.variants)}

    def _answers(self) -> Dict[str, Any]:
        return {k: self.options[k] for k in ("seed", "script", "schemas")}

    def batches(self, batch_size: int, done: AbstractSet[Tuple[str, str]] = frozenset()) -> List[Work]:
        """The cases still to run (not in ``done``) in batches, each by each variant."""
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        work: List[Work] = []
        for start in range(0, len(self.lines), batch_size):
            for variant in self.variants:
                todo = [
                    line
                    for case_id, line in zip(self.ids[start : start + batch_size], self.lines[start : start + batch_size])
                    if (case_id, variant) not in done
                ]
                if todo:
                    work.append((variant, "\n".join(todo)))
        return work

    def order(self, row: Row) -> Tuple[int, int]:
        """Where a row goes: case after case, variant after variant within one."""
        return self._case_at.get(row["id"], len(self.ids)), self._variant_at.get(row["variant"], len(self.variants))


def _engine(engine: str) -> None:
    if engine not in ("local", "ray"):
        raise ValueError(f"engine must be 'local' or 'ray', not {engine!r}")


def finished(
    work: List[Work],
    options: Dict[str, Any],
    engine: str,
    jobs: Optional[int],
    address: Optional[str],
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[str]:
    """Each batch's rows (JSON Lines) as batches finish. Once ``stop()`` is true no batch
    starts; those in flight finish and are yielded."""
    if engine == "ray":
        yield from _on_ray(work, options, address, stop)
        return
    workers = jobs or os.cpu_count() or 1
    queued = iter(work)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # A window of batches in flight: Ctrl-C (``stop``) stops handing out the rest.
        in_flight: "set[Future[str]]" = set()
        while True:
            for w in (queued if not stop() else ()):
                in_flight.add(pool.submit(_run_batch, w, options))
                if len(in_flight) >= 2 * workers:
                    break
            if not in_flight:
                return
            # A timeout: a signal's handler runs in this thread between waits.
            done, in_flight = wait(in_flight, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()


def _run_batch(work: Work, options: Dict[str, Any]) -> str:
    variant, cases = work
    document = options["documents"][variant]
    prepared = _logicmd.EvalsVariant(
        document["text"],
        variant,
        options["scorers"],
        seed=options["seed"],
        script=options["script"],
        id=document["id"],
        files=document["files"],
        schemas=options["schemas"],
    )
    return prepared.run(cases)


def _on_ray(work: List[Work], options: Dict[str, Any], address: Optional[str], stop: Callable[[], bool]) -> Iterator[str]:
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
    queued = iter(work)
    in_flight: List[Any] = []
    while True:
        for w in (queued if not stop() else ()):
            in_flight.append(remote.remote(w, shared))
            if len(in_flight) >= window:
                break
        if not in_flight:
            return
        done, in_flight = ray.wait(in_flight, num_returns=1, timeout=0.2)
        for ref in done:
            yield str(ray.get(ref))


def _rows(output: str) -> Iterator[Row]:
    for line in output.splitlines():
        if line:
            yield json.loads(line)


def _cases(cases: Cases) -> List[Dict[str, Any]]:
    """The cases as the core reads them (errors at path:line:column)."""
    if isinstance(cases, (str, os.PathLike)):
        path = os.fspath(cases)
        return list(json.loads(_logicmd.evals_read_cases(path, _read(path))))
    lines = "\n".join(json.dumps(case) for case in cases)
    return list(json.loads(_logicmd.evals_read_cases("cases", lines)))


def _read(path: str) -> str:
    # The text as the CLI reads it (no newline translation): rows' fingerprints hash it.
    with open(path, encoding="utf-8", newline="") as file:
        return file.read()

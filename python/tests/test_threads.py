"""The core's work runs without the GIL: many documents validated and linted from threads give
exactly the answers they give one after another, and another Python thread runs while a native
call is under way."""

from __future__ import annotations

import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, List

import logicmd
from corpus import corpus


def test_many_documents_validated_from_threads_give_the_sequential_answers() -> None:
    texts = [text for _, text in corpus(typical=False)]
    assert len(texts) > 100
    work = texts * 4
    sequential = [logicmd.validate(t) for t in work]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(logicmd.validate, work))
    assert threaded == sequential
    with ThreadPoolExecutor(max_workers=8) as pool:
        linted = list(pool.map(lambda t: logicmd.lint(t), texts))
    assert linted == [logicmd.lint(t) for t in texts]


def big_document(steps: int) -> str:
    lines = ['---', 'spec_version: "1.0"', "name: big", "steps:"]
    for i in range(steps):
        lines += [f"  s{i}:", f"    description: Step {i}"]
        if i:
            lines.append(f"    needs: [s{i - 1}]")
    return "\n".join(lines + ["---", ""])


def progress_during(call: Callable[[], object]) -> int:
    """How far another thread gets while ``call`` runs: it can only get anywhere if ``call``
    lets go of the GIL (the switch interval is set far above the call's length)."""
    counter = [0]
    started = threading.Event()
    stop = threading.Event()

    def spin() -> None:
        started.set()
        while not stop.is_set():
            counter[0] += 1

    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    thread = threading.Thread(target=spin)
    try:
        thread.start()
        started.wait()
        before = counter[0]
        call()
        during = counter[0] - before
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(previous)
    return during


def test_another_thread_runs_while_a_document_is_validated() -> None:
    text = big_document(3000)
    assert logicmd.lint(text).valid
    # The control: a C call that keeps the GIL (json.loads of a large text) lets nothing run.
    blob = json.dumps([{"k": i} for i in range(300_000)])
    assert progress_during(lambda: json.loads(blob)) == 0
    assert progress_during(lambda: logicmd.lint(text)) > 0


def test_a_run_is_driven_from_several_threads() -> None:
    doc = big_document(1)
    results: List[str] = []

    def one() -> None:
        results.append(logicmd.run(doc, {}, synthetic=True).status)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["completed"] * 8

"""Validating the corpus from Python: logicmd vs the reference SDK (``logic-md``), in the same
run, medians of repeated passes (``python bench.py [--passes N]``).

What each does per document, as its users call it:
- ``logicmd.validate(text)``: parse (exact spans) + the canonical schema, diagnostics placed;
- ``logic_md.validate(text)``: PyYAML ``safe_load`` + jsonschema's Draft7Validator.
Also ``logicmd.compat.validate(text)`` (the reference's shape over logicmd) and logicmd from 8
threads (the core runs without the GIL). The corpus is the Rust benchmarks' (tests/fixtures,
examples, the conformance suite; the limit-hitting fixtures left out)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import logic_md  # noqa: E402  (the reference)

import logicmd  # noqa: E402
from corpus import corpus  # noqa: E402
from logicmd import compat  # noqa: E402


def median_ms(passes: int, work: Callable[[], object]) -> float:
    work()  # warm up (schema compiled, caches filled)
    times: List[float] = []
    for _ in range(passes):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def generated(steps: int) -> str:
    """A valid document of ``steps`` chained steps."""
    lines = ["---", 'spec_version: "1.0"', "name: generated", "steps:"]
    for i in range(steps):
        lines += [f"  s{i}:", f"    description: Step {i}", "    confidence: {minimum: 0.5}"]
        if i:
            lines.append(f"    needs: [s{i - 1}]")
    return "\n".join(lines + ["---", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passes", type=int, default=15)
    passes = parser.parse_args().passes
    texts = [text for _, text in corpus(typical=True)]
    size = sum(len(t.encode()) for t in texts)
    pool = ThreadPoolExecutor(max_workers=8)

    def threaded() -> None:
        list(pool.map(logicmd.validate, texts))

    rows = [
        ("logic_md.validate (reference)", median_ms(passes, lambda: [logic_md.validate(t) for t in texts])),
        ("logicmd.validate", median_ms(passes, lambda: [logicmd.validate(t) for t in texts])),
        ("logicmd.compat.validate", median_ms(passes, lambda: [compat.validate(t) for t in texts])),
        ("logicmd.validate, 8 threads", median_ms(passes, threaded)),
    ]
    big = [generated(3000)] * 8
    two = ThreadPoolExecutor(max_workers=2)
    large = [
        ("logic_md.validate (reference)", median_ms(max(3, passes // 5), lambda: [logic_md.validate(t) for t in big])),
        ("logicmd.validate", median_ms(passes, lambda: [logicmd.validate(t) for t in big])),
        ("logicmd.validate, 2 threads", median_ms(passes, lambda: list(two.map(logicmd.validate, big)))),
    ]
    reference = rows[0][1]
    print(f"corpus: {len(texts)} documents, {size / 1024:.0f} KiB; median of {passes} passes; "
          f"Python {sys.version.split()[0]}, logicmd {logicmd.__version__}")
    print(f"{'':32} {'ms/pass':>9} {'µs/doc':>8} {'vs reference':>13}")
    for name, ms in rows:
        print(f"{name:32} {ms:9.2f} {ms * 1000 / len(texts):8.1f} {reference / ms:12.1f}x")
    print(f"\nlarge: 8 generated 3,000-step documents, {len(big[0]) * 8 / 1024:.0f} KiB")
    print(f"{'':32} {'ms/pass':>9} {'ms/doc':>8} {'vs reference':>13}")
    for name, ms in large:
        print(f"{name:32} {ms:9.2f} {ms / len(big):8.2f} {large[0][1] / ms:12.1f}x")


if __name__ == "__main__":
    main()

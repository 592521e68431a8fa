"""Ctrl-C during ``python -m logicmd.evals run``, as in ``logicmd evals run``: the first stops
new batches from starting and lets those in flight finish (their rows are kept); a second
stops at once. Either way the eval says how many rows are kept and that running it again
resumes, and exits 130."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import Optional

#: The exit status of a process ended by Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


def rows_are(n: int) -> str:
    return "1 row is" if n == 1 else f"{n} rows are"


class Interrupt:
    """Whether Ctrl-C was pressed, and the rows in the results file so far."""

    def __init__(self, out: str, kept: int) -> None:
        self.out = out
        self.written = kept
        self.requested = False
        signal.signal(signal.SIGINT, self._on_ctrl_c)

    def wrote(self, rows: int) -> None:
        self.written += rows

    def stopped(self) -> str:
        return f"interrupted: {rows_are(self.written)} kept in {self.out}; run the same command again to resume"

    def _on_ctrl_c(self, _signal: int, _frame: Optional[FrameType]) -> None:
        if self.requested:
            # A batch being written when the process ends is a line cut short: a resume drops it.
            print(f"\n{self.stopped()}", file=sys.stderr, flush=True)
            os._exit(EXIT_INTERRUPTED)
        self.requested = True
        print(
            "\ninterrupted: no new case starts; finishing the cases in flight (Ctrl-C again stops at once)",
            file=sys.stderr,
            flush=True,
        )

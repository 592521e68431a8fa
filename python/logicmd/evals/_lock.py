"""One eval at a time writes a results file (two would interleave their rows): the advisory
lock on ``FILE.lock`` that ``logicmd evals run`` takes (``flock``, released when the process
ends in any way), so the CLI and this command refuse each other too."""

from __future__ import annotations

import os
import sys
from typing import IO, Optional


class InUse(Exception):
    """Another process writes the results file."""


def acquire(out: str) -> Optional[IO[str]]:
    """Takes the lock of ``out`` (held while the returned file is open), or says who holds it.
    Where ``fcntl`` does not exist (Windows) nothing is locked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    path = out + ".lock"
    lock = open(path, "a+", encoding="utf-8")
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip()
        lock.close()
        held = f" ({holder})" if holder else ""
        raise InUse(
            f"the results file {out} is in use by another logicmd run{held}: one run at a time may write it (wait for it to end, or stop it)"
        ) from None
    # Who holds it, for the message a second run prints.
    lock.truncate(0)
    lock.write(f"pid {os.getpid()}: {' '.join([sys.executable, *sys.argv])}")
    lock.flush()
    return lock

"""The results file of ``python -m logicmd.evals run --out FILE``, kept as ``logicmd evals run``
keeps it: rows appended and flushed as batches finish (an interruption keeps them), read back
for a resume with a last line cut short dropped, rewritten beside and renamed (never half)."""

from __future__ import annotations

import json
import os
from typing import IO, Any, Dict, Iterable, List, Tuple

Row = Dict[str, Any]


def read(path: str) -> Tuple[List[Row], int]:
    """The rows of a results file and how many of its bytes they take; a last line cut short
    by an interruption (no line end) is dropped: its case runs again."""
    with open(path, "rb") as file:
        data = file.read()
    rows: List[Row] = []
    kept = 0
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        if not line.endswith(b"\n"):
            break
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError as error:
                column = getattr(error, "colno", 1)
                raise ValueError(f"{path}:{number}:{column}: not a result row: {error}") from None
        kept += len(line)
    return rows, kept


def line(row: object) -> str:
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


def rewrite(path: str, rows: Iterable[Row]) -> int:
    """Writes ``rows`` as the whole file (beside it, then renamed); the bytes written."""
    data = "".join(line(row) for row in rows).encode("utf-8")
    beside = path + ".partial"
    with open(beside, "wb") as file:
        file.write(data)
    os.replace(beside, path)
    return len(data)


def appending(path: str, keep: int) -> IO[bytes]:
    """The file opened to append after its first ``keep`` bytes (a new file when ``keep`` is
    0 and it does not exist)."""
    file = open(path, "r+b" if os.path.exists(path) else "w+b")
    file.truncate(keep)
    file.seek(keep)
    return file


def append(file: IO[bytes], rows: Iterable[Row]) -> None:
    """One write for a batch's rows, flushed: what is in the file is whole rows, but for the
    last line when the process is killed (a resume drops it)."""
    file.write("".join(line(row) for row in rows).encode("utf-8"))
    file.flush()

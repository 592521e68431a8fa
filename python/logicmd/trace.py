"""Traces: the run's record, as a list of event dicts or a JSON Lines file (what
``logicmd run --trace`` writes and ``logicmd trace check`` reads)."""

from __future__ import annotations

import os
from typing import Iterable, List, Sequence, Union

from . import _args, _logicmd
from ._types import TraceCheck, TraceEvent, Violation, diagnostics_of
from .errors import TraceError

PathLike = Union[str, "os.PathLike[str]"]


def to_jsonl(events: Sequence[TraceEvent]) -> str:
    """The events as JSON Lines, byte for byte what the CLI writes for them."""
    return _logicmd.to_jsonl(_args.to_json(list(events), "events"))


def write_trace(path: PathLike, events: Sequence[TraceEvent]) -> None:
    """Writes ``events`` to ``path`` as JSON Lines (UTF-8)."""
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.write(to_jsonl(events))


def parse_trace(text: Union[str, bytes]) -> List[TraceEvent]:
    """The events of a JSON Lines text, bounded as the CLI bounds a trace file; raises
    :class:`TraceError` naming the line when it is not one."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    try:
        events: List[TraceEvent] = _args.from_json(_logicmd.read_trace(data))
    except ValueError as error:
        raise TraceError(f"the trace cannot be read: {error}") from None
    return events


def read_trace(path: PathLike) -> List[TraceEvent]:
    """The events of the JSON Lines file at ``path`` (at most the CLI's size limit is read)."""
    with open(path, "rb") as file:
        data = file.read(_logicmd.TRACE_MAX_BYTES + 1)
    try:
        return parse_trace(data)
    except TraceError as error:
        raise TraceError(f"{os.fspath(path)}: {error.message}") from None


def check_trace(
    trace: Union[Sequence[TraceEvent], PathLike],
    rules: Iterable[str] = (),
    *,
    builtins: bool = True,
) -> TraceCheck:
    """Checks a trace (events, or a JSON Lines file's path) against the built-in obligations
    (unless ``builtins`` is false) and LTL formulas ``rules`` (``FORMULA`` or
    ``NAME=FORMULA``), exactly as ``logicmd trace check`` does."""
    events = read_trace(trace) if isinstance(trace, (str, os.PathLike)) else list(trace)
    formulas = [_args.text(rule, "each rule") for rule in rules]
    try:
        native = _logicmd.check_trace(_args.to_json(events, "trace"), formulas, bool(builtins))
    except ValueError as error:
        raise TraceError(str(error)) from None
    result = _args.from_json(native)
    if result["diagnostics"]:
        raise TraceError("a rule does not parse", diagnostics_of(result["diagnostics"]))
    return TraceCheck(
        violations=[Violation(v["rule"], v["index"], v["message"]) for v in result["violations"]],
        rules=result["rules"],
        events=result["events"],
    )

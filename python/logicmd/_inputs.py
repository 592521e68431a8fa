"""The run's input rules, as ``logicmd run`` applies them: the input checked against the
document's ``contracts.inputs``, and an example input that fits them."""

from __future__ import annotations

from typing import Optional

from . import _args, _logicmd
from ._types import InputCheck, Json, diagnostics_of
from .errors import DocumentError


def check_input(
    text: str, input: Json, *, path: Optional[str] = None, files: _args.Files = None
) -> InputCheck:
    """``input`` against ``contracts.inputs``: what is wrong, and what the document's
    ``contracts.validation`` makes of it (``rejects``: the run cannot start on it)."""
    result = _args.from_json(
        _logicmd.input_check(
            _args.text(text, "text"),
            _args.to_json(input, "input"),
            _args.optional_text(path, "path"),
            _args.files(files),
        )
    )
    if result["diagnostics"]:
        raise DocumentError("the document cannot run", diagnostics_of(result["diagnostics"]))
    return InputCheck(result["problems"], result["enforcement"], result["rejects"])


def example_input(text: str, *, path: Optional[str] = None, files: _args.Files = None) -> Json:
    """An input that fits ``contracts.inputs`` (``1`` for numbers, ``"example NAME"`` for
    strings, …), as ``logicmd run --dry-run`` uses without ``--input``."""
    result = _args.from_json(
        _logicmd.input_example(
            _args.text(text, "text"), _args.optional_text(path, "path"), _args.files(files)
        )
    )
    if result["input"] is None:
        raise DocumentError("the document cannot run", diagnostics_of(result["diagnostics"]))
    return result["input"]

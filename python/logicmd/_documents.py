"""Whole-document functions: each checks its arguments, calls the core (through the front
door every logicmd front end uses), and returns a dataclass; functions that make something
(compile, graph, edit, evaluate) raise an exception with the diagnostics when they cannot."""

from __future__ import annotations

from typing import Any, Dict, Optional

from . import _args, _logicmd
from ._project import SettingsPath, raise_problems, settings_file
from ._types import (
    CheckReport,
    CompiledStep,
    CompiledWorkflow,
    EditResult,
    FormatResult,
    GraphResult,
    Json,
    ParseResult,
    Report,
    diagnostics_of,
)
from .errors import CompileError, DocumentError, EditRefused, ExpressionError


def parse(text: str, *, path: Optional[str] = None) -> ParseResult:
    """Parses a LOGIC.md file (its frontmatter and body) or a DRTL topology. ``path`` (as the
    user wrote it) decides the kind when it names one (``*.drtl.yaml``)."""
    result = _args.from_json(
        _logicmd.parse(_args.text(text, "text"), _args.optional_text(path, "path"))
    )
    return ParseResult(
        kind=result["kind"],
        data=result["frontmatter"],
        body=result["body"],
        diagnostics=diagnostics_of(result["diagnostics"]),
    )


def validate(text: str, *, path: Optional[str] = None) -> Report:
    """Parses and validates against the canonical schema (``logicmd validate``)."""
    result = _args.from_json(
        _logicmd.validate(_args.text(text, "text"), _args.optional_text(path, "path"))
    )
    return Report(result["kind"], result["valid"], diagnostics_of(result["diagnostics"]))


def lint(
    text: str, *, path: Optional[str] = None, files: _args.Files = None, settings: SettingsPath = None
) -> Report:
    """Validation plus the semantic rules (``logicmd lint``). ``files`` resolves imports:
    a dict ``{path: text}`` or a callable ``path -> text | None``; ``path`` is the document's
    own, relative imports resolve against it. ``settings`` names the project's settings file
    (``logicmd.toml``, or ``pyproject.toml`` with ``[tool.logicmd]``), applied as ``logicmd
    lint`` applies it; a file that cannot be applied raises ``SettingsError``."""
    path = _args.optional_text(path, "path")
    result = _args.from_json(
        _logicmd.lint(
            _args.text(text, "text"), path, _args.files(files), settings_file(settings, path)
        )
    )
    raise_problems(result, settings)
    return Report(result["kind"], result["valid"], diagnostics_of(result["diagnostics"]))


def check(
    text: str, *, path: Optional[str] = None, files: _args.Files = None, settings: SettingsPath = None
) -> CheckReport:
    """The obligation analysis (``logicmd check``): unverified outputs, unbounded cycles,
    termination, gate branches. ``settings`` as for ``lint``."""
    path = _args.optional_text(path, "path")
    result = _args.from_json(
        _logicmd.check(
            _args.text(text, "text"), path, _args.files(files), settings_file(settings, path)
        )
    )
    raise_problems(result, settings)
    return CheckReport(
        result["kind"],
        result["valid"],
        diagnostics_of(result["diagnostics"]),
        result["findings"],
    )


def _compile(text: str, step: Optional[str], path: Optional[str], files: _args.Files) -> Dict[str, Any]:
    result: Dict[str, Any] = _args.from_json(
        _logicmd.compile(
            _args.text(text, "text"),
            step,
            _args.optional_text(path, "path"),
            _args.files(files),
        )
    )
    if result["workflow"] is None:
        diagnostics = diagnostics_of(result["diagnostics"])
        raise CompileError(
            "the document cannot be compiled", [d for d in diagnostics if d.is_error]
        )
    return result


def compile_workflow(
    text: str, *, path: Optional[str] = None, files: _args.Files = None
) -> CompiledWorkflow:
    """The whole workflow's prompt scaffold (``logicmd compile``); raises
    :class:`CompileError` when lint finds an error."""
    result = _compile(text, None, path, files)
    return CompiledWorkflow(
        result["workflow"], result["markdown"], diagnostics_of(result["diagnostics"])
    )


def compile_step(
    text: str, step: str, *, path: Optional[str] = None, files: _args.Files = None
) -> CompiledStep:
    """One step's prompt scaffold (``logicmd compile --step``); raises :class:`CompileError`
    when lint finds an error or there is no such step."""
    result = _compile(text, _args.text(step, "step"), path, files)
    return CompiledStep(result["step"], result["markdown"], diagnostics_of(result["diagnostics"]))


def fmt(text: str) -> FormatResult:
    """Formats a LOGIC.md file (spec key order, 2-space indentation, comments kept). When it
    cannot guarantee every comment and meaning it leaves the text as it is and says why."""
    result = _args.from_json(_logicmd.format(_args.text(text, "text")))
    return FormatResult(result["text"], result["changed"], diagnostics_of(result["diagnostics"]))


def edit(text: str, edit: Dict[str, Json]) -> EditResult:
    """Applies a structural edit (``{"op": "set", "path": "/steps/a/description", "value":
    …}``, ``{"op": "rename_step", "from": …, "to": …}``, …) keeping comments and formatting
    (``logicmd edit``). Raises :class:`EditRefused` with the reason when it cannot."""
    if not isinstance(edit, dict):
        raise TypeError(f"edit must be a dict, got {type(edit).__name__}")
    try:
        native = _logicmd.edit(_args.text(text, "text"), _args.to_json(edit, "edit"))
    except ValueError as error:
        raise TypeError(str(error)) from None
    result = _args.from_json(native)
    diagnostics = diagnostics_of(result["diagnostics"])
    if not result["applied"]:
        raise EditRefused("the edit is refused", diagnostics)
    return EditResult(result["text"], result["patches"], result["inverse"], result["notes"], diagnostics)


def graph(text: str) -> GraphResult:
    """The graph model of a LOGIC.md file or DRTL topology, laid out (``logicmd graph``).
    Raises :class:`DocumentError` when the text does not parse."""
    result = _args.from_json(_logicmd.graph(_args.text(text, "text")))
    diagnostics = diagnostics_of(result["diagnostics"])
    if result["graph"] is None:
        raise DocumentError(
            "the document does not parse", [d for d in diagnostics if d.is_error]
        )
    return GraphResult(result["kind"], result["graph"], diagnostics)


def eval_expression(expression: str, context: Optional[Dict[str, Json]] = None) -> Json:
    """Evaluates a ``{{ }}`` expression (with or without the braces) against ``context``
    (``logicmd eval``); JavaScript value semantics, as the spec says. Raises
    :class:`ExpressionError` when it does not parse or evaluate."""
    if context is not None and not isinstance(context, dict):
        raise TypeError(f"context must be a dict, got {type(context).__name__}")
    native = _logicmd.evaluate(
        _args.text(expression, "expression"),
        None if context is None else _args.to_json(context, "context"),
    )
    result = _args.from_json(native)
    if result["diagnostics"]:
        raise ExpressionError(
            f"cannot evaluate {expression!r}", diagnostics_of(result["diagnostics"])
        )
    return result["value"]


def eval_tree(text: str, tree: str, input: Json) -> Dict[str, Json]:
    """Routes ``input`` through decision tree ``tree`` of the document (``logicmd eval-tree``):
    the outcome, with the path of nodes taken. Raises :class:`DocumentError` when the document
    is not valid and :class:`ExpressionError` when the tree cannot route the input."""
    result = _args.from_json(
        _logicmd.eval_tree(
            _args.text(text, "text"), _args.text(tree, "tree"), _args.to_json(input, "input")
        )
    )
    diagnostics = diagnostics_of(result["diagnostics"])
    if result["result"] is None:
        if any(d.code == "eval-tree" for d in diagnostics):
            raise ExpressionError(f"cannot route the input through tree {tree!r}", diagnostics)
        raise DocumentError("the document is not valid", [d for d in diagnostics if d.is_error])
    outcome: Dict[str, Json] = result["result"]
    return outcome

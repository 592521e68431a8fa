"""Drop-in shapes of the reference Python SDK (``logic-md`` 0.1.1, ``import logic_md``):
``parse(content)`` → ``{ok, data, content, errors}`` and ``validate(spec)`` → ``{ok, data,
errors}``, so its users switch by changing the import::

    from logicmd.compat import parse, validate   # was: from logic_md import parse, validate

Results are dicts with the reference's keys (present and absent as there), and also read as
attributes, as the reference's README shows (``result.ok``, ``result.data``). The answers are
logicmd's: the YAML is read as YAML 1.2 (the spec's), the schema is the canonical one, errors
are placed (``path`` is dotted, as the reference writes it: ``steps.analyze.confidence``)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, TypedDict, Union

from . import _logicmd
from ._types import Diagnostic, diagnostics_of

__all__ = ["parse", "validate", "ParseResult", "ValidationResult", "ValidationError", "LogicSpec"]

LogicSpec = Dict[str, Any]
"""A parsed specification (the frontmatter as a dict)."""


class ValidationError(TypedDict):
    """One schema error: a dotted ``path`` into the spec (``""`` is the root), the JSON Schema
    ``keyword`` that failed, and a ``message``."""

    path: str
    keyword: str
    message: str


class _Result(Dict[str, Any]):
    """A dict that also reads its keys as attributes (absent keys read as None; ``errors`` as
    an empty list)."""

    def __getattr__(self, name: str) -> Any:
        if name in self:
            return self[name]
        if name == "errors":
            return []
        if name in ("ok", "data", "content"):
            return None
        raise AttributeError(name)


class ParseResult(_Result):
    """``ok``; ``data`` and ``content`` when ok; ``errors`` (strings) when not."""

    ok: bool
    data: Dict[str, Any]
    content: str
    errors: List[str]


class ValidationResult(_Result):
    """``ok``; ``data`` (the spec) when ok; ``errors`` when not."""

    ok: bool
    data: Dict[str, Any]
    errors: List[ValidationError]


def _placed(diagnostic: Diagnostic) -> str:
    return f"line {diagnostic.line}, column {diagnostic.column}: {diagnostic.message}"


def parse(content: str) -> ParseResult:
    """Parses a LOGIC.md file into its frontmatter (``data``) and markdown body (``content``,
    leading newlines removed, as the reference does)."""
    if not isinstance(content, str):
        raise TypeError(f"content must be a str, got {type(content).__name__}")
    result = json.loads(_logicmd.parse(content, None))
    errors = [d for d in diagnostics_of(result["diagnostics"]) if d.is_error]
    if [d.code for d in errors] == ["frontmatter-empty"]:
        # Empty YAML is an empty mapping to the reference's parser; that it lacks `spec_version`
        # and `name` is for `validate` to say.
        return ParseResult(ok=True, data={}, content=_after_empty_frontmatter(content))
    if result["frontmatter"] is None or errors:
        return ParseResult(ok=False, errors=[_placed(d) for d in errors])
    body: str = result["body"] or ""
    return ParseResult(ok=True, data=result["frontmatter"], content=body.lstrip("\n"))


def _after_empty_frontmatter(content: str) -> str:
    """The body after a frontmatter the core found empty (its delimiters are known good)."""
    lines = content.splitlines(keepends=True)
    for i, line in enumerate(lines[1:], start=1):
        if line.rstrip() in ("---", "..."):
            return "".join(lines[i + 1 :]).lstrip("\n")
    return ""


def _dotted(pointer: str) -> str:
    if not pointer:
        return ""
    parts = pointer.lstrip("/").split("/")
    return ".".join(p.replace("~1", "/").replace("~0", "~") for p in parts)


def _schema_errors(text: str) -> List[ValidationError]:
    result = json.loads(_logicmd.validate(text, None))
    return [
        ValidationError(path=_dotted(d.pointer), keyword=d.keyword or d.code, message=d.message)
        for d in diagnostics_of(result["diagnostics"])
        if d.is_error
    ]


def validate(spec: Union[Dict[str, Any], str]) -> ValidationResult:
    """Validates a parsed spec (a dict) or a LOGIC.md text against the canonical schema."""
    if isinstance(spec, str):
        parsed = parse(spec)
        if not parsed["ok"]:
            return ValidationResult(
                ok=False,
                errors=[ValidationError(path="", keyword="parse", message="; ".join(parsed["errors"]))],
            )
        data: Any = parsed["data"]
        errors = _schema_errors(spec)
    elif isinstance(spec, dict):
        data = spec
        try:
            # JSON is YAML: the dict goes through the same front door as a file would.
            text = "---\n" + json.dumps(spec, ensure_ascii=False, allow_nan=False) + "\n---\n"
        except (TypeError, ValueError) as error:
            return ValidationResult(
                ok=False,
                errors=[ValidationError(path="", keyword="type", message=f"the spec is not JSON data: {error}")],
            )
        errors = _schema_errors(text)
    else:
        raise TypeError(f"spec must be a dict or a str, got {type(spec).__name__}")
    if errors:
        return ValidationResult(ok=False, errors=errors)
    return ValidationResult(ok=True, data=data)



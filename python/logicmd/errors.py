"""The exceptions logicmd raises. Each carries the diagnostics that explain it."""

from __future__ import annotations

from typing import List, Sequence

from ._types import Diagnostic


class LogicmdError(Exception):
    """A document or value logicmd cannot do what was asked with; ``diagnostics`` say why,
    each with its code, line, column and JSON pointer."""

    diagnostics: List[Diagnostic]

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        self.diagnostics = list(diagnostics)
        details = "".join(f"\n  {d}" for d in self.diagnostics)
        super().__init__(message + details)
        self.message = message


class DocumentError(LogicmdError, ValueError):
    """The document has errors that stop the operation (it does not parse, does not validate,
    or lint finds an error where one stops compiling or running)."""


class CompileError(DocumentError):
    """The document cannot be compiled (lint found an error, or the step does not exist)."""


class EditRefused(LogicmdError, ValueError):
    """The edit cannot be made without changing what it must not (the reason is the diagnostic)."""


class ExpressionError(LogicmdError, ValueError):
    """The expression does not parse or cannot be evaluated."""


class InputError(LogicmdError, ValueError):
    """The run's input breaks the document's ``contracts.inputs`` and its
    ``contracts.validation`` rejects the run. ``problems`` lists what is wrong."""

    problems: List[str]

    def __init__(self, message: str, problems: Sequence[str]) -> None:
        super().__init__(message + "".join(f"\n  - {p}" for p in problems))
        self.problems = list(problems)


class SettingsError(LogicmdError, ValueError):
    """A project settings file (``settings=``) that cannot be applied: not a settings file's
    name, not TOML, an unknown key (the diagnostics say where, in that file)."""


class TraceError(LogicmdError, ValueError):
    """A trace that cannot be read (not JSON Lines of event objects, or over the limits)."""


class RunError(LogicmdError, RuntimeError):
    """A run driven in a way its contract does not allow (an answer to an action never handed
    out, answered twice, of the wrong kind), or a provider that broke its contract."""

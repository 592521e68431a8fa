"""A project settings file (``logicmd.toml``, or ``pyproject.toml`` with ``[tool.logicmd]``)
handed to ``lint`` and ``check``: read here, applied by the core as ``logicmd lint`` applies
it (ignored and unselected rules left out, severities re-graded, per-file ignores matched
against the document's path relative to the settings file's directory)."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Tuple, Union

from ._types import diagnostics_of
from .errors import SettingsError

SettingsPath = Union[str, "os.PathLike[str]", None]

# The most of a settings file read, as the CLI reads it.
_LIMIT = 1024 * 1024


def settings_file(settings: SettingsPath, path: Optional[str]) -> Optional[Tuple[str, str, Optional[str]]]:
    """``(text, file name, document path relative to its directory)``, or None."""
    if settings is None:
        return None
    if not isinstance(settings, (str, os.PathLike)):
        raise TypeError(f"settings must be a path (str or os.PathLike), got {type(settings).__name__}")
    file = os.fspath(settings)
    with open(file, "rb") as handle:
        data = handle.read(_LIMIT + 1)
    if len(data) > _LIMIT:
        raise SettingsError(f"{file} is larger than 1 MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsError(f"{file} is not UTF-8 text") from None
    relative = None
    if path is not None:
        within = os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.abspath(file)))
        if within != os.pardir and not within.startswith(os.pardir + os.sep):
            relative = within.replace(os.sep, "/")
    return text, os.path.basename(file), relative


def raise_problems(result: Dict[str, Any], settings: SettingsPath) -> None:
    """The core's ``settings_problems`` as an exception naming the file."""
    if "settings_problems" in result:
        raise SettingsError(
            f"the settings in {os.fspath(settings or '')} cannot be applied",
            diagnostics_of(result["settings_problems"]),
        )

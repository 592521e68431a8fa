"""Argument checks shared by the wrappers: a wrong type is a TypeError naming the argument,
before any work is done."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Mapping, Optional, Union

Files = Union[Mapping[str, str], Callable[[str], Optional[str]], None]


def text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value


def optional_text(value: Any, what: str) -> Optional[str]:
    return None if value is None else text(value, what)


def files(value: Any) -> Files:
    if value is None or callable(value) or isinstance(value, Mapping):
        if isinstance(value, Mapping) and not isinstance(value, dict):
            return dict(value)
        return value  # type: ignore[no-any-return]
    raise TypeError(
        f"files must be a dict {{path: text}} or a callable path -> text, got {type(value).__name__}"
    )


def to_json(value: Any, what: str) -> str:
    """``value`` as JSON text; a value JSON cannot hold (a set, an object, NaN) is a TypeError."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{what} must be JSON data (dict, list, str, int, float, bool, None): {error}") from None


def from_json(value: str) -> Any:
    return json.loads(value)


def settings(**values: Any) -> str:
    """Run options as the native layer reads them: absent ones left out."""
    chosen: Dict[str, Any] = {k: v for k, v in values.items() if v is not None}
    return to_json(chosen, "options")

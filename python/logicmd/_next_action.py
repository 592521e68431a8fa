"""The next-action API of the Logic Engine v2 design: an agent's state in, its next action
(``execute_tool``, ``ask_user`` or ``complete_task``) out, decided by the caller's model and
checked by the core, which asks again (with what was wrong) until the answer is valid."""

from __future__ import annotations

import inspect
from typing import Any, Awaitable, Callable, Dict, Optional, Union

from . import _args, _logicmd
from ._types import Json, ModelRequest, NextActionResult

TextProvider = Callable[[ModelRequest], Union[str, Awaitable[str]]]


def _start(state: Dict[str, Json], spec: Optional[str], max_attempts: int) -> Any:
    if not isinstance(state, dict):
        raise TypeError(f"state must be a dict, got {type(state).__name__}")
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise TypeError(f"max_attempts must be a whole number ≥ 1, got {max_attempts!r}")
    return _logicmd.NativeDecision.start(
        _args.to_json(state, "state"), _args.optional_text(spec, "spec"), max_attempts
    )


def _answer_text(answer: Any) -> str:
    if not isinstance(answer, str):
        raise TypeError(f"the provider must return the model's text (str), got {type(answer).__name__}")
    return answer


def _step(decision: Any, answer: str) -> "Union[NextActionResult, ModelRequest]":
    fed = _args.from_json(decision.feed(answer))
    if "request" in fed:
        request: ModelRequest = fed["request"]
        return request
    return NextActionResult(fed.get("action"), fed["attempts"], fed.get("problems", []))


def next_action(
    state: Dict[str, Json],
    provider: TextProvider,
    *,
    spec: Optional[str] = None,
    max_attempts: int = 3,
) -> NextActionResult:
    """Decides the next action for ``state`` with ``provider`` (request → text); ``spec`` is a
    LOGIC.md text whose strategy and gates apply. An async provider is awaited (outside a
    running event loop; inside one, ``await anext_action(…)``)."""
    decision, request = _start(state, spec, max_attempts)
    request = _args.from_json(request)
    while True:
        answer = provider(request)
        if inspect.isawaitable(answer):
            import asyncio

            answer = asyncio.run(_awaited(answer))
        step = _step(decision, _answer_text(answer))
        if isinstance(step, NextActionResult):
            return step
        request = step


async def anext_action(
    state: Dict[str, Json],
    provider: TextProvider,
    *,
    spec: Optional[str] = None,
    max_attempts: int = 3,
) -> NextActionResult:
    """:func:`next_action` with an async (or sync) provider, awaited on the running loop."""
    decision, request = _start(state, spec, max_attempts)
    request = _args.from_json(request)
    while True:
        answer = provider(request)
        if inspect.isawaitable(answer):
            answer = await answer
        step = _step(decision, _answer_text(answer))
        if isinstance(step, NextActionResult):
            return step
        request = step


async def _awaited(answer: Awaitable[str]) -> str:
    return await answer

"""The next-action API from Python: the core checks each answer (the action schema, the tool's
parameters) and asks again with what was wrong, up to the attempts."""

from __future__ import annotations

import asyncio
import json
from typing import List

import pytest

import logicmd

STATE = {
    "user_input": "Read the config",
    "available_tools": [{"name": "read_file", "description": "Read a file", "parameters": {"file_path": "string"}}],
    "short_term_memory": [],
}


def test_an_invalid_answer_is_asked_again_with_the_problem() -> None:
    requests: List[logicmd.ModelRequest] = []
    answers = iter(
        [
            json.dumps({"action": "execute_tool", "tool_name": "read_file", "parameters": {}}),
            json.dumps({"action": "execute_tool", "tool_name": "read_file", "parameters": {"file_path": "a.toml"}}),
        ]
    )

    def provider(request: logicmd.ModelRequest) -> str:
        requests.append(request)
        return next(answers)

    result = logicmd.next_action(STATE, provider)
    assert result.action == {"action": "execute_tool", "tool_name": "read_file", "parameters": {"file_path": "a.toml"}}
    assert result.attempts == 2 and result.problems == []
    assert "file_path" in requests[1]["messages"][-1]["content"]


def test_no_valid_answer_within_the_attempts_gives_the_problems() -> None:
    result = logicmd.next_action(STATE, lambda request: "not json", max_attempts=2)
    assert result.action is None and result.attempts == 2 and result.problems


def test_an_async_provider() -> None:
    async def provider(request: logicmd.ModelRequest) -> str:
        await asyncio.sleep(0)
        return json.dumps({"action": "complete_task", "final_message": "done"})

    result = asyncio.run(logicmd.anext_action(STATE, provider))
    assert result.action == {"action": "complete_task", "final_message": "done"}
    assert logicmd.next_action(STATE, provider).attempts == 1


def test_an_unusable_state_is_refused() -> None:
    twice = {**STATE, "available_tools": STATE["available_tools"] * 2}  # type: ignore[operator]
    with pytest.raises(ValueError, match="the state cannot be used"):
        logicmd.next_action(twice, lambda request: "")
    with pytest.raises(TypeError, match="must return the model's text"):
        logicmd.next_action(STATE, lambda request: 42)  # type: ignore[arg-type,return-value]

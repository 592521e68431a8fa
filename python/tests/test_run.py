"""Runs driven from Python: the same traces as the CLI and npm (the cross-driver scenarios), a
Python provider (sync and async), a paused review resumed, reviews, tools, traces on disk, and
the README's own driving loop."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

import logicmd
from conftest import REPO

CROSS = REPO / "tests" / "cross-driver"
REVIEW = (CROSS / "review.logic.md").read_text(encoding="utf-8")
ONE_STEP = """---
spec_version: "1.0"
name: one-step
steps:
  answer:
    description: Answer the question
---
"""
BLOCK = (CROSS / "block.drtl.yaml").read_text(encoding="utf-8")
EXTRACT_ONLY = (
    '- {node: extract, json: {product_names: [Widget Pro, Gizmo 9], urls: ["https://example.com/w"]}}\n'
)


def step_of(request: logicmd.ModelRequest) -> str:
    found = re.match(r"## Step: (\w+)", request["system"])
    assert found, request["system"][:80]
    return found.group(1)


def answers(request: logicmd.ModelRequest) -> str:
    """A model for review.logic.md: sources for `gather`, a weak report for `report`."""
    step = step_of(request)
    if step == "gather":
        return json.dumps({"sources": ["a.example", "b.example"]})
    if step == "report":
        return json.dumps({"summary": "mixed", "confidence": 0.4})
    return f"{step}: read"


@pytest.mark.parametrize("name", ["review.logic.md", "unanswered.logic.md", "block.drtl.yaml"])
def test_the_cross_driver_scenarios_give_the_clis_and_npms_trace_byte_for_byte(name: str) -> None:
    stem = name.split(".")[0]
    result = logicmd.run(
        (CROSS / name).read_text(encoding="utf-8"),
        {},
        script=(CROSS / f"{stem}.script.yaml").read_text(encoding="utf-8"),
        path=name,
    )
    assert result.trace_jsonl() == (CROSS / f"{stem}.trace.jsonl").read_text(encoding="utf-8")


def test_a_python_provider_runs_a_document_and_a_review_pauses_it() -> None:
    seen: List[str] = []

    def provider(request: logicmd.ModelRequest) -> str:
        seen.append(step_of(request))
        return answers(request)

    result = logicmd.run(REVIEW, {}, provider=provider)
    assert result.status == "paused"
    assert sorted(seen) == ["gather", "left", "report", "right"]
    [review] = result.pending
    assert (review["action"], review["node"], review["actions"]) == (
        "ask_review",
        "report",
        ["accept", "retry", "abort"],
    )
    assert result.snapshot is not None and result.output is None
    assert logicmd.check_trace(result.trace).ok


def test_a_paused_review_is_resumed_from_its_snapshot_without_asking_any_model_again() -> None:
    paused = logicmd.run(REVIEW, {}, provider=answers)
    assert paused.snapshot is not None
    stored = json.loads(json.dumps(paused.snapshot))  # a snapshot is plain JSON

    def no_model(request: logicmd.ModelRequest) -> str:
        raise AssertionError(f"asked again: {step_of(request)}")

    done = logicmd.resume(stored, provider=no_model, reviews={"report": ("accept", "checked by Ana")})
    assert done.status == "completed"
    assert done.output == {"summary": "mixed", "confidence": 0.4}
    events = [e["event"] for e in done.trace]
    assert events[0] == "run_started" and events[-1] == "run_finished"
    answered = [e for e in done.trace if e["event"] == "review_answered"]
    assert [(e["action"], e.get("note")) for e in answered] == [("accept", "checked by Ana")]
    assert logicmd.check_trace(done.trace).ok


def test_a_rejected_review_never_completes() -> None:
    result = logicmd.run(REVIEW, {}, provider=answers, reviews={"report": "abort"})
    assert result.status == "failed"
    assert result.output is None and result.error


def test_a_review_callable_decides_and_none_pauses() -> None:
    asked: List[str] = []

    def reviewer(action: logicmd.Action) -> Any:
        asked.append(action["node"])
        return None

    assert logicmd.run(REVIEW, {}, provider=answers, reviews=reviewer).status == "paused"
    assert asked == ["report"]
    assert logicmd.run(REVIEW, {}, provider=answers, reviews=lambda a: "accept").status == "completed"


def test_an_async_provider_is_awaited_and_its_calls_overlap() -> None:
    in_flight = 0
    most = 0

    async def provider(request: logicmd.ModelRequest) -> str:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.05)
        in_flight -= 1
        return answers(request)

    result = asyncio.run(logicmd.arun(REVIEW, {}, provider=provider, reviews={"report": "accept"}))
    assert result.status == "completed"
    assert most == 2, "left and right are independent: asked at once"


def test_run_inside_an_event_loop_says_to_await_arun() -> None:
    async def inside() -> None:
        with pytest.raises(RuntimeError, match="await"):
            logicmd.run(REVIEW, {}, provider=answers)

    asyncio.run(inside())


def test_a_provider_that_raises_fails_that_call_and_the_policy_decides() -> None:
    def broken(request: logicmd.ModelRequest) -> str:
        raise ConnectionError("model server down")

    result = logicmd.run(ONE_STEP, {}, provider=broken)
    assert result.status == "failed"
    assert "ConnectionError: model server down" in (result.error or "")
    answered = [e for e in result.trace if e["event"] == "model_responded"]
    assert [e["error"] for e in answered] == [
        {
            "kind": "ProviderError",
            "message": "the provider raised ConnectionError: model server down",
            "retryable": False,
        }
    ], "one call: a provider error is not retryable"


def test_a_provider_that_returns_no_text_is_an_error() -> None:
    with pytest.raises(logicmd.RunError, match="must return the model's answer text"):
        logicmd.run(REVIEW, {}, provider=lambda request: {"sources": []})


def test_tools_are_checked_by_the_tools_callable_else_unverifiable() -> None:
    unchecked = logicmd.run(BLOCK, {}, script=EXTRACT_ONLY, path="block.drtl.yaml")
    assert unchecked.status == "refused"
    assert [(u["rule"], u["reason"]) for u in unchecked.unmet] == [
        ("std.check_existence", unchecked.unmet[0]["reason"])
    ]
    assert "no facts to check against" in unchecked.unmet[0]["reason"]
    calls: List[str] = []

    def tools(action: logicmd.Action) -> Dict[str, Any]:
        calls.append(action["name"])
        return {"passed": True, "evidence": "found in the catalogue"}

    checked = logicmd.run(BLOCK, {}, script=EXTRACT_ONLY, path="block.drtl.yaml", tools=tools)
    assert sorted(calls) == ["std.check_existence", "std.check_links"]
    assert checked.status == "completed"


def test_the_readme_driving_loop_runs_as_written() -> None:
    readme = (REPO / "python" / "README.md").read_text(encoding="utf-8")
    block = readme.split("### Drive the steps yourself")[1].split("```python\n")[1].split("```")[0]
    calls: List[str] = []

    def my_graph_node(node: str, request: logicmd.ModelRequest) -> str:
        calls.append(node)
        return answers(request)

    scope: Dict[str, Any] = {"text": REVIEW, "question": "q", "my_graph_node": my_graph_node}
    exec(compile(block, "README.md", "exec"), scope)
    run: logicmd.Run = scope["run"]
    assert run.status == "paused" and sorted(calls) == ["gather", "left", "report", "right"]
    [review] = run.outstanding()
    run.review(review["id"], "accept")
    [ending] = run.next()
    assert ending["action"] == "complete" and run.status == "completed"
    assert [e["event"] for e in scope["trace"]][0] == "run_started"


def test_answers_from_other_threads_in_any_order_give_the_same_trace() -> None:
    def drive(reverse: bool) -> str:
        run = logicmd.Run.start(REVIEW, {}, clock="fixed")
        while True:
            actions = run.next()
            models = [a for a in actions if a["action"] == "call_model"]
            for action in actions:
                if action["action"] == "wait":
                    run.feed(action["id"], {"observation": "waited"})
                if action["action"] == "ask_review":
                    run.review(action["id"], "accept")
            threads = [
                threading.Thread(target=run.answer, args=(a["id"], answers(a["request"])))
                for a in (reversed(models) if reverse else models)
            ]
            for thread in threads:
                thread.start()
                thread.join()
            if any(a["action"] == "complete" for a in actions):
                return logicmd.to_jsonl(run.trace)

    assert drive(False) == drive(True)


def test_traces_go_to_jsonl_files_and_back(tmp_path: Path) -> None:
    result = logicmd.run(REVIEW, {}, provider=answers, reviews={"report": "accept"})
    path = tmp_path / "run.jsonl"
    result.write_trace(path)
    assert logicmd.read_trace(path) == result.trace
    assert path.read_text(encoding="utf-8") == result.trace_jsonl()
    assert logicmd.check_trace(path).events == len(result.trace)
    checked = logicmd.check_trace(result.trace, ["no_failure=G(!node_failed)"], builtins=False)
    assert checked.rules == ["no_failure"] and checked.ok


def test_a_snapshot_resumes_a_run_stopped_in_the_middle() -> None:
    run = logicmd.Run.start(REVIEW, {}, clock="fixed")
    [first] = [a for a in run.next() if a["action"] == "call_model"]
    run.answer(first["id"], answers(first["request"]))
    snapshot = run.snapshot()
    resumed = logicmd.resume(snapshot, provider=answers, reviews={"report": "accept"})
    assert resumed.status == "completed"
    straight = logicmd.run(REVIEW, {}, provider=answers, reviews={"report": "accept"}, clock="fixed")
    strip = lambda events: [{k: v for k, v in e.items() if k not in ("t", "latency_ms", "duration_ms")} for e in events]  # noqa: E731
    assert strip(resumed.trace) == strip(straight.trace)

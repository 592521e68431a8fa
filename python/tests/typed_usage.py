"""Typed use of the package, checked by ``mypy --strict`` (test_typing.py): what a user writes
must type-check against the stubs and wrappers as shipped."""

from __future__ import annotations

import asyncio
from typing import Dict, List, Optional

import logicmd
from logicmd import compat

TEXT = '---\nspec_version: "1.0"\nname: x\nsteps:\n  a:\n    description: A\n---\n'


def places(report: logicmd.Report) -> List[str]:
    return [f"{d.line}:{d.column} {d.pointer} {d.code} {d.message}" for d in report.diagnostics]


def model(request: logicmd.ModelRequest) -> str:
    system: str = request["system"]
    schema: Optional[Dict[str, object]] = request.get("response_schema")
    return "answer" if schema is None else system[:0] + "{}"


async def async_model(request: logicmd.ModelRequest) -> str:
    await asyncio.sleep(0)
    return model(request)


def everything() -> None:
    valid: bool = logicmd.validate(TEXT).valid
    lint: List[str] = places(logicmd.lint(TEXT, path="x.logic.md", files={"a.logic.md": TEXT}))
    findings = logicmd.check(TEXT).findings
    markdown: str = logicmd.compile_workflow(TEXT).markdown + logicmd.compile_step(TEXT, "a").markdown
    formatted: str = logicmd.fmt(TEXT).text
    edited: str = logicmd.edit(TEXT, {"op": "set", "path": "/name", "value": "y"}).text
    nodes = logicmd.graph(TEXT).graph["nodes"]
    value = logicmd.eval_expression("a + 1", {"a": 1})
    data = logicmd.parse(TEXT).data
    result: logicmd.RunResult = logicmd.run(TEXT, {}, provider=model, reviews={"a": "accept"})
    status: str = result.status
    trace: List[logicmd.TraceEvent] = result.trace
    again = asyncio.run(logicmd.arun(TEXT, {}, provider=async_model))
    run = logicmd.Run.start(TEXT, {})
    for action in run.next():
        if action["action"] == "call_model":
            run.answer(action["id"], model(action["request"]))
    snapshot = run.snapshot()
    resumed: logicmd.RunResult = logicmd.resume(snapshot, provider=model)
    checked: bool = logicmd.check_trace(trace).ok
    decided: logicmd.NextActionResult = logicmd.next_action(
        {"user_input": "hi", "available_tools": [], "short_term_memory": []}, model
    )
    parsed = compat.parse(TEXT)
    ok: bool = parsed.ok and compat.validate(parsed.data).ok
    try:
        logicmd.compile_workflow("---\n---\n")
    except logicmd.CompileError as error:
        codes: List[str] = [d.code for d in error.diagnostics]
        print(codes)
    print(valid, lint, findings, markdown, formatted, edited, nodes, value, data, status,
          again.output, resumed.status, checked, decided.action, ok)

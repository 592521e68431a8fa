"""logicmd: LOGIC.md and DRTL for Python — parse, validate, lint, check, compile, format, edit,
graph and run reasoning specifications, on the same Rust core as the ``logicmd`` CLI and the
npm package (the same document gets the same answers from each).

    import logicmd

    report = logicmd.validate(text)
    if not report.valid:
        for d in report.diagnostics:
            print(d.line, d.column, d.pointer, d.message)

    result = logicmd.run(text, {"topic": "rust"}, provider=my_model)   # request dict -> text
    print(result.status, result.output)
"""

from __future__ import annotations

from ._documents import (
    check,
    compile_step,
    compile_workflow,
    edit,
    eval_expression,
    eval_tree,
    fmt,
    graph,
    lint,
    parse,
    validate,
)
from ._logicmd import SUPPORTED_SPEC_VERSIONS, __version__
from ._next_action import anext_action, next_action
from ._run import Run, adrive, aresume, arun, drive, resume, run
from ._types import (
    Action,
    CheckReport,
    CompiledStep,
    CompiledWorkflow,
    Diagnostic,
    EditResult,
    FormatResult,
    GraphResult,
    InputCheck,
    LintReport,
    Message,
    ModelRequest,
    NextActionResult,
    Observation,
    ParseResult,
    Report,
    RunResult,
    TraceCheck,
    TraceEvent,
    Unmet,
    ValidationReport,
    Violation,
)
from ._inputs import check_input, example_input
from .errors import (
    CompileError,
    DocumentError,
    EditRefused,
    ExpressionError,
    InputError,
    LogicmdError,
    RunError,
    SettingsError,
    TraceError,
)
from .openai import OpenAIProvider, ProviderError
from .trace import check_trace, parse_trace, read_trace, to_jsonl, write_trace

__all__ = [
    "__version__",
    "SUPPORTED_SPEC_VERSIONS",
    # documents
    "parse",
    "validate",
    "lint",
    "check",
    "compile_step",
    "compile_workflow",
    "fmt",
    "edit",
    "graph",
    "eval_expression",
    "eval_tree",
    "next_action",
    "anext_action",
    # runs
    "Run",
    "run",
    "arun",
    "resume",
    "aresume",
    "drive",
    "adrive",
    "check_input",
    "example_input",
    "OpenAIProvider",
    "ProviderError",
    # traces
    "read_trace",
    "parse_trace",
    "write_trace",
    "to_jsonl",
    "check_trace",
    # values
    "Action",
    "CheckReport",
    "CompiledStep",
    "CompiledWorkflow",
    "Diagnostic",
    "EditResult",
    "FormatResult",
    "GraphResult",
    "InputCheck",
    "LintReport",
    "Message",
    "ModelRequest",
    "NextActionResult",
    "Observation",
    "ParseResult",
    "Report",
    "RunResult",
    "TraceCheck",
    "TraceEvent",
    "Unmet",
    "ValidationReport",
    "Violation",
    # errors
    "LogicmdError",
    "DocumentError",
    "CompileError",
    "EditRefused",
    "ExpressionError",
    "InputError",
    "RunError",
    "SettingsError",
    "TraceError",
]

"""The values logicmd returns: dataclasses for results, TypedDicts for the JSON shapes the run
exchanges (actions, observations, model requests). Field names and meanings are the CLI's and
the npm package's (``path`` there is ``pointer`` here)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

Json = Any
"""A JSON value: dict, list, str, int, float, bool or None."""

Kind = Literal["logic", "drtl"]
Severity = Literal["error", "warning", "info", "hint"]
Status = Literal["running", "paused", "completed", "refused", "failed"]


@dataclass(frozen=True)
class Diagnostic:
    """One problem, placed: 1-based ``line`` and ``column`` in the text, and ``pointer``, a
    JSON Pointer into the frontmatter (``""`` is the root)."""

    severity: Severity
    code: str
    message: str
    line: int
    column: int
    pointer: str
    keyword: Optional[str] = None
    help: Optional[str] = None

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> "Diagnostic":
        return cls(
            severity=value["severity"],
            code=value["code"],
            message=value["message"],
            line=value.get("line", 0),
            column=value.get("column", 0),
            pointer=value.get("path", ""),
            keyword=value.get("keyword"),
            help=value.get("help"),
        )

    def to_json(self) -> Dict[str, Any]:
        """The CLI's and the npm package's JSON shape (the pointer under ``path``)."""
        out: Dict[str, Any] = {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "path": self.pointer,
            "keyword": self.keyword,
        }
        out["line"] = self.line
        out["column"] = self.column
        if self.help is not None:
            out["help"] = self.help
        return out

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def __str__(self) -> str:
        where = f" at {self.pointer}" if self.pointer else ""
        return f"{self.line}:{self.column}: {self.severity}[{self.code}]: {self.message}{where}"


def diagnostics_of(values: List[Dict[str, Any]]) -> List[Diagnostic]:
    return [Diagnostic.from_json(v) for v in values]


@dataclass(frozen=True)
class ParseResult:
    """The parsed data (a LOGIC.md frontmatter, or a DRTL topology) and the markdown body, or
    the problems that stop them (``data`` is None then)."""

    kind: Kind
    data: Optional[Dict[str, Json]]
    body: Optional[str]
    diagnostics: List[Diagnostic]

    @property
    def ok(self) -> bool:
        return self.data is not None and not any(d.is_error for d in self.diagnostics)


@dataclass(frozen=True)
class Report:
    """The verdict of ``validate`` or ``lint``: ``valid`` means the document parsed and its
    schema accepts it (lint's rules add diagnostics, never change it)."""

    kind: Kind
    valid: bool
    diagnostics: List[Diagnostic]

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def raise_for_errors(self) -> None:
        """Raises :class:`logicmd.DocumentError` with the errors when there are any."""
        from .errors import DocumentError

        if self.errors:
            raise DocumentError("the document has errors", self.errors)


ValidationReport = Report
LintReport = Report


@dataclass(frozen=True)
class CheckReport(Report):
    """The obligation analysis: ``findings`` (each with the path of node ids it concerns) when
    the document is sound; else ``diagnostics`` hold the errors that prevent it."""

    findings: List[Dict[str, Json]] = field(default_factory=list)


@dataclass(frozen=True)
class CompiledWorkflow:
    """The whole workflow's prompt scaffold: ``workflow`` (levels, order, loops, steps with their
    scaffolds) and its markdown."""

    workflow: Dict[str, Json]
    markdown: str
    diagnostics: List[Diagnostic]


@dataclass(frozen=True)
class CompiledStep:
    """One step's prompt scaffold (``markdown``) and its compiled form (``step``)."""

    step: Dict[str, Json]
    markdown: str
    diagnostics: List[Diagnostic]


@dataclass(frozen=True)
class FormatResult:
    """The formatted text; when the formatter cannot keep every comment and meaning it leaves
    the text alone and ``diagnostics`` say why."""

    text: str
    changed: bool
    diagnostics: List[Diagnostic]


@dataclass(frozen=True)
class EditResult:
    """The edited text, the byte patches that made it, the edit that undoes it, and notes."""

    text: str
    patches: List[Dict[str, Json]]
    inverse: Optional[Dict[str, Json]]
    notes: List[str]
    diagnostics: List[Diagnostic]


@dataclass(frozen=True)
class GraphResult:
    """The graph model, laid out: ``graph`` has ``nodes`` and ``edges`` (JSON)."""

    kind: Kind
    graph: Dict[str, Json]
    diagnostics: List[Diagnostic]


@dataclass(frozen=True)
class Violation:
    """A trace rule that fails: its name, the 0-based index of the event, and why."""

    rule: str
    index: int
    message: str


@dataclass(frozen=True)
class TraceCheck:
    """The rules checked over a trace and the violations found."""

    violations: List[Violation]
    rules: List[str]
    events: int

    @property
    def ok(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class InputCheck:
    """The input against ``contracts.inputs``: what is wrong, and what the document's
    ``contracts.validation`` makes of it (``reject``, ``record`` or ``off``)."""

    problems: List[str]
    enforcement: Optional[str]
    rejects: bool


class Message(TypedDict):
    role: str
    content: str


class _ModelRequestBase(TypedDict):
    system: str
    messages: List[Message]


class ModelRequest(_ModelRequestBase, total=False):
    """What a model call sends: the compiled scaffold as ``system``, the task as ``messages``,
    and, when the step promises structured output, the ``response_schema`` the answer must
    satisfy (``json`` is true then)."""

    response_schema: Dict[str, Json]
    temperature: float
    max_tokens: int
    allowed_tools: List[str]
    model: str
    json: bool


class _ActionBase(TypedDict):
    id: str
    action: Literal[
        "call_model", "call_tool", "ask_review", "wait", "complete", "refuse", "fail"
    ]


class Action(_ActionBase, total=False):
    """An action the run hands out, tagged by ``action``: ``call_model`` (``node``,
    ``attempt``, ``request``, ``timeout_ms``), ``call_tool`` (``node``, ``name``,
    ``arguments``), ``ask_review`` (``node``, ``input``, ``message``, ``actions``), ``wait``
    (``node``, ``ms``), and at the end ``complete`` (``output``), ``refuse`` (``unmet``) or
    ``fail`` (``error``)."""

    node: str
    attempt: int
    request: ModelRequest
    timeout_ms: int
    name: str
    arguments: Json
    input: Json
    message: str
    actions: List[str]
    ms: int
    output: Json
    unmet: List["Unmet"]
    error: str


class Unmet(TypedDict, total=False):
    """An obligation the run could not discharge: the node, the rule, its target, why."""

    node: str
    rule: str
    target: str
    reason: str


class Usage(TypedDict):
    input_tokens: int
    output_tokens: int


class Observation(TypedDict, total=False):
    """What happened when an action was carried out, tagged by ``observation``:
    ``model_response`` (``text``, ``usage``, ``latency_ms``), ``model_error`` (``kind``,
    ``message``, ``retryable``, ``retry_after_ms``), ``tool_result`` (``passed``,
    ``evidence``, ``unverifiable``), ``review_answer`` (``action``, ``note``), ``waited``."""

    observation: Literal[
        "model_response", "model_error", "tool_result", "review_answer", "waited"
    ]
    text: str
    usage: Usage
    latency_ms: int
    kind: str
    message: str
    retryable: bool
    retry_after_ms: int
    passed: bool
    evidence: Json
    unverifiable: bool
    action: str
    note: str


TraceEvent = Dict[str, Json]
"""One trace event: ``seq``, ``event``, ``t``, ``node`` and the event's own fields."""


@dataclass
class RunResult:
    """How a run ended: ``status`` is ``completed`` (``output`` holds the output), ``refused``
    (``unmet`` lists the obligations that stop it), ``failed`` (``error`` says why) or
    ``paused`` (``pending`` lists the reviews it waits for; ``snapshot`` resumes it).
    ``trace`` is every event, in order."""

    status: Status
    output: Json
    trace: List[TraceEvent]
    error: Optional[str] = None
    unmet: List[Unmet] = field(default_factory=list)
    pending: List[Action] = field(default_factory=list)
    snapshot: Optional[Dict[str, Json]] = None
    diagnostics: List[Diagnostic] = field(default_factory=list)
    input_problems: List[str] = field(default_factory=list)

    @property
    def completed(self) -> bool:
        return self.status == "completed"

    def trace_jsonl(self) -> str:
        """The trace as JSON Lines, one event a line (what ``logicmd run --trace`` writes)."""
        from .trace import to_jsonl

        return to_jsonl(self.trace)

    def write_trace(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the trace to ``path`` as JSON Lines."""
        from .trace import write_trace

        write_trace(path, self.trace)


@dataclass(frozen=True)
class NextActionResult:
    """The decided action (``execute_tool``, ``ask_user`` or ``complete_task``), or None with
    the ``problems`` of the last answer when no valid one came within the attempts."""

    action: Optional[Dict[str, Json]]
    attempts: int
    problems: List[str]


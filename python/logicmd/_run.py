"""The runtime: :class:`Run` drives the core's run session step by step (the same driver as
the CLI, the npm package and the studio), and :func:`run` / :func:`arun` carry a whole run out
with a Python-side model call — a callable (sync or async) taking the model request and
returning the answer's text, or the built-in :class:`logicmd.OpenAIProvider`."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import time
import warnings
from typing import (
    Any,
    Awaitable,
    Callable,
    Dict,
    List,
    Mapping,
    Optional,
    Set,
    Tuple,
    Union,
    cast,
)

from . import _args, _logicmd
from ._types import (
    Action,
    Diagnostic,
    Json,
    ModelRequest,
    Observation,
    RunResult,
    Status,
    TraceEvent,
    Unmet,
    diagnostics_of,
)
from .errors import DocumentError, InputError, RunError

ModelAnswer = Union[str, Awaitable[str]]
Provider = Callable[[ModelRequest], ModelAnswer]
"""A model call: the request (``system``, ``messages``, ``response_schema``, …) in, the answer's
text out (or an awaitable of it)."""

ReviewDecision = Union[str, Tuple[str, Optional[str]], None]
Reviews = Union[
    Mapping[str, Union[str, Tuple[str, Optional[str]]]],
    Callable[[Action], Union[ReviewDecision, Awaitable[ReviewDecision]]],
    None,
]
"""Review answers: a dict node → decision (or (decision, note)), or a callable given the
``ask_review`` action returning one (None: leave it to a person; the run pauses)."""

ToolVerdict = Optional[Dict[str, Json]]
Tools = Optional[Callable[[Action], Union[ToolVerdict, Awaitable[ToolVerdict]]]]
"""A checker for verification tools: given the ``call_tool`` action, a verdict ``{"passed":
bool, "evidence": …}``, or None when it cannot tell (unverifiable)."""

Clock = Optional[str]


class Run:
    """One run of a document, driven by the caller (see the module's docs for the whole-run
    helpers). ``next()`` hands out actions; answer each with ``feed`` (or ``answer``,
    ``review``, ``unanswered``) in any order; ``events()`` gives the trace as it grows;
    ``snapshot()`` / :meth:`Run.resume` continue it later, no answer asked for again."""

    def __init__(self, native: Any, diagnostics: List[Diagnostic], input_problems: List[str]):
        self._native = native
        self._trace: List[TraceEvent] = []
        self.diagnostics = diagnostics
        """Errors the run goes on past (a route to a missing step, a missing need)."""
        self.input_problems = input_problems
        """How the input breaks ``contracts.inputs`` when the document records it and runs on."""

    @classmethod
    def start(
        cls,
        text: str,
        input: Json = None,
        *,
        path: Optional[str] = None,
        files: _args.Files = None,
        script: Optional[str] = None,
        synthetic: bool = False,
        facts: Optional[Json] = None,
        max_parallelism: Optional[int] = None,
        seed: Optional[int] = None,
        start_ms: Optional[int] = None,
        clock: Clock = None,
        waits: Optional[str] = None,
        pins: Optional[Dict[str, Json]] = None,
    ) -> "Run":
        """Starts a run of ``text`` on ``input`` (default ``{}``; with ``synthetic`` and no
        input, an example input for ``contracts.inputs``, as ``logicmd run --dry-run``).

        ``script`` (a YAML list or JSON Lines of answers, or a trace) or ``synthetic=True``
        answer model calls inside the run; otherwise they are handed out. ``clock``:
        ``"fixed"`` (default: starts at ``start_ms``, moves by waits and reported latencies, so
        traces are reproducible) or ``"real"``. ``waits``: ``"instant"`` or ``"caller"``
        (default: instant for simulated answers on a fixed clock). Raises
        :class:`DocumentError` when the document cannot run and :class:`InputError` when the
        input breaks ``contracts.inputs`` and the document rejects such runs."""
        text = _args.text(text, "text")
        if input is None:
            input = _example_input(text, path, files) if synthetic else {}
        options = _args.settings(
            path=_args.optional_text(path, "path"),
            script=_args.optional_text(script, "script"),
            synthetic=bool(synthetic),
            facts=facts,
            max_parallelism=_whole(max_parallelism, "max_parallelism", 1),
            seed=_whole(seed, "seed", 0),
            start_ms=_whole(start_ms, "start_ms", 0),
            clock=_word(clock, "clock", ("fixed", "real")),
            waits=_word(waits, "waits", ("instant", "caller")),
            pins=pins,
        )
        native = _native_call(
            lambda: _logicmd.NativeRun.start(
                text, _args.to_json(input, "input"), options, _args.files(files)
            )
        )
        diagnostics = diagnostics_of(_args.from_json(native.diagnostics()))
        if not native.can_run():
            raise DocumentError(
                "the document cannot run", [d for d in diagnostics if d.is_error] or diagnostics
            )
        check = _args.from_json(native.input_check())
        if check["rejects"]:
            raise InputError(
                "the input breaks contracts.inputs, and the document's contracts.validation "
                "rejects the run:",
                check["problems"],
            )
        problems: List[str] = check["problems"] if check["enforcement"] == "record" else []
        if problems:
            warnings.warn(
                "the input breaks contracts.inputs; the run goes on (contracts.validation "
                "records it in the trace): " + "; ".join(problems),
                RuntimeWarning,
                stacklevel=2,
            )
        return cls(native, diagnostics, problems)

    @classmethod
    def resume(
        cls,
        snapshot: Dict[str, Json],
        *,
        script: Optional[str] = None,
        synthetic: bool = False,
        facts: Optional[Json] = None,
        waits: Optional[str] = None,
    ) -> "Run":
        """Continues a run from :meth:`snapshot`: exactly where it stopped, no answer asked for
        again; ``events()`` gives the events emitted before again, then the new ones. Pass the
        ``script`` / ``synthetic`` / ``facts`` it ran with."""
        if not isinstance(snapshot, dict):
            raise TypeError(f"snapshot must be a dict, got {type(snapshot).__name__}")
        options = _args.settings(
            script=_args.optional_text(script, "script"),
            synthetic=bool(synthetic),
            facts=facts,
            waits=_word(waits, "waits", ("instant", "caller")),
        )
        native = _native_call(
            lambda: _logicmd.NativeRun.resume(_args.to_json(snapshot, "snapshot"), options)
        )
        return cls(native, [], [])

    def next(self) -> List[Action]:
        """Feeds every answer whose turn has come and hands out every action ready now, each
        once; at the end the run's ending (``complete``, ``refuse`` or ``fail``), once. An empty
        list: nothing to do until an action handed out is answered (or, when ``status`` is
        ``paused``, a review is)."""
        actions: List[Action] = _args.from_json(self._native.next())
        return actions

    def feed(self, id: str, observation: Observation) -> None:
        """The answer to action ``id``, in any order (they are fed in the order the actions
        were handed out). Raises :class:`RunError` when no such action waits, it was answered
        already, or the observation does not answer it."""
        _args.text(id, "id")
        if not isinstance(observation, dict):
            raise TypeError(f"observation must be a dict, got {type(observation).__name__}")
        payload = _args.to_json(observation, "observation")
        _run_call(lambda: self._native.feed(id, payload))

    def answer(self, id: str, text: str, *, latency_ms: Optional[int] = None) -> None:
        """The model's answer ``text`` to the ``call_model`` action ``id``."""
        observation: Observation = {"observation": "model_response", "text": _args.text(text, "text")}
        if latency_ms is not None:
            observation["latency_ms"] = int(latency_ms)
        self.feed(id, observation)

    def review(self, id: str, decision: str, note: Optional[str] = None) -> None:
        """A reviewer's ``decision`` (one of the ``ask_review`` action's ``actions``) and note."""
        observation: Observation = {"observation": "review_answer", "action": _args.text(decision, "decision")}
        if note is not None:
            observation["note"] = _args.text(note, "note")
        self.feed(id, observation)

    def unanswered(self, id: str, reason: str) -> None:
        """Nobody answers action ``id``: a model call becomes a ``ProviderError`` failure (the
        step's retry policy and ``on_fail`` decide), a tool an unverifiable verdict, a review
        waits for a person."""
        _args.text(id, "id")
        _args.text(reason, "reason")
        _run_call(lambda: self._native.unanswered(id, reason))

    def set_clock(self, ms: int) -> None:
        """Moves a fixed clock forward to ``ms``."""
        self._native.set_clock(_whole(ms, "ms", 0))

    def events(self) -> List[TraceEvent]:
        """Trace events since the last call (all of them are kept in :attr:`trace`)."""
        events: List[TraceEvent] = _args.from_json(self._native.events())
        self._trace.extend(events)
        return events

    @property
    def trace(self) -> List[TraceEvent]:
        """Every trace event taken so far (call :meth:`events` to take the new ones)."""
        self.events()
        return list(self._trace)

    @property
    def status(self) -> Status:
        """``running``, ``paused`` (only reviews outstanding), ``completed``, ``refused`` or
        ``failed``."""
        return cast(Status, self._native.status())

    def outstanding(self) -> List[Action]:
        """Actions handed out and not yet fed."""
        actions: List[Action] = _args.from_json(self._native.outstanding())
        return actions

    def snapshot(self) -> Dict[str, Json]:
        """The run as versioned JSON (``format: logicmd-run``) for :meth:`resume`: the source,
        the input, the options, every observation fed and the answers given but not yet fed."""
        snapshot: Dict[str, Json] = _args.from_json(self._native.snapshot())
        return snapshot

    def __repr__(self) -> str:
        return f"<logicmd.Run status={self.status!r}>"


def _native_call(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except ValueError as error:
        message = str(error)
        if message.startswith("cannot resume"):
            raise RunError(message) from None
        raise TypeError(message) from None


def _run_call(call: Callable[[], None]) -> None:
    try:
        call()
    except (ValueError, RuntimeError) as error:
        raise RunError(str(error)) from None


def _whole(value: Optional[int], what: str, least: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise TypeError(f"{what} must be a whole number ≥ {least}, got {value!r}")
    return value


def _word(value: Optional[str], what: str, allowed: Tuple[str, ...]) -> Optional[str]:
    if value is None:
        return None
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _example_input(text: str, path: Optional[str], files: _args.Files) -> Json:
    result = _args.from_json(_logicmd.input_example(text, path, _args.files(files)))
    return result["input"] if result["input"] is not None else {}


# --- Driving a whole run ------------------------------------------------------------------


class _Driver:
    """Carries a run's actions out until it ends or waits for people: model calls through the
    provider (concurrently, up to the run's parallelism; answers are fed in a fixed order by
    the session whatever order they come in), tools through ``tools`` (else unverifiable),
    reviews through ``reviews`` (else the run pauses), waits by sleeping (unless instant)."""

    def __init__(
        self,
        run: Run,
        provider: Optional[Any],
        reviews: Reviews,
        tools: Tools,
        workers: int,
    ) -> None:
        self.run = run
        self.provider = provider
        self.reviews = reviews
        self.tools = tools
        self.workers = workers
        self.pending: List[Action] = []
        self.ending: Optional[Action] = None

    async def drive(self) -> RunResult:
        executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.workers, thread_name_prefix="logicmd-provider"
        )
        tasks: Set["asyncio.Task[Tuple[str, Optional[Observation], Optional[str]]]"] = set()
        try:
            while self.ending is None:
                handed_out = self.run.next()
                for action in handed_out:
                    task = await self._take(action, executor)
                    if task is not None:
                        tasks.add(task)
                if self.ending is not None:
                    break
                if not tasks:
                    if handed_out:
                        continue
                    break
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    tasks.discard(task)
                    id, observation, unanswered = task.result()
                    if observation is not None:
                        self.run.feed(id, observation)
                    else:
                        self.run.unanswered(id, unanswered or "no answer")
        finally:
            for task in tasks:
                task.cancel()
            executor.shutdown(wait=False, cancel_futures=True)
        return self.result()

    async def _take(
        self, action: Action, executor: concurrent.futures.Executor
    ) -> Optional["asyncio.Task[Tuple[str, Optional[Observation], Optional[str]]]"]:
        kind = action["action"]
        if kind in ("complete", "refuse", "fail"):
            self.ending = action
            return None
        if kind == "call_model":
            return asyncio.ensure_future(self._model(action, executor))
        if kind == "call_tool":
            if self.tools is None:
                self.run.unanswered(action["id"], _logicmd.unverifiable_reason(action["name"]))
                return None
            return asyncio.ensure_future(self._tool(action, executor))
        if kind == "ask_review":
            decision = await _maybe_await(self._review_decision(action))
            if decision is None:
                self.pending.append(action)
            else:
                answer, note = (decision, None) if isinstance(decision, str) else decision
                self.run.review(action["id"], answer, note)
            return None
        if kind == "wait":
            return asyncio.ensure_future(_wait(action))
        raise RunError(f"the run handed out an action this driver does not know: {kind}")

    def _review_decision(self, action: Action) -> Union[ReviewDecision, Awaitable[ReviewDecision]]:
        if self.reviews is None:
            return None
        if isinstance(self.reviews, Mapping):
            return self.reviews.get(action["node"])
        return self.reviews(action)

    async def _model(
        self, action: Action, executor: concurrent.futures.Executor
    ) -> Tuple[str, Optional[Observation], Optional[str]]:
        id = action["id"]
        observe = getattr(self.provider, "observe", None)
        if callable(observe):
            observation = await _call(observe, action, executor)
            return id, cast(Observation, observation), None
        if self.provider is None:
            return id, None, "no provider answers model calls"
        started = time.monotonic()
        try:
            text = await _call(self.provider, action["request"], executor)
        except Exception as error:  # the provider's failure is the model call's failure
            return id, None, f"the provider raised {type(error).__name__}: {error}"
        if not isinstance(text, str):
            raise RunError(
                "the provider must return the model's answer text (str), got "
                f"{type(text).__name__}"
            )
        latency = int((time.monotonic() - started) * 1000)
        return id, {"observation": "model_response", "text": text, "latency_ms": latency}, None

    async def _tool(
        self, action: Action, executor: concurrent.futures.Executor
    ) -> Tuple[str, Optional[Observation], Optional[str]]:
        assert self.tools is not None
        try:
            verdict = await _call(self.tools, action, executor)
        except Exception as error:
            return action["id"], None, f"the tool checker raised {type(error).__name__}: {error}"
        if verdict is None:
            return action["id"], None, _logicmd.unverifiable_reason(action["name"])
        if not isinstance(verdict, dict) or not isinstance(verdict.get("passed"), bool):
            raise RunError(
                'the tools checker must return a verdict {"passed": bool, "evidence": …} or None'
            )
        observation: Observation = {"observation": "tool_result", **verdict}  # type: ignore[typeddict-item]
        return action["id"], observation, None

    def result(self) -> RunResult:
        trace = self.run.trace
        status = self.run.status
        ending: Dict[str, Any] = dict(self.ending) if self.ending else {}
        if self.ending is None and status == "paused":
            return RunResult(
                status="paused",
                output=None,
                trace=trace,
                pending=self.pending or [a for a in self.run.outstanding() if a["action"] == "ask_review"],
                snapshot=self.run.snapshot(),
                diagnostics=self.run.diagnostics,
                input_problems=self.run.input_problems,
            )
        unmet: List[Unmet] = list(ending.get("unmet", []))
        return RunResult(
            status=status if status != "running" else "failed",
            output=ending.get("output"),
            trace=trace,
            error=ending.get("error"),
            unmet=unmet,
            diagnostics=self.run.diagnostics,
            input_problems=self.run.input_problems,
        )


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


async def _call(function: Callable[..., Any], argument: Any, executor: concurrent.futures.Executor) -> Any:
    """Calls a sync callable in a worker thread (model calls run concurrently), or awaits an
    async one on the loop."""
    if inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        getattr(function, "__call__", None)
    ):
        return await function(argument)
    loop = asyncio.get_running_loop()
    value = await loop.run_in_executor(executor, function, argument)
    return await _maybe_await(value)


async def _wait(action: Action) -> Tuple[str, Optional[Observation], Optional[str]]:
    await asyncio.sleep(max(0, action.get("ms", 0)) / 1000)
    return action["id"], {"observation": "waited"}, None


def _provider_settings(provider: Optional[Any], script: Optional[str], synthetic: bool) -> Tuple[bool, Clock]:
    simulated = script is not None or synthetic
    if provider is None and not simulated:
        raise TypeError(
            "say who answers model calls: provider=<callable or OpenAIProvider>, script=… or "
            "synthetic=True"
        )
    if provider is not None and not callable(provider) and not callable(getattr(provider, "observe", None)):
        raise TypeError(f"provider must be a callable (request) -> text, got {type(provider).__name__}")
    # A real model on the wall clock, simulated answers on a fixed one (the CLI's rule).
    return simulated, ("fixed" if simulated else "real")


async def adrive(
    run: Run,
    provider: Optional[Any] = None,
    *,
    reviews: Reviews = None,
    tools: Tools = None,
    max_parallelism: int = 4,
) -> RunResult:
    """Carries out ``run``'s actions until it ends or pauses for a review (see :func:`arun`)."""
    return await _Driver(run, provider, reviews, tools, max(1, max_parallelism)).drive()


def drive(
    run: Run,
    provider: Optional[Any] = None,
    *,
    reviews: Reviews = None,
    tools: Tools = None,
    max_parallelism: int = 4,
) -> RunResult:
    """:func:`adrive` from synchronous code (not inside a running event loop)."""
    return _sync(adrive(**locals()))


async def arun(
    text: str,
    input: Json = None,
    *,
    provider: Optional[Any] = None,
    reviews: Reviews = None,
    tools: Tools = None,
    script: Optional[str] = None,
    synthetic: bool = False,
    path: Optional[str] = None,
    files: _args.Files = None,
    facts: Optional[Json] = None,
    max_parallelism: Optional[int] = None,
    seed: Optional[int] = None,
    clock: Clock = None,
    no_wait: bool = False,
    pins: Optional[Dict[str, Json]] = None,
) -> RunResult:
    """Runs ``text`` on ``input`` to its end: ``completed``, ``refused``, ``failed``, or
    ``paused`` for a review nobody answered (resume with :func:`aresume`).

    ``provider`` answers model calls: a callable (sync or async) given the model request
    (``system``, ``messages``, ``response_schema``, …) and returning the answer text, or an
    :class:`logicmd.OpenAIProvider`. A provider that raises fails that model call (the step's
    retry policy and ``on_fail`` decide); one that returns something else than text is an
    error. ``script`` or ``synthetic=True`` answer instead, as in ``logicmd run``.
    ``reviews`` answers reviews, ``tools`` checks verification tools (else unverifiable).
    The clock is real with a provider, fixed with simulated answers (``clock`` overrides);
    ``no_wait`` passes backoffs at once."""
    _, default_clock = _provider_settings(provider, script, synthetic)
    started = Run.start(
        text,
        input,
        path=path,
        files=files,
        script=script,
        synthetic=synthetic,
        facts=facts,
        max_parallelism=max_parallelism,
        seed=seed,
        clock=clock or default_clock,
        waits="instant" if no_wait else None,
        pins=pins,
    )
    return await adrive(
        started, provider, reviews=reviews, tools=tools, max_parallelism=max_parallelism or 4
    )


def run(
    text: str,
    input: Json = None,
    *,
    provider: Optional[Any] = None,
    reviews: Reviews = None,
    tools: Tools = None,
    script: Optional[str] = None,
    synthetic: bool = False,
    path: Optional[str] = None,
    files: _args.Files = None,
    facts: Optional[Json] = None,
    max_parallelism: Optional[int] = None,
    seed: Optional[int] = None,
    clock: Clock = None,
    no_wait: bool = False,
    pins: Optional[Dict[str, Json]] = None,
) -> RunResult:
    """:func:`arun` from synchronous code (not inside a running event loop: there, ``await
    arun(…)``). Sync providers are called from worker threads, concurrently up to the run's
    parallelism."""
    return _sync(arun(**locals()))


async def aresume(
    snapshot: Dict[str, Json],
    *,
    provider: Optional[Any] = None,
    reviews: Reviews = None,
    tools: Tools = None,
    script: Optional[str] = None,
    synthetic: bool = False,
    facts: Optional[Json] = None,
    no_wait: bool = False,
    max_parallelism: int = 4,
) -> RunResult:
    """Continues a paused (or stopped) run from its snapshot to its end or next pause; the
    result's trace holds the whole run's events."""
    resumed = Run.resume(
        snapshot,
        script=script,
        synthetic=synthetic,
        facts=facts,
        waits="instant" if no_wait else None,
    )
    return await adrive(
        resumed, provider, reviews=reviews, tools=tools, max_parallelism=max_parallelism
    )


def resume(
    snapshot: Dict[str, Json],
    *,
    provider: Optional[Any] = None,
    reviews: Reviews = None,
    tools: Tools = None,
    script: Optional[str] = None,
    synthetic: bool = False,
    facts: Optional[Json] = None,
    no_wait: bool = False,
    max_parallelism: int = 4,
) -> RunResult:
    """:func:`aresume` from synchronous code."""
    return _sync(aresume(**locals()))


def _sync(coroutine: Awaitable[RunResult]) -> RunResult:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)  # type: ignore[arg-type]
    close = getattr(coroutine, "close", None)
    if close is not None:
        close()
    raise RuntimeError(
        "logicmd.run/resume/drive were called inside a running event loop: await "
        "logicmd.arun/aresume/adrive there instead"
    )

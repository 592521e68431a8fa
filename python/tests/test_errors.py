"""Bad input gets a clear error: the argument named for a wrong type, the diagnostics (code,
line, column, pointer) attached for a document or value that cannot be used."""

from __future__ import annotations

import pytest

import logicmd

BAD = '---\nspec_version: "1.0"\nname: x\nsteps:\n  a:\n    needs: [missing]\n---\n'
GOOD = '---\nspec_version: "1.0"\nname: x\nsteps:\n  a:\n    description: A\n---\n'


@pytest.mark.parametrize(
    "call",
    [
        lambda: logicmd.validate(b"---\n"),  # type: ignore[arg-type]
        lambda: logicmd.lint(None),  # type: ignore[arg-type]
        lambda: logicmd.lint(GOOD, files=42),  # type: ignore[arg-type]
        lambda: logicmd.eval_expression(1),  # type: ignore[arg-type]
        lambda: logicmd.Run.start(GOOD, {1, 2}),
        lambda: logicmd.Run.start(GOOD, max_parallelism=0),
        lambda: logicmd.edit(GOOD, "set"),  # type: ignore[arg-type]
    ],
)
def test_wrong_argument_types_are_type_errors(call: object) -> None:
    with pytest.raises(TypeError):
        call()  # type: ignore[operator]


def test_the_type_error_names_the_argument() -> None:
    with pytest.raises(TypeError, match="^text must be a str, got bytes$"):
        logicmd.validate(b"x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="input must be JSON data"):
        logicmd.Run.start(GOOD, {"when": object()})
    with pytest.raises(ValueError, match="clock must be one of fixed, real"):
        logicmd.Run.start(GOOD, clock="wall")


def test_compiling_a_document_with_errors_raises_with_its_diagnostics() -> None:
    with pytest.raises(logicmd.CompileError) as raised:
        logicmd.compile_workflow(BAD)
    [d] = raised.value.diagnostics
    assert (d.code, d.line, d.column, d.pointer) == ("unknown-need", 6, 13, "/steps/a/needs/0")
    assert "6:13: error[unknown-need]" in str(raised.value)
    assert isinstance(raised.value, logicmd.LogicmdError) and isinstance(raised.value, ValueError)


def test_compiling_a_missing_step_names_the_steps() -> None:
    with pytest.raises(logicmd.CompileError, match="there is no step `b` \\(steps: a\\)"):
        logicmd.compile_step(GOOD, "b")
    assert logicmd.compile_step(GOOD, "a").markdown.startswith("## Step: a")


def test_a_document_that_cannot_run_raises_before_any_call() -> None:
    with pytest.raises(logicmd.DocumentError) as raised:
        logicmd.run("---\nname: [\n---\n", {}, synthetic=True)
    assert raised.value.diagnostics[0].code == "yaml-syntax"


def test_an_input_the_document_rejects_raises_with_the_problems() -> None:
    strict = """---
spec_version: "1.0"
name: strict
contracts:
  inputs:
    - {name: topic, type: string, required: true}
  validation:
    mode: strict
steps:
  a: {description: A}
---
"""
    with pytest.raises(logicmd.InputError) as raised:
        logicmd.run(strict, {"topic": 3}, synthetic=True)
    assert raised.value.problems and "topic" in raised.value.problems[0]
    assert logicmd.check_input(strict, {"topic": 3}).rejects
    assert logicmd.check_input(strict, {"topic": "rust"}).problems == []
    assert logicmd.example_input(strict) == {"topic": "example topic"}


def test_a_refused_edit_raises_with_the_reason() -> None:
    with pytest.raises(logicmd.EditRefused) as raised:
        logicmd.edit(GOOD, {"op": "rename_step", "from": "nope", "to": "b"})
    assert raised.value.diagnostics and raised.value.diagnostics[0].message
    edited = logicmd.edit(GOOD, {"op": "rename_step", "from": "a", "to": "b"})
    assert "  b:" in edited.text and edited.inverse is not None


def test_an_edit_that_is_not_one_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not an edit"):
        logicmd.edit(GOOD, {"op": "paint"})


def test_expressions_and_trees() -> None:
    assert logicmd.eval_expression("{{ a.b * 2 }}", {"a": {"b": 21}}) == 42
    with pytest.raises(logicmd.ExpressionError) as raised:
        logicmd.eval_expression("a ==")
    assert raised.value.diagnostics[0].code == "expression-syntax"
    with pytest.raises(logicmd.DocumentError):
        logicmd.eval_tree(BAD.replace('name: x', 'name: ""'), "t", {})


def test_an_unreadable_trace_names_the_line(tmp_path: "pytest.TempPathFactory") -> None:
    with pytest.raises(logicmd.TraceError, match="line 2"):
        logicmd.parse_trace('{"seq":0,"event":"run_started"}\nnot json\n')
    with pytest.raises(logicmd.TraceError, match="rule 1"):
        logicmd.check_trace([], ["G("])


def test_driving_a_run_against_its_contract_is_a_run_error() -> None:
    run = logicmd.Run.start(GOOD, {})
    with pytest.raises(logicmd.RunError, match="no action `a9` is waiting"):
        run.answer("a9", "text")
    [action] = run.next()
    run.answer(action["id"], "A")
    with pytest.raises(logicmd.RunError, match="answered already"):
        run.answer(action["id"], "again")
    with pytest.raises(logicmd.RunError, match="cannot resume"):
        logicmd.Run.resume({"format": "nope"})


def test_unknown_native_options_are_named() -> None:
    from logicmd import _logicmd

    with pytest.raises(ValueError, match="unknown field `colour`"):
        _logicmd.NativeRun.start(GOOD, "{}", '{"colour": 1}')


def test_fmt_and_graph_and_parse() -> None:
    messy = '---\nname: x\nspec_version: "1.0"   # the version\n---\n'
    formatted = logicmd.fmt(messy)
    assert formatted.changed and formatted.text.index("spec_version") < formatted.text.index("name")
    assert "# the version" in formatted.text
    assert [n["id"] for n in logicmd.graph(GOOD).graph["nodes"]] == ["step:a"]
    with pytest.raises(logicmd.DocumentError):
        logicmd.graph("---\nname: [\n---\n")
    parsed = logicmd.parse("---\nname: [\n---\n")
    assert not parsed.ok and parsed.data is None
    assert (parsed.diagnostics[0].code, parsed.diagnostics[0].line) == ("yaml-syntax", 3)

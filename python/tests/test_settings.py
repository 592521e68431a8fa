"""A project settings file handed to ``lint`` and ``check`` shapes their diagnostics exactly as
it shapes ``logicmd lint``'s and ``logicmd check``'s in that project; one that cannot be applied
raises ``SettingsError`` with its problems placed in it."""

from __future__ import annotations

from pathlib import Path

import pytest

import logicmd
from conftest import cli_json

DOCUMENT = (
    '---\nspec_version: "1.0"\nname: demo\nsteps:\n'
    "  a:\n    description: A\n    instructions: Do a.\n"
    '  b:\n    description: B\n    instructions: "{{ steps.a.output }}"\n---\n'
)

SETTINGS = {
    "ignored": ("logicmd.toml", '[lint]\nignore = ["unwaited-step-read"]\n'),
    "regraded": ("logicmd.toml", '[lint.severity]\nunwaited-step-read = "error"\n'),
    "per-file": ("logicmd.toml", '[lint]\nper-file-ignores = { "flows/**" = ["unwaited-step-read"] }\n'),
    "elsewhere": ("logicmd.toml", '[lint]\nper-file-ignores = { "legacy/**" = ["unwaited-step-read"] }\n'),
    "pyproject": ("pyproject.toml", '[tool.logicmd.lint]\nselect = ["drtl"]\n'),
    "pyproject-without": ("pyproject.toml", '[project]\nname = "x"\n'),
}


@pytest.mark.parametrize("case", sorted(SETTINGS))
@pytest.mark.parametrize("command", ["lint", "check"])
def test_settings_apply_as_in_the_cli(case: str, command: str, tmp_path: Path) -> None:
    name, text = SETTINGS[case]
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "flows").mkdir()
    document = tmp_path / "flows" / "doc.logic.md"
    document.write_text(DOCUMENT, encoding="utf-8")
    [cli] = cli_json(command, "flows/doc.logic.md", cwd=tmp_path)
    analyse = logicmd.lint if command == "lint" else logicmd.check
    report = analyse(DOCUMENT, path=str(document), settings=tmp_path / name)
    assert [d.to_json() for d in report.diagnostics] == cli["diagnostics"]
    assert report.valid == cli["valid"]


def test_without_settings_the_default_rules_report() -> None:
    codes = [d.code for d in logicmd.lint(DOCUMENT).diagnostics]
    assert codes == ["unwaited-step-read"]


def test_an_unusable_settings_file_raises_with_its_problems_placed(tmp_path: Path) -> None:
    settings = tmp_path / "logicmd.toml"
    settings.write_text("[lint]\nignroe = []\n", encoding="utf-8")
    with pytest.raises(logicmd.SettingsError) as raised:
        logicmd.lint(DOCUMENT, settings=settings)
    [problem] = raised.value.diagnostics
    assert (problem.code, problem.line, problem.column) == ("config-unknown-key", 2, 1)
    assert problem.message == "unknown setting `lint.ignroe`"
    other = tmp_path / "settings.toml"
    other.write_text("", encoding="utf-8")
    with pytest.raises(logicmd.SettingsError) as raised:
        logicmd.check(DOCUMENT, settings=str(other))
    assert [d.code for d in raised.value.diagnostics] == ["config-file-name"]
    with pytest.raises(TypeError, match="settings must be a path"):
        logicmd.lint(DOCUMENT, settings=3)  # type: ignore[arg-type]

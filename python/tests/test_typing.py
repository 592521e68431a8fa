"""The package's types as users meet them: ``mypy --strict`` over a typed usage file (and the
package itself, as installed with its stubs and ``py.typed``)."""

from __future__ import annotations

from pathlib import Path

from mypy import api


def test_typed_usage_passes_mypy_strict() -> None:
    usage = Path(__file__).with_name("typed_usage.py")
    out, err, status = api.run(["--strict", "--no-incremental", str(usage)])
    assert status == 0, out + err


def test_the_package_passes_mypy_strict() -> None:
    out, err, status = api.run(["--strict", "--no-incremental", "-p", "logicmd"])
    assert status == 0, out + err

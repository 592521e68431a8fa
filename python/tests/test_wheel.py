"""The package under test is the wheel scripts/test-python.sh built and installed: one abi3
wheel for every Python from 3.9, importable from the virtualenv (not the source tree)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import logicmd
from logicmd import _logicmd


def test_the_installed_wheel_is_tested_not_the_source_tree() -> None:
    assert "site-packages" in Path(logicmd.__file__).parts
    assert Path(_logicmd.__file__).name.endswith(".abi3.so")


def test_the_wheel_is_tagged_for_the_stable_abi_from_python_3_9() -> None:
    wheel = Path(os.environ["LOGICMD_WHEEL"]).name
    assert re.fullmatch(r"logicmd-[0-9.]+-cp39-abi3-[a-z0-9_.]+\.whl", wheel), wheel
    assert wheel.split("-")[1] == logicmd.__version__


def test_the_typed_markers_ship() -> None:
    package = Path(logicmd.__file__).parent
    assert (package / "py.typed").is_file() and (package / "_logicmd.pyi").is_file()

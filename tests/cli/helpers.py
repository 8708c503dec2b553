"""Checks shared by the command-line tests."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

DATA = Path(__file__).parent.parent / "data"


def json_lines(out: str) -> list[dict]:
    assert out.endswith("\n")
    return [json.loads(line) for line in out.splitlines()]


def assert_one_error_line(status: int, out: str, err: str, *named: str) -> None:
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("tricklab: error: ")
    assert "Traceback" not in err
    for text in named:
        assert text in err, (text, err)


def console_script() -> str:
    beside = Path(sys.executable).with_name("tricklab")
    found = str(beside) if beside.exists() else shutil.which("tricklab")
    assert found, "the tricklab console script is not installed"
    return found


class Terminal(io.StringIO):
    """A stream that says it is a terminal (for progress lines drawn only there)."""

    def isatty(self) -> bool:
        return True

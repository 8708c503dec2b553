"""The ``cli`` fixture: run ``tricklab`` in this process, get (status, stdout, stderr)."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

import pytest

from analysis.cli.main import main

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys, monkeypatch) -> Run:
    """``cli(*argv, stdin=None)``: ``main(argv)``'s status and what it printed."""

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return run

"""The command-line examples in the documentation, run: each ``$ tricklab …`` line of a
code block is run and its output compared with the lines shown under it.

An ``…`` in a shown line stands for the rest of that line (the output must start with
what comes before it); a line that is only ``…`` stands for the rest of the output.
Benchmarks (timings), studies (they write folders; their examples are checked in
tests/analysis/test_studies.py), piped commands and the board's server (it runs until
stopped; tests/analysis/test_board.py serves it) are left out.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["docs/cli.md", "docs/rules-carabin.md", "docs/rules-klabberjass.md", "docs/notation.md"]
SKIP = ("tricklab bench", "tricklab study", "--time-limit")


def _examples() -> list[tuple[str, str, list[str]]]:
    out = []
    for page in PAGES:
        text = (ROOT / page).read_text()
        for block in re.findall(r"^```\n(.*?)^```", text, re.S | re.M):
            lines = block.splitlines()
            for i, line in enumerate(lines):
                if not line.startswith("$ tricklab ") or "|" in line or line.startswith(SKIP, 2):
                    continue
                if any(s in line for s in SKIP):
                    continue
                if line.startswith("$ tricklab board") and "--html" not in line:
                    continue  # serves the page until stopped
                shown = []
                for later in lines[i + 1 :]:
                    if later.startswith("$ "):
                        break
                    shown.append(later)
                out.append((page, line[2:], shown))
    return out


EXAMPLES = _examples()


def test_the_documentation_has_examples() -> None:
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize("page, command, shown", EXAMPLES, ids=[e[1][:70] for e in EXAMPLES])
def test_documented_example_output(cli, monkeypatch, tmp_path, page, command, shown) -> None:
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command.split("  #", 1)[0])
    status, out, err = cli(*argv[1:])
    got = out.splitlines() if status == 0 else err.splitlines()
    for i, want in enumerate(shown):
        if want.strip() == "…":
            return
        assert i < len(got), (page, command, "output ends before", want)
        if "…" in want:
            head = want.split("…", 1)[0].rstrip()
            assert got[i].startswith(head), (page, command, i, got[i], want)
        else:
            assert got[i] == want, (page, command, i, got[i], want)
    assert len(got) == len(shown), (page, command, got[len(shown) :])

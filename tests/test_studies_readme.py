"""data/studies/README.md names every published table under the heading of its folder."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "data" / "studies"


def sections() -> dict[str, str]:
    """The README's text under each ``## folder …`` heading, by folder (a folder may
    have several headings)."""
    out: dict[str, str] = {}
    parts = re.split(r"^## ", (STUDIES / "README.md").read_text(), flags=re.M)[1:]
    for part in parts:
        folder = part.split()[0].rstrip(",")
        out[folder] = out.get(folder, "") + part
    return out


def expand(pattern: str) -> list[str]:
    """``a{1,2}.csv`` as ``["a1.csv", "a2.csv"]`` (one pair of braces at a time)."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    return [
        name
        for part in m.group(1).split(",")
        for name in expand(pattern[: m.start()] + part + pattern[m.end() :])
    ]


def named(name: str, text: str) -> bool:
    """``name`` appears in ``text`` in backquotes, itself or through a pattern like
    ``derived-*.json`` or ``equal-time-seed{11,12}.csv``."""
    quoted = [n for q in re.findall(r"`([^`\s]+)`", text) for n in expand(q)]
    return any(q == name or ("*" in q and fnmatch.fnmatch(name, q)) for q in quoted)


def test_every_table_is_named_under_its_folder() -> None:
    text = sections()
    files = [p for p in STUDIES.rglob("*") if p.is_file() and p.name != "README.md"]
    assert len(files) > 50
    missing = [
        str(p.relative_to(STUDIES)) for p in files if not named(p.name, text.get(p.parent.name, ""))
    ]
    assert missing == []


def test_every_folder_has_a_heading_and_every_heading_a_folder() -> None:
    folders = {p.name for p in STUDIES.iterdir() if p.is_dir()}
    assert set(sections()) == folders


def test_the_check_sees_a_table_that_is_not_named() -> None:
    text = {"x": "`a.csv`, `derived-*.json`, `e-s{11,12}.csv`"}
    assert named("a.csv", text["x"]) and named("derived-s2.json", text["x"])
    assert named("e-s12.csv", text["x"]) and not named("e-s13.csv", text["x"])
    assert not named("b.csv", text["x"]) and not named("a.cs", text["x"])

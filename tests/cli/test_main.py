"""The command line as a whole: usage, --version, --help, usage errors, the installed program."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from importlib.metadata import version

import pytest

from analysis.cli.main import VERBS

from .helpers import assert_one_error_line, console_script

SIMPLE = "trump=H lead=E E=A... D=K..."


@pytest.mark.parametrize(
    "argv, named",
    [
        (["solve", "poker", SIMPLE], ["'poker'"]),
        (["frobnicate", "klabberjass", SIMPLE], ["'frobnicate'"]),
        (["solve", "klabberjass", SIMPLE, "--bogus"], ["--bogus"]),
    ],
)
def test_bad_input_one_line_status_2(cli, argv: list[str], named: list[str]) -> None:
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, *named)


def test_no_arguments_prints_the_usage(cli) -> None:
    status, out, err = cli()
    assert status == 2 and out == ""
    assert err.startswith("usage: tricklab")
    assert "<verb>" in err
    for verb in VERBS:
        assert f"\n    {verb} " in err, verb


def test_version(cli) -> None:
    status, out, err = cli("--version")
    assert (status, err) == (0, "")
    assert out == f"tricklab {version('tricklab')}\n"


@pytest.mark.parametrize("verb", list(VERBS))
def test_help_of_every_verb(cli, verb: str) -> None:
    status, out, err = cli(verb, "--help")
    assert (status, err) == (0, "")
    assert out.startswith(f"usage: tricklab {verb}")
    assert "SPEC" not in out
    assert "docs/" not in out and ".md" not in out  # the docs folder is not installed


def test_the_quotes_hint_for_a_position_in_pieces(cli) -> None:
    status, out, err = cli("solve", "klabberjass", "trump=H", "lead=E", "E=A...", "D=K...")
    assert_one_error_line(status, out, err, "lead=E E=A... D=K...", "put it in quotes")


def test_no_quotes_hint_for_a_misspelt_option(cli) -> None:
    status, out, err = cli("solve", "klabberjass", SIMPLE, "--jsn")
    assert_one_error_line(status, out, err, "--jsn")
    assert "quotes" not in err


# ---------------------------------------------------------------- the installed program


def test_console_script_entry_point() -> None:
    done = subprocess.run(
        [console_script(), "solve", "klabberjass", SIMPLE, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == {
        "points": {"E": 25, "D": 0},
        "best": "AS",
        "pv": ["AS", "KS"],
    }


def test_console_script_bad_input() -> None:
    done = subprocess.run(
        [console_script(), "solve", "klabberjass", "trump=H lead=E E=A... D=A...", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "both hands" in done.stderr


HEAVY = ("numpy", "networkx", "matplotlib", "pandas", "scipy", "pyarrow")


def test_solver_imports_nothing_heavy() -> None:
    code = (
        "import sys, solver, analysis.cli.main, solver.klabberjass.engine\n"
        "from analysis.cli.main import main\n"
        f"assert main(['solve', 'klabberjass', {SIMPLE!r}, '--json']) == 0\n"
        f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout, done.stdout


def test_the_command_line_is_not_imported_by_the_library() -> None:
    """Dependencies point one way: analysis.cli uses analysis, never the reverse."""
    code = (
        "import sys, pkgutil, importlib, analysis\n"
        "for m in pkgutil.walk_packages(analysis.__path__, 'analysis.'):\n"
        "    if not m.name.startswith('analysis.cli.'):\n"
        "        importlib.import_module(m.name)\n"
        "print('CLI', sorted(m for m in sys.modules if m.startswith('analysis.cli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "CLI []" in done.stdout, done.stdout


def test_error_messages_escape_control_characters_and_cut_long_text(cli) -> None:
    code, out, err = cli("solve", "klabberjass", "trump=H lead=E E=A\x1b[31m\r... D=K...")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "\x1b" not in err and "\r" not in err and "\\x1b" in err and "\\r" in err
    code, out, err = cli("solve", "klabberjass", "trump=H lead=E E=" + "A" * 100_000 + "... D=K...")
    assert (code, out) == (2, "") and err.count("\n") == 1 and len(err) < 600
    assert "characters cut" in err


def _without(monkeypatch, *roots: str) -> None:
    """Make ``import root`` (and its submodules) fail as if the package were not installed;
    the analysis modules loaded so far are unloaded, so that they import again."""
    for name in [m for m in sys.modules if m.partition(".")[0] in roots] + list(roots):
        monkeypatch.setitem(sys.modules, name, None)
    for name in [m for m in sys.modules if m.startswith("analysis.")]:
        if not m_is_cli(name):
            monkeypatch.delitem(sys.modules, name)


def m_is_cli(name: str) -> bool:
    return name == "analysis.cli" or name.startswith("analysis.cli.")


@pytest.mark.parametrize(
    "argv, missing",
    [
        (["study", "klabberjass-bidding", "--deals", "2", "--out", "OUT"], "pyarrow"),
        (["tree", "klabberjass", SIMPLE], "networkx"),
        (["puzzles", "generate", "klabberjass", "--count", "1", "--theme", "bella"], "ortools"),
    ],
)
def test_a_missing_extra_is_named_in_one_line(cli, monkeypatch, tmp_path, argv, missing) -> None:
    _without(monkeypatch, missing)
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, missing, 'pip install "tricklab[analysis]"')
    assert err.startswith(f"tricklab: error: tricklab {argv[0]} needs {missing},")


def test_a_missing_module_that_is_no_extra_is_not_hidden(cli, monkeypatch) -> None:
    """Only the optional packages get the one-line message; anything else is a bug to see."""
    monkeypatch.setitem(sys.modules, "analysis.trees", None)
    with pytest.raises(ModuleNotFoundError):
        cli("tree", "klabberjass", SIMPLE)


@pytest.mark.parametrize("verb", list(VERBS))
def test_help_shows_runnable_examples(cli, verb: str) -> None:
    status, out, _ = cli(verb, "--help")
    examples = out.split("\nexamples:\n", 1)[1].splitlines()
    assert status == 0 and examples
    assert all(line.startswith(f"  tricklab {verb}") for line in examples)
    assert "``" not in out and ":mod:" not in out and ":meth:" not in out


@pytest.mark.parametrize(
    "example", [e for module in VERBS.values() for e in module.EXAMPLES], ids=lambda e: e[:60]
)
def test_every_help_example_runs(cli, monkeypatch, tmp_path, example: str) -> None:
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(example)
    assert argv[0] == "tricklab"
    status, out, err = cli(*argv[1:])
    assert status == 0, err
    assert out


def test_usage_summarises_the_notation(cli) -> None:
    status, out, _ = cli("--help")
    assert status == 0
    for piece in ("notation:", "S.H.D.C", "comma-separated", '"trump=H lead=E E=A.7.. D=K.8.."'):
        assert piece in out
    assert "docs/" not in out

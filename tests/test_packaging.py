"""The project as users install it: extras, version, licence, build flags, docs, the wheel.

The wheel test builds an sdist and a wheel with ``python -m build``, installs the wheel
into fresh virtual environments outside the checkout (first bare, then with the
``analysis`` extra) and runs the README's command-line examples there.
"""

from __future__ import annotations

import ast
import json
import os
import re
import runpy
import shlex
import subprocess
import sys
import tomllib
from importlib.metadata import metadata, version
from pathlib import Path
from unittest import mock

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["project"]["optional-dependencies"]

#: Import name -> distribution name, where they differ.
DISTRIBUTIONS = {"distributed": "dask", "IPython": "ipykernel", "yaml": "pyyaml"}
FIRST_PARTY = {"solver", "analysis", "tricklab"}


def _requirement_names(extra: str) -> set[str]:
    """The distributions an extra installs, following ``tricklab[other]`` references."""
    names: set[str] = set()
    for req in EXTRAS[extra]:
        name = re.split(r"[\[<>=!~ ]", req, maxsplit=1)[0].lower()
        if name == "tricklab":
            inner = re.search(r"\[(.+)\]", req)
            assert inner, req
            for other in inner.group(1).split(","):
                names |= _requirement_names(other.strip())
        else:
            names.add(name)
    return names


def _third_party_imports(paths: list[Path], top_level_only: bool = False) -> set[str]:
    """Third-party packages imported by these files (only by module-level statements if
    ``top_level_only``: an import inside a function is paid only when it is called)."""
    found: set[str] = set()
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        nodes = tree.body if top_level_only else ast.walk(tree)
        for node in nodes:
            if isinstance(node, ast.Import):
                found |= {a.name.partition(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.partition(".")[0])
    return {
        name
        for name in found
        if name not in sys.stdlib_module_names and name not in FIRST_PARTY | {"__future__"}
    }


def _distribution(import_name: str) -> str:
    return DISTRIBUTIONS.get(import_name, import_name).lower()


def test_the_solver_and_command_line_need_no_dependency() -> None:
    """``solver`` imports only the standard library when loaded (``DealTable.to_frame``
    imports pandas when called), and the command line loads its verbs' heavy packages
    only when they run (tested without them in the wheel test)."""
    assert PYPROJECT["project"]["dependencies"] == []
    assert (
        _third_party_imports(sorted((ROOT / "solver").rglob("*.py")), top_level_only=True) == set()
    )
    assert _third_party_imports(sorted((ROOT / "analysis" / "cli").rglob("*.py")), True) == set()


def test_the_analysis_extra_covers_every_import_of_analysis() -> None:
    imported = {
        _distribution(n) for n in _third_party_imports(sorted((ROOT / "analysis").rglob("*.py")))
    }
    assert imported, "analysis imports no third-party package?"
    assert imported <= _requirement_names("analysis"), imported - _requirement_names("analysis")


def test_the_notebooks_extra_covers_every_import_of_the_notebooks() -> None:
    imported: set[str] = set()
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        for cell in cells:
            if cell["cell_type"] == "code":
                code = "".join(cell["source"])
                code = "\n".join(
                    ln for ln in code.splitlines() if not ln.lstrip().startswith(("%", "!"))
                )
                tree = ast.parse(code)
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        imported |= {a.name.partition(".")[0] for a in node.names}
                    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                        imported.add(node.module.partition(".")[0])
    third = {_distribution(n) for n in imported if n not in sys.stdlib_module_names} - FIRST_PARTY
    assert third <= _requirement_names("notebooks"), third - _requirement_names("notebooks")
    assert "jupyterlab" in _requirement_names("notebooks")


def test_the_dev_extra_has_the_test_and_build_tools() -> None:
    assert {
        "pytest",
        "hypothesis",
        "ruff",
        "mypy",
        "mkdocs",
        "build",
        "cython",
    } <= _requirement_names("dev")
    assert _requirement_names("notebooks") <= _requirement_names("dev")


def test_one_version_source() -> None:
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "solver.__version__"}
    assert version("tricklab") == solver.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", solver.__version__)


def test_licence_file_and_spdx_field() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert metadata("tricklab")["License-Expression"] == "MIT"
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text()


@pytest.mark.parametrize(
    "path", ["venv/bin/python", ".venv/x", "dist/a.whl", "runs/bidding/x.parquet"]
)
def test_gitignore_covers_local_output(path: str) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
    assert done.returncode == 0, f"{path} is not ignored"


def test_committed_study_data_is_not_ignored() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(
        ["git", "check-ignore", "-q", "data/studies/x/y.parquet"], cwd=ROOT, check=False
    )
    assert done.returncode == 1


def _setup_flags(environ: dict[str, str]) -> list[str]:
    with (
        mock.patch("setuptools.setup"),
        mock.patch("Cython.Build.cythonize", side_effect=lambda ext, **kw: ext),
    ):
        cwd = os.getcwd()
        try:
            os.chdir(ROOT)
            module = runpy.run_path(str(ROOT / "setup.py"))
        finally:
            os.chdir(cwd)
    return module["compile_flags"](environ)


def test_portable_compiler_flags_unless_asked() -> None:
    pytest.importorskip("Cython")
    assert not any(f.startswith(("-march", "-mtune", "-mcpu")) for f in _setup_flags({}))
    assert "-march=native" in _setup_flags({"TRICKLAB_MARCH": "native"})


def test_import_tricklab_gives_the_top_level_names() -> None:
    import tricklab

    assert tricklab.__version__ == solver.__version__
    assert tricklab.get_game("carabin").name == "carabin"
    done = subprocess.run(
        [sys.executable, "-m", "tricklab", "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, f"tricklab {solver.__version__}\n")


def test_docs_build_strict(tmp_path: Path) -> None:
    """The documentation site builds with warnings as errors, API reference included."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    page = (tmp_path / "site" / "reference" / "klabberjass" / "index.html").read_text()
    assert "solver.klabberjass.engine.solve" in page


def test_every_module_is_in_the_api_reference() -> None:
    pages = "\n".join(p.read_text() for p in (ROOT / "docs" / "reference").glob("*.md"))
    documented = set(re.findall(r"^::: ([\w.]+)", pages, re.M))
    modules = set()
    for package in ("solver", "analysis"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__" or any(p.startswith("_") for p in parts) or "cli" in parts:
                continue
            modules.add(".".join(parts))
    assert modules - documented == set()


def _readme_commands() -> list[str]:
    """The README's command-line examples that stand alone (no placeholder, no stdin)."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## Command line", 1)[1].split("```", 2)[1]
    commands = []
    for line in block.splitlines():
        line = line.split("  #", 1)[0].strip()
        if line.startswith("tricklab ") and "<" not in line and " - " not in line:
            commands.append(line)
    return commands


def _run(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        argv, cwd=cwd, capture_output=True, text=True, check=False, env=env, timeout=1200
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An sdist and a wheel from ``python -m build`` (no isolation: the dev tools are here)."""
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    done = _run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)], ROOT
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return out


def _venv(where: Path) -> Path:
    done = _run([sys.executable, "-m", "venv", str(where)], where.parent)
    assert done.returncode == 0, done.stderr
    return where / "bin"


@pytest.mark.slow
def test_the_wheel_installs_and_runs_outside_the_checkout(built: Path, tmp_path: Path) -> None:
    sdist = list(built.glob("tricklab-*.tar.gz"))
    wheels = list(built.glob("tricklab-*.whl"))
    assert len(sdist) == len(wheels) == 1
    wheel = wheels[0]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    work = tmp_path / "elsewhere"
    work.mkdir()

    # Bare: the solver and the command line, nothing else.
    bare = _venv(tmp_path / "bare")
    done = _run([str(bare / "pip"), "install", "-q", "--no-deps", str(wheel)], work, env)
    assert done.returncode == 0, done.stderr
    done = _run([str(bare / "tricklab"), "demo"], work, env)
    assert done.returncode == 0 and "Klabberjass" in done.stdout, done.stderr
    done = _run(
        [str(bare / "python"), "-c", "import tricklab, solver; print(solver.__file__)"], work, env
    )
    assert done.returncode == 0 and str(tmp_path / "bare") in done.stdout, done.stderr
    done = _run(
        [str(bare / "tricklab"), "tree", "klabberjass", "trump=H lead=E E=A... D=K..."], work, env
    )
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.count("\n") == 1 and 'pip install "tricklab[analysis]"' in done.stderr

    # With the analysis extra: every README example and one study chunk.
    full = _venv(tmp_path / "full")
    done = _run(
        [str(full / "pip"), "install", "-q", f"tricklab[analysis] @ {wheel.as_uri()}"], work, env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    commands = _readme_commands()
    assert len(commands) >= 8
    for command in commands:
        argv = shlex.split(command)
        done = _run([str(full / argv[0]), *argv[1:]], work, env)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        assert done.stdout, command
    # the README's Python lines on the study its command block wrote (runs/bidding)
    reading = (ROOT / "README.md").read_text().split("## Reading study results", 1)[1]
    snippet = reading.split("```", 2)[1]
    assert "read_study" in snippet and (work / "runs" / "bidding").is_dir()
    done = _run([str(full / "python"), "-c", snippet + "\nprint(len(df))"], work, env)
    assert done.returncode == 0 and int(done.stdout.split()[-1]) > 0, done.stderr[-2000:]
    study = work / "one-chunk"
    done = _run(
        [str(full / "tricklab"), "study", "klabberjass-bidding", "--deals", "50", "--seed", "3"]
        + ["--out", str(study), "--workers", "1", "--quiet"],
        work,
        env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(study.glob("*.parquet")) or list(study.rglob("*.parquet"))

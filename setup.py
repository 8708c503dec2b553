"""Build the compiled search cores: every ``solver/<game>/_core.pyx`` becomes an extension.

What both cores share (C headers, the binding's argument checks) is in ``solver/_c``.

The flags are portable by default, so a wheel runs on any machine of its platform.
``TRICKLAB_MARCH`` asks for tuning to a processor family at build time, e.g.
``TRICKLAB_MARCH=native pip install -e .`` (this machine) or ``TRICKLAB_MARCH=x86-64-v2``
(hardware popcount on any x86-64 from 2009 on); the README's speed figures say which.
"""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SHARED = "solver/_c"


def compile_flags(environ: dict[str, str]) -> list[str]:
    """The C compiler's flags: portable, plus ``-march`` when ``TRICKLAB_MARCH`` asks."""
    flags = ["-O3", "-fno-strict-aliasing"]
    march = environ.get("TRICKLAB_MARCH", "").strip()
    return [*flags, f"-march={march}"] if march else flags


extensions = [
    Extension(
        f"solver.{pyx.parent.name}._core",
        [str(pyx)],
        include_dirs=[str(pyx.parent), SHARED],
        depends=[
            *map(str, sorted(pyx.parent.glob("*.h"))),
            *map(str, sorted(Path(SHARED).glob("*.h"))),
        ],
        extra_compile_args=compile_flags(dict(os.environ)),
    )
    for pyx in sorted(Path("solver").glob("*/_core.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=[SHARED],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)

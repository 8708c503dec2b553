"""Build the compiled search cores: every ``solver/<game>/_core.pyx`` becomes an extension.

What both cores share (C headers, the binding's argument checks) is in ``solver/_c``.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SHARED = "solver/_c"

extensions = [
    Extension(
        f"solver.{pyx.parent.name}._core",
        [str(pyx)],
        include_dirs=[str(pyx.parent), SHARED],
        depends=[str(pyx.parent / "_core.h"), *map(str, sorted(Path(SHARED).glob("*.h")))],
        extra_compile_args=["-O3", "-march=x86-64-v2", "-fno-strict-aliasing"],
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

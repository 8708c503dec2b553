"""A griffe extension for the documentation build: doctest examples become code blocks.

The docstrings of tricklab show their examples as bare doctests (``>>>`` lines and the
output after them), which pytest runs. Markdown would read them as a quotation and their
output (``['AS', 'TH']``) as links; this wraps each example in a ``pycon`` fence. It is
loaded by ``mkdocs.yml``.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Each run of doctest lines (a ``>>>`` line, its ``...`` and output lines) fenced.

    >>> fence_doctests("Adds:\\n  >>> 1 + 1\\n  2\\n\\nDone.").splitlines()
    ['Adds:', '  ```pycon', '  >>> 1 + 1', '  2', '  ```', '', 'Done.']
    """
    out: list[str] = []
    fence: str | None = None  # the indent of the open fence
    for line in text.splitlines():
        stripped = line.lstrip()
        if fence is None and stripped.startswith(">>>"):
            fence = line[: len(line) - len(stripped)]
            out.append(f"{fence}```pycon")
        elif fence is not None and not stripped:
            out.append(f"{fence}```")
            fence = None
        out.append(line)
    if fence is not None:
        out.append(f"{fence}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)

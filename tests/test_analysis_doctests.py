"""The doctests of the analysis modules (``analysis/`` is not in pytest's testpaths)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "analysis.games",
    "analysis.trees",
    "analysis.views",
    "analysis.review",
    "analysis.advice",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

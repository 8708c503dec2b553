"""Doctests: the card helpers every docstring example uses, without an import line each."""

import pytest

from solver.cards import card_str, format_holding, parse_card, parse_holding


@pytest.fixture(autouse=True)
def _card_helpers(doctest_namespace: dict) -> None:
    doctest_namespace.update(
        card_str=card_str,
        format_holding=format_holding,
        parse_card=parse_card,
        parse_holding=parse_holding,
    )

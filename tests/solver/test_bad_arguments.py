"""Bad arguments through the Python API: only the documented errors, with their reasons."""

from __future__ import annotations

import pytest

from analysis.advice import advise
from analysis.review import review
from analysis.trees import full_tree, optimal_tree
from solver import carabin, klabberjass
from solver.cards import Card, as_card, parse_card, parse_holding
from solver.errors import IllegalPlayError, NotationError, RulesError, UsageError
from solver.games import get_game, parse_view
from solver.limits import MAX_SAMPLES, check_count, max_tt_mb

K_TEXT = "trump=H lead=E E=A.7.. D=K.8.."
C_TEXT = "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8."
K_VIEW = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"


def test_usage_error_keeps_old_except_clauses_working() -> None:
    assert issubclass(UsageError, ValueError)
    with pytest.raises(ValueError, match="tt_mb"):
        klabberjass.solve(klabberjass.Position.parse(K_TEXT), tt_mb=0)


@pytest.mark.parametrize("tt_mb", [0, -1, 3_000_000_000, 100_000_000, 2.5, "8", True, None])
@pytest.mark.parametrize("game", ["klabberjass", "carabin"])
def test_a_bad_table_size_is_a_usage_error(game: str, tt_mb: object) -> None:
    if tt_mb is None:  # None is the default size, not an error
        return
    module = klabberjass if game == "klabberjass" else carabin
    position = module.Position.parse(K_TEXT if game == "klabberjass" else C_TEXT)
    with pytest.raises(UsageError) as err:
        module.solve(position, tt_mb=tt_mb)
    assert "tt_mb" in str(err.value) and f"to {max_tt_mb()}" in str(err.value)
    with pytest.raises(UsageError):
        module.values([position], tt_mb=tt_mb)


def test_a_table_size_changes_keep_at_most_one_other_table() -> None:
    position = klabberjass.Position.parse(K_TEXT)
    for mb in (1, 2, 3):
        assert klabberjass.solve(position, tt_mb=mb).points == (25, 0)
    sizes = klabberjass.engine._contexts.sizes()
    assert sizes <= {klabberjass.engine.DEFAULT_TT_MB, 3} and 3 in sizes


@pytest.mark.parametrize("card", ["AS", "as", "♠A", 12, Card("AS")])
def test_klabberjass_play_takes_a_card_its_number_or_its_notation(card: object) -> None:
    p = klabberjass.Position.parse(K_TEXT)
    assert str(p.play(card)) == "trump=H lead=E E=.7.. D=K.8.. trick=AS"


@pytest.mark.parametrize("card", ["JS", "js", 9, Card("JS")])
def test_carabin_play_takes_a_card_its_number_or_its_notation(card: object) -> None:
    p = carabin.Position.parse(C_TEXT)
    assert "1=K.../A4..." in str(p.play(card))


@pytest.mark.parametrize(
    "card, error, named",
    [
        ("X", NotationError, "'X'"),
        (99, IllegalPlayError, "'99' may not be played"),
        (-1, IllegalPlayError, "it is not a card"),
        (13, IllegalPlayError, "it is not a card"),
        (None, UsageError, "None"),
        (3.5, UsageError, "3.5"),
        (True, UsageError, "True"),
        ([12], UsageError, "[12]"),
    ],
)
@pytest.mark.parametrize("game", ["klabberjass", "carabin"])
def test_play_refuses_what_is_not_a_card(game: str, card: object, error: type, named: str) -> None:
    module = klabberjass if game == "klabberjass" else carabin
    position = module.Position.parse(K_TEXT if game == "klabberjass" else C_TEXT)
    with pytest.raises(error) as err:
        position.play(card)
    assert named in str(err.value)


def test_carabin_illegal_card_says_the_true_reason() -> None:
    p = carabin.Position.parse(C_TEXT)  # seat 1 plays from his L hand: KS JS; R hand: AS 4S
    with pytest.raises(IllegalPlayError) as err:
        p.play("AS")
    message = str(err.value)
    assert message.startswith("'AS' may not be played")
    assert "in seat 1's R hand" in message and "from the L hands" in message
    assert message.endswith(
        "(legal: KS JS): it is in seat 1's R hand, and this trick is played from the L hands"
    )
    with pytest.raises(IllegalPlayError, match=r"\(legal: KS JS\): seat 1 does not hold it"):
        p.play("QS")
    assert "''" not in message  # the card is quoted once


def test_klabberjass_illegal_card_says_the_true_reason() -> None:
    p = klabberjass.Position.parse(K_TEXT)
    with pytest.raises(IllegalPlayError, match=r"'KS' may not be played .*E does not hold it"):
        p.play("KS")
    q = p.play("AS")  # D holds KS and 8H and must follow spades
    with pytest.raises(IllegalPlayError) as err:
        q.play("8H")
    assert "does not hold" not in str(err.value) and "legal: KS" in str(err.value)


@pytest.mark.parametrize("game", ["klabberjass", "carabin"])
@pytest.mark.parametrize("bad", [None, 5, b"trump=H", ["trump=H"]])
def test_parsers_refuse_what_is_not_text(game: str, bad: object) -> None:
    g = get_game(game)
    for parse in (g.parse_position, g.parse_deal, g.parse_view, g.parse_start):
        with pytest.raises(UsageError, match="as text"):
            parse(bad)
    for parse in (parse_card, parse_holding):
        with pytest.raises(UsageError, match="as text"):
            parse(bad)


@pytest.mark.parametrize("game", ["klabberjass", "carabin"])
@pytest.mark.parametrize("bad", [None, "trump=H lead=E E=A.7.. D=K.8..", 5])
def test_solvers_refuse_what_is_not_a_position(game: str, bad: object) -> None:
    module = klabberjass if game == "klabberjass" else carabin
    for call in (module.solve, module.value, module.move_values):
        with pytest.raises(UsageError, match=f"expected a {game.capitalize()} Position"):
            call(bad)
    with pytest.raises(UsageError):
        module.values([bad])
    with pytest.raises(UsageError):
        get_game(game).solve(bad)


@pytest.mark.parametrize("name", [None, [], 5, "poker"])
def test_get_game_refuses_an_unknown_game(name: object) -> None:
    with pytest.raises(RulesError, match="unknown game"):
        get_game(name)  # type: ignore[arg-type]


def test_counts_of_the_analyses() -> None:
    view = parse_view("klabberjass", K_VIEW)
    game = get_game("klabberjass")
    position = game.parse_position(K_TEXT)
    for samples in (0, -3, MAX_SAMPLES + 1, 2.0, "5", None):
        with pytest.raises(UsageError, match="samples"):
            advise(view, samples)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="workers"):
        advise(view, 2, workers=0)
    for n in (-1, 10**9, "3", 1.5):
        with pytest.raises(UsageError, match="invalid n"):
            view.sample_worlds(n)  # type: ignore[arg-type]
    for depth in (-1, 10**9, "2"):
        with pytest.raises(UsageError, match="depth"):
            full_tree(game, position, depth)  # type: ignore[arg-type]
    for nodes in (-1, 3_000_000_000, None):
        with pytest.raises(UsageError, match="max_nodes"):
            optimal_tree(game, position, max_nodes=nodes)  # type: ignore[arg-type]


def test_review_takes_a_text_or_a_list_of_cards() -> None:
    game = get_game("klabberjass")
    start = game.parse_position(K_TEXT)
    by_text = review(game, start, "AS KS 7H 8H")
    assert review(game, start, ["AS", Card("KS"), 16 + 5, "8h"]) == by_text
    with pytest.raises(IllegalPlayError, match="invalid card 99"):
        review(game, start, ["AS", 99])
    with pytest.raises(UsageError, match="invalid play"):
        review(game, start, 5)  # type: ignore[arg-type]


def test_check_count_and_as_card() -> None:
    assert check_count(5, "n", 1, 5) == 5
    with pytest.raises(UsageError, match=r"invalid n 6 \(a whole number from 1 to 5: why\)"):
        check_count(6, "n", 1, 5, "why")
    assert as_card("10h") == Card("TH") and as_card(13) is None  # rank field 13: no rank
    with pytest.raises(NotationError):
        as_card("1h")
    with pytest.raises(UsageError):
        as_card(1.0)


@pytest.mark.parametrize(
    "args",
    [
        (1, 0, (1,)),
        (1, 0, ("A...", "K...")),
        (1, 0, [1 << 12, 1 << 11]),
        (1.0, 0, (1 << 12, 1 << 11)),
        (1, None, (1 << 12, 1 << 11)),
        (1, 0, (1 << 12, 1 << 11), "7H"),
    ],
)
def test_klabberjass_position_fields_of_the_wrong_kind(args: tuple) -> None:
    with pytest.raises(UsageError, match="invalid "):
        klabberjass.Position(*args)


def test_carabin_position_fields_of_the_wrong_kind() -> None:
    good = carabin.Position.parse(C_TEXT)
    from dataclasses import replace

    for change in (
        {"hands": 5},
        {"hands": ((1, 2, 3),) * 3},
        {"hands": (("A...", "K..."),) * 3},
        {"trick": "KS"},
        {"trick": (1.5,)},
        {"trump": "H"},
        {"bidder": None},
        {"hand": "L"},
    ):
        with pytest.raises(UsageError, match="invalid "):
            replace(good, _checked=False, **change)

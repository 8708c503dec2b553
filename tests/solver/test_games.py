"""Conformance tests run over every registered game (in the spirit of OpenSpiel's
``basic_tests``): whatever ``solver.games.GAMES`` holds is read, written, played, solved
and checked here through the one protocol of :class:`solver.protocol.Game`.

Each test is parametrised over the games and, for a game that deals to a choice of
tables (Carabin), over every number of players it accepts: the counts are found by
asking ``random_deal`` (a count it refuses must raise ``RulesError``). Seeds are fixed:
hypothesis draws them derandomized, so a failure names a reproducible seed.

The checks compare each answer with an independent computation: the slow minimax of
``solver.reference``, a brute-force minimax written here on the protocol's own
``legal_moves``/``step``/``side_of`` (so it also checks a game's ``step``), a trick
winner worked out from ``power`` and the trump, and replays of the play history.
"Small" positions are positions of random deals played out at random until the whole
game tree from there has at most ``SMALL_TREE`` positions (Klabberjass: two or three
cards a hand; Carabin: two to four cards a seat; mid-trick too), so that the brute force
stays quick.

What cannot be derived from the protocol (the view notation, the reference solver, how
to put played cards back into a hand) is in :data:`SUPPORT`, one entry per game; a new
game fails :func:`test_every_game_has_test_support` until it has one.
"""

from __future__ import annotations

import ast
import inspect
import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from solver import reference
from solver.cards import SUITS, Card, card_str, cards_of, format_holding, parse_card, suit_of
from solver.errors import IllegalPlayError, NotationError, RulesError
from solver.games import GAMES, get_game
from solver.protocol import DealTable, FlatTree, Game

#: The largest game tree (distinct positions) of a "small" position.
SMALL_TREE = 800
SEEDS = st.integers(0, 2**32 - 1)
#: Hypothesis draws the seeds derandomized; a seed does not shrink, so a failure is
#: reported at once with the seed that found it.
FIXED_SEEDS: dict[str, Any] = {
    "derandomize": True,
    "deadline": None,
    "phases": (Phase.explicit, Phase.generate),
}


# ====================================================================== per-game knowledge


def _klabberjass_view(game: Game, deal: Any, played: list[int], p: Any) -> str:
    seat = p.to_move
    text = (
        f"seat={game.seat_label(seat)} trump={SUITS[p.trump]} turn={card_str(deal.turn)} "
        f"hand={format_holding(p.hands[seat])} played={','.join(map(card_str, played))}"
    )
    if game.rules.bottom_card and deal.bottom is not None:
        text += f" bottom={card_str(deal.bottom)}"
    return text


def _carabin_view(game: Game, deal: Any, played: list[int], p: Any) -> str:
    seat = p.to_move
    left, right = p.hands[seat]
    text = (
        f"players={p.players} seat={seat} bidder={p.bidder} trump={SUITS[p.trump]} "
        f"turn={card_str(deal.turn)} hand={format_holding(left)}/{format_holding(right)} "
        f"played={','.join(map(card_str, played))}"
    )
    if p.trick_order != "alternate":
        text += f" order={p.trick_order}"
    return text


def _klabberjass_unplay(start: Any, world: Any, history: list[tuple[Any, int]]) -> Any:
    hands = list(world.hands)
    for before, card in history:
        hands[before.to_move] |= 1 << card
    return replace(start, hands=tuple(hands))


def _carabin_unplay(start: Any, world: Any, history: list[tuple[Any, int]]) -> Any:
    hands = [list(pair) for pair in world.hands]
    for before, card in history:
        hands[before.to_move][before.hand] |= 1 << card
    return replace(start, hands=tuple((a, b) for a, b in hands))


def _klabberjass_total(game: Game, deal: Any, start: Any) -> int:
    cards = deal.hands[0] | deal.hands[1]
    return sum(game.card_points(start, c) for c in cards_of(cards)) + game.rules.last_trick


@dataclass(frozen=True)
class Support:
    """What the generic tests need to know about one game.

    Attributes:
        players: the player counts ``random_deal`` accepts.
        table_players: the counts at which a whole deal table is quick.
        all_tricks_sides: the sides that may ask ``all_tricks`` (others: RulesError).
        reference_value: the slow reference: points (side 0, side 1) from a position.
        reference_moves: the slow reference: the mover's side's points per legal card.
        deal_total: points to be won in a whole deal (any bonus included).
        table_points: points (side 0, side 1) of the card play of a row of a deal's table.
        view_text: the view of the seat to move at ``p`` after the cards ``played``.
        unplay: the start position with the world's hidden hands and every played card
            put back where it came from.
    """

    players: tuple[int, ...]
    table_players: tuple[int, ...]
    all_tricks_sides: tuple[int, ...]
    reference_value: Callable[[Game, Any], tuple[int, int]]
    reference_moves: Callable[[Game, Any], dict[int, int]]
    deal_total: Callable[[Game, Any, Any], int]
    table_points: Callable[[Any, Any], tuple[int, int]]
    view_text: Callable[[Game, Any, list[int], Any], str]
    unplay: Callable[[Any, Any, list[tuple[Any, int]]], Any]


SUPPORT: dict[str, Support] = {
    "klabberjass": Support(
        players=(2,),
        table_players=(2,),
        all_tricks_sides=(0, 1),
        reference_value=lambda g, p: reference.klabberjass_points(p, g.rules),
        reference_moves=lambda g, p: reference.klabberjass_moves(p, g.rules),
        deal_total=_klabberjass_total,
        table_points=lambda row, deal: row.card_points,
        view_text=_klabberjass_view,
        unplay=_klabberjass_unplay,
    ),
    "carabin": Support(
        players=(3, 4, 5, 6),
        table_players=(3, 4),
        all_tricks_sides=(0,),
        reference_value=lambda g, p: reference.carabin_points(p),
        reference_moves=lambda g, p: reference.carabin_moves(p),
        deal_total=lambda g, deal, start: deal.points_in_play,
        table_points=lambda row, deal: (row.points, deal.points_in_play - row.points),
        view_text=_carabin_view,
        unplay=_carabin_unplay,
    ),
}


def player_counts(name: str) -> list[int]:
    """The player counts the game deals to (a refused count raises RulesError)."""
    game = get_game(name)
    counts = []
    for n in range(1, 9):
        try:
            game.random_deal(seed=0, players=n)
        except RulesError:
            continue
        counts.append(n)
    return counts


CASES = [pytest.param(name, n, id=f"{name}-{n}") for name in GAMES for n in player_counts(name)]
GAME_NAMES = list(GAMES)
#: The cases whose whole deal tables are quick (a game without support is kept: it fails).
TABLE_CASES = [
    c
    for c in CASES
    if c.values[0] not in SUPPORT or c.values[1] in SUPPORT[c.values[0]].table_players
]


# ====================================================================== helpers


def seats(x: Any) -> range:
    """The seats of a deal or position (one entry of ``hands`` per seat)."""
    return range(len(x.hands))


def held(game: Game, p: Any) -> int:
    """Every card still held by some seat."""
    out = 0
    for s in seats(p):
        out |= game.cards_of_seat(p, s)
    return out


def trick_cards(game: Game, p: Any) -> int:
    """The cards lying in the unfinished trick."""
    return game.cards_in_play(p) & ~held(game, p)


def start_of(game: Game, seed: int, players: int) -> tuple[Any, Any, random.Random]:
    """A random deal, a random contract's start position and a generator for the play."""
    deal = game.random_deal(seed=seed, players=players)
    rng = random.Random(seed)
    start = deal.position(bidder=rng.randrange(len(deal.hands)), trump=rng.randrange(4))
    return deal, start, rng


def start_bidder(start: Any) -> int:
    """The bidder of a start position (a game whose positions have none: seat 0)."""
    return getattr(start, "bidder", 0)


def playout(game: Game, p: Any, rng: random.Random) -> list[tuple[Any, int]]:
    """A random legal play to the end: (position before, card) for every card."""
    history = []
    while True:
        legal = game.legal_moves(p)
        if not legal:
            return history
        card = rng.choice(legal)
        history.append((p, card))
        p = game.play(p, card)


def positions_of(game: Game, history: list[tuple[Any, int]]) -> list[Any]:
    """Every position of a playout, the finished one included."""
    return [p for p, _ in history] + [game.play(*history[-1])]


def tree_size(game: Game, p: Any, limit: int) -> int:
    """Distinct positions reachable from ``p`` (``limit + 1`` once more than ``limit``)."""
    seen = set()
    stack = [p]
    while stack:
        q = stack.pop()
        if q in seen:
            continue
        seen.add(q)
        if len(seen) > limit:
            return limit + 1
        stack.extend(game.step(q, c)[0] for c in game.legal_moves(q))
    return len(seen)


def small_positions(game: Game, history: list[tuple[Any, int]], rng: random.Random) -> list[Any]:
    """From a playout: the largest position with a small game tree, the largest such
    position in the middle of a trick, and one more at random."""
    fitting = []
    for p, _ in reversed(history):
        if tree_size(game, p, SMALL_TREE) > SMALL_TREE:
            break
        fitting.append(p)
    mid = [p for p in fitting if trick_cards(game, p)]
    picks = [fitting[-1], rng.choice(fitting[len(fitting) // 2 :])] + mid[-1:]
    return list(dict.fromkeys(picks))


def brute(game: Game, p: Any, memo: dict) -> tuple[int, int]:
    """Points (side 0, side 1) under optimal play, by plain minimax on the protocol."""
    got = memo.get(p)
    if got is None:
        got = max(brute_moves(game, p, memo).values(), default=(0, 0), key=_by(game, p))
        memo[p] = got
    return got


def _by(game: Game, p: Any) -> Callable[[tuple[int, int]], int]:
    side = game.mover_side(p) if game.legal_moves(p) else 0
    return lambda v: v[side]


def brute_moves(game: Game, p: Any, memo: dict) -> dict[int, tuple[int, int]]:
    """For each legal card, the points (side 0, side 1) from here if it is played."""
    out = {}
    for c in game.legal_moves(p):
        nxt, winner, pts = game.step(p, c)
        a, b = brute(game, nxt, memo)
        if winner is not None:
            if game.side_of(p, winner) == 0:
                a += pts
            else:
                b += pts
        out[c] = (a, b)
    return out


def brute_all_tricks(game: Game, p: Any, side: int) -> bool:
    """Whether ``side`` can win every remaining trick, by plain search on the protocol."""
    legal = game.legal_moves(p)
    if not legal:
        return True
    results = []
    for c in legal:
        nxt, winner, _ = game.step(p, c)
        won = winner is None or game.side_of(p, winner) == side
        results.append(won and brute_all_tricks(game, nxt, side))
    return any(results) if game.mover_side(p) == side else all(results)


def brute_forced(game: Game, p: Any, side: int, memo: dict | None = None) -> bool:
    """Whether every turn of ``side`` from here has one legal card, on every line."""
    memo = {} if memo is None else memo
    if p not in memo:
        legal = game.legal_moves(p)
        memo[p] = not (legal and game.mover_side(p) == side and len(legal) > 1) and all(
            brute_forced(game, game.step(p, c)[0], side, memo) for c in legal
        )
    return memo[p]


def expected_winner(game: Game, p: Any, trick: list[tuple[int, int]]) -> int:
    """The seat that wins a complete trick: the highest trump, else the highest card of
    the suit led (``power`` orders the cards of a suit)."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if suit_of(card) == suit_of(best):
            if game.power(p, card) > game.power(p, best):
                best_seat, best = seat, card
        elif suit_of(card) == p.trump:
            best_seat, best = seat, card
    return best_seat


def check_error(call: Callable[[], Any], text: str, *tokens: str) -> None:
    """``call`` raises NotationError or RulesError quoting ``text`` or one of ``tokens``."""
    with pytest.raises((NotationError, RulesError)) as info:
        call()
    message = str(info.value)
    quoted = [t for t in (text.strip(), *tokens) if t]
    assert not quoted or any(t in message for t in quoted), (message, text)


# ====================================================================== the registry


def test_every_game_has_test_support() -> None:
    assert set(SUPPORT) == set(GAMES)
    for name in GAMES:
        assert player_counts(name) == list(SUPPORT[name].players), name


@pytest.mark.parametrize("name", GAME_NAMES)
def test_registry_gives_the_game(name: str) -> None:
    game = get_game(name)
    assert type(game) is GAMES[name]
    assert isinstance(game, Game)
    assert game.name == name
    assert len(game.sides) == 2 and game.sides[0] != game.sides[1] and all(game.sides)


def test_unknown_game_is_refused() -> None:
    check_error(lambda: get_game("no-such-game"), "no-such-game")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_refused_player_counts_raise_rules_error(name: str) -> None:
    game = get_game(name)
    for n in (0, 1, 7, 8):
        if n not in SUPPORT[name].players:
            with pytest.raises(RulesError):
                game.random_deal(seed=1, players=n)


# ====================================================================== notation


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=20, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_deals_and_positions_round_trip(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    deal, start, rng = start_of(game, seed, players)
    again = game.random_deal(seed=seed, players=players)
    assert again == deal and str(again) == str(deal), "a seed gives one deal"
    assert len(deal.hands) == players

    contract = deal.with_contract(bidder=start_bidder(start), trump=start.trump)
    for d in (deal, contract):
        text = str(d)
        back = game.parse_deal(text)
        assert back == d and str(back) == text and hash(back) == hash(d)
        assert eval(repr(d), {type(d).__name__: type(d)}) == d

    for p in positions_of(game, playout(game, start, rng)):
        text = str(p)
        back = game.parse_position(text)
        assert back == p and str(back) == text
        assert hash(back) == hash(p) and {p: 1}[back] == 1
        assert eval(repr(p), {type(p).__name__: type(p)}) == p
        assert game.key(p) == text


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=4, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_random_deals_differ_by_seed(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    texts = {str(game.random_deal(seed=seed + i, players=players)) for i in range(5)}
    assert len(texts) == 5


# ====================================================================== play


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=25, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_random_playouts_stay_legal(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    deal, start, rng = start_of(game, seed, players)
    total = SUPPORT[name].deal_total(game, deal, start)
    assert game.points_left(start) == total
    p = start
    taken = [0, 0]
    trick: list[tuple[int, int]] = []
    gone: list[int] = []  # cards of completed tricks
    while True:
        legal = game.legal_moves(p)
        assert legal == p.legal_moves()
        if not legal:
            break
        assert not p.is_over
        mover = p.to_move
        assert mover in seats(p)
        assert game.mover_side(p) == game.side_of(p, mover) in (0, 1)
        assert len(set(legal)) == len(legal)
        for c in legal:
            assert isinstance(c, Card) and str(c) == repr(c) == card_str(c)
            assert parse_card(str(c)) == c
            assert game.cards_of_seat(p, mover) >> c & 1
        # an illegal card: held by another seat, not legal for the mover, lying in the trick
        # or in a trick already won, or no card at all
        for c in cards_of(game.cards_in_play(p) & ~sum(1 << x for x in legal)):
            with pytest.raises(IllegalPlayError) as info:
                game.play(p, c)
            assert card_str(c) in str(info.value) and str(p) in str(info.value)
        for c in gone[:1] + [-1, 64]:
            with pytest.raises(IllegalPlayError):
                game.play(p, c)

        card = rng.choice(legal)
        nxt, winner, pts = game.step(p, card)
        assert game.play(p, card) == nxt and game.key(game.play(p, card)) == game.key(nxt)
        assert game.points_left(p) == game.points_left(nxt) + pts
        assert not held(game, nxt) >> card & 1
        trick.append((mover, card))
        if winner is None:
            assert pts == 0
            assert trick_cards(game, nxt) == sum(1 << c for _, c in trick)
        else:
            assert len(trick) == len(seats(p)), "a trick has one card from each seat"
            assert winner == expected_winner(game, p, trick), (str(p), trick)
            assert isinstance(winner, int) and winner in seats(p)
            card_pts = sum(game.card_points(p, c) for _, c in trick)
            bonus = pts - card_pts
            assert bonus == 0 or nxt.is_over, "only the last trick carries a bonus"
            assert not trick_cards(game, nxt)
            taken[game.side_of(p, winner)] += pts
            assert sum(taken) + game.points_left(nxt) == total
            gone += [c for _, c in trick]
            if not nxt.is_over:
                assert nxt.to_move == winner, "the winner leads the next trick"
            trick = []
        p = nxt
    assert p.is_over and not trick
    assert game.points_left(p) == 0 and game.cards_in_play(p) == 0
    assert sum(taken) == total
    assert game.value(p) == (0, 0) and game.move_values(p) == {}


NOT_CARDS = [-1, 13, 15, 63, 64, 1 << 20]


@pytest.mark.parametrize("value", NOT_CARDS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_play_refuses_an_int_that_is_no_card(name: str, value: int) -> None:
    game = get_game(name)
    _, start, _ = start_of(game, 0, SUPPORT[name].players[0])
    with pytest.raises(IllegalPlayError) as info:
        game.play(start, value)
    assert str(value) in str(info.value) and str(start) in str(info.value)


# ====================================================================== engine against reference


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=15, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_engine_matches_reference_on_small_positions(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    support = SUPPORT[name]
    _, start, rng = start_of(game, seed, players)
    smalls = small_positions(game, playout(game, start, rng), rng)
    assert game.values(smalls) == [game.value(p) for p in smalls]
    for p in smalls:
        where = str(p)
        total = game.points_left(p)
        memo: dict = {}
        value = game.value(p)
        assert value == support.reference_value(game, p) == brute(game, p, memo), where
        assert sum(value) == total
        mover_side = game.mover_side(p)
        moves = game.move_values(p)
        assert moves == support.reference_moves(game, p), where
        assert moves == {c: v[mover_side] for c, v in brute_moves(game, p, memo).items()}, where
        assert set(moves) == set(game.legal_moves(p))
        assert max(moves.values()) == value[mover_side]
        assert game.value_from_moves(p, moves) == value

        result = game.solve(p, moves=True)
        assert tuple(result.points) == value, where
        assert result.best in moves and moves[result.best] == value[mover_side], where
        assert result.moves == moves
        assert game.solve(p).points == result.points
        if hasattr(result, "pv"):  # replays legally to the end and scores the value
            q, got = p, [0, 0]
            for c in result.pv:
                assert c in game.legal_moves(q), (where, result.pv)
                q, winner, pts = game.step(q, c)
                if winner is not None:
                    got[game.side_of(p, winner)] += pts
            assert result.pv[0] == result.best and q.is_over and tuple(got) == value, where

        for side in (0, 1):
            if side in support.all_tricks_sides:
                sweep = game.all_tricks(p, side)
                assert sweep == brute_all_tricks(game, p, side), (where, side)
                if name == "carabin":
                    assert sweep == reference.carabin_all_tricks(p)
                if hasattr(result, "all_tricks") and side == 0:
                    assert result.all_tricks == sweep
                if sweep:
                    assert value[side] == total, "winning every trick takes every point"
            else:
                with pytest.raises(RulesError):
                    game.all_tricks(p, side)

            for need in range(-1, total + 2):
                assert game.makes(p, side, need) == (need <= 0 or value[side] >= need), (
                    where,
                    side,
                    need,
                )
            side_moves = game.side_move_values(p, side)
            other = game.side_move_values(p, 1 - side)
            assert all(side_moves[c] + other[c] == total for c in moves), where
            if side == mover_side:
                assert side_moves == moves
            for need in sorted({0, 1, total, total + 1, *side_moves.values()}):
                want = {c: v >= need for c, v in side_moves.items()}
                assert game.reaching(p, side, need) == want, (where, side, need)
            if game.no_choice(p, side):
                assert brute_forced(game, p, side), (where, side)

        legal = game.legal_moves(p)
        classes = game.equivalence_classes(p, legal)
        assert sorted(c for cls in classes for c in cls) == sorted(legal)
        for cls in classes:
            assert len({moves[c] for c in cls}) == 1, ("equivalent cards differ", where, cls)
        generic = Game.equivalence_classes(game, p, legal)
        assert sorted(map(sorted, classes)) == sorted(map(sorted, generic)), where

        flat = game.optimal_flat(p, True, 100_000)
        if flat is not None:
            assert isinstance(flat, FlatTree) and flat.complete
            assert (flat.value0[0], flat.value1[0]) == value and flat.keys[0] == game.key(p)
            root = flat.move_card[flat.move_start[0] : flat.move_start[1]]
            values = flat.move_value[flat.move_start[0] : flat.move_start[1]]
            assert dict(zip(root, values, strict=True)) == moves


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=5, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_no_choice_when_every_seat_of_the_side_holds_one_card(
    name: str, players: int, seed: int
) -> None:
    game = get_game(name)
    _, start, rng = start_of(game, seed, players)
    for p in positions_of(game, playout(game, start, rng))[:-1]:
        for side in (0, 1):
            single = all(
                game.cards_of_seat(p, s).bit_count() <= 1
                for s in seats(p)
                if game.side_of(p, s) == side
            )
            if single:
                assert brute_forced(game, p, side)
                assert game.no_choice(p, side), (str(p), side)


# ====================================================================== views


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=15, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_views_round_trip_and_sample_consistent_worlds(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    support = SUPPORT[name]
    deal, start, rng = start_of(game, seed, players)
    history = playout(game, start, rng)
    stop = rng.randrange(len(history))
    p = history[stop][0]
    played = [c for _, c in history[:stop]]
    text = support.view_text(game, deal, played, p)
    view = game.parse_view(text)
    assert str(view) == text and game.parse_view(str(view)) == view
    assert eval(repr(view), {type(view).__name__: type(view)}) == view

    # the true position is one of the worlds the view allows
    inference = view.inference()
    assert inference.position.to_move == p.to_move
    for seat, kind, size, known, forbidden in inference.hidden:
        actual = game.cards_of_seat(p, seat) if kind is None else p.hands[seat][kind]
        assert actual.bit_count() == size and known & ~actual == 0 and actual & forbidden == 0
        assert actual & ~known & ~inference.pool == 0, (text, seat, kind)

    viewer = p.to_move
    played_mask = sum(1 << c for c in played)
    worlds = view.sample_worlds(8, seed=seed)
    assert len(worlds) == 8
    assert [str(w) for w in view.sample_worlds(8, seed=seed)] == [str(w) for w in worlds]
    for w in worlds:
        assert game.parse_position(str(w)) == w, "a world is a valid position"
        assert w.to_move == viewer and w.trump == p.trump
        assert game.cards_of_seat(w, viewer) == game.cards_of_seat(p, viewer)
        assert trick_cards(game, w) == trick_cards(game, p)
        for s in seats(p):
            assert game.cards_of_seat(w, s).bit_count() == game.cards_of_seat(p, s).bit_count()
        assert held(game, w) & played_mask == 0 and not game.cards_in_play(w) >> deal.turn & 1
        # the hidden cards and the cards played form a deal from which the same play is legal
        q = game.parse_position(str(support.unplay(start, w, history[:stop])))
        for _, c in history[:stop]:
            assert c in game.legal_moves(q), (text, str(w), card_str(c))
            q = game.play(q, c)
        assert game.key(q) == game.key(w)


# ====================================================================== deal tables and starts


@pytest.mark.parametrize(("name", "players"), TABLE_CASES)
@settings(max_examples=3, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_deal_table_rows_are_the_engine_values(name: str, players: int, seed: int) -> None:
    support = SUPPORT[name]
    game = get_game(name)
    deal = game.random_deal(seed=seed, players=players)
    table = game.deal_table(deal)
    assert isinstance(table, DealTable) and table.deal == deal and table.game == name
    wanted = {(b, t) for b in seats(deal) for t in range(4)}
    assert sorted((r.bidder, r.trump) for r in table) == sorted(wanted)
    for row in table:
        start = deal.position(bidder=row.bidder, trump=row.trump)
        value = game.value(start)
        assert sum(value) == support.deal_total(game, deal, start)
        assert support.table_points(row, deal) == value, (str(deal), row)
    assert len(table.to_json()["table"]) == len(table) == len(table.records())
    assert game.html(table).startswith("<")

    b, t = sorted(wanted)[seed % len(wanted)]
    fixed = game.deal_table(deal.with_contract(bidder=b, trump=t))
    assert [(r.bidder, r.trump) for r in fixed] == [(b, t)]
    assert fixed[0] == next(r for r in table if (r.bidder, r.trump) == (b, t))


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=5, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_parse_start_reads_positions_and_deals_with_a_contract(
    name: str, players: int, seed: int
) -> None:
    game = get_game(name)
    deal, start, rng = start_of(game, seed, players)
    bidder = start_bidder(start)
    contract = deal.with_contract(bidder=bidder, trump=start.trump)
    assert game.key(game.parse_start(str(contract))) == game.key(start)
    assert game.parse_start(str(contract)) == start
    for p in positions_of(game, playout(game, start, rng))[::5]:
        assert game.parse_start(str(p)) == p
    check_error(lambda: game.parse_start(str(deal)), str(deal))


# ====================================================================== the whole protocol


def _answers(game: Game, ctx: dict[str, Any]) -> dict[str, tuple[Callable[[], Any], Callable]]:
    """For every public method of the protocol: a call, and a check of its answer."""
    p, deal, table_deal = ctx["small"], ctx["deal"], ctx["table_deal"]
    legal = game.legal_moves(p)
    card = legal[0]
    value = game.value(p)
    moves = game.move_values(p)
    side = game.mover_side(p)
    total = game.points_left(p)
    return {
        "parse_position": (lambda: game.parse_position(str(p)), lambda r: r == p),
        "parse_start": (
            lambda: game.parse_start(str(ctx["contract"])),
            lambda r: r == ctx["start"],
        ),
        "parse_deal": (lambda: game.parse_deal(str(deal)), lambda r: r == deal),
        "parse_view": (lambda: game.parse_view(ctx["view"]), lambda r: str(r) == ctx["view"]),
        "random_deal": (
            lambda: game.random_deal(seed=ctx["seed"], players=ctx["players"]),
            lambda r: r == deal,
        ),
        "key": (lambda: game.key(p), lambda r: r == str(p)),
        "seat_label": (
            lambda: [game.seat_label(s) for s in seats(p)],
            lambda r: len(set(r)) == len(r) and all(f"{x}=" in str(deal) for x in r),
        ),
        "side_of": (
            lambda: {game.side_of(p, s) for s in seats(p)},
            lambda r: r == {0, 1},
        ),
        "mover_side": (lambda: game.mover_side(p), lambda r: r == game.side_of(p, p.to_move)),
        "legal_moves": (lambda: game.legal_moves(p), lambda r: r == legal and len(r) > 0),
        "play": (lambda: game.play(p, card), lambda r: r == game.step(p, card)[0]),
        "step": (
            lambda: game.step(p, card),
            lambda r: len(r) == 3 and game.points_left(r[0]) + r[2] == total,
        ),
        "points_left": (lambda: game.points_left(p), lambda r: r == sum(value)),
        "value": (lambda: game.value(p), lambda r: r == brute(game, p, {})),
        "values": (lambda: game.values([p, p]), lambda r: r == [value, value]),
        "move_values": (
            lambda: game.move_values(p),
            lambda r: r == {c: v[side] for c, v in brute_moves(game, p, {}).items()},
        ),
        "value_from_moves": (lambda: game.value_from_moves(p, moves), lambda r: r == value),
        "side_move_values": (
            lambda: game.side_move_values(p, 1 - side),
            lambda r: r == {c: total - v for c, v in moves.items()},
        ),
        "optimal_flat": (
            lambda: game.optimal_flat(p, False, 100_000),
            lambda r: r is None or (r.complete and (r.value0[0], r.value1[0]) == value),
        ),
        "no_choice": (
            lambda: game.no_choice(p, side),
            lambda r: isinstance(r, bool) and (not r or brute_forced(game, p, side)),
        ),
        "solve": (lambda: game.solve(p), lambda r: tuple(r.points) == value),
        "makes": (
            lambda: [game.makes(p, side, value[side]), game.makes(p, side, value[side] + 1)],
            lambda r: r == [True, False],
        ),
        "reaching": (
            lambda: game.reaching(p, side, value[side]),
            lambda r: r == {c: v == value[side] for c, v in moves.items()},
        ),
        "all_tricks": (
            lambda: game.all_tricks(p, 0),
            lambda r: r == brute_all_tricks(game, p, 0),
        ),
        "deal_table": (
            lambda: game.deal_table(table_deal),
            lambda r: len(r) == 4 * len(table_deal.hands),
        ),
        "html": (
            lambda: [game.html(x) for x in (p, deal, ctx["table"])],
            lambda r: all(isinstance(h, str) and h.startswith("<") for h in r),
        ),
        "power": (
            lambda: [game.power(p, c) for c in legal],
            lambda r: all(isinstance(x, int) for x in r),
        ),
        "card_points": (
            lambda: sum(game.card_points(p, c) for c in cards_of(game.cards_in_play(p))),
            lambda r: 0 < r <= total,
        ),
        "cards_in_play": (
            lambda: game.cards_in_play(p),
            lambda r: (
                r & held(game, p) == held(game, p)
                and (r & ~held(game, p)).bit_count() < len(seats(p))
            ),
        ),
        "cards_of_seat": (
            lambda: [game.cards_of_seat(p, s) for s in seats(p)],
            lambda r: (
                sum(r) == held(game, p) and all(a & b == 0 for a in r for b in r if a is not b)
            ),
        ),
        "equivalence_classes": (
            lambda: game.equivalence_classes(p, legal),
            lambda r: sorted(c for cls in r for c in cls) == sorted(legal),
        ),
    }


def public_methods() -> set[str]:
    return {n for n, v in vars(Game).items() if callable(v) and not n.startswith("_")}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_protocol_method_is_answered(name: str, players: int) -> None:
    game = get_game(name)
    seed = 1
    deal, start, rng = start_of(game, seed, players)
    history = playout(game, start, rng)
    small = small_positions(game, history, rng)[0]
    stop = len(history) // 2
    table_players = SUPPORT[name].table_players
    table_deal = deal if players in table_players else game.random_deal(seed, table_players[0])
    ctx = {
        "seed": seed,
        "players": players,
        "deal": deal,
        "start": start,
        "contract": deal.with_contract(bidder=start_bidder(start), trump=start.trump),
        "small": small,
        "view": SUPPORT[name].view_text(
            game, deal, [c for _, c in history[:stop]], history[stop][0]
        ),
        "table_deal": table_deal,
        "table": game.deal_table(table_deal.with_contract(bidder=0, trump=start.trump)),
    }
    answers = _answers(game, ctx)
    assert set(answers) == public_methods(), "a protocol method this test does not call"
    for method, (call, check) in answers.items():
        try:
            result = call()
        except NotImplementedError:  # pragma: no cover - the failure being tested
            pytest.fail(f"{name} does not answer {method}")
        assert check(result), (method, str(small), result)


def abstract_methods() -> set[str]:
    """The protocol methods whose base body is only ``raise NotImplementedError``."""
    out = set()
    for method in public_methods():
        tree = ast.parse(textwrap.dedent(inspect.getsource(vars(Game)[method])))
        body = [s for s in tree.body[0].body if not isinstance(s, ast.Expr)]  # no docstring
        if len(body) == 1 and isinstance(body[0], ast.Raise):
            assert ast.unparse(body[0].exc) == "NotImplementedError", method
            out.add(method)
    return out


def test_abstract_methods_are_found() -> None:
    assert {"parse_position", "value", "move_values", "solve"} <= abstract_methods()
    assert not {"key", "values", "makes", "reaching"} & abstract_methods()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_abstract_protocol_method_is_overridden(name: str) -> None:
    for method in abstract_methods():
        assert getattr(GAMES[name], method) is not vars(Game)[method], f"{name} lacks {method}"


# ====================================================================== errors


def _mutations(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Bad variants of a valid text, each with the tokens its error should quote."""
    tokens = text.split()
    out: list[tuple[str, tuple[str, ...]]] = [
        ("", ()),
        ("garbage", ()),
        ("=x", ()),
        (text + " zz=1", ("zz",)),
        (" ".join(tokens[1:]), ()),
        (" ".join([tokens[0], *tokens]), (tokens[0].partition("=")[0],)),
    ]
    for i, tok in enumerate(tokens):  # the first holding with a card in it
        key, _, value = tok.partition("=")
        j = next((k for k, ch in enumerate(value) if ch in "AKQJT98765432"), None)
        if "." not in value or j is None:
            continue
        for new in (
            value[:j] + "X" + value[j + 1 :],
            value[: j + 1] + value[j:],
            value[:j] + value[j + 1 :],
        ):
            out.append((" ".join([*tokens[:i], f"{key}={new}", *tokens[i + 1 :]]), (new,)))
        break
    else:  # pragma: no cover - every valid text here holds cards
        raise AssertionError(text)
    return out


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=5, **FIXED_SEEDS)
@given(seed=SEEDS)
def test_bad_text_is_refused_with_a_quote(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    deal, start, rng = start_of(game, seed, players)
    history = playout(game, start, rng)
    stop = rng.randrange(len(history))
    view = SUPPORT[name].view_text(game, deal, [c for _, c in history[:stop]], history[stop][0])
    valid = {
        "parse_position": str(history[stop][0]),
        "parse_start": str(history[stop][0]),
        "parse_deal": str(deal),
        "parse_view": view,
    }
    for method, text in valid.items():
        parse = getattr(game, method)
        parse(text)  # the valid text is read
        for bad, tokens in _mutations(text):
            check_error(lambda parse=parse, bad=bad: parse(bad), bad, *tokens)

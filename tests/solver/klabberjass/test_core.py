"""The compiled Klabberjass core on its own: it plays by the tables it is given, and it
refuses every bad argument with TypeError or ValueError before C sees it."""

from __future__ import annotations

import array
import os
import random
import signal
import subprocess
import sys
import threading
import time
from functools import cache

import pytest

from solver import klabberjass
from solver.cards import cards_of
from solver.klabberjass import Position, rules
from solver.klabberjass import _core as _klabberjass
from solver.reference import klabberjass_points

from ...processes import wait_until_busy

TABLES = (
    rules.PLAIN_POWER,
    rules.TRUMP_POWER,
    rules.PLAIN_RANK_POINTS,
    rules.TRUMP_RANK_POINTS,
)
PACK_CARDS = list(cards_of(rules.PACK))
RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def core_with(tables: tuple = TABLES, megabytes: int = 1) -> _klabberjass.Core:
    plain_power, trump_power, plain_points, trump_points = tables
    return _klabberjass.Core(
        megabytes,
        plain_power=plain_power,
        trump_power=trump_power,
        plain_points=plain_points,
        trump_points=trump_points,
    )


def with_entry(table: tuple, rank: str, value: int) -> tuple:
    out = list(table)
    out[RANK[rank]] = value
    return tuple(out)


# ---------------------------------------------------------------- a naive reference
def naive_value(
    tables: tuple, e: int, d: int, trump: int, leader: int, trick: int, bonus: int
) -> int:
    """E's points by plain minimax over the rules written with ``tables``, nothing else."""
    plain_power, trump_power, plain_points, trump_points = tables

    def power(c: int) -> int:
        return (trump_power if c >> 4 == trump else plain_power)[c & 15]

    def points(c: int) -> int:
        return (trump_points if c >> 4 == trump else plain_points)[c & 15]

    def beats(led: int, reply: int) -> bool:
        if reply >> 4 == led >> 4:
            return power(reply) > power(led)
        return reply >> 4 == trump

    def legal(hand: int, led: int) -> list[int]:
        cards = list(cards_of(hand))
        follow = [c for c in cards if c >> 4 == led >> 4]
        if led >> 4 == trump:
            higher = [c for c in follow if power(c) > power(led)]
            return higher or follow or cards
        return follow or [c for c in cards if c >> 4 == trump] or cards

    @cache
    def value(e: int, d: int, leader: int, trick: int) -> int:
        if trick < 0:
            if not e | d:
                return 0
            vs = [
                value(e & ~(1 << c), d & ~(1 << c), leader, c) for c in cards_of(d if leader else e)
            ]
            return max(vs) if leader == 0 else min(vs)
        follower = 1 - leader
        vs = []
        for c in legal(d if follower else e, trick):
            ne, nd = (e, d & ~(1 << c)) if follower else (e & ~(1 << c), d)
            winner = follower if beats(trick, c) else leader
            won = points(trick) + points(c) + (bonus if not ne | nd else 0)
            vs.append((won if winner == 0 else 0) + value(ne, nd, winner, -1))
        return max(vs) if follower == 0 else min(vs)

    return value(e, d, leader, trick)


def random_positions(seed: int, count: int, max_cards: int = 4) -> list[tuple[int, ...]]:
    """(e, d, trump, leader, trick) of 1..max_cards cards a hand, with a trick half the time."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(1, max_cards)
        cards = rng.sample(PACK_CARDS, 2 * n)
        hands = [sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n:])]
        leader, trick = rng.randrange(2), -1
        if rng.random() < 0.5:
            trick = cards[0] if leader == 0 else cards[n]
            hands[leader] &= ~(1 << trick)
        out.append((hands[0], hands[1], rng.randrange(4), leader, trick))
    return out


def test_naive_reference_agrees_with_the_reference_module() -> None:
    for e, d, trump, leader, trick in random_positions(1, 40, max_cards=3):
        p = Position(trump, leader, (e, d), None if trick < 0 else trick)
        assert naive_value(TABLES, e, d, trump, leader, trick, 10) == klabberjass_points(p)[0]


# ---------------------------------------------------------------- the rules are data
def test_the_pack_comes_from_the_power_tables() -> None:
    assert klabberjass.core().pack == rules.PACK
    assert core_with().pack == rules.PACK


@pytest.mark.parametrize("trump", range(4))
def test_one_trick_is_worth_the_points_of_the_tables(trump: int) -> None:
    """Every pair of cards, either seat leading, at a trick boundary and once led: the
    leader's card wins unless the reply is higher in its suit (PLAIN/TRUMP_POWER) or
    trumps it, and the winner takes both cards' RANK_POINTS and the bonus."""
    core = klabberjass.core()

    def points(c: int) -> int:
        table = rules.TRUMP_RANK_POINTS if c >> 4 == trump else rules.PLAIN_RANK_POINTS
        return table[c & 15]

    def power(c: int) -> int:
        return (rules.TRUMP_POWER if c >> 4 == trump else rules.PLAIN_POWER)[c & 15]

    for a in PACK_CARDS:
        for b in PACK_CARDS:
            if a == b:
                continue
            reply_wins = power(b) > power(a) if b >> 4 == a >> 4 else b >> 4 == trump
            total = points(a) + points(b) + 7
            for leader in (0, 1):
                winner = 1 - leader if reply_wins else leader
                expect = total if winner == 0 else 0
                hands = [0, 0]
                hands[leader], hands[1 - leader] = 1 << a, 1 << b
                assert core.value(hands[0], hands[1], trump, leader, -1, 7) == expect
                hands[leader] = 0
                assert core.value(hands[0], hands[1], trump, leader, a, 7) == expect


def test_card_numbers_come_back_in_the_external_form() -> None:
    core = klabberjass.core()
    for e, d, trump, leader, trick in random_positions(2, 100):
        if trick < 0:
            legal = d if leader else e
        else:
            legal = rules.legal_replies(e if leader else d, trick, trump)
        cards = [c for c, _ in core.moves(e, d, trump, leader, trick, 10)]
        assert sorted(cards) == sorted(cards_of(legal))
        value, pv = core.pv(e, d, trump, leader, trick, 10)
        assert value == core.value(e, d, trump, leader, trick, 10)
        assert set(pv) == set(cards_of(e | d))


# A variant that only the tables know: the king ranks above the ten in plain suits and
# is worth 10 to the ten's 4, and the trump jack is worth 25.
KING_OVER_TEN = (
    with_entry(with_entry(rules.PLAIN_POWER, "K", 6), "T", 5),
    rules.TRUMP_POWER,
    with_entry(with_entry(rules.PLAIN_RANK_POINTS, "K", 10), "T", 4),
    with_entry(rules.TRUMP_RANK_POINTS, "J", 25),
)


def test_a_core_built_from_other_tables_plays_by_them() -> None:
    variant = core_with(KING_OVER_TEN)
    standard = core_with()
    differ = 0
    for e, d, trump, leader, trick in random_positions(3, 300):
        got = variant.value(e, d, trump, leader, trick, 10)
        assert got == naive_value(KING_OVER_TEN, e, d, trump, leader, trick, 10)
        differ += got != standard.value(e, d, trump, leader, trick, 10)
    assert differ > 30
    # KS led to TS (hearts trump): the ten wins under rules.py, the king in the variant
    ks, ts = 16 * 0 + RANK["K"], 16 * 0 + RANK["T"]
    assert standard.value(1 << ks, 1 << ts, 1, 0, -1, 0) == 0
    assert variant.value(1 << ks, 1 << ts, 1, 0, -1, 0) == 14


def test_the_bonus_is_not_taken_from_an_earlier_solve() -> None:
    """Table entries include the last-trick bonus: another bonus must not reuse them."""
    core = core_with()
    for e, d, trump, leader, trick in random_positions(4, 50):
        with_bonus = core.value(e, d, trump, leader, trick, 10)
        without = core.value(e, d, trump, leader, trick, 0)
        assert without == naive_value(TABLES, e, d, trump, leader, trick, 0)
        assert with_bonus == naive_value(TABLES, e, d, trump, leader, trick, 10)


BAD_TABLES = [
    ({"plain_power": (0,) * 15}, ValueError, "16 entries"),
    ({"plain_points": 7}, TypeError, "sequence of 16 ints"),
    ({"trump_points": (1.5,) * 16}, TypeError, "must be an int"),
    ({"plain_power": with_entry(rules.PLAIN_POWER, "A", 6)}, ValueError, "once each"),
    ({"plain_power": with_entry(rules.PLAIN_POWER, "6", 8)}, ValueError, "1 to 8 ranks"),
    (
        {"trump_power": with_entry(with_entry(rules.TRUMP_POWER, "6", 0), "7", -1)},
        ValueError,
        "same ranks",
    ),
    ({"trump_points": with_entry(rules.TRUMP_RANK_POINTS, "J", 1)}, ValueError, "decrease"),
    ({"plain_points": with_entry(rules.PLAIN_RANK_POINTS, "7", -1)}, ValueError, "0..100"),
    ({"plain_points": (0,) * 5 + (100,) * 8 + (0,) * 3}, ValueError, "worth 2462 points"),
]


@pytest.mark.parametrize(("tables", "error", "match"), BAD_TABLES)
def test_unusable_tables_are_refused(tables: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        _klabberjass.Core(1, **tables)


# ---------------------------------------------------------------- safe bindings
@pytest.mark.parametrize(
    ("megabytes", "error", "match"),
    [
        (0, ValueError, "at least 1 MB"),
        (-5, ValueError, "at least 1 MB"),
        ((1 << 20) + 1, ValueError, "at most 1048576 MB"),
        (1 << 80, ValueError, "at most"),
        (2.0, TypeError, "must be an int"),
        ("32", TypeError, "must be an int"),
    ],
)
def test_table_size_is_checked(megabytes: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        _klabberjass.Core(megabytes)  # type: ignore[arg-type]


AS, KS, QS, AH = 12, 11, 10, 16 + 12
GOOD = (1 << AS | 1 << QS, 1 << KS | 1 << AH, 1, 0, -1, 10)
BAD_POSITIONS = [
    ((-1, *GOOD[1:]), ValueError, "E hand"),
    ((GOOD[0], 1 << 64, *GOOD[2:]), ValueError, "D hand"),
    ((GOOD[0], "x", *GOOD[2:]), TypeError, "D hand must be an int"),
    ((*GOOD[:2], 4, *GOOD[3:]), ValueError, "trump 4"),
    ((*GOOD[:2], -1, *GOOD[3:]), ValueError, "trump -1"),
    ((*GOOD[:2], 1 << 40, *GOOD[3:]), ValueError, "trump"),
    ((*GOOD[:2], None, *GOOD[3:]), TypeError, "trump must be an int"),
    ((*GOOD[:3], 2, *GOOD[4:]), ValueError, "leader 2"),
    ((*GOOD[:4], 64, GOOD[5]), ValueError, "trick card 64"),
    ((*GOOD[:4], 3, GOOD[5]), ValueError, "trick card 3"),  # the 5 of spades: not in the pack
    ((*GOOD[:4], -2, GOOD[5]), ValueError, "trick card -2"),
    ((*GOOD[:4], KS, GOOD[5]), ValueError, "twice"),
    ((*GOOD[:5], -1), ValueError, "bonus"),
    ((*GOOD[:5], 10**6), ValueError, "bonus"),
    ((GOOD[0] | 1, *GOOD[1:]), ValueError, "outside the pack"),
    ((GOOD[0] | 1 << KS, *GOOD[1:]), ValueError, "twice"),
    ((1 << AS, *GOOD[1:]), ValueError, "hand sizes"),
    ((GOOD[0], GOOD[1], 1, 0, AH, 10), ValueError, "twice"),
    ((*GOOD[:4], 9, 10), ValueError, "hand sizes"),  # E led the JS: D must hold one card more
    ((0x1FE0 | 0x60 << 16, 0x1FE0 << 32 | 0x60 << 48, 0, 0, -1, 10), ValueError, "more than 9"),
]


@pytest.mark.parametrize("method", ["value", "moves", "pv", "optimal_tree"])
@pytest.mark.parametrize(("args", "error", "match"), BAD_POSITIONS)
def test_bad_positions_are_refused(method: str, args: tuple, error: type, match: str) -> None:
    core = klabberjass.core()
    extra = (False, 100) if method == "optimal_tree" else ()
    with pytest.raises(error, match=match):
        getattr(core, method)(*args, *extra)
    assert core.value(*GOOD) == klabberjass.core().value(*GOOD)  # still usable


def test_good_position_and_tree_limits() -> None:
    core = klabberjass.core()
    assert core.value(*GOOD) == naive_value(TABLES, *GOOD)
    with pytest.raises(ValueError, match="max_nodes"):
        core.optimal_tree(*GOOD, False, -1)
    with pytest.raises(TypeError, match="max_nodes"):
        core.optimal_tree(*GOOD, False, 1.5)


def batch(n: int, **change: object) -> dict:
    """Arguments of Core.values for n copies of GOOD, with some replaced."""
    e, d, trump, leader, trick, bonus = GOOD
    args: dict = {
        "e": array.array("Q", [e] * n),
        "d": array.array("Q", [d] * n),
        "trump": array.array("b", [trump] * n),
        "leader": array.array("b", [leader] * n),
        "trick": array.array("b", [trick] * n),
        "bonus": bonus,
        "out": array.array("i", [-7] * n),
    }
    args.update(change)
    return args


def test_batch_into_a_short_out_is_refused() -> None:
    """2,000 positions into a 1-entry array used to write far past its end."""
    args = batch(2000, out=array.array("i", [-7]))
    with pytest.raises(ValueError, match="out has 1 entries, e has 2000"):
        klabberjass.core().values(*args.values())
    assert args["out"].tolist() == [-7]


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"d": array.array("Q", [0])}, ValueError, "d has 1 entries"),
        ({"trick": array.array("b", [-1] * 5)}, ValueError, "trick has 5 entries"),
        ({"e": array.array("i", [0] * 3)}, TypeError, "e must be a buffer of uint64"),
        ({"trump": array.array("i", [1] * 3)}, TypeError, "trump must be a buffer of int8"),
        ({"leader": [0, 0, 0]}, TypeError, "leader must be a buffer of int8"),
        ({"out": bytes(12)}, TypeError, "out must be a writable buffer of int32"),
        ({"out": array.array("q", [0] * 3)}, TypeError, "out must be a writable buffer"),
        ({"bonus": -1}, ValueError, "bonus"),
        ({"bonus": "10"}, TypeError, "bonus must be an int"),
        ({"trump": array.array("b", [1, 1, 9])}, ValueError, "position 2: invalid trump 9"),
        ({"leader": array.array("b", [0, -1, 0])}, ValueError, "position 1: invalid leader"),
        ({"trick": array.array("b", [-1, 100, -1])}, ValueError, "position 1: invalid trick"),
        ({"e": array.array("Q", [GOOD[0], GOOD[0], 1])}, ValueError, "position 2: hands"),
        ({"d": array.array("Q", [GOOD[0]] * 3)}, ValueError, "position 0: a card is twice"),
    ],
)
def test_bad_batches_are_refused_before_any_solve(change: dict, error: type, match: str) -> None:
    args = batch(3, **change)
    with pytest.raises(error, match=match):
        klabberjass.core().values(*args.values())
    if isinstance(args["out"], array.array) and args["out"].typecode == "i":
        assert args["out"].tolist() == [-7] * 3


def test_good_batch() -> None:
    positions = random_positions(5, 200, max_cards=4)
    args = batch(
        len(positions),
        e=array.array("Q", [p[0] for p in positions]),
        d=array.array("Q", [p[1] for p in positions]),
        trump=array.array("b", [p[2] for p in positions]),
        leader=array.array("b", [p[3] for p in positions]),
        trick=array.array("b", [p[4] for p in positions]),
    )
    klabberjass.core().values(*args.values())
    assert args["out"].tolist() == [naive_value(TABLES, *p, 10) for p in positions]
    empty = batch(0)
    klabberjass.core().values(*empty.values())


# ---------------------------------------------------------------- stopping a search
LONG_BATCH = """
import array, random, sys
from solver import klabberjass

rng = random.Random(1)
pack = [16 * s + r for s in range(4) for r in range(5, 13)]
n = {n}
e, d = array.array("Q"), array.array("Q")
for _ in range(n):
    c = rng.sample(pack, 18)
    e.append(sum(1 << x for x in c[:9]))
    d.append(sum(1 << x for x in c[9:]))
trump = array.array("b", [rng.randrange(4) for _ in range(n)])
core = klabberjass.core()
print("solving", flush=True)
try:
    core.values(e, d, trump, array.array("b", bytes(n)), array.array("b", [-1] * n), 10,
                array.array("i", bytes(4 * n)))
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


def long_batch(n: int) -> tuple:
    """Arguments of Core.values for n random full deals (about 0.1 ms each)."""
    rng = random.Random(1)
    e, d = array.array("Q"), array.array("Q")
    for _ in range(n):
        c = rng.sample(PACK_CARDS, 18)
        e.append(sum(1 << x for x in c[:9]))
        d.append(sum(1 << x for x in c[9:]))
    trump = array.array("b", [rng.randrange(4) for _ in range(n)])
    zeros, none = array.array("b", bytes(n)), array.array("b", [-1] * n)
    return e, d, trump, zeros, none, 10, array.array("i", bytes(4 * n))


def test_ctrl_c_stops_a_long_batch() -> None:
    """SIGINT to a process deep in a batch of 200,000 deals (half a minute of work):
    KeyboardInterrupt within moments, exit status 130."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LONG_BATCH.format(n=200_000)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "solving\n"
    wait_until_busy(proc, cpu=1.0)  # deep in the batch, the GIL released
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.perf_counter() - t0 < 5  # moments, with room for a loaded machine
    assert proc.returncode == 130, err
    assert out == "interrupted\n"


def test_stop_from_another_thread_ends_a_batch() -> None:
    core = core_with(megabytes=8)
    args = long_batch(50_000)
    timer = threading.Timer(0.3, core.stop)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        core.values(*args)
    timer.join()
    assert time.perf_counter() - t0 < 2
    # the core is sound afterwards: what it learnt before the stop is still right
    for e, d, trump, leader, trick in random_positions(6, 50, max_cards=4):
        assert core.value(e, d, trump, leader, trick, 10) == naive_value(
            TABLES, e, d, trump, leader, trick, 10
        )
    few = [a[:200] if isinstance(a, array.array) else a for a in args]
    core.values(*few)
    single = [core_with().value(e, d, t, 0, -1, 10) for e, d, t in zip(*few[:3], strict=True)]
    assert few[-1].tolist() == single


def test_a_stop_requested_before_a_tree_build_ends_it() -> None:
    """A stop asked for while no search runs ends the next one (a controlling thread
    cannot lose it by asking a moment too early); the call after that runs."""
    core = core_with()
    big = (0, 0)
    for seed in range(10):
        rng = random.Random(seed)
        c = rng.sample(PACK_CARDS, 18)
        e, d = sum(1 << x for x in c[:9]), sum(1 << x for x in c[9:])
        tree = core.optimal_tree(e, d, 0, 0, -1, 10, False, 10**6)
        assert tree is not None
        if len(tree["e"]) > big[0]:
            big = (len(tree["e"]), (e, d))
    assert big[0] > 5000
    e, d = big[1]
    core.clear()
    core.stop()
    with pytest.raises(KeyboardInterrupt):
        core.optimal_tree(e, d, 0, 0, -1, 10, False, 10**6)
    tree = core.optimal_tree(e, d, 0, 0, -1, 10, False, 10**6)
    assert tree is not None and len(tree["e"]) == big[0]

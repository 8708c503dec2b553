"""The compiled Carabin core on its own: it plays by the tables it is given, and it
refuses every bad argument with TypeError or ValueError before C sees it."""

from __future__ import annotations

import array
import random
import threading
import time
from functools import cache

import pytest

from solver import carabin
from solver.carabin import Deal, Position, rules
from solver.carabin import _core as _carabin
from solver.carabin.engine import _args
from solver.cards import cards_of, suit_of
from solver.reference import carabin_points

TABLES = (rules.POWER, rules.RANK_POINTS)
PACK_CARDS = list(cards_of(rules.PACK))
RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def core_with(tables: tuple = TABLES, megabytes: int = 1) -> _carabin.Core:
    return _carabin.Core(megabytes, power=tables[0], rank_points=tables[1])


def with_entry(table: tuple, rank: str, value: int) -> tuple:
    out = list(table)
    out[RANK[rank]] = value
    return tuple(out)


# ---------------------------------------------------------------- a naive reference
def naive_value(tables: tuple, n, hands, trump, bidder, leader, h, order, trick) -> int:
    """The bidder's points by plain minimax over the rules written with ``tables``."""
    power, points = tables

    def beats(card: int, best: int) -> bool:
        if card >> 4 == best >> 4:
            return power[card & 15] > power[best & 15]
        return card >> 4 == trump

    @cache
    def value(hands: tuple, leader: int, h: int, trick: tuple) -> int:
        if len(trick) == n:
            win = 0
            for i in range(1, n):
                if beats(trick[i], trick[win]):
                    win = i
            winner = (leader + win) % n
            gain = sum(points[c & 15] for c in trick) if winner == bidder else 0
            nxt = 1 - h if order == 0 else h
            if not any(hands[nxt * n : nxt * n + n]) and any(hands[(1 - nxt) * n :][:n]):
                nxt = 1 - nxt
            return gain + value(hands, winner, nxt, ())
        if not any(hands) and not trick:
            return 0
        seat = (leader + len(trick)) % n
        vs = []
        for c in cards_of(hands[h * n + seat]):
            rest = list(hands)
            rest[h * n + seat] &= ~(1 << c)
            vs.append(value(tuple(rest), leader, h, (*trick, c)))
        return max(vs) if seat == bidder else min(vs)

    return value(tuple(hands), leader, h, tuple(trick))


def random_positions(seed: int, count: int) -> list[tuple]:
    """Core arguments (n, hands, trump, bidder, leader, h, order, trick) of 3-4 players
    with 0-2 cards a hand, an unfinished trick some of the time."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        n = rng.choice((3, 4))
        sizes = [rng.randint(0, 2), rng.randint(0, 2)]
        h = rng.randrange(2)
        if not sizes[h] and sizes[1 - h]:
            continue
        deck = rng.sample(PACK_CARDS, n * (sizes[0] + sizes[1]))
        hands = []
        for kind in range(2):
            for _ in range(n):
                hands.append(sum(1 << deck.pop() for _ in range(sizes[kind])))
        leader = rng.randrange(n)
        trick = []
        if sizes[h]:
            for j in range(rng.randrange(n)):
                i = h * n + (leader + j) % n
                card = min(cards_of(hands[i]))
                hands[i] &= ~(1 << card)
                trick.append(card)
        out.append(
            (n, hands, rng.randrange(4), rng.randrange(n), leader, h, rng.randrange(2), trick)
        )
    return out


def test_naive_reference_agrees_with_the_reference_module() -> None:
    rng = random.Random(1)
    for _ in range(30):
        n = 3
        cards = rng.sample(PACK_CARDS, 2 * n)
        # one L trick then one R trick, alternate order
        hands = [(1 << cards[s], 1 << cards[n + s]) for s in range(n)]
        p = Position(rng.randrange(4), rng.randrange(n), rng.randrange(n), 0, tuple(hands))
        assert naive_value(TABLES, *_args(p)) == carabin_points(p)[0]


# ---------------------------------------------------------------- the rules are data
@pytest.mark.parametrize("trump", range(4))
def test_one_trick_is_worth_the_points_of_the_tables(trump: int) -> None:
    """Every pair of cards led by seat 0 and played by seat 1, seat 2 discarding a
    fixed card: the highest card of the suit led (POWER) or the highest trump wins,
    and the bidder takes the RANK_POINTS of the trick if it is his."""
    core = carabin.core()
    third = 16 * ((trump + 1) % 4) + RANK["5"]

    def beats(card: int, best: int) -> bool:
        if card >> 4 == best >> 4:
            return rules.POWER[card & 15] > rules.POWER[best & 15]
        return card >> 4 == trump

    for a in PACK_CARDS:
        for b in PACK_CARDS:
            if len({a, b, third}) < 3:
                continue
            win = 0
            for i, c in enumerate((b, third), start=1):
                if beats(c, (a, b)[win]):
                    win = i
            total = sum(rules.RANK_POINTS[c & 15] for c in (a, b, third))
            bidder = (a + b) % 3
            expect = total if win == bidder else 0
            boundary = [1 << a, 1 << b, 1 << third, 0, 0, 0]
            assert core.value(3, boundary, trump, bidder, 0, 0, 0, [], 0) == expect
            assert core.value(3, [0, *boundary[1:]], trump, bidder, 0, 0, 0, [a], 0) == expect


def test_card_numbers_come_back_in_the_external_form() -> None:
    core = carabin.core()
    for n, hands, trump, bidder, leader, h, order, trick in random_positions(2, 150):
        if not any(hands):
            continue
        mover = (leader + len(trick)) % n
        moves = core.moves(n, hands, trump, bidder, leader, h, order, trick, 0)
        assert sorted(c for c, _ in moves) == sorted(cards_of(hands[h * n + mover]))


# A variant only the tables know: the jack ranks above the queen and is worth 2, the
# queen 1, the ace 5.
JACK_OVER_QUEEN = (
    with_entry(with_entry(rules.POWER, "J", 10), "Q", 9),
    with_entry(with_entry(with_entry(rules.RANK_POINTS, "J", 2), "Q", 1), "A", 5),
)


def test_a_core_built_from_other_tables_plays_by_them() -> None:
    variant = core_with(JACK_OVER_QUEEN)
    standard = core_with()
    differ = 0
    for args in random_positions(3, 300):
        got = variant.value(*args, 0)
        assert got == naive_value(JACK_OVER_QUEEN, *args), args
        assert standard.value(*args, 0) == naive_value(TABLES, *args), args
        differ += got != standard.value(*args, 0)
    assert differ > 30
    # QS led, JS and 2S follow (hearts trump, seat 0 bids): the queen wins under
    # rules.py, the jack (seat 1) in the variant
    qs, js, two = RANK["Q"], RANK["J"], RANK["2"]
    hands = [1 << qs, 1 << js, 1 << two, 0, 0, 0]
    assert standard.value(3, hands, 1, 0, 0, 0, 0, [], 0) == 2
    assert variant.value(3, hands, 1, 0, 0, 0, 0, [], 0) == 0
    assert variant.value(3, hands, 1, 1, 0, 0, 0, [], 0) == 3


BAD_TABLES = [
    ({"power": (0,) * 15}, ValueError, "16 entries"),
    ({"power": 7}, TypeError, "sequence of 16 ints"),
    ({"rank_points": "AKQ"}, TypeError, "sequence of 16 ints"),
    ({"rank_points": (0.5,) * 16}, TypeError, "must be an int"),
    ({"power": with_entry(rules.POWER, "A", 11)}, ValueError, "once each"),
    ({"power": (*rules.POWER[:13], 13, -1, -1)}, ValueError, "once each"),
    ({"rank_points": with_entry(rules.RANK_POINTS, "A", 1)}, ValueError, "decrease"),
    ({"rank_points": with_entry(rules.RANK_POINTS, "2", -1)}, ValueError, "0..7"),
    ({"rank_points": with_entry(rules.RANK_POINTS, "A", 8)}, ValueError, "0..7"),
    ({"rank_points": (7,) * 13 + (0,) * 3}, ValueError, "worth 364 points"),
]


@pytest.mark.parametrize(("tables", "error", "match"), BAD_TABLES)
def test_unusable_tables_are_refused(tables: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        _carabin.Core(1, **tables)


# ---------------------------------------------------------------- safe bindings
@pytest.mark.parametrize(
    ("megabytes", "error", "match"),
    [
        (0, ValueError, "at least 1 MB"),
        (-1, ValueError, "at least 1 MB"),
        ((1 << 20) + 1, ValueError, "at most 1048576 MB"),
        (1 << 80, ValueError, "at most"),
        (1.0, TypeError, "must be an int"),
        (None, TypeError, "must be an int"),
    ],
)
def test_table_size_is_checked(megabytes: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        _carabin.Core(megabytes)  # type: ignore[arg-type]


AS, KS, QS, AH = 12, 11, 10, 16 + 12
# three players, one card each in the L hand, seat 0 bids and leads
GOOD = (3, [1 << AS, 1 << KS, 1 << QS, 0, 0, 0], 1, 0, 0, 0, 0, [])
BAD_POSITIONS = [
    ((2, *GOOD[1:]), ValueError, "number of players 2"),
    ((7, *GOOD[1:]), ValueError, "number of players 7"),
    (("3", *GOOD[1:]), TypeError, "number of players must be an int"),
    ((3, GOOD[1][:4], *GOOD[2:]), ValueError, "4 hands for 3 players"),
    ((3, [*GOOD[1], 0, 0], *GOOD[2:]), ValueError, "8 hands for 3 players"),
    ((3, 12345, *GOOD[2:]), TypeError, "sequences"),
    ((3, [-1, *GOOD[1][1:]], *GOOD[2:]), ValueError, r"hands\[0\]"),
    ((3, [1 << 64, *GOOD[1][1:]], *GOOD[2:]), ValueError, r"hands\[0\]"),
    ((3, [1.0, *GOOD[1][1:]], *GOOD[2:]), TypeError, r"hands\[0\] must be an int"),
    ((3, [1 << 13, *GOOD[1][1:]], *GOOD[2:]), ValueError, "not a card"),
    ((3, [1 << AS, 1 << AS, *GOOD[1][2:]], *GOOD[2:]), ValueError, "twice"),
    ((3, [0b11111, 0b11111 << 5, 0b11111 << 16, 0, 0, 0], *GOOD[2:]), ValueError, "more than 4"),
    ((3, [1 << AS, 0, 1 << QS, 0, 0, 0], *GOOD[2:]), ValueError, "hand sizes"),
    ((3, [1 << AS, 1 << KS, 1 << QS, 1 << AH, 0, 0], *GOOD[2:]), ValueError, "hand sizes"),
    ((3, [0, 0, 0, 1 << AS, 1 << KS, 1 << QS], *GOOD[2:]), ValueError, "hand sizes"),
    ((*GOOD[:2], 4, *GOOD[3:]), ValueError, "trump 4"),
    ((*GOOD[:2], 10**20, *GOOD[3:]), ValueError, "trump"),
    ((*GOOD[:3], 3, *GOOD[4:]), ValueError, "bidder 3"),
    ((*GOOD[:4], -1, *GOOD[5:]), ValueError, "leader -1"),
    ((*GOOD[:5], 2, *GOOD[6:]), ValueError, "hand 2"),
    ((*GOOD[:6], 2, GOOD[7]), ValueError, "trick order 2"),
    ((*GOOD[:7], [AH, AH, AH]), ValueError, "a trick of 3 cards for 3 players"),
    ((*GOOD[:7], [64]), ValueError, "invalid trick"),
    ((*GOOD[:7], [13]), ValueError, "invalid trick"),
    ((*GOOD[:7], [AS]), ValueError, "twice|hand sizes"),
    ((*GOOD[:7], [AH, AH]), ValueError, "twice"),
    ((*GOOD[:7], ["AS"]), TypeError, r"trick\[0\] must be an int"),
    ((3, [0, 1 << KS, 1 << QS, 0, 0, 0], *GOOD[2:7], [AH]), None, ""),
]


@pytest.mark.parametrize("method", ["value", "make", "all_tricks", "moves"])
@pytest.mark.parametrize(("args", "error", "match"), BAD_POSITIONS)
def test_bad_positions_are_refused(method: str, args: tuple, error: type, match: str) -> None:
    core = carabin.core()
    extra = () if method == "all_tricks" else (0,)
    if error is None:
        getattr(core, method)(*args, *extra)
        return
    with pytest.raises(error, match=match):
        getattr(core, method)(*args, *extra)


@pytest.mark.parametrize(("args", "error", "match"), BAD_POSITIONS)
def test_bad_pimc_positions_are_refused(args: tuple, error: type, match: str) -> None:
    n, hands, *rest = args
    # the lowest card of the mover's hand in use when there is one
    try:
        held = hands[rest[3] * n + (rest[2] + len(rest[5])) % n]
        cand = (held & -held).bit_length() - 1 if held > 0 else QS
    except (TypeError, IndexError):
        cand = QS
    call = (n, [hands], *rest, [cand], False, 1, False, None)
    if error is None:
        carabin.core().pimc(*call)
        return
    with pytest.raises((error, ValueError), match=f"{match}|not in the mover's hand"):
        carabin.core().pimc(*call)


def GOOD_PIMC(**change: object) -> tuple:
    """Core.pimc of GOOD's position as its one world, the ace its candidate."""
    args = {"n": 3, "worlds": [GOOD[1]], "trump": 1, "bidder": 0, "leader": 0, "h": 0,
            "order": 0, "trick": [], "candidates": [AS], "chelem": False, "target": 1,
            "lost": False, "time_limit": None}  # fmt: skip
    args.update(change)
    return tuple(args.values())


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"worlds": []}, ValueError, "0 worlds"),
        ({"worlds": 5}, TypeError, "sequences"),
        ({"worlds": [GOOD[1], 5]}, TypeError, "each world must be a sequence"),
        ({"worlds": [GOOD[1], GOOD[1][:4]]}, ValueError, "world 1: 4 hands for 3 players"),
        ({"worlds": [GOOD[1], [1 << AS, 1 << AS, 1 << QS, 0, 0, 0]]}, ValueError, "world 1: .*twice"),
        ({"worlds": [GOOD[1], [1 << AH, 1 << KS, 1 << QS, 0, 0, 0]]}, ValueError,
         "world 1: the mover's hand"),
        ({"candidates": []}, ValueError, "0 candidates"),
        ({"candidates": [AS] * 5}, ValueError, "5 candidates"),
        ({"candidates": [AS, AS]}, ValueError, "given twice"),
        ({"candidates": [KS]}, ValueError, "not in the mover's hand"),
        ({"candidates": [64]}, ValueError, "candidates"),
        ({"target": 1 << 40}, ValueError, "target"),
        ({"time_limit": -1}, ValueError, "time limit"),
        ({"time_limit": float("inf")}, ValueError, "time limit"),
    ],
)  # fmt: skip
def test_bad_pimc_arguments_are_refused(change: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        carabin.core().pimc(*GOOD_PIMC(**change))


def test_pimc_of_one_world_is_the_make_probe_of_each_card() -> None:
    # two candidates in one world: the second is searched only when the first fails
    p = Position.parse("trump=H bidder=0 lead=0 next=L 0=A..3./... 1=K.2../... "
                       "2=Q...2/... order=left_then_right")  # fmt: skip
    first, second = p.legal_moves()
    for target in range(-1, p.points_left() + 2):
        made = []
        for card in (first, second):
            child, winner, pts = p.step(card)
            made.append(carabin.make(child, target - (pts if winner == 0 else 0)))
        want = (0, 1) if made[0] else (int(made[1]), 2)
        n, hands, *rest = _args(p)
        got = carabin.core().pimc(n, [hands], *rest, [first, second], False, target, False, None)
        assert got == (*want, 0), target


def test_guess_and_target_are_ints() -> None:
    core = carabin.core()
    assert core.value(*GOOD, 10**6) == core.value(*GOOD, -(10**6)) == 9
    with pytest.raises(ValueError, match="guess"):
        core.value(*GOOD, 1 << 40)
    with pytest.raises(TypeError, match="target must be an int"):
        core.make(*GOOD, 4.5)
    # sequences other than lists are fine
    assert core.value(GOOD[0], tuple(GOOD[1]), *GOOD[2:7], (), 0) == 9


# ---------------------------------------------------------------- the batch entry
def played_positions(seed: int, count: int, cards_left: int, players=(3, 4)) -> list[Position]:
    """Positions of random deals after random play, ``cards_left`` cards or fewer still
    held (0 = the play is over), in either trick order."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice(players)
        d = Deal.random(players=n, rng=rng)
        order = rng.choice(rules.TRICK_ORDERS)
        p = d.position(bidder=rng.randrange(n), trump=rng.randrange(4), trick_order=order)
        while sum(bin(a).count("1") + bin(b).count("1") for a, b in p.hands) > cards_left:
            p = p.play(rng.choice(p.legal_moves()))
        out.append(p)
    return out


def test_batch_equals_single_calls() -> None:
    rng = random.Random(7)
    positions = []
    for seed in range(8):
        n = (3, 4)[seed % 2]
        d = Deal.random(players=n, rng=rng)
        positions.append(d.position(bidder=seed % n, trump=suit_of(d.turn)))
    positions += played_positions(8, 30, 14) + played_positions(9, 3, 0)
    batch = carabin.values(positions)
    assert batch == [carabin.value(p) for p in positions]
    assert batch == carabin.values(positions, tt_mb=1)
    assert carabin.values([]) == []


def test_batch_agrees_with_the_reference() -> None:
    positions = played_positions(10, 60, 7)
    assert carabin.values(positions) == [carabin_points(p)[0] for p in positions]


def cb_batch(count: int, **change: object) -> dict:
    """Arguments of Core.values for ``count`` copies of GOOD, with some replaced."""
    n, hands, trump, bidder, leader, h, order, trick = GOOD
    args: dict = {
        "n": array.array("b", [n] * count),
        "hands": array.array("Q", (hands + [0] * (12 - len(hands))) * count),
        "trump": array.array("b", [trump] * count),
        "bidder": array.array("b", [bidder] * count),
        "leader": array.array("b", [leader] * count),
        "h": array.array("b", [h] * count),
        "order": array.array("b", [order] * count),
        "trick": array.array("b", [-1] * 5 * count),
        "guess": array.array("i", [0] * count),
        "out": array.array("i", [-7] * count),
    }
    args.update(change)
    return args


def test_batch_into_a_short_out_is_refused() -> None:
    args = cb_batch(2000, out=array.array("i", [-7]))
    with pytest.raises(ValueError, match="out has 1 entries, n has 2000"):
        carabin.core().values(*args.values())
    assert args["out"].tolist() == [-7]
    args = cb_batch(2000)
    carabin.core().values(*args.values())
    assert set(args["out"]) == {9}


def _hands_with(i: int, value: int, count: int = 3) -> array.array:
    hands = cb_batch(count)["hands"]
    hands[i] = value
    return hands


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"hands": array.array("Q", [0] * 12)}, ValueError, "hands has 12 entries for 3"),
        ({"trick": array.array("b", [-1] * 6)}, ValueError, "trick has 6 entries for 3"),
        ({"guess": array.array("i", [0])}, ValueError, "guess has 1 entries, n has 3"),
        ({"bidder": array.array("b", [0] * 4)}, ValueError, "bidder has 4 entries"),
        ({"hands": array.array("q", [0] * 36)}, TypeError, "hands must be a buffer of uint64"),
        ({"n": [3, 3, 3]}, TypeError, "n must be a buffer of int8"),
        ({"guess": array.array("b", [0] * 3)}, TypeError, "guess must be a buffer of int32"),
        ({"out": bytes(12)}, TypeError, "out must be a writable buffer of int32"),
        ({"n": array.array("b", [3, 9, 3])}, ValueError, "position 1: invalid number of players 9"),
        ({"trump": array.array("b", [1, 1, 4])}, ValueError, "position 2: invalid trump 4"),
        ({"bidder": array.array("b", [3, 0, 0])}, ValueError, "position 0: invalid bidder 3"),
        ({"h": array.array("b", [0, 0, -1])}, ValueError, "position 2: invalid hand -1"),
        ({"hands": _hands_with(12 + 6, 1 << 40)}, ValueError, "position 1: a hand given beyond"),
        ({"hands": _hands_with(12 + 1, 1 << 13)}, ValueError, "position 1: .* not a card"),
        ({"hands": _hands_with(24 + 1, 1 << AS)}, ValueError, "position 2: a card is twice"),
        ({"hands": _hands_with(1, 0)}, ValueError, "position 0: hand sizes"),
        (
            {"trick": array.array("b", [-1] * 10 + [-1, AH, -1, -1, -1])},
            ValueError,
            "position 2: a trick card after a -1",
        ),
        ({"trick": array.array("b", [-1] * 14 + [-2])}, ValueError, "position 2: invalid trick"),
        (
            {"trick": array.array("b", [AH, AH - 1, AH - 2] + [-1] * 12)},
            ValueError,
            "position 0: invalid trick",
        ),
    ],
)
def test_bad_batches_are_refused_before_any_solve(change: dict, error: type, match: str) -> None:
    args = cb_batch(3, **change)
    with pytest.raises(error, match=match):
        carabin.core().values(*args.values())
    if isinstance(args["out"], array.array):
        assert args["out"].tolist() == [-7] * 3


def test_stop_from_another_thread_ends_a_batch() -> None:
    d = Deal.random(seed=0, players=6)
    hard = d.position(bidder=5, trump=1)  # seconds to solve exactly
    core = carabin.core()
    core.clear()
    args = cb_batch(3)
    args.update(
        n=array.array("b", [6] * 3),
        hands=array.array("Q", _args(hard)[1] * 3),
        trump=array.array("b", [hard.trump] * 3),
        bidder=array.array("b", [5] * 3),
    )
    timer = threading.Timer(0.3, core.stop)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        core.values(*args.values())
    timer.join()
    assert time.perf_counter() - t0 < 2
    small = played_positions(11, 10, 7)
    assert carabin.values(small) == [carabin_points(p)[0] for p in small]


def _rotated(args: tuple) -> tuple:
    """The same position with each seat's two hands given to the seat after it: the
    same cards held, so the same table keys, but other owners and other values."""
    n, hands, *rest = args
    return (n, [hands[k * n + (s - 1) % n] for k in (0, 1) for s in range(n)], *rest)


def test_the_generation_counter_never_comes_round_to_an_old_generation() -> None:
    # Every table entry carries the generation (deal) it belongs to. Were the 32-bit
    # counter carried round past 0, a later deal would take the generation of an
    # earlier one and find its entries: the same cards held under other owners. The
    # core empties its tables first; with the counter just short of the wrap, values
    # stay those of a fresh core.
    rng = random.Random(12)
    fresh = core_with()
    wrong = 0
    for _ in range(12):
        deck = rng.sample(PACK_CARDS, 3 * 8)
        hands = [sum(1 << c for c in deck[i * 4 : i * 4 + 4]) for i in range(6)]
        a = (3, hands, rng.randrange(4), rng.randrange(3), 0, 0, 0, [])
        b = _rotated(a)
        core = core_with()
        assert core.value(*a, 0) == fresh.value(*a, 0)
        of_a = core.generation
        core.set_generation(2**32 - 1)
        # as many more deals, of one card a hand, as take a wrapping counter to of_a
        for _ in range(of_a):
            cards = rng.sample(PACK_CARDS, 6)
            filler = (3, [1 << c for c in cards], 0, 0, 0, 0, 0, [])
            assert core.value(*filler, 0) == fresh.value(*filler, 0)
        got, expect = core.value(*b, 0), fresh.value(*b, 0)
        assert 0 < core.generation < of_a + 4  # counted again from the start
        wrong += got != expect
    assert wrong == 0


def test_a_generation_is_set_within_its_range() -> None:
    core = core_with()
    with pytest.raises(ValueError, match="gen"):
        core.set_generation(0)
    with pytest.raises(ValueError, match="gen"):
        core.set_generation(2**32)
    core.set_generation(5)
    assert core.generation == 5

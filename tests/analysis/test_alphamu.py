"""αμ card play (analysis.alphamu) against slow, obviously correct references: PIMC on the
same worlds at μ = 1, an enumeration of the player's pure strategies against the best
defence in each world when the search reaches the end of the play, legal cards in
whole deals, the time budget, and the errors of a bad budget."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from analysis import alphamu
from analysis.alphamu import AlphaMu, _root, _Search, decide_view, search
from analysis.play import Hidden, Pimc, PlayState, classes, hidden_of, play_deal
from solver.cards import cards_of, parse_card
from solver.errors import RulesError
from solver.klabberjass import SEED, Position, View, engine
from solver.klabberjass.deal import Deal, runs
from solver.klabberjass.rules import PACK

BONUS = SEED.last_trick


def states(seeds, cards_played=(0, 1, 5, 8)):
    """Play states of random deals after some cards of PIMC play (E leads)."""
    out = []
    for seed in seeds:
        deal = Deal.random(seed)
        state = PlayState(Position(deal.turn_suit, 0, deal.hands), deal.turn)
        pimc = Pimc(6, seed=seed)
        for n in range(max(cards_played) + 1):
            if n in cards_played:
                out.append(PlayState(state.position, state.turn, played=list(state.played),
                                     void=list(state.void), played_by=list(state.played_by)))  # fmt: skip
            state.step(pimc.choose(state))
    return out


# ----------------------------------------------------------------------- μ = 1 is PIMC


@pytest.mark.parametrize("seed", range(6))
def test_depth_one_is_pimc(seed):
    """The policy at μ = 1 plays PIMC's card on the same worlds, decision by decision."""
    for state in states([seed]):
        assert AlphaMu(12, depth=1, seed=seed).choose(state) == Pimc(12, seed=seed).choose(state)


@pytest.mark.parametrize("seed", range(6))
def test_tree_at_depth_one_is_pimc(seed):
    """The search's own tree cut at one decision (the player's card, then the worlds'
    double-dummy values from its leaves) gives every card PIMC's total and PIMC's choice,
    ties to the first card."""
    for state in states([seed]):
        p = state.position
        hidden = hidden_of(state)
        cands = [k[0] for k in classes(p, hidden)]
        worlds = alphamu.sample_hands(hidden.pool, hidden.need, 15, seed)
        trick = -1 if p.trick is None else p.trick
        chosen, sums, _, rows = engine.core().pimc(
            p.hands[p.to_move], hidden.known, hidden.pool, hidden.need, 15, 0, p.trump, p.lead,
            trick, BONUS, cands, exact=True, worlds=worlds,
        )  # fmt: skip
        s = _Search(
            engine.core(), p.to_move, p.trump, BONUS, [hidden.known | w for w in worlds], None,
            alphamu.AlphaMuStats(),
        )  # fmt: skip
        import numpy as np

        values, _, mine, _ = _root(
            s, p.hands[p.to_move], cands, p.lead, trick, 1, list(sums),
            np.array(rows).T, every=True,
        )  # fmt: skip
        assert values == list(sums)
        assert mine == chosen


# ------------------------------------------------------- full depth is the best strategy


def _strategies(p: Position, me: int, worlds: list[int], hist: tuple):
    """Every pure strategy of ``me`` from ``p`` (a dict: history of cards -> card) over
    the worlds (the other hand in each) still consistent with ``hist``."""
    if p.is_over:
        yield {}
        return
    if p.to_move == me:
        for c in cards_of(p.legal_set()):
            child = _world(p, me, worlds[0]).step(c)[0]
            for sub in _strategies(child, me, worlds, hist + (c,)):
                yield {hist: c, **sub}
        return
    options = {}
    for w in worlds:
        for c in cards_of(_world(p, me, w).legal_set()):
            options.setdefault(c, []).append(w)
    subs = []
    for c, ws in sorted(options.items()):
        child = _world(p, me, ws[0]).step(c)[0]
        subs.append(list(_strategies(child, me, [w & ~(1 << c) for w in ws], hist + (c,))))
    for combo in itertools.product(*subs):
        merged: dict = {}
        for part in combo:
            merged.update(part)
        yield merged


def _world(p: Position, me: int, other: int) -> Position:
    hands = (p.hands[me], other) if me == 0 else (other, p.hands[me])
    return Position(p.trump, p.lead, hands, p.trick)


def _against_best_defence(p: Position, me: int, strategy: dict, hist: tuple = ()) -> int:
    """The points ``me`` takes from ``p`` (a world: both hands) playing ``strategy``,
    the other player seeing everything and playing to minimise them."""
    if p.is_over:
        return 0
    if p.to_move == me:
        cards = [strategy[hist]]
    else:
        cards = list(cards_of(p.legal_set()))
    outcomes = []
    for c in cards:
        child, winner, pts = p.step(c)
        gain = pts if winner == me else 0
        outcomes.append(gain + _against_best_defence(child, me, strategy, hist + (c,)))
    return outcomes[0] if p.to_move == me else min(outcomes)


def _brute_force(p: Position, worlds: list[int]) -> dict[int, int]:
    """Per first card, the greatest total over the worlds of a pure strategy starting
    with it, against the best defence in each world."""
    me = p.to_move
    best: dict[int, int] = {}
    for strategy in _strategies(p, me, worlds, ()):
        total = sum(_against_best_defence(_world(p, me, w), me, strategy) for w in worlds)
        first = strategy[()]
        best[first] = max(best.get(first, -1), total)
    return best


def _ending(seed: int, cards: int, pool_size: int, trick: bool):
    """A random ending: the mover (E, or D answering E's lead) holds ``cards``, the
    other hand ``cards`` cards of a pool of ``pool_size`` (every choice a world)."""
    rng = random.Random(seed)
    deck = list(cards_of(PACK))
    rng.shuffle(deck)
    mine = sum(1 << c for c in deck[:cards])
    pool_cards = deck[cards : cards + pool_size]
    pool = sum(1 << c for c in pool_cards)
    trump = rng.randrange(4)
    if trick:  # E led one of his cards; D answers
        led = deck[cards + pool_size]
        worlds = [
            sum(1 << c for c in combo) for combo in itertools.combinations(pool_cards, cards - 1)
        ]
        p = Position(trump, 0, (worlds[0], mine), led)
        return p, Hidden(0, pool, cards - 1), worlds
    worlds = [sum(1 << c for c in combo) for combo in itertools.combinations(pool_cards, cards)]
    p = Position(trump, 0, (mine, worlds[0]))
    return p, Hidden(0, pool, cards), worlds


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("shape", [(2, 4, False), (3, 5, False), (3, 4, True)])
def test_full_depth_is_the_best_strategy(seed, shape):
    """To the end of the play, every card's value is the best pure strategy starting
    with it against the best defence in each world, and the card chosen is a best one."""
    cards, pool_size, trick = shape
    p, hidden, worlds = _ending(seed, cards, pool_size, trick)
    cands = [k[0] for k in classes(p, hidden)]
    d = search(p, hidden, cands, worlds, depth=None, every=True)
    brute = _brute_force(p, worlds)
    assert d.depth == cards  # one decision a trick: to the end
    assert list(d.values) == [brute[c] for c in d.candidates]
    for k in classes(p, hidden):  # every card of a class is worth its first card's value
        assert len({brute[c] for c in k}) == 1
    top = max(brute.values())
    first_best = next(c for c in cands if brute[c] == top)
    assert d.card == first_best
    # with every cut (the default search): the same card
    assert search(p, hidden, cands, worlds, depth=None).card == first_best
    assert search(p, hidden, cands, worlds, depth=50).card == first_best


@pytest.mark.parametrize(
    ("seed", "shape"), [(29, (3, 5, False)), (32, (3, 5, False)), (142, (3, 5, True))]
)
def test_full_depth_avoids_strategy_fusion(seed, shape):
    """Endings (found by scanning seeds) where PIMC's card is not a best strategy's first
    card, each world credited with a later guess the player cannot make: αμ's is."""
    p, hidden, worlds = _ending(seed, *shape)
    cands = [k[0] for k in classes(p, hidden)]
    brute = _brute_force(p, worlds)
    pimc = search(p, hidden, cands, worlds, depth=1)
    assert brute[pimc.card] < max(brute.values())
    assert brute[search(p, hidden, cands, worlds, depth=None).card] == max(brute.values())


def test_deeper_is_never_worth_more():
    """A card's value at μ is at most its value at μ - 1 (fewer guesses credited)."""
    for state in states([3, 4], cards_played=(0, 5)):
        p = state.position
        hidden = hidden_of(state)
        cands = [k[0] for k in classes(p, hidden)]
        worlds = alphamu.sample_hands(hidden.pool, hidden.need, 8, 5)
        before = None
        for depth in (1, 2, 3):
            d = search(p, hidden, cands, worlds, depth=depth, every=True)
            assert all(v is not None for v in d.values)
            if before is not None:
                assert all(v <= b for v, b in zip(d.values, before, strict=True))
            before = d.values


@pytest.mark.parametrize("depth", [2, 3])
def test_cuts_keep_the_choice(depth):
    """The root cut, the aspiration floors and the early cuts leave the card chosen as
    searching every card's whole front would (and its value)."""
    for state in states([5, 6, 7], cards_played=(0, 1, 6)):
        p = state.position
        hidden = hidden_of(state)
        cands = [k[0] for k in classes(p, hidden)]
        worlds = alphamu.sample_hands(hidden.pool, hidden.need, 10, 9)
        full = search(p, hidden, cands, worlds, depth=depth, every=True)
        quick = search(p, hidden, cands, worlds, depth=depth)
        i = cands.index(quick.card)
        assert quick.card == full.card and quick.values[i] == full.values[i]


# ------------------------------------------------------------------- in play, in budget


def test_whole_deals_are_played_legally():
    """play_deal raises on an illegal card: αμ on both sides plays whole deals, and the
    same seeds give the same cards."""
    for seed in range(3):
        deal = Deal.random(100 + seed)
        args = (deal.hands, deal.turn_suit, deal.turn)
        a = play_deal(*args, (AlphaMu(8, depth=2, seed=seed), Pimc(8, seed=seed)))
        b = play_deal(*args, (AlphaMu(8, depth=2, seed=seed), Pimc(8, seed=seed)))
        assert a == b and len(a.cards) == 18


class _Recording(AlphaMu):
    """αμ that keeps each decision it searched (its worlds)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.decisions = []

    def decide(self, p, hidden, candidates, rules=SEED):
        d = super().decide(p, hidden, candidates, rules)
        self.decisions.append(d)
        return d


@pytest.mark.parametrize("depth", [1, 2])
def test_every_world_holds_what_the_player_has_seen(depth):
    """In whole deals where both players showed their runs and the bottom card lies
    face up, every world of every αμ decision (through ``choose``, as the studies play)
    gives the other player his shown cards not yet played, and none of: the turn-up,
    the bottom card, a card played or in the mover's hand, a card of a suit or rank the
    play showed him not to hold; and as many cards as he holds."""
    live_shown = voids = checked = 0
    for seed in range(40, 52):
        deal = Deal.random(seed)
        shown = [0, 0]
        for s in (0, 1):
            for r in runs(deal.hands[s]):
                shown[s] |= r.cards
        stock = PACK & ~(deal.hands[0] | deal.hands[1] | 1 << deal.turn)
        bottom = random.Random(seed).choice(list(cards_of(stock)))
        state = PlayState(Position(deal.turn_suit, 0, deal.hands), deal.turn,
                          (shown[0], shown[1]), bottom=bottom)  # fmt: skip
        player = _Recording(8, depth=depth, seed=seed)
        while not state.position.is_over:
            p = state.position
            me, opp = p.to_move, 1 - p.to_move
            before = len(player.decisions)
            card = player.choose(state)
            if len(player.decisions) > before:
                played = sum(1 << c for c in state.played) | (
                    0 if p.trick is None else 1 << p.trick
                )
                known = shown[opp] & ~played
                live_shown += known != 0
                voids += state.void[opp] != 0
                for w in player.decisions[-1].worlds:
                    checked += 1
                    assert w & known == known
                    assert not w & (1 << deal.turn | 1 << bottom | played | p.hands[me])
                    assert not w & state.void[opp]
                    assert bin(w).count("1") == bin(p.hands[opp]).count("1")
            state.step(card)
    assert live_shown > 10 and voids > 10 and checked > 1000  # the checks bit


def test_a_shown_hand_is_played_as_seen():
    """Deal 155 after twelve cards: E's three cards are the run he showed (JS TS 9S), so
    every world of D's is the real one and αμ plays a double-dummy best card; had
    nothing been shown, it plays a card that gives E more with these hands (what was
    shown decides the card here)."""
    deal = Deal.random(155)
    e_run = sum(r.cards for r in runs(deal.hands[0]))
    state = PlayState(Position(deal.turn_suit, 0, deal.hands), deal.turn, (e_run, 0))
    for c in "KC 8C 8H TH JH 7H AD 8D 7D JD QC KH".split():
        state.step(parse_card(c))
    p = state.position
    assert p.hands[0] == e_run and p.to_move == 1
    bare = PlayState(p, state.turn, (0, 0), played=list(state.played),
                     void=list(state.void), played_by=list(state.played_by))  # fmt: skip
    # E's points after each of D's cards, double dummy: D wants the least
    values = dict(engine.core().moves(p.hands[0], p.hands[1], p.trump, p.lead, -1, BONUS))
    best = min(values.values())
    for seed in range(4):
        seen = AlphaMu(20, depth=2, seed=seed).choose(state)
        unseen = AlphaMu(20, depth=2, seed=seed).choose(bare)
        assert values[seen] == best
        assert values[unseen] > best


def test_time_limit_gives_a_legal_card_of_a_finished_iteration():
    state = states([11], cards_played=(0,))[0]
    player = AlphaMu(20, depth=None, seed=1, time_limit=0.02)
    start = time.monotonic()
    card = player.choose(state)
    assert time.monotonic() - start < 5
    assert state.position.legal_set() >> card & 1
    assert player.stats.timeouts == 1
    assert 1 <= player.stats.depth_reached < 9


def test_view_decision():
    view = View.parse("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D")
    d = decide_view(view, AlphaMu(10, depth=2, seed=3), every=True)
    legal = view.inference().position.legal_set()
    assert legal >> d.card & 1 and d.depth == 2
    assert all(v is not None for v in d.values)
    assert d.values[d.candidates.index(d.card)] == max(v for v in d.values if v is not None)
    assert decide_view(view, AlphaMu(10, depth=2, seed=3)).card == d.card


@pytest.mark.parametrize(
    ("kwargs", "quoted"),
    [
        ({"worlds": 0}, "worlds 0"),
        ({"worlds": 10**6}, "worlds 1000000"),
        ({"depth": 0}, "depth 0"),
        ({"depth": 1.5}, "depth 1.5"),
        ({"time_limit": -1}, "time_limit -1"),
    ],
)
def test_bad_budget_is_one_clear_error(kwargs, quoted):
    with pytest.raises(RulesError, match=quoted):
        AlphaMu(**kwargs)


# ------------------------------------------- agreement with the exact reference (endings)


def _fusion_endings():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "fusion-positions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@pytest.mark.parametrize("ending", _fusion_endings(), ids=lambda e: e["view"][-30:])
def test_full_depth_agrees_with_the_exact_endings(ending):
    """On the stored endings where PIMC's card is provably worse (analysis.endings, the
    slow exact reference), αμ to the end of the play gives every card the exact best
    total starting with it, and plays a card of the exact best total; at depth 1 it
    plays PIMC's card."""
    from analysis.alphamu import hidden_of_view
    from solver.cards import card_str, parse_holding

    view = View.parse(ending["view"])
    p, hidden = hidden_of_view(view)
    worlds = [parse_holding(w) & ~hidden.known for w in ending["worlds"]]
    cands = [k[0] for k in classes(p, hidden)]
    d = search(p, hidden, cands, worlds, depth=None, every=True)
    moves = ending["moves"]
    for c, v in zip(d.candidates, d.values, strict=True):
        assert v == moves[card_str(c)]
    assert moves[card_str(d.card)] == ending["total"]
    assert search(p, hidden, cands, worlds, depth=None).card == d.card
    assert card_str(search(p, hidden, cands, worlds, depth=1).card) == ending["pimc_card"]

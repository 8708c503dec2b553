"""The exact ending search (analysis.endings) against brute force, the double-dummy
engine and the stored strategy-fusion positions."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.endings import (
    MAX_ENDING_WORLDS,
    defended,
    pimc_strategy,
    pure_strategies,
    reached,
    solve_ending,
    solve_worlds,
    strategy_graph,
    strategy_values,
    view_worlds,
)
from analysis.play import PlayState
from solver.cards import card_count, card_str, cards_of, format_holding
from solver.errors import RulesError
from solver.klabberjass import PACK, Deal, Position, View, engine
from solver.reference import klabberjass_points

DATA = Path(__file__).resolve().parents[1] / "data" / "fusion-positions.jsonl"
PACK_CARDS = list(cards_of(PACK))


def stored() -> list[dict]:
    lines = DATA.read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


@st.composite
def endings(draw, sizes: tuple[int, ...] = (2, 3), most_worlds: int = 4) -> list[Position]:
    """The worlds of a random ending: the mover's hand, an unfinished trick half of
    the time (led by either seat), and 1..most_worlds hands of the other player drawn
    from the cards left."""
    n = draw(st.sampled_from(sizes))
    cards = draw(st.permutations(PACK_CARDS))
    trump = draw(st.integers(0, 3))
    mover = draw(st.integers(0, 1))
    trick_by_other = draw(st.booleans())
    mine = sum(1 << c for c in cards[:n])
    rest = cards[n : n + n + 3]
    trick = None
    lead = mover
    other_size = n
    if trick_by_other:
        trick, rest = rest[0], rest[1:]
        lead = 1 - mover
        other_size = n - 1
    combos = list(itertools.combinations(rest, other_size))
    k = draw(st.integers(1, min(most_worlds, len(combos))))
    chosen = draw(st.permutations(combos))[:k]
    worlds = []
    for other in chosen:
        hands = [0, 0]
        hands[mover] = mine
        hands[1 - mover] = sum(1 << c for c in other)
        worlds.append(Position(trump, lead, (hands[0], hands[1]), trick))
    return worlds


# ----------------------------------------------------------------------------- brute force
@settings(max_examples=60)
@given(endings())
def test_search_matches_every_pure_strategy(worlds: list[Position]) -> None:
    """The best sum over every pure strategy (each evaluated world by world against
    best defence) is the search's total, pruned or not, and its strategy scores it."""
    e = solve_worlds(worlds)
    assert solve_worlds(worlds, prune=False).total == e.total
    totals = [sum(strategy_values(worlds, s)) for s in pure_strategies(worlds)]
    assert max(totals) == e.total
    assert sum(strategy_values(worlds, e.strategy)) == e.total
    first = {}
    for s, t in zip(pure_strategies(worlds), totals, strict=True):
        first[s[()]] = max(first.get(s[()], t), t)
    assert first == e.moves
    assert e.pimc_total <= e.total and e.pimc_play_total <= e.total
    assert e.total <= max(e.dd_totals.values())  # the clairvoyant bound


@settings(max_examples=60)
@given(endings(sizes=(1, 2, 3, 4), most_worlds=1))
def test_one_world_is_the_double_dummy_value(worlds: list[Position]) -> None:
    (world,) = worlds
    e = solve_worlds(worlds)
    mover = world.to_move
    assert e.total == e.value == max(engine.move_values(world).values())
    assert e.total == klabberjass_points(world)[mover]
    assert e.moves == engine.move_values(world)
    assert not e.fusion and e.pimc_total == e.total == e.pimc_play_total


@settings(max_examples=15)
@given(endings(sizes=(4,), most_worlds=6))
def test_four_cards_the_strategy_scores_its_total(worlds: list[Position]) -> None:
    e = solve_worlds(worlds)
    assert sum(strategy_values(worlds, e.strategy)) == e.total
    assert sum(strategy_values(worlds, e.pimc_strategy)) == e.pimc_total
    assert e.pimc_strategy[()] == e.pimc_card
    assert sum(strategy_values(worlds, pimc_strategy(worlds))) == e.pimc_play_total


# ----------------------------------------------------------------------------- stored positions
def test_stored_file_says_how_it_was_made() -> None:
    head = json.loads(DATA.read_text().splitlines()[0])
    assert "tools/fusion_positions.py" in head["regenerate"]
    assert len(stored()) >= 10


@pytest.mark.parametrize("row", stored(), ids=lambda r: r["view"])
def test_stored_position_resolves_to_its_answer(row: dict) -> None:
    e = solve_ending(View.parse(row["view"]), row["worlds"])
    assert card_str(e.card) == row["card"] and e.total == row["total"]
    assert card_str(e.pimc_card) == row["pimc_card"] and e.pimc_total == row["pimc_total"]
    assert e.to_json() == {k: v for k, v in row.items() if k != "n_worlds"}
    # PIMC's card: the greatest total double-dummy points over the worlds
    dd: dict[str, int] = {}
    for w in e.worlds:
        for c, v in engine.move_values(w).items():
            dd[card_str(c)] = dd.get(card_str(c), 0) + v
    assert max(dd, key=lambda c: dd[c]) == row["pimc_card"]
    # and the card the compiled PIMC decision (analysis.play.Pimc) plays on these worlds
    view = e.view
    assert view is not None
    inf = view.inference()
    _, _, _, known, _ = inf.hidden[0]
    p = inf.position
    me = p.to_move
    cands = p.legal_moves()
    need = card_count(e.worlds[0].hands[1 - me] & ~known)
    i, _totals, _, _ = engine.core().pimc(
        p.hands[me], known, inf.pool, need, len(e.worlds), 0, p.trump, p.lead,
        -1 if p.trick is None else p.trick, 10, cands,
        worlds=[w.hands[1 - me] & ~known for w in e.worlds],
    )  # fmt: skip
    assert card_str(cands[i]) == row["pimc_card"]
    # provably worse: the best strategy starting with PIMC's card scores less than a
    # strategy that is checked directly, world by world
    assert row["pimc_card"] != row["card"]
    assert e.pimc_total < sum(strategy_values(e.worlds, e.strategy)) == row["total"]


# ----------------------------------------------------------------------------- views and limits
def _ending_view(seed: int, cards_left: int, lead_too: bool = False) -> View:
    rng = random.Random(seed)
    deal = Deal.random(seed)
    state = PlayState(Position(rng.randrange(4), 0, deal.hands), deal.turn)
    while state.position.tricks_left > cards_left or (
        lead_too and state.position.trick is None and state.position.tricks_left == cards_left
    ):
        state.step(rng.choice(state.position.legal_moves()))
    return state.view()


def test_every_world_of_a_small_view() -> None:
    view = _ending_view(3, 1)
    worlds = view_worlds(view)
    assert len(worlds) == view.world_count() <= MAX_ENDING_WORLDS
    e = solve_ending(view)
    assert e.worlds == tuple(worlds)
    totals = [sum(strategy_values(worlds, s)) for s in pure_strategies(worlds)]
    assert e.total == max(totals)


def test_explicit_worlds_of_a_view_follow_the_view() -> None:
    view = _ending_view(4, 3, lead_too=True)
    worlds = view_worlds(view, max_worlds=10**6)[:5]
    opp = 1 - view.seat
    holdings = [format_holding(w.hands[opp]) for w in worlds]
    e = solve_ending(view, holdings)
    assert e.total == solve_worlds(worlds).total
    assert e.to_json()["worlds"] == holdings
    assert solve_ending(view, [w.hands[opp] for w in worlds]).total == e.total


def test_too_large_endings_are_refused_with_the_position() -> None:
    view = _ending_view(5, 5)
    with pytest.raises(RulesError, match=r'at most 4 cards in each hand: "seat=.*" has 5 and 5'):
        solve_ending(view)
    view = _ending_view(5, 4)
    with pytest.raises(RulesError, match=rf'worlds fit "{view}" \(the exact search takes at most'):
        solve_ending(view)
    big = [
        Position.parse("trump=H lead=E E=AKQ... D=.AKQ.."),
        Position.parse("trump=H lead=E E=AKQ... D=.AKJ.."),
    ]
    with pytest.raises(RulesError, match="2 worlds for .* at most 1"):
        solve_worlds(big, max_worlds=1)
    with pytest.raises(RulesError, match="given twice"):
        solve_worlds([big[0], big[0]])
    other = Position.parse("trump=H lead=E E=AKJ... D=.AKQ..")
    with pytest.raises(RulesError, match="differ in more than the hand of D"):
        solve_worlds([big[0], other])
    with pytest.raises(RulesError, match="at least one world"):
        solve_worlds([])


def test_a_world_the_view_rules_out_is_refused() -> None:
    view = _ending_view(4, 3, lead_too=True)
    mine = format_holding(view.hand)
    with pytest.raises(RulesError, match=rf'world .* does not fit "{view}"'):
        solve_ending(view, [mine])


# ----------------------------------------------------------------------------- fusion, drawn
def test_fusion_example_against_brute_force_and_graph() -> None:
    """The smallest stored ending: every pure strategy scored world by world confirms
    the best total and that every strategy starting with PIMC's card scores less."""
    row = min(stored(), key=lambda r: (-r["view"].count(","), len(r["worlds"])))
    e = solve_ending(View.parse(row["view"]), row["worlds"])
    best: dict[str, int] = {}
    for s in pure_strategies(e.worlds):
        first = card_str(s[()])
        best[first] = max(best.get(first, 0), sum(strategy_values(e.worlds, s)))
    assert best == {card_str(c): t for c, t in e.moves.items()}
    assert best[row["pimc_card"]] == row["pimc_total"] < best[row["card"]] == row["total"]
    for w, v in zip(e.worlds, strategy_values(e.worlds, e.strategy), strict=True):
        assert defended(w, e.strategy)[0] == v
    g = strategy_graph(e)
    root = g.nodes["-"]
    assert root["kind"] == "choice" and root["worlds"] == list(range(len(e.worlds)))
    firsts = {d["card"]: d["strategies"] for _, _, d in g.out_edges("-", data=True)}
    assert firsts == {card_str(e.card): ["exact"], card_str(e.pimc_card): ["pimc"]}
    assert g.graph["totals"] == {"exact": e.total, "pimc": e.pimc_total}
    for node, data in g.nodes(data=True):
        if data["kind"] == "reply":
            assert data["worlds"] == reached(e.worlds, data["history"])
            for _, _, d in g.out_edges(node, data=True):
                for name, ws in d["defence"].items():
                    assert set(ws) <= set(data["worlds"]), name
    small = strategy_graph(e, best_replies_only=True)
    assert set(small.nodes) <= set(g.nodes) and small.number_of_nodes() < g.number_of_nodes()
    for _, _, d in small.edges(data=True):
        assert d.get("strategies") or any(d["defence"].values())

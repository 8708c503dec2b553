"""Trick trees and play review against the slow reference minimax."""

from __future__ import annotations

import json
import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.review import naive_line, review
from analysis.samples import random_positions
from analysis.trees import (
    TreeTooLargeError,
    _build,
    count_optimal_lines,
    critical_decisions,
    full_tree,
    optimal_tree,
    principal_variation,
    tree_json,
)
from solver import carabin, reference
from solver.cards import card_str, mask_of, parse_card
from solver.games import get_game
from solver.klabberjass import PACK, Position, Rules

KJ = get_game("klabberjass")
CB = get_game("carabin")


def random_klabberjass(seed: int, cards: int, trick: bool = False) -> Position:
    rng = random.Random(seed)
    pack = [c for c in range(64) if PACK >> c & 1]
    hand = rng.sample(pack, 2 * cards)
    p = Position(rng.randrange(4), rng.randrange(2), (mask_of(hand[:cards]), mask_of(hand[cards:])))
    if trick:
        p = p.play(rng.choice(p.legal_moves()))
    return p


def random_carabin(seed: int, players: int = 3, skip: int = 14) -> carabin.Position:
    rng = random.Random(seed)
    deal = carabin.Deal.random(players=players, rng=rng)
    p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4))
    for _ in range(skip):
        p = p.play(rng.choice(p.legal_moves()))
    return p


def check_tree(game, graph, positions, reference_moves, reference_points):
    sides = game.sides
    for key, attrs in graph.nodes(data=True):
        ref = reference_points(positions[key])
        assert attrs["value"] == {sides[0]: ref[0], sides[1]: ref[1]}, key
    for u, v, d in graph.edges(data=True):
        moves = reference_moves(positions[u])
        card = parse_card(d["card"])
        assert d["value"] == moves[card]
        assert d["loss"] == max(moves.values()) - moves[card]
        assert d["optimal"] == (d["loss"] == 0)
        assert game.key(positions[u].play(card)) == v


def keyed_positions(game, root, graph):
    out = {game.key(root): root}
    for u, v, d in graph.edges(data=True):
        out[v] = out[u].play(parse_card(d["card"]))
    return out


def kj_moves(p):
    return reference.klabberjass_moves(p)


@settings(max_examples=25)
@given(st.integers(0, 10**6), st.integers(1, 4), st.booleans())
def test_klabberjass_optimal_tree_matches_reference(seed, cards, trick):
    root = random_klabberjass(seed, cards, trick)
    graph = optimal_tree(KJ, root)
    positions = keyed_positions(KJ, root, graph)
    assert set(positions) == set(graph.nodes)
    check_tree(KJ, graph, positions, kj_moves, reference.klabberjass_points)
    assert all(d["optimal"] for _, _, d in graph.edges(data=True))
    # every optimal card of every node is in the tree
    for key in graph.nodes:
        p = positions[key]
        if p.is_over:
            continue
        moves = kj_moves(p)
        best = {card_str(c) for c, v in moves.items() if v == max(moves.values())}
        assert {d["card"] for _, _, d in graph.out_edges(key, data=True)} == best


def generic_optimal_tree(game, root, per_class=False, max_nodes=10**6):
    """The tree built move by move (the path Carabin and full trees take)."""
    return _build(
        game, root, depth=None, per_class=per_class, follow="optimal", max_nodes=max_nodes
    )


def assert_same_graph(fast, slow):
    """Equal graphs down to the order of nodes, edges, attributes and moves."""
    assert fast.graph == slow.graph
    assert list(fast.nodes) == list(slow.nodes)
    assert list(fast.edges) == list(slow.edges)
    for key, attrs in slow.nodes(data=True):
        mine = fast.nodes[key]
        assert list(mine.items()) == list(attrs.items()), key
        assert list(mine.get("moves", {}).items()) == list(attrs.get("moves", {}).items()), key
    for u, v, attrs in slow.edges(data=True):
        assert list(fast.edges[u, v].items()) == list(attrs.items()), (u, v)
    for key in slow.nodes:  # same order of successors: the principal variation follows it
        assert list(fast.successors(key)) == list(slow.successors(key))
        assert list(fast.predecessors(key)) == list(slow.predecessors(key))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 6), st.booleans(), st.booleans())
def test_compiled_klabberjass_tree_equals_generic_builder(seed, cards, trick, per_class):
    root = random_klabberjass(seed, max(cards, 1) if trick else cards, trick)
    assert KJ.optimal_flat(root, per_class, 10**6) is not None  # the compiled path
    fast = optimal_tree(KJ, root, per_class=per_class)
    assert_same_graph(fast, generic_optimal_tree(KJ, root, per_class))


def test_compiled_klabberjass_tree_equals_generic_builder_on_full_deals():
    # deals 2 and 0 of the tree benchmark (1,542 and 9,271 nodes), and one with a trick led
    bench = random_positions(3, 1)
    for root in (bench[2], bench[0], random_klabberjass(1002, 9, trick=True)):
        for per_class in (False, True):
            fast = optimal_tree(KJ, root, per_class=per_class)
            assert_same_graph(fast, generic_optimal_tree(KJ, root, per_class))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5))
def test_compiled_klabberjass_tree_with_other_last_trick_bonus(seed, cards):
    game = get_game("klabberjass", Rules(name="custom", last_trick=0))
    root = random_klabberjass(seed, cards)
    fast = optimal_tree(game, root)
    assert_same_graph(fast, generic_optimal_tree(game, root))
    total = sum(fast.nodes[fast.graph["root"]]["value"].values())
    assert total == root.points_left() - 10


def test_compiled_klabberjass_tree_of_a_finished_play():
    root = Position(1, 1, (0, 0))
    fast = optimal_tree(KJ, root)
    assert_same_graph(fast, generic_optimal_tree(KJ, root))
    assert fast.nodes[fast.graph["root"]] == {
        "value": {"E": 0, "D": 0},
        "to_move": None,
        "side": None,
        "depth": 0,
    }


def test_compiled_klabberjass_tree_respects_max_nodes():
    root = random_klabberjass(7, 5)
    size = optimal_tree(KJ, root).number_of_nodes()
    assert size > 3
    assert optimal_tree(KJ, root, max_nodes=size).number_of_nodes() == size
    for cap in (size - 1, 1, 0):
        try:
            optimal_tree(KJ, root, max_nodes=cap)
        except TreeTooLargeError as err:
            assert f"more than {cap} nodes" in str(err)
        else:
            raise AssertionError(f"no error with max_nodes={cap}")
        try:
            generic_optimal_tree(KJ, root, max_nodes=cap)
        except TreeTooLargeError:
            pass
        else:
            raise AssertionError(f"the generic builder has no error with max_nodes={cap}")


def brute_force_lines(p) -> int:
    if p.is_over:
        return 1
    moves = kj_moves(p)
    best = max(moves.values())
    return sum(brute_force_lines(p.play(c)) for c, v in moves.items() if v == best)


@settings(max_examples=15)
@given(st.integers(0, 10**6), st.integers(1, 3))
def test_optimal_line_count_and_pv(seed, cards):
    root = random_klabberjass(seed, cards)
    graph = optimal_tree(KJ, root)
    assert count_optimal_lines(graph) == brute_force_lines(root)
    p = root
    for card in principal_variation(graph):
        moves = kj_moves(p)
        assert moves[parse_card(card)] == max(moves.values())
        p = p.play(parse_card(card))
    assert p.is_over


@settings(max_examples=15)
@given(st.integers(0, 10**6), st.integers(0, 3))
def test_full_tree_losses_match_reference(seed, depth):
    root = random_klabberjass(seed, 3)
    graph = full_tree(KJ, root, depth)
    positions = keyed_positions(KJ, root, graph)
    check_tree(KJ, graph, positions, kj_moves, reference.klabberjass_points)
    assert max(d["depth"] for _, d in graph.nodes(data=True)) == min(depth, 6)


def test_per_class_tree_keeps_one_card_per_class_and_same_values():
    root = Position.parse("trump=H lead=E E=987.A.. D=AKQ.7..")
    full = optimal_tree(KJ, root)
    small = optimal_tree(KJ, root, per_class=True)
    assert small.number_of_nodes() < full.number_of_nodes()
    first = [d for _, _, d in small.out_edges(small.graph["root"], data=True)]
    assert sorted(d["cards"] for d in first) == [["9S", "8S", "7S"], ["AH"]]
    assert all(d["card"] == d["cards"][-1] for d in first)
    assert small.nodes[small.graph["root"]]["value"] == full.nodes[full.graph["root"]]["value"]


def test_critical_decision_found_with_its_margin():
    # E must lead the trump 7 (his ace of spades first loses 10 points)
    graph = optimal_tree(KJ, Position.parse("trump=H lead=E E=A.7.. D=K.8.."))
    crit = critical_decisions(graph)
    assert [(c["seat"], c["optimal"], c["margin"]) for c in crit] == [("E", ["7H"], 10)]


def test_tree_json_is_node_link_data():
    graph = optimal_tree(KJ, random_klabberjass(5, 3))
    data = json.loads(json.dumps(tree_json(graph)))
    assert {n["id"] for n in data["nodes"]} == set(graph.nodes)
    assert len(data["edges"]) == graph.number_of_edges()
    assert all({"card", "loss", "optimal"} <= set(link) for link in data["edges"])
    again = nx.node_link_graph(data)
    assert set(again.edges) == set(graph.edges) and again.graph == graph.graph


@settings(max_examples=10)
@given(st.integers(0, 10**6), st.sampled_from([3, 4]))
def test_carabin_trees_match_reference(seed, players):
    root = random_carabin(seed, players, skip=6 * players)
    graph = optimal_tree(CB, root)
    positions = keyed_positions(CB, root, graph)
    check_tree(CB, graph, positions, reference.carabin_moves, reference.carabin_points)
    graph = full_tree(CB, root, 2)
    positions = keyed_positions(CB, root, graph)
    check_tree(CB, graph, positions, reference.carabin_moves, reference.carabin_points)


@settings(max_examples=15)
@given(st.integers(0, 10**6))
def test_review_losses_match_reference(seed):
    root = random_klabberjass(seed, 4)
    rng = random.Random(seed)
    line, p = [], root
    while not p.is_over:
        line.append(rng.choice(p.legal_moves()))
        p = p.play(line[-1])
    rev = review(KJ, root, line)
    p = root
    taken = [0, 0]
    for row, card in zip(rev.plays, line, strict=True):
        moves = kj_moves(p)
        assert row.loss == max(moves.values()) - moves[card]
        assert row.best == [card_str(c) for c, v in moves.items() if v == max(moves.values())]
        p, winner, pts = p.step(card)
        if winner is not None:
            taken[winner] += pts
    assert rev.projected[-1] == {"E": taken[0], "D": taken[1]} == rev.taken
    total = {s: sum(r.loss for r in rev.plays if r.seat == s) for s in "ED"}
    assert {s: rev.summary[s]["loss"] for s in rev.summary} == {s: total[s] for s in rev.summary}


def test_review_of_carabin_naive_line_ends_at_the_points_taken():
    root = random_carabin(3, 3, skip=0)
    rev = review(CB, root, naive_line(CB, root))
    assert rev.projected[-1] == rev.taken
    assert sum(rev.taken.values()) == root.points_left()

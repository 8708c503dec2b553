"""The compiled Carabin optimal tree (solver/carabin/_tree.h) against the tree built
move by move in Python (analysis.trees._build, the reference), and its limits."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees import TreeTimeoutError, TreeTooLargeError, optimal_tree
from solver import carabin
from solver.carabin.rules import TRICK_ORDERS, Rules
from solver.cards import suit_of
from solver.games import get_game
from tests.analysis.test_trees import assert_same_graph, generic_optimal_tree


def game_of(players: int, order: str = "alternate"):
    return get_game("carabin", Rules(players=players, trick_order=order))


def random_position(seed: int, players: int, tricks_left: int, in_trick: int, order: str):
    """A random deal played at random until ``tricks_left`` tricks are left, then
    ``in_trick`` cards of the next trick (fewer if it is the last card of the deal)."""
    rng = random.Random(seed)
    deal = carabin.Deal.random(players=players, rng=rng)
    p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4), trick_order=order)
    for _ in range((8 - tricks_left) * players + min(in_trick, players - 1)):
        if p.is_over:
            break
        p = p.play(rng.choice(p.legal_moves()))
    return p


@settings(max_examples=80)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    tricks_left=st.integers(0, 3),
    in_trick=st.integers(0, 5),
    order=st.sampled_from(TRICK_ORDERS),
    per_class=st.booleans(),
)
def test_compiled_tree_equals_the_python_builder(
    seed, players, tricks_left, in_trick, order, per_class
):
    game = game_of(players, order)
    root = random_position(seed, players, tricks_left, in_trick, order)
    flat = game.optimal_flat(root, per_class, 10**6)
    assert flat is not None and flat.complete  # the compiled path
    fast = optimal_tree(game, root, per_class=per_class)
    assert_same_graph(fast, generic_optimal_tree(game, root, per_class))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("order", TRICK_ORDERS)
def test_compiled_tree_equals_the_python_builder_four_tricks_from_the_end(players, order):
    # larger trees (hundreds to thousands of positions), with transpositions merged
    game = game_of(players, order)
    root = random_position(players, players, 4 if order == "alternate" else 3, 0, order)
    for per_class in (False, True):
        fast = optimal_tree(game, root, per_class=per_class)
        assert fast.number_of_nodes() > 20
        assert_same_graph(fast, generic_optimal_tree(game, root, per_class))


@pytest.mark.parametrize(("players", "seed", "bidder"), [(3, 26, 2), (3, 32, 2)])
@pytest.mark.parametrize("per_class", [True, False])
def test_compiled_tree_equals_the_python_builder_on_a_full_deal(players, seed, bidder, per_class):
    # a whole deal, every card still held (deals whose optimal tree is small enough for
    # the Python builder: 1,502 and 2,614 positions; most whole deals have hundreds of
    # thousands)
    game = game_of(players)
    deal = game.random_deal(seed)
    root = deal.position(bidder=bidder, trump=suit_of(deal.turn))
    fast = optimal_tree(game, root, per_class=per_class)
    assert max(d for _, d in fast.nodes(data="depth")) == 8 * players
    assert_same_graph(fast, generic_optimal_tree(game, root, per_class=per_class))


def test_merged_transpositions_have_several_parents():
    game = game_of(4)
    root = random_position(4, 4, 4, 0, "alternate")
    fast = optimal_tree(game, root)
    assert any(fast.in_degree(v) > 1 for v in fast.nodes)
    assert_same_graph(fast, generic_optimal_tree(game, root))


def test_tree_of_a_finished_play():
    game = game_of(3)
    root = random_position(1, 3, 0, 0, "alternate")
    assert root.is_over
    fast = optimal_tree(game, root)
    assert_same_graph(fast, generic_optimal_tree(game, root))
    assert fast.nodes[fast.graph["root"]] == {
        "value": {"bidder": 0, "others": 0},
        "to_move": None,
        "side": None,
        "depth": 0,
    }


def test_compiled_tree_respects_max_nodes():
    game = game_of(4)
    root = random_position(4, 4, 4, 0, "alternate")
    size = optimal_tree(game, root).number_of_nodes()
    assert optimal_tree(game, root, max_nodes=size).number_of_nodes() == size
    for cap in (size - 1, 1, 0):
        with pytest.raises(TreeTooLargeError, match=f"more than {cap} nodes"):
            optimal_tree(game, root, max_nodes=cap)
        with pytest.raises(TreeTooLargeError):
            generic_optimal_tree(game, root, max_nodes=cap)


def test_time_limit_and_progress_of_the_compiled_tree():
    game = game_of(5)
    deal = game.random_deal(2)
    root = deal.position(bidder=0, trump=suit_of(deal.turn))
    seen: list[int] = []
    with pytest.raises(TreeTimeoutError, match="within the time limit"):
        optimal_tree(game, root, time_limit=0.2, progress=seen.append, max_nodes=10**6)
    assert seen == sorted(seen)
    # the core is usable afterwards, and without a limit again
    small = random_position(3, 5, 2, 0, "alternate")
    assert_same_graph(optimal_tree(game, small), generic_optimal_tree(game, small))


def test_progress_counts_the_positions_found():
    game = game_of(6)
    root = random_position(6, 6, 4, 0, "alternate")
    seen: list[int] = []
    graph = optimal_tree(game, root, progress=seen.append)
    assert graph.number_of_nodes() > 256 and seen
    assert seen == sorted(seen) and seen[-1] <= graph.number_of_nodes()


def test_core_refuses_bad_arguments():
    core = carabin.core()
    p = random_position(1, 3, 2, 0, "alternate")
    args = carabin.engine._args(p)
    with pytest.raises(ValueError, match="max_nodes"):
        core.optimal_tree(*args, 1, False, -1)
    with pytest.raises(ValueError, match="hands"):
        core.optimal_tree(3, [0] * 5, *args[2:], 1, False, 100)
    assert core.optimal_tree(*args, 1, False, 0) is None


def test_stopping_the_compiled_tree_leaves_the_core_usable():
    game = game_of(5)
    deal = game.random_deal(2)
    root = deal.position(bidder=0, trump=suit_of(deal.turn))
    core = carabin.core()
    timer = threading.Timer(0.1, core.stop)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            optimal_tree(game, root, max_nodes=10**6)
    finally:
        timer.join()
    small = random_position(5, 5, 2, 1, "alternate")
    assert_same_graph(optimal_tree(game, small), generic_optimal_tree(game, small))

"""Trick trees as networkx graphs: optimal play, or every legal line to a depth.

A tree is a :class:`networkx.DiGraph` whose nodes are keyed by the canonical text of
their position, so lines that reach one position by different orders of play
(transpositions) share one node and the graph is a DAG.

Node attributes:
    value: ``{side: points}``, what each side takes from this position on under
        double-dummy play (the unfinished trick included).
    to_move: the seat to play (``E``/``D``, or the Carabin seat number as text).
    side: the side of the seat to move.
    depth: cards played since the root.
    moves: ``{card: points}`` for every legal card, the mover's side's points with it
        (only on expanded nodes).
    critical: exactly one class of equivalent cards is optimal although the mover had
        a choice of several classes (see :meth:`solver.games.Game.equivalence_classes`).

Edge attributes:
    card: the card played (text); ``cards`` lists its equivalent cards when the tree
        keeps one edge per class; ``seat``: who plays it; ``value``: the mover's side's
        points with it; ``loss``: points the mover gives up against his best card;
        ``optimal``: ``loss == 0``; ``won_by`` / ``points``: the seat that wins the trick
        the card completes and the trick's points (None / 0 otherwise).

Graph attributes: ``game``, ``root`` (the root key), ``sides``, ``kind``
(``optimal`` or ``all``), ``depth`` (for ``all``).

Building: a game whose adapter has a compiled enumerator of the optimal DAG
(:meth:`solver.games.Game.optimal_flat`: both games, ``kj_tree_build`` in
``solver/klabberjass/_core.h`` and ``solver/carabin/_tree.h``) gets its optimal trees
from it in one call, as flat lists turned into the graph in bulk; every other tree
(every :func:`full_tree`) is built move by move by :func:`_build`, which stays the
reference the compiled ones are tested against. Both give the same graph, down to the
order of nodes, edges and attributes.

>>> from solver.games import get_game
>>> game = get_game("klabberjass")
>>> g = optimal_tree(game, game.parse_position("trump=H lead=E E=A.7.. D=K.8.."))
>>> principal_variation(g), count_optimal_lines(g)
(['7H', '8H', 'KS', 'AS'], 1)
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable
from typing import Any

import networkx as nx

from solver.cards import card_str
from solver.errors import TricklabError
from solver.games import FlatTree, Game
from solver.limits import MAX_DEPTH, check_count, max_tree_nodes

#: Default cap on the number of nodes of a tree.
MAX_NODES = 200_000


class TreeTooLargeError(TricklabError):
    """A tree would have more nodes than allowed."""


def _check_max_nodes(max_nodes: int) -> None:
    check_count(max_nodes, "max_nodes", 0, max_tree_nodes(), "what this machine's memory holds")


def _too_large(max_nodes: int, root: str) -> TreeTooLargeError:
    return TreeTooLargeError(
        f'the tree of "{root}" has more than {max_nodes} nodes '
        "(start from a later position, keep one card per class, or raise the limit)"
    )


def _node_attrs(game: Game, position: Any, value: tuple[int, int], depth: int) -> dict:
    return {
        "value": {game.sides[0]: value[0], game.sides[1]: value[1]},
        "to_move": game.seat_label(position.to_move) if not position.is_over else None,
        "side": game.sides[game.mover_side(position)] if not position.is_over else None,
        "depth": depth,
    }


def _expand(
    game: Game, graph: nx.DiGraph, key: str, position: Any, moves: dict[int, int], follow: str
) -> list[tuple[list[int], bool]]:
    """Record a node's moves and classes; the classes to follow (cards, optimal)."""
    best = max(moves.values())
    classes = game.equivalence_classes(position, list(moves))
    optimal = [cls for cls in classes if moves[cls[0]] == best]
    attrs = graph.nodes[key]
    attrs["moves"] = {card_str(c): v for c, v in moves.items()}
    attrs["critical"] = len(classes) > 1 and len(optimal) == 1
    chosen = classes if follow == "all" else optimal
    return [(cls, moves[cls[0]] == best) for cls in chosen]


class TreeTimeoutError(TricklabError):
    """A tree not finished within its time limit."""


def _timed_out(time_limit: float | None, positions: int) -> TreeTimeoutError:
    return TreeTimeoutError(
        f"the tree was not finished within the time limit ({time_limit or 0:g} s; "
        f"{positions} positions so far): start from a later position, "
        "keep one card per class, or allow more time"
    )


def _build(
    game: Game,
    position: Any,
    *,
    depth: int | None,
    per_class: bool,
    follow: str,
    max_nodes: int,
    time_limit: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> nx.DiGraph:
    """The tree built move by move; under a ``time_limit`` the engine's searches stop
    at the deadline too (a single search of a whole deal of many players can be long)."""
    if time_limit is None:
        return _build_moves(game, position, depth, per_class, follow, max_nodes, None, progress)
    from analysis.advice import _engine_core

    core = _engine_core(game, getattr(position, "players", None))
    core.set_time_limit(time_limit)
    found = [1]

    def counted(positions: int) -> None:
        found[0] = positions
        if progress is not None:
            progress(positions)

    try:
        return _build_moves(
            game, position, depth, per_class, follow, max_nodes, time_limit, counted
        )
    except TimeoutError:
        raise _timed_out(time_limit, found[0]) from None
    finally:
        core.set_time_limit(None)


def _build_moves(
    game: Game,
    position: Any,
    depth: int | None,
    per_class: bool,
    follow: str,
    max_nodes: int,
    time_limit: float | None,
    progress: Callable[[int], None] | None,
) -> nx.DiGraph:
    root = game.key(position)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    graph = nx.DiGraph(game=game.name, root=root, sides=list(game.sides), kind=follow)
    if depth is not None:
        graph.graph["depth"] = depth
    positions = {root: position}
    layer = [root]
    level = 0
    leaves: list[str] = []
    while layer:
        nxt: list[str] = []
        for key in layer:
            if deadline is not None and time.monotonic() > deadline:
                raise _timed_out(time_limit, len(positions))
            if progress is not None and graph.number_of_nodes() % 256 == 0:
                progress(len(positions))
            pos = positions[key]
            if pos.is_over:
                graph.add_node(key, **_node_attrs(game, pos, (0, 0), level))
                continue
            if depth is not None and level >= depth:
                leaves.append(key)
                graph.add_node(key, **_node_attrs(game, pos, (0, 0), level))
                continue
            moves = dict(sorted(game.move_values(pos).items()))  # card order, as the compiled trees
            graph.add_node(key, **_node_attrs(game, pos, game.value_from_moves(pos, moves), level))
            best = max(moves.values())
            seat = game.seat_label(pos.to_move)
            for cls, _optimal in _expand(game, graph, key, pos, moves, follow):
                for card in [cls[-1]] if per_class else cls:
                    child, winner, pts = game.step(pos, card)
                    ckey = game.key(child)
                    if ckey not in positions:
                        positions[ckey] = child
                        nxt.append(ckey)
                        if len(positions) > max_nodes:
                            raise _too_large(max_nodes, root)
                    attrs = {
                        "card": card_str(card),
                        "seat": seat,
                        "value": moves[card],
                        "loss": best - moves[card],
                        "optimal": moves[card] == best,
                        "won_by": game.seat_label(winner) if winner is not None else None,
                        "points": pts,
                    }
                    if per_class:
                        attrs["cards"] = [card_str(c) for c in cls]
                    graph.add_edge(key, ckey, **attrs)
        layer = nxt
        level += 1
    if leaves:
        for key, value in zip(leaves, game.values([positions[k] for k in leaves]), strict=True):
            graph.nodes[key]["value"] = {game.sides[0]: value[0], game.sides[1]: value[1]}
    return graph


def _build_flat(game: Game, root: str, flat: FlatTree, per_class: bool) -> nx.DiGraph:
    """The graph of a flat optimal tree, equal to what :func:`_build` makes of it.

    Every node and edge attribute dict is made once, here, and stored straight into
    the DiGraph's own maps (``_node``, ``_succ``, ``_pred``, as ``add_nodes_from`` and
    ``add_edges_from`` do, less their copy of every dict and their per-item checks:
    the keys are known distinct and the graph is new). The cyclic garbage collector
    is paused meanwhile: the hundreds of thousands of new dicts would otherwise set
    off many collections with nothing to free.
    """
    graph = nx.DiGraph(game=game.name, root=root, sides=list(game.sides), kind="optimal")
    s0, s1 = game.sides
    text = {c: card_str(c) for c in range(64) if c & 15 < 13}
    seat = {m: game.seat_label(m) if m >= 0 else None for m in set(flat.mover)}
    side = {s: game.sides[s] if s >= 0 else None for s in set(flat.side)}
    won = {w: game.seat_label(w) if w >= 0 else None for w in set(flat.edge_won)}
    start, mvalue = flat.move_start, flat.move_value
    mtext = [text[c] for c in flat.move_card]
    keys = flat.keys
    collecting = gc.isenabled()
    gc.disable()
    try:
        nodes = [
            {
                "value": {s0: v0, s1: v1},
                "to_move": seat[mover],
                "side": side[sd],
                "depth": depth,
                "moves": dict(zip(mtext[a:b], mvalue[a:b], strict=True)),
                "critical": bool(crit),
            }
            if mover >= 0
            else {"value": {s0: v0, s1: v1}, "to_move": None, "side": None, "depth": depth}
            for v0, v1, mover, sd, depth, crit, a, b in zip(
                flat.value0,
                flat.value1,
                flat.mover,
                flat.side,
                flat.depth,
                flat.critical,
                start[:-1],
                start[1:],
                strict=True,
            )
        ]
        succ: list[dict] = [{} for _ in keys]
        pred: list[dict] = [{} for _ in keys]
        graph._node.update(zip(keys, nodes, strict=True))
        graph._succ.update(zip(keys, succ, strict=True))
        graph._pred.update(zip(keys, pred, strict=True))
        seats = [seat[m] for m in flat.mover]
        edges = [
            {
                "card": text[card],
                "seat": seats[u],
                "value": value,
                "loss": loss,
                "optimal": loss == 0,
                "won_by": won[w],
                "points": pts,
            }
            for u, card, value, loss, w, pts in zip(
                flat.edge_u,
                flat.edge_card,
                flat.edge_value,
                flat.edge_loss,
                flat.edge_won,
                flat.edge_points,
                strict=True,
            )
        ]
        if per_class and flat.edge_cards is not None:
            for attrs, cls in zip(edges, flat.edge_cards, strict=True):
                attrs["cards"] = [text[c] for c in cls]
        # both adjacency maps of a DiGraph share one data dict per edge
        for u, v, attrs in zip(flat.edge_u, flat.edge_v, edges, strict=True):
            succ[u][keys[v]] = attrs
            pred[v][keys[u]] = attrs
    finally:
        if collecting:
            gc.enable()
    return graph


def optimal_tree(
    game: Game,
    position: Any,
    *,
    per_class: bool = False,
    max_nodes: int = MAX_NODES,
    time_limit: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> nx.DiGraph:
    """The DAG of every line of double-dummy optimal play from ``position``.

    Args:
        game: the game adapter (:func:`solver.games.get_game`).
        position: the root position.
        per_class: keep one edge per class of equivalent optimal cards (its lowest
            card; the edge's ``cards`` lists the class). Far smaller trees, for drawing.
        max_nodes: refuse to build a tree larger than this.
        time_limit: seconds; the compiled Carabin enumeration stops within its
            searches, the tree built in Python between positions (the compiled
            Klabberjass enumeration takes well under a second and ignores it).
        progress: called now and then with the number of positions found so far.

    Returns:
        The tree; every edge is optimal (loss 0).

    Raises:
        TreeTooLargeError: more than ``max_nodes`` positions.
        TreeTimeoutError: not finished within ``time_limit``.
        UsageError: ``max_nodes`` not a whole number from 0 to
            :func:`solver.limits.max_tree_nodes`.
    """
    _check_max_nodes(max_nodes)
    found = [1]

    def counted(positions: int) -> None:
        found[0] = positions
        if progress is not None:
            progress(positions)

    try:
        flat = game.optimal_flat(
            position, per_class, max_nodes, time_limit=time_limit, progress=counted
        )
    except TimeoutError:
        raise _timed_out(time_limit, found[0]) from None
    if flat is None:
        return _build(
            game,
            position,
            depth=None,
            per_class=per_class,
            follow="optimal",
            max_nodes=max_nodes,
            time_limit=time_limit,
            progress=progress,
        )
    root = game.key(position)
    if not flat.complete:
        raise _too_large(max_nodes, root)
    return _build_flat(game, root, flat, per_class)


def full_tree(
    game: Game,
    position: Any,
    depth: int,
    *,
    per_class: bool = False,
    max_nodes: int = MAX_NODES,
    time_limit: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> nx.DiGraph:
    """Every legal line of play from ``position`` to ``depth`` cards, with its losses.

    Leaves at the depth limit carry their double-dummy value (solved in one batch).
    ``time_limit`` and ``progress`` as for :func:`optimal_tree`.

    Raises:
        TreeTooLargeError: more than ``max_nodes`` positions.
        TreeTimeoutError: not finished within ``time_limit``.
        UsageError: ``depth`` not a whole number from 0 to ``solver.limits.MAX_DEPTH``,
            or ``max_nodes`` not one from 0 to :func:`solver.limits.max_tree_nodes`.
    """
    check_count(depth, "depth", 0, MAX_DEPTH)
    _check_max_nodes(max_nodes)
    return _build(
        game,
        position,
        depth=depth,
        per_class=per_class,
        follow="all",
        max_nodes=max_nodes,
        time_limit=time_limit,
        progress=progress,
    )


# ---------------------------------------------------------------------- helpers


def critical_decisions(graph: nx.DiGraph) -> list[dict]:
    """The nodes where exactly one class of equivalent cards is optimal.

    Returns:
        One dict per critical node, shallowest first: ``position`` (the node key),
        ``seat``, ``depth``, ``optimal`` (the optimal cards), ``margin`` (points lost by
        the best card outside the optimal class) and ``moves``.
    """
    out = []
    for key, attrs in graph.nodes(data=True):
        if not attrs.get("critical"):
            continue
        moves = attrs["moves"]
        best = max(moves.values())
        optimal = [c for c, v in moves.items() if v == best]
        others = [v for c, v in moves.items() if v != best]
        out.append(
            {
                "position": key,
                "seat": attrs["to_move"],
                "depth": attrs["depth"],
                "optimal": optimal,
                "margin": best - max(others) if others else 0,
                "moves": moves,
            }
        )
    out.sort(key=lambda d: (d["depth"], d["position"]))
    return out


def _optimal_successors(graph: nx.DiGraph, key: str) -> Iterable[str]:
    return (v for _, v, d in graph.out_edges(key, data=True) if d["optimal"])


def count_optimal_lines(graph: nx.DiGraph) -> int:
    """Number of distinct lines of optimal play from the root to the end of the tree.

    In a tree with one edge per class, lines differing only by equivalent cards count once.
    """
    count: dict[str, int] = {}
    for key in reversed(list(nx.topological_sort(graph))):
        succ = list(_optimal_successors(graph, key))
        count[key] = sum(count[s] for s in succ) if succ else 1
    return count[graph.graph["root"]]


def principal_variation(graph: nx.DiGraph) -> list[str]:
    """One optimal line from the root: at each node the first optimal edge."""
    line: list[str] = []
    key = graph.graph["root"]
    while True:
        edges = [(v, d) for _, v, d in graph.out_edges(key, data=True) if d["optimal"]]
        if not edges:
            return line
        key, data = edges[0]
        line.append(data["card"])


def tree_json(graph: nx.DiGraph) -> dict:
    """The tree as ``networkx.node_link_data`` (``nodes``/``edges``), ready for ``json``.

    The keys are networkx's defaults (3.6 and later), so ``nx.node_link_graph(data)``
    rebuilds the graph without arguments.
    """
    return nx.node_link_data(graph, edges="edges")


def tree_summary(graph: nx.DiGraph) -> dict:
    """Sizes and headline facts of a tree: nodes, edges, lines, value, PV, critical count."""
    root = graph.nodes[graph.graph["root"]]
    return {
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "optimal_lines": count_optimal_lines(graph),
        "value": root["value"],
        "pv": principal_variation(graph),
        "critical": len(critical_decisions(graph)),
    }

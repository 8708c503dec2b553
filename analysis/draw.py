"""Matplotlib drawings of trick trees and reviews.

Suits are drawn in the four-colour deck's colours (♠ black, ♥ red, ♦ blue, ♣ green)
so that cards of different suits stay apart at a glance.

A small tree (up to ``max_nodes`` positions) is drawn as it is: one column per card
played, one dot per position coloured by the side to move, each edge labelled with its
card; critical decisions are ringed in red. A whole 9-trick optimal tree has thousands
of positions (the same winners can be cashed in many orders), which no node-link
drawing keeps readable, so it is drawn as its *card lattice* instead
(:func:`card_lattice`): one column per card played, one box per card that some optimal
line plays at that point, arrows between cards that follow each other in some optimal
line, widths growing with the number of optimal lines through them (log scale).
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx

from solver.cards import SUIT_SYMBOLS, SUITS

SUIT_COLOURS = {"S": "#000000", "H": "#d00000", "D": "#0050c8", "C": "#008a00"}
SIDE_COLOURS = ("#f0c040", "#80c0f0")


def card_label(card: str) -> str:
    """``'JH'`` as ``'J♥'``."""
    return card[:-1] + SUIT_SYMBOLS[SUITS.index(card[-1])]


def _line_counts(graph: nx.DiGraph) -> tuple[dict[str, int], dict[str, int]]:
    order = list(nx.topological_sort(graph))
    fwd = dict.fromkeys(order, 0)
    fwd[graph.graph["root"]] = 1
    for u in order:
        for _, v, d in graph.out_edges(u, data=True):
            if d["optimal"]:
                fwd[v] += fwd[u]
    bwd: dict[str, int] = {}
    for u in reversed(order):
        succ = [v for _, v, d in graph.out_edges(u, data=True) if d["optimal"]]
        bwd[u] = sum(bwd[v] for v in succ) if succ else 1
    return fwd, bwd


def card_lattice(graph: nx.DiGraph) -> nx.DiGraph:
    """The optimal lines of a tree projected on (card number, seat, card).

    Returns:
        A DiGraph with nodes ``(depth, seat, card)`` carrying ``lines`` (optimal lines
        playing that card at that point) and ``critical`` (the card was the only
        optimal class at some critical decision), and edges carrying ``lines``.
    """
    fwd, bwd = _line_counts(graph)
    lattice = nx.DiGraph()
    for u, v, d in graph.edges(data=True):
        if not d["optimal"] or not fwd[u]:
            continue
        node = (graph.nodes[u]["depth"], d["seat"], d["card"])
        if node not in lattice:
            lattice.add_node(node, lines=0, critical=False)
        lattice.nodes[node]["lines"] += fwd[u] * bwd[v]
        lattice.nodes[node]["critical"] |= bool(graph.nodes[u].get("critical"))
    for v in graph.nodes:
        ins = [(u, d) for u, _, d in graph.in_edges(v, data=True) if d["optimal"] and fwd[u]]
        outs = [(w, d) for _, w, d in graph.out_edges(v, data=True) if d["optimal"]]
        depth = graph.nodes[v]["depth"]
        for u, d1 in ins:
            for w, d2 in outs:
                a = (depth - 1, d1["seat"], d1["card"])
                b = (depth, d2["seat"], d2["card"])
                lines = fwd[u] * bwd[w]
                if lattice.has_edge(a, b):
                    lattice.edges[a, b]["lines"] += lines
                else:
                    lattice.add_edge(a, b, lines=lines)
    return lattice


def draw_tree(
    graph: nx.DiGraph, ax: Any = None, max_nodes: int = 120, title: str | None = None
) -> Any:
    """Draw a trick tree; trees over ``max_nodes`` positions as their card lattice.

    Returns:
        The matplotlib axes.
    """
    if graph.number_of_nodes() > max_nodes:
        return draw_lattice(card_lattice(graph), ax=ax, title=title)
    import matplotlib.pyplot as plt

    layers: dict[int, list[str]] = {}
    for key, d in graph.nodes(data=True):
        layers.setdefault(d["depth"], []).append(key)
    pos: dict[str, tuple[float, float]] = {}
    for depth in sorted(layers):
        nodes = layers[depth]
        if depth:  # parents' mean height keeps crossings few
            nodes.sort(
                key=lambda k: (
                    sum(pos[u][1] for u in graph.predecessors(k)) / max(1, graph.in_degree(k))
                )
            )
        for i, key in enumerate(nodes):
            pos[key] = (depth, -(i - (len(nodes) - 1) / 2))
    width = max(len(v) for v in layers.values())
    if ax is None:
        _, ax = plt.subplots(figsize=(max(6, 1.1 * len(layers)), max(3, 0.55 * width)))
    sides = graph.graph["sides"]
    for u, v, d in graph.edges(data=True):
        (x1, y1), (x2, y2) = pos[u], pos[v]
        ax.plot([x1, x2], [y1, y2], color="#999" if d["optimal"] else "#ddd", lw=1, zorder=1)
        label = "/".join(card_label(c) for c in d.get("cards", [d["card"]]))
        ax.text(
            (x1 + x2) / 2, (y1 + y2) / 2, label, ha="center", va="center", fontsize=8,
            color=SUIT_COLOURS[d["card"][-1]], zorder=3,
            bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
        )  # fmt: skip
    for key, d in graph.nodes(data=True):
        x, y = pos[key]
        colour = SIDE_COLOURS[sides.index(d["side"])] if d["side"] else "#ccc"
        ring = "#d00000" if d.get("critical") else "#555"
        ax.scatter(
            [x],
            [y],
            s=60,
            c=colour,
            edgecolors=ring,
            linewidths=2 if d.get("critical") else 0.8,
            zorder=2,
        )
    root = graph.nodes[graph.graph["root"]]["value"]
    ax.set_title(title or "Optimal play: " + ", ".join(f"{s} {root[s]}" for s in sides))
    ax.set_xlabel("cards played")
    ax.set_yticks([])
    for spine in ("left", "right", "top"):
        ax.spines[spine].set_visible(False)
    return ax


def draw_lattice(lattice: nx.DiGraph, ax: Any = None, title: str | None = None) -> Any:
    """Draw a card lattice (:func:`card_lattice`).

    Returns:
        The matplotlib axes.
    """
    import matplotlib.pyplot as plt

    columns: dict[int, list[tuple]] = {}
    for node in lattice.nodes:
        columns.setdefault(node[0], []).append(node)
    pos = {}
    for depth, nodes in columns.items():
        nodes.sort(key=lambda n: (SUITS.index(n[2][-1]), n[2]))
        for i, node in enumerate(nodes):
            pos[node] = (depth, -(i - (len(nodes) - 1) / 2))
    height = max((len(v) for v in columns.values()), default=1)
    if ax is None:
        _, ax = plt.subplots(figsize=(max(6, 0.75 * len(columns)), max(2.5, 0.5 * height + 1)))
    top = max((d["lines"] for _, _, d in lattice.edges(data=True)), default=1)
    for a, b, d in lattice.edges(data=True):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        w = 0.5 + 3 * math.log1p(d["lines"]) / math.log1p(top)
        ax.plot([x1, x2], [y1, y2], color="#aaa", lw=w, zorder=1)
    for node, d in lattice.nodes(data=True):
        x, y = pos[node]
        card = node[2]
        ax.text(
            x, y, f"{node[1]} {card_label(card)}", ha="center", va="center", fontsize=9,
            color=SUIT_COLOURS[card[-1]], zorder=3, fontweight="bold" if d["critical"] else "normal",
            bbox={"boxstyle": "round,pad=0.25", "fc": "white",
                  "ec": "#d00000" if d["critical"] else "#888", "lw": 1.5 if d["critical"] else 0.8},
        )  # fmt: skip
    ax.set_title(title or "Optimal lines (card lattice; red: critical decision)")
    ax.set_xlabel("cards played")
    ax.set_xlim(-0.6, max(columns, default=0) + 0.6)
    ax.set_ylim(-(height / 2) - 0.5, height / 2 + 0.5)
    ax.set_yticks([])
    for spine in ("left", "right", "top"):
        ax.spines[spine].set_visible(False)
    return ax


def plot_review(rev: Any, ax: Any = None, side: int = 0) -> Any:
    """Plot the projected result of one side along a reviewed line; mistakes marked.

    Args:
        rev: an :class:`analysis.review.Review`.
        ax: axes to draw in (a new figure if None).
        side: which side's projected points to plot (0 or 1).

    Returns:
        The matplotlib axes.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3))
    name = rev.sides[side]
    ys = [p[name] for p in rev.projected]
    ax.step(range(len(ys)), ys, where="post", color="#333")
    for p in rev.plays:
        if p.loss:
            y = p.projected[name]
            ax.scatter([p.index], [y], color="#d00000", zorder=3)
            ax.annotate(
                f"{p.seat} {card_label(p.card)} −{p.loss}", (p.index, y), textcoords="offset points",
                xytext=(4, 6), fontsize=8, color=SUIT_COLOURS[p.card[-1]],
            )  # fmt: skip
    ax.set_xlabel("cards played")
    ax.set_ylabel(f"{name}: taken + double-dummy rest")
    ax.set_title("Value along the game")
    return ax

"""The analysis board's model: a line of play through one deal, every value from the engine.

A :class:`BoardState` holds a start position and a *line* of cards played from it, with
a cursor (``ply``, the number of cards of the line in effect): :meth:`~BoardState.play`
plays a card at the cursor (dropping the rest of the line if it differs from the card
the line had there), :meth:`~BoardState.undo` and :meth:`~BoardState.redo` move the
cursor along the line, :meth:`~BoardState.jump` puts it anywhere on the line and
:meth:`~BoardState.best` plays the next card of the principal variation.

Every number comes from the game's engine (:mod:`solver.games`): the legal cards of the
player to move with their double-dummy values (``game.move_values``: the points of the
mover's side from here with that card) and their *loss* against the best card, the
principal variation from here, the points each side has taken so far and what it takes
under optimal play from here. Values are kept by position, so moving back and forth
costs nothing, and the engines keep one transposition table per process.

>>> board = BoardState.from_text("klabberjass", "trump=H lead=E E=A.7.. D=K.8..")
>>> board.moves()
{AS: 15, 7H: 25}
>>> board.losses()
{AS: 10, 7H: 0}
>>> board.principal_variation()
[7H, 8H, KS, AS]
>>> board.play("AS").play("KS").points()
(15, 0)
>>> str(board.position)
'trump=H lead=E E=.7.. D=.8..'
>>> board.undo().undo().best().history
[7H]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solver.cards import CARDS, Card, card_str, parse_card
from solver.errors import IllegalPlayError, NotationError, RulesError, TricklabError
from solver.games import Game, get_game
from solver.limits import MAX_SAMPLES, check_count

#: Worlds drawn for a single-dummy value, by default.
DEFAULT_SAMPLES = 20
#: Seed of the single-dummy draw, by default.
DEFAULT_SEED = 1


def guess_game(text: str) -> str:
    """The game a position or deal belongs to, by its seat fields (``E``/``D``: Klabberjass).

    >>> guess_game("trump=H lead=E E=A... D=K..."), guess_game("0=A.../K... 1=.../Q...")
    ('klabberjass', 'carabin')
    """
    keys = {tok.partition("=")[0].upper() for tok in text.split()}
    return "klabberjass" if keys & {"E", "D"} else "carabin"


def deal_of(game: Game, text: str) -> Any:
    """The deal ``text`` gives if ``game.parse_start`` reads it as a deal (a turn-up and
    no ``lead=``), else None.

    >>> deal_of(get_game("klabberjass"), "trump=H lead=E E=A... D=K...") is None
    True
    """
    fields = {tok.partition("=")[0] for tok in text.split()}
    if "lead" in fields or "turn" not in fields:
        return None
    return game.parse_deal(text)


def _card(card: int | str) -> Card:
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 64:
        c = CARDS[card]
        if c is not None:
            return c
    raise NotationError(f"invalid card {card!r}")


def _order(cards: Iterable[int]) -> list[Card]:
    """Spades first, high to low: the order cards are listed everywhere."""
    return [CARDS[c] for c in sorted(cards, key=lambda c: (c >> 4, -(c & 15)))]  # type: ignore[misc]


class BoardState:
    """A line of play through a position, with the engine's values at every step.

    Args:
        game: the game (:func:`solver.games.get_game`).
        start: the first position (``game.parse_start`` reads a position, or a deal with
            its contract).
        deal: the deal ``start`` is the first position of, if the board starts from a
            deal (its turn-up is what single-dummy mode and the deal table need).

    Attributes:
        game: the game.
        start: the first position.
        deal: the deal, or None when the board starts from a position.
        line: every card of the line, the ones undone included.
        ply: how many cards of the line are in effect.
        viewer: the seat of single-dummy mode (see :meth:`set_viewer`), or None.
        samples, seed, time_limit: the single-dummy draw: worlds, seed, and seconds
            to solve them in (None: no limit).
    """

    def __init__(self, game: Game, start: Any, deal: Any = None) -> None:
        self.game = game
        self.start = start
        self.deal = deal
        self.viewer: int | None = None
        self.samples = DEFAULT_SAMPLES
        self.seed = DEFAULT_SEED
        self.time_limit: float | None = None
        self._advice: dict[tuple, Any] = {}
        self._table: Any = None
        self._tree: Any = None  # the tree of optimal lines (build_tree), its root's ply,
        self._tree_ply = 0  # the cards played before it, and its expanded nodes
        self._tree_history: list[Card] = []
        self._tree_open: set[str] = set()
        self.line: list[Card] = []
        self.ply = 0
        # positions[i]: the position after i cards of the line; steps[i]: (winner, points)
        # of the card that led to positions[i + 1]
        self._positions: list[Any] = [start]
        self._steps: list[tuple[int | None, int]] = []
        self._moves: dict[str, dict[int, int]] = {}
        self._pv: dict[str, list[Card]] = {}

    @classmethod
    def from_text(cls, game: str | Game, text: str, rules: Any = None) -> BoardState:
        """A board from a position, or a deal with its contract (``trump=``, and
        ``bidder=`` for Carabin).

        Raises:
            NotationError, RulesError: text that does not parse (the message quotes it).
        """
        g = get_game(game, rules) if isinstance(game, str) else game
        start = g.parse_start(text)
        return cls(g, start, deal_of(g, text))

    # ------------------------------------------------------------------ the cursor
    @property
    def position(self) -> Any:
        """The current position (``str()`` gives its notation)."""
        return self._positions[self.ply]

    @property
    def history(self) -> list[Card]:
        """The cards played to reach the current position."""
        return self.line[: self.ply]

    def play(self, card: int | str) -> BoardState:
        """Play a card of the player to move (text like ``AS`` or a card number).

        Raises:
            NotationError: not a card.
            IllegalPlayError: the card may not be played here (the board is unchanged).
        """
        c = _card(card)
        pos = self.position
        if pos.is_over or not pos.legal_set() >> c & 1:
            legal = " ".join(card_str(x) for x in pos.legal_moves()) or "none"
            raise IllegalPlayError(
                f"'{card_str(c)}' may not be played in \"{self.game.key(pos)}\" (legal: {legal})"
            )
        if self.ply < len(self.line) and self.line[self.ply] == c:
            self.ply += 1
            return self
        self.cut()
        nxt, winner, points = self.game.step(pos, c)
        self.line.append(c)
        self._positions.append(nxt)
        self._steps.append((winner, points))
        self.ply += 1
        return self

    def cut(self) -> BoardState:
        """Drop the cards of the line after the cursor (what :meth:`redo` would replay)."""
        del self.line[self.ply :]
        del self._positions[self.ply + 1 :]
        del self._steps[self.ply :]
        return self

    def undo(self) -> BoardState:
        """Take back the last card (it stays on the line for :meth:`redo`).

        Raises:
            RulesError: no card to take back.
        """
        if self.ply == 0:
            raise RulesError("nothing to undo: no card has been played")
        self.ply -= 1
        return self

    def redo(self) -> BoardState:
        """Play again the next card of the line.

        Raises:
            RulesError: the line has no further card.
        """
        if self.ply >= len(self.line):
            raise RulesError("nothing to redo: the line has no further card")
        self.ply += 1
        return self

    def jump(self, ply: int) -> BoardState:
        """Put the cursor after ``ply`` cards of the line (0: the start).

        Raises:
            RulesError: ``ply`` is outside 0 to the length of the line.
        """
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(self.line):
            raise RulesError(f"invalid ply {ply!r} (the line has cards 0 to {len(self.line)})")
        self.ply = ply
        return self

    def best(self) -> BoardState:
        """Play the next card of the principal variation; in single-dummy mode with the
        viewer to play, his best card by the sampled values (:meth:`single_dummy`).

        Raises:
            RulesError: the play is over.
        """
        advice = self.single_dummy()
        if advice is not None:
            return self.play(advice.best)
        pv = self.principal_variation()
        if not pv:
            raise RulesError("the play is over: no card left to play")
        return self.play(pv[0])

    def best_line(self) -> BoardState:
        """Play the principal variation to the end."""
        while not self.position.is_over:
            self.best()
        return self

    # ------------------------------------------------------------------ values
    def _moves_at(self, position: Any) -> dict[int, int]:
        key = self.game.key(position)
        moves = self._moves.get(key)
        if moves is None:
            moves = {} if position.is_over else self.game.move_values(position)
            moves = self._moves[key] = {CARDS[c]: v for c, v in moves.items()}  # type: ignore[misc]
        return moves

    def moves(self) -> dict[Card, int]:
        """Every legal card of the player to move and its double-dummy value: the points
        of the mover's side from here if he plays it (spades first, high to low)."""
        moves = self._moves_at(self.position)
        return {c: moves[c] for c in _order(moves)}

    def losses(self) -> dict[Card, int]:
        """Every legal card and the points it gives up against the best card."""
        moves = self.moves()
        best = max(moves.values(), default=0)
        return {c: best - v for c, v in moves.items()}

    def value(self) -> tuple[int, int]:
        """Points (side 0, side 1) taken from here on under optimal play."""
        pos = self.position
        return self.game.value_from_moves(pos, self._moves_at(pos))

    def principal_variation(self) -> list[Card]:
        """One optimal line from the current position to the end of the play."""
        return list(self._pv_at(self.position))

    def _pv_at(self, position: Any) -> list[Card]:
        key = self.game.key(position)
        pv = self._pv.get(key)
        if pv is not None:
            return pv
        line: list[Card] = []
        pos = position
        while not pos.is_over:
            result = self.game.solve(pos)
            engine_pv = getattr(result, "pv", None)
            if engine_pv is not None:  # the engine gives the whole line (Klabberjass)
                line.extend(CARDS[c] for c in engine_pv)  # type: ignore[misc]
                break
            card = CARDS[result.best]
            line.append(card)  # type: ignore[arg-type]
            pos = self.game.step(pos, card)[0]  # type: ignore[arg-type]
        self._pv[key] = line
        return line

    def points(self) -> tuple[int, int]:
        """Points (side 0, side 1) taken in the tricks completed so far."""
        taken = [0, 0]
        for i in range(self.ply):
            winner, pts = self._steps[i]
            if winner is not None:
                taken[self.game.side_of(self._positions[i], winner)] += pts
        return taken[0], taken[1]

    def projected(self) -> tuple[int, int]:
        """Points so far plus the optimal points from here, per side."""
        (a, b), (c, d) = self.points(), self.value()
        return a + c, b + d

    def tricks(self) -> dict[str, int]:
        """Tricks won so far, per seat (by the seat's label)."""
        won = {self.game.seat_label(s): 0 for s in range(_players(self.start))}
        for winner, _ in self._steps[: self.ply]:
            if winner is not None:
                won[self.game.seat_label(winner)] += 1
        return won

    def critical(self) -> list[dict]:
        """The critical decisions along the line up to the current position: positions
        where exactly one class of equivalent cards keeps the value although the player
        had a choice of several classes (see ``Game.equivalence_classes``).

        Each is a dict: ``ply`` (cards played before it), ``seat``, ``optimal`` (the
        optimal cards), ``margin`` (what the best other card loses), ``played`` (the card
        played there, None at the current position) and its ``loss``.
        """
        out = []
        for i in range(self.ply + 1):
            pos = self._positions[i]
            if pos.is_over:
                continue
            moves = self._moves_at(pos)
            best = max(moves.values())
            classes = self.game.equivalence_classes(pos, list(moves))
            optimal = [cls for cls in classes if moves[cls[0]] == best]
            if len(classes) < 2 or len(optimal) != 1:
                continue
            others = [v for v in moves.values() if v != best]
            played = self.line[i] if i < self.ply else None
            out.append(
                {
                    "ply": i,
                    "seat": self.game.seat_label(pos.to_move),
                    "optimal": [card_str(c) for c in _order(optimal[0])],
                    "margin": best - max(others),
                    "played": card_str(played) if played is not None else None,
                    "loss": best - moves[played] if played is not None else None,
                }
            )
        return out

    # ------------------------------------------------------------------ single dummy
    def set_viewer(
        self,
        seat: int | str | None,
        samples: int | None = None,
        seed: int | None = None,
        time_limit: float | None = None,
    ) -> BoardState:
        """Single-dummy mode for ``seat`` (a label like ``E`` or ``2``, or a seat number),
        or None to leave it. In this mode :meth:`to_json` holds only what the seat sees
        (his hands, the cards played), and each of his legal cards, when he is to play,
        gets its PIMC value (:meth:`single_dummy`) instead of the double-dummy one.

        Args:
            seat: the seat, or None for double-dummy mode.
            samples: worlds drawn (default: unchanged, at first ``DEFAULT_SAMPLES``).
            seed: seed of the draw (default: unchanged, at first ``DEFAULT_SEED``).
            time_limit: seconds to solve the worlds in (the advice then rests on those
                solved in time, the first ones of the same draw); None: no limit.

        Raises:
            RulesError: an unknown seat, or a board not started from a deal (a view
                holds every card played since the first trick and the turn-up).
            UsageError: ``samples`` not a whole number from 1 to ``MAX_SAMPLES``.
        """
        if samples is not None:
            check_count(samples, "samples", 1, MAX_SAMPLES)
        seat_no = None if seat is None else self._seat(seat)
        if seat_no is not None and self.deal is None:
            raise RulesError(
                "single-dummy mode needs a board that starts from a deal (with turn=): "
                f'"{self.game.key(self.start)}" is a position'
            )
        self.viewer = seat_no
        self.samples = self.samples if samples is None else samples
        self.seed = self.seed if seed is None else seed
        self.time_limit = time_limit
        return self

    def _seat(self, seat: int | str) -> int:
        labels = [self.game.seat_label(s) for s in range(_players(self.start))]
        if isinstance(seat, str) and seat.upper() in labels:
            return labels.index(seat.upper())
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(labels):
            return seat
        raise RulesError(f"unknown seat {seat!r} (seats: {' '.join(labels)})")

    def view(self, seat: int | str | None = None) -> Any:
        """What ``seat`` (default: the viewer) knows at the current position, as the
        game's view (``solver.<game>.View``): his hands and every card played.

        Raises:
            RulesError: no deal to start from, or the seat is not to move (a view is
                the seat to move's).
        """
        seat_no = self.viewer if seat is None else self._seat(seat)
        if seat_no is None or self.deal is None:
            raise RulesError("no view: single-dummy mode needs a seat and a deal")
        pos, played = self.position, tuple(self.history)
        if self.game.name == "klabberjass":
            from solver.klabberjass.view import View

            return View(
                seat_no, pos.trump, self.deal.turn, pos.hands[seat_no], played, self.deal.bottom
            )
        from solver.carabin.view import View as CarabinView

        return CarabinView(
            pos.players, seat_no, pos.bidder, pos.trump, self.deal.turn, pos.hands[seat_no],
            played, pos.trick_order,
        )  # fmt: skip

    def single_dummy(self) -> Any:
        """The viewer's PIMC advice at the current position (:func:`analysis.advice.advise`
        on :meth:`view`, with the board's ``samples``, ``seed`` and ``time_limit``, one
        process), or None when the viewer is not to play (or the play is over).

        Its ``moves`` give each legal card's ``mean`` points for the viewer's side from
        here over the worlds, their ``min`` and ``max``, the ``best_rate``, and in
        Carabin ``make_rate`` and ``chelem_rate``.

        Raises:
            TricklabError: not one world solved within ``time_limit`` (the same error
                again for this position, without a second try).
        """
        pos = self.position
        if self.viewer is None or pos.is_over or pos.to_move != self.viewer:
            return None
        key = (self.viewer, tuple(self.history), self.samples, self.seed, self.time_limit)
        advice = self._advice.get(key)
        if advice is None:
            from analysis.advice import advise  # analysis/, loaded only in this mode

            try:
                advice = advise(
                    self.view(),
                    self.samples,
                    self.seed,
                    workers=1,
                    rules=getattr(self.game, "rules", None),
                    time_limit=self.time_limit,
                )
            except TricklabError as err:  # no world solved in time: kept, not retried
                advice = err
            self._advice[key] = advice
        if isinstance(advice, TricklabError):
            raise advice
        return advice

    # ------------------------------------------------------------------ the deal table
    def deal_table(self, time_limit: float | None = None) -> Any:
        """The double-dummy table of the whole deal (every bidder and trump, the deal's
        own contract left out): ``game.deal_table`` (:class:`solver.protocol.DealTable`);
        rows not solved within ``time_limit`` seconds give proven bounds. Kept once made.

        Raises:
            RulesError: the board does not start from a deal.
        """
        if self.deal is None:
            raise RulesError(
                f'no deal table: the board starts from a position, "{self.game.key(self.start)}"'
            )
        if self._table is None:
            import dataclasses

            whole = dataclasses.replace(self.deal, trump=None, bidder=None)
            self._table = self.game.deal_table(whole, time_limit=time_limit)
        return self._table

    # ------------------------------------------------------------------ the tree
    def build_tree(self, max_nodes: int = 50_000, time_limit: float | None = None) -> Any:
        """The tree of optimal lines from the current position
        (:func:`analysis.trees.optimal_tree`, one edge per class of equivalent cards),
        kept as the board's tree: :meth:`tree_json` shows it, :meth:`open_node` expands
        a node, :meth:`follow` plays a path of it.

        Raises:
            TreeTooLargeError, TreeTimeoutError: more than ``max_nodes`` positions, or
                not built within ``time_limit`` (the board keeps its previous tree).
        """
        from analysis.trees import TreeTimeoutError, TreeTooLargeError, optimal_tree

        try:
            graph = optimal_tree(
                self.game, self.position, per_class=True, max_nodes=max_nodes, time_limit=time_limit
            )
        except TreeTooLargeError:
            raise TreeTooLargeError(
                f"the tree of optimal lines from here has more than {max_nodes} positions: "
                "play a few cards first"
            ) from None
        except TreeTimeoutError:
            raise TreeTimeoutError(
                f"the tree of optimal lines from here was not built within {time_limit:g} s: "
                "play a few cards first"
            ) from None
        self._tree = graph
        self._tree_ply = self.ply
        self._tree_history = list(self.history)
        self._tree_open = set()
        return graph

    def open_node(self, path: list[str], expand: bool = True) -> BoardState:
        """Expand (or collapse) the tree's node reached by ``path`` (cards from the root).

        Raises:
            RulesError: no tree, or a path that is not a line of the tree.
        """
        key = self._tree_node(path)
        if expand:
            self._tree_open.add(key)
        else:
            self._tree_open.discard(key)
        return self

    def _tree_node(self, path: Any) -> str:
        graph = self._tree
        if graph is None:
            raise RulesError("no tree: build the tree of optimal lines first")
        if not isinstance(path, list) or not all(isinstance(c, str) for c in path):
            raise RulesError(f"invalid tree path {path!r} (a list of cards like ['AS', 'KS'])")
        key = graph.graph["root"]
        for card in path:
            nxt = [v for _, v, d in graph.out_edges(key, data=True) if d["card"] == card]
            if not nxt:
                raise RulesError(f"{' '.join(path)} is not a line of the tree of optimal lines")
            key = nxt[0]
        return key

    def follow(self, path: list[str]) -> BoardState:
        """Put the board at the tree's node reached by ``path``: back to the tree's root
        position, then play the path's cards (the line after it is replaced if it
        differs).

        Raises:
            RulesError: no tree, or a path that is not a line of the tree (the board is
                unchanged).
        """
        self._tree_node(path)
        root = self._tree_history
        if self.line[: len(root)] != root:  # the line no longer passes through the root
            self.jump(0).cut()
            for c in root:
                self.play(c)
        self.jump(len(root))
        for card in path:
            self.play(card)
        return self

    def tree_json(self) -> dict | None:
        """The tree as the page shows it: the root, and every node under an expanded
        node, depth first: its ``path`` (cards from the root), ``cards`` (the class of
        equivalent optimal cards), ``seat``, ``value`` (points per side from the node on),
        ``children`` (how many), ``open``, ``critical``, ``transposition`` (reached by
        more than one line of the tree), ``won_by``/``points`` of a trick it completes,
        and ``here`` (the board is at this node). None before :meth:`build_tree`."""
        graph = self._tree
        if graph is None:
            return None
        root = graph.graph["root"]
        here = self.history[len(self._tree_history) :]
        on_root_line = self.history[: len(self._tree_history)] == self._tree_history
        here_path = [card_str(c) for c in here] if on_root_line else None
        nodes: list[dict] = []

        def visit(key: str, path: list[str], edge: dict | None, depth: int) -> None:
            attrs = graph.nodes[key]
            opened = key in self._tree_open
            nodes.append(
                {
                    "path": path,
                    "depth": depth,
                    "cards": edge.get("cards", [edge["card"]]) if edge else [],
                    "seat": edge["seat"] if edge else None,
                    "won_by": edge["won_by"] if edge else None,
                    "points": edge["points"] if edge else 0,
                    "value": attrs["value"],
                    "children": graph.out_degree(key),
                    "open": opened,
                    "critical": bool(attrs.get("critical")),
                    "transposition": graph.in_degree(key) > 1,
                    "here": path == here_path,
                }
            )
            if opened and len(nodes) < 2000:
                for _, child, data in graph.out_edges(key, data=True):
                    visit(child, [*path, data["card"]], data, depth + 1)

        visit(root, [], None, 0)
        return {
            "root": root,
            "ply": self._tree_ply,
            "nodes": graph.number_of_nodes(),
            "lines": nodes,
        }

    # ------------------------------------------------------------------ the front end
    def to_json(self) -> dict:
        """Everything the page shows, as plain JSON values (see ``docs/board.md``).

        In single-dummy mode (:meth:`set_viewer`) it holds only what the viewer sees:
        the other seats' hands are left out (``hands`` empty, ``counts`` their sizes),
        and so is every figure that rests on them (the double-dummy values, the
        principal variation, the position's notation, the critical decisions, the line
        after the cursor and the tree); ``moves`` are then the viewer's legal cards with
        their PIMC figures (``single_dummy``), empty when another seat is to play.
        """
        game, pos = self.game, self.position
        sides = list(game.sides)
        over = pos.is_over
        points = self.points()
        common = {
            "game": game.name,
            "sides": sides,
            "trump": "SHDC"[pos.trump],
            "bidder": _bidder_label(game, pos),
            "to_move": None if over else game.seat_label(pos.to_move),
            "mover_side": None if over else sides[game.mover_side(pos)],
            "hand": _hand_in_use(pos),
            "trick": _trick(game, pos),
            "last_trick": self._last_trick(),
            "over": over,
            "points": dict(zip(sides, points, strict=True)),
            "ply": self.ply,
            "can_undo": self.ply > 0,
            "can_redo": self.ply < len(self.line),
            "has_deal": self.deal is not None,
            "seat_labels": [game.seat_label(s) for s in range(_players(pos))],
            "viewer": None if self.viewer is None else game.seat_label(self.viewer),
        }
        if self.viewer is not None:
            return {**common, **self._single_dummy_json()}
        moves = self.moves()
        best = max(moves.values(), default=0)
        value, projected = self.value(), self.projected()
        return {
            **common,
            "position": game.key(pos),
            "start": game.key(self.start),
            "seats": _seats(game, pos, self.tricks()),
            "moves": [
                {"card": card_str(c), "value": v, "loss": best - v, "best": v == best}
                for c, v in moves.items()
            ],
            "value": dict(zip(sides, value, strict=True)),
            "projected": dict(zip(sides, projected, strict=True)),
            "points_left": game.points_left(pos),
            "pv": self._pv_entries(),
            "line": [self._line_entry(i) for i in range(len(self.line))],
            "critical": self.critical(),
            "single_dummy": None,
            "tree": self.tree_json(),
            "table": self._table_json(),
        }

    def _single_dummy_json(self) -> dict:
        """The viewer's part of :meth:`to_json`: nothing of the hidden hands."""
        game, pos = self.game, self.position
        seats = _seats(game, pos, self.tricks())
        viewer = game.seat_label(self.viewer)  # type: ignore[arg-type]
        for seat in seats:
            seat["visible"] = seat["seat"] == viewer
            seat["counts"] = [len(h) for h in seat["hands"]]
            if not seat["visible"]:
                seat["hands"] = [[] for _ in seat["hands"]]
        moves: list[dict] = []
        summary: dict | None = None
        try:
            advice = self.single_dummy()
        except TricklabError as err:
            advice, summary = None, {"error": str(err)}
        if advice is not None:
            for card in advice.ranked:
                m = advice.moves[card]
                moves.append({"card": card, **m, "best": card == advice.best})
            summary = {
                "samples": advice.samples,
                "seed": advice.seed,
                "worlds": advice.worlds,
                "best": advice.best,
                "ranked": list(advice.ranked),
            }
        return {
            "position": str(self.view()),
            "start": None,
            "seats": seats,
            "moves": moves,
            "value": None,
            "projected": None,
            "points_left": None,
            "pv": [],
            "line": [self._public_line_entry(i) for i in range(self.ply)],
            "critical": [],
            "single_dummy": summary,
            "tree": None,
            "table": None,
        }

    def _public_line_entry(self, i: int) -> dict:
        """A card of the line as everybody saw it (no value: values rest on every hand)."""
        pos = self._positions[i]
        winner, pts = self._steps[i]
        return {
            "ply": i + 1,
            "trick": 1 + sum(w is not None for w, _ in self._steps[:i]),
            "seat": self.game.seat_label(pos.to_move),
            "card": card_str(self.line[i]),
            "won_by": self.game.seat_label(winner) if winner is not None else None,
            "points": pts,
        }

    def _table_json(self) -> dict | None:
        """The deal table once made (:meth:`deal_table`): its rows, as the command line's
        JSON, and its flat records."""
        if self._table is None:
            return None
        return {**self._table.to_json(), "records": self._table.records()}

    def _pv_entries(self) -> list[dict]:
        """The principal variation, each card with the seat that plays it."""
        out, pos = [], self.position
        for card in self.principal_variation():
            out.append({"seat": self.game.seat_label(pos.to_move), "card": card_str(card)})
            pos = self.game.step(pos, card)[0]
        return out

    def _line_entry(self, i: int) -> dict:
        pos = self._positions[i]
        moves = self._moves_at(pos)
        best = max(moves.values())
        card = self.line[i]
        winner, pts = self._steps[i]
        return {
            "ply": i + 1,
            "trick": 1 + sum(w is not None for w, _ in self._steps[:i]),
            "seat": self.game.seat_label(pos.to_move),
            "card": card_str(card),
            "value": moves[card],
            "loss": best - moves[card],
            "best": [card_str(c) for c in _order(c for c, v in moves.items() if v == best)],
            "won_by": self.game.seat_label(winner) if winner is not None else None,
            "points": pts,
        }

    def _last_trick(self) -> dict | None:
        """The last trick completed on the line before the cursor."""
        for i in range(self.ply - 1, -1, -1):
            winner, pts = self._steps[i]
            if winner is None:
                continue
            before = self._positions[i]  # the trick as it lay, then the card that ended it
            cards = _trick(self.game, before)
            cards.append(
                {"seat": self.game.seat_label(before.to_move), "card": card_str(self.line[i])}
            )
            return {"cards": cards, "won_by": self.game.seat_label(winner), "points": pts}
        return None


# ---------------------------------------------------------------------- helpers


def _players(position: Any) -> int:
    return len(position.hands)


def _bidder_label(game: Game, pos: Any) -> str | None:
    bidder = getattr(pos, "bidder", None)
    return game.seat_label(bidder) if bidder is not None else None


def _hand_in_use(pos: Any) -> str | None:
    """Carabin: the kind of hand of the current trick (``L`` or ``R``)."""
    hand = getattr(pos, "hand", None)
    return "LR"[hand] if hand is not None else None


def _cards(mask: int) -> list[str]:
    return [card_str(c) for c in _order(c for c in range(64) if mask >> c & 1)]


def _seats(game: Game, pos: Any, tricks: dict[str, int]) -> list[dict]:
    out = []
    for seat, held in enumerate(pos.hands):
        hands = [_cards(held)] if isinstance(held, int) else [_cards(h) for h in held]
        label = game.seat_label(seat)
        out.append(
            {
                "seat": label,
                "side": game.sides[game.side_of(pos, seat)],
                "hands": hands,
                "tricks": tricks[label],
            }
        )
    return out


def _trick(game: Game, pos: Any) -> list[dict]:
    """The cards of the unfinished trick, from the leader on, with their seats."""
    trick = pos.trick
    if trick is None:
        cards: tuple[int, ...] = ()
    elif isinstance(trick, int):
        cards = (trick,)
    else:
        cards = tuple(trick)
    n = _players(pos)
    return [
        {"seat": game.seat_label((pos.lead + i) % n), "card": card_str(c)}
        for i, c in enumerate(cards)
    ]

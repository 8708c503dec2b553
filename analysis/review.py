"""Play review: how many points each card of a real line gave away, against double dummy.

For every card played, the position before it is solved card by card: the card's
*loss* is the points its player's side gives up against his best card (0 for an
optimal card), and ``best`` lists the optimal cards. The *projected* result after a
card is the points each side has taken so far plus what it takes from there under
optimal play: flat along an optimal line, it moves at each mistake, so plotting it
shows where the game was won and lost.

>>> from solver.games import get_game
>>> game = get_game("klabberjass")
>>> r = review(game, game.parse_start("trump=H lead=E E=A.7.. D=K.8.."), "AS KS 7H 8H")
>>> [(p.card, p.loss, p.best) for p in r.plays][:2]
[('AS', 10, ['7H']), ('KS', 0, ['KS'])]
>>> r.summary["E"]["loss"], r.projected[-1]
(10, {'E': 15, 'D': 10})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.cards import Card, as_card, card_str, parse_card_list
from solver.errors import IllegalPlayError, TricklabError, UsageError
from solver.games import Game


@dataclass(frozen=True)
class PlayReview:
    """One card of the line.

    Attributes:
        index: 1 for the first card of the line.
        seat: who played it.
        card: the card.
        value: points of the mover's side from here with this card.
        loss: points given up against the best card.
        best: the optimal cards.
        moves: every legal card's value.
        projected: after the card, each side's points taken so far plus its optimal
            points from here.
        won_by: the seat that won the trick this card completed, or None.
    """

    index: int
    seat: str
    card: str
    value: int
    loss: int
    best: list[str]
    moves: dict[str, int]
    projected: dict[str, int]
    won_by: str | None

    def to_json(self) -> dict:
        """One row of the ``plays`` list of ``tricklab review --json``."""
        return {
            "card": self.card,
            "seat": self.seat,
            "loss": self.loss,
            "best": self.best,
            "value": self.value,
            "moves": self.moves,
            "projected": self.projected,
            "won_by": self.won_by,
        }


@dataclass(frozen=True)
class Review:
    """The review of a line of play.

    Attributes:
        game: the game's name.
        sides: the two sides.
        start: the starting position (text).
        plays: one :class:`PlayReview` per card.
        projected: the projected result before the first card, then after each card.
        taken: points each side actually took in the completed tricks of the line.
        summary: per seat: ``cards``, ``mistakes`` (cards with a loss), ``loss`` (sum)
            and ``worst`` (the costliest card, or None).
        final: the position after the line (text).
    """

    game: str
    sides: tuple[str, str]
    start: str
    plays: list[PlayReview]
    projected: list[dict[str, int]]
    taken: dict[str, int]
    summary: dict[str, dict]
    final: str = field(default="")

    def to_json(self) -> dict:
        """The command line's JSON object (docs/cli.md) (``plays`` plus the summary and projections)."""
        return {
            "start": self.start,
            "plays": [p.to_json() for p in self.plays],
            "summary": self.summary,
            "projected": self.projected,
            "taken": self.taken,
            "final": self.final,
        }

    def text(self) -> str:
        """A readable report: one line per card, then the summary per seat."""
        lines = [f"Review from: {self.start}"]
        start = self.projected[0]
        lines.append(
            "Double-dummy result at the start: " + ", ".join(f"{s} {start[s]}" for s in self.sides)
        )
        for p in self.plays:
            note = "ok" if p.loss == 0 else f"loses {p.loss} (best: {' '.join(p.best)})"
            proj = ", ".join(f"{s} {p.projected[s]}" for s in self.sides)
            lines.append(f"{p.index:3d}. {p.seat:>2} {p.card}  {note:<32} projected {proj}")
        lines.append("Summary:")
        for seat, s in self.summary.items():
            line = (
                f"  {seat}: {s['cards']} cards, {s['mistakes']} mistakes, {s['loss']} points lost"
            )
            w = s["worst"]
            if w:
                line += f", worst {w['card']} (card {w['index']}, -{w['loss']})"
            lines.append(line)
        return "\n".join(lines)


def parse_play(text: str) -> list[Card]:
    """Read a line of play: cards separated by spaces or commas.

    >>> [card_str(c) for c in parse_play("AS, ks 10h")]
    ['AS', 'KS', 'TH']
    """
    return parse_card_list(text.replace(",", " "), text)


def review(
    game: Game,
    start: Any,
    play: str | list[int],
    *,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a line of play from ``start``.

    Args:
        game: the game adapter.
        start: the position before the first card of the line.
        play: the cards played, in order: a text, or a list of cards (Card values,
            their numbers or their notations).
        time_limit: seconds for the whole review (its searches stop at the deadline).
        progress: called with (cards reviewed, cards) as the review goes.

    Returns:
        The review.

    Raises:
        NotationError: an unreadable card.
        UsageError: ``play`` neither a text nor a list of cards.
        IllegalPlayError: a card that may not be played; the message names it, its
            place in the line and the legal cards (the whole line is checked before
            any search).
        TricklabError: not finished within ``time_limit``.
    """
    cards, text = _cards(play)
    _check_line(game, start, cards, text)
    if time_limit is None:
        return _review(game, start, cards, progress)
    from analysis.advice import _engine_core

    core = _engine_core(game, getattr(start, "players", None))
    core.set_time_limit(time_limit)
    done = [0]

    def counted(reviewed: int, total: int) -> None:
        done[0] = reviewed
        if progress is not None:
            progress(reviewed, total)

    try:
        return _review(game, start, cards, counted)
    except TimeoutError:
        raise TricklabError(
            f"the review was not finished within the time limit ({time_limit:g} s; "
            f"{done[0]} of {len(cards)} cards reviewed): review from a later position, "
            "or allow more time"
        ) from None
    finally:
        core.set_time_limit(None)


def _cards(play: str | list[int]) -> tuple[list[Card], str]:
    """The cards of a line, and its text for messages."""
    if isinstance(play, str):
        cards = parse_play(play)
    elif isinstance(play, list | tuple):
        cards = []
        for given in play:
            card = as_card(given)
            if card is None:
                raise IllegalPlayError(f"invalid card {given!r} in the play (not a card's number)")
            cards.append(card)
    else:
        raise UsageError(f"invalid play {play!r:.80} (a text or a list of cards)")
    text = play if isinstance(play, str) else " ".join(card_str(c) for c in cards)
    return cards, text


def _check_line(game: Game, start: Any, cards: list[Card], text: str) -> None:
    """Every card of the line may be played where it is.

    Raises:
        IllegalPlayError: the first that may not.
    """
    position = start
    for i, card in enumerate(cards, 1):
        if position.is_over:
            raise IllegalPlayError(
                f'card {i} {card_str(card)} of "{text}": the play is over after {i - 1} cards'
            )
        if not position.legal_set() >> card & 1:
            legal = " ".join(card_str(c) for c in position.legal_moves())
            raise IllegalPlayError(
                f'card {i} {card_str(card)} of "{text}" may not be played by '
                f'{game.seat_label(position.to_move)} in "{game.key(position)}" (legal: {legal})'
            )
        position = game.step(position, card)[0]


def _review(
    game: Game, start: Any, cards: list[Card], progress: Callable[[int, int], None] | None
) -> Review:
    sides = game.sides
    position = start
    taken = [0, 0]
    first = game.value(start)
    projected = [{sides[0]: first[0], sides[1]: first[1]}]
    plays: list[PlayReview] = []
    summary: dict[str, dict] = {}
    for i, card in enumerate(cards, 1):
        if progress is not None:
            progress(i - 1, len(cards))
        seat = game.seat_label(position.to_move)
        side = game.mover_side(position)
        # spades first, high to low, as cards are listed everywhere else
        moves = dict(sorted(game.move_values(position).items(), key=lambda m: (m[0] >> 4, -m[0])))
        total = game.points_left(position)
        best_value = max(moves.values())
        value = moves[card]
        after = [0, 0]
        after[side] = taken[side] + value
        after[1 - side] = taken[1 - side] + total - value
        nxt, winner, pts = game.step(position, card)
        if winner is not None:
            taken[game.side_of(position, winner)] += pts
        row = PlayReview(
            index=i,
            seat=seat,
            card=card_str(card),
            value=value,
            loss=best_value - value,
            best=[card_str(c) for c, v in moves.items() if v == best_value],
            moves={card_str(c): v for c, v in moves.items()},
            projected={sides[0]: after[0], sides[1]: after[1]},
            won_by=game.seat_label(winner) if winner is not None else None,
        )
        plays.append(row)
        projected.append(row.projected)
        s = summary.setdefault(seat, {"cards": 0, "mistakes": 0, "loss": 0, "worst": None})
        s["cards"] += 1
        if row.loss:
            s["mistakes"] += 1
            s["loss"] += row.loss
            if s["worst"] is None or row.loss > s["worst"]["loss"]:
                s["worst"] = {"card": row.card, "index": i, "loss": row.loss}
        position = nxt
    return Review(
        game=game.name,
        sides=sides,
        start=game.key(start),
        plays=plays,
        projected=projected,
        taken={sides[0]: taken[0], sides[1]: taken[1]},
        summary=summary,
        final=game.key(position),
    )


def naive_line(game: Game, start: Any, cards: int | None = None) -> list[int]:
    """A plausible human line: grab the trick when you can, else throw your cheapest card.

    The last player to a trick wins it with the card taking the most points if he can,
    else plays his cheapest card; any other player plays his strongest card (highest
    points on ties). Used to show what a review finds in ordinary play.

    Args:
        game: the game adapter.
        start: the first position.
        cards: how many cards to play (default: to the end).
    """
    line: list[int] = []
    position = start
    while not position.is_over and (cards is None or len(line) < cards):
        legal = position.legal_moves()
        outcomes = [(c, *game.step(position, c)) for c in legal]
        if outcomes[0][2] is not None:  # this card completes the trick
            mine = game.mover_side(position)
            wins = [
                o for o in outcomes if o[2] is not None and game.side_of(position, o[2]) == mine
            ]
            if wins:
                card = max(wins, key=lambda o: (o[3], -game.card_points(position, o[0])))[0]
            else:
                card = min(
                    legal, key=lambda c: (game.card_points(position, c), game.power(position, c))
                )
        else:
            card = max(
                legal, key=lambda c: (game.power(position, c), game.card_points(position, c))
            )
        line.append(card)
        position = outcomes[legal.index(card)][1]
    return line

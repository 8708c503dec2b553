"""What one Klabberjass player knows (a *view*), what it implies, and the worlds
consistent with it.

A view is one seat's knowledge during the play: the contract, his own remaining cards
and every card played so far, in order. From the order of play the view knows who
played each card and who led each trick; from the rules it infers what the other hand
cannot hold: a player who does not follow suit is void in it; one who neither follows
nor trumps a plain lead is also void in trumps; one who plays a lower trump on a trump
lead holds no trump above the led one. The turn-up and (``bottom=``) the bottom card
are out of play, and cards the opponent has shown (``shown=``: declared sequences,
Bella) are his unless already played.

Choices written down here: ``played=`` lists the cards separated by commas (like
``trick=``), empty or left out before the first card; the viewer must be the seat to
move; the turn-up is out of play unless ``dix=`` names the seat that exchanged the
trump 7 for it, and the view may add ``shown=<holding>``. A view no deal can produce is
refused with the first problem found.

Sampling is exact and uniform over the consistent worlds: every constraint forbids
single cards to the one hidden hand, so a world is a uniform choice of its unknown
cards among the allowed ones.

>>> v = View.parse("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D")
>>> v.inference().reasons
['D showed out of ♠ at trick 1', 'D showed out of ♥ (trumps) at trick 1']
>>> w = v.sample_worlds(3, seed=1)
>>> len(w), all(p.to_move == 0 and p.hands[0] == v.hand for p in w)
(3, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import Any, ClassVar

from solver.cards import (
    SUIT_SYMBOLS,
    SUITS,
    card_count,
    card_str,
    cards_of,
    cards_text,
    format_holding,
    mask_of,
    parse_card,
    parse_fields,
    parse_holding,
    parse_suit,
    suit_mask,
    suit_of,
)
from solver.errors import IllegalPlayError, RulesError
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    HAND_SIZE,
    PACK,
    beats,
    card_power,
    legal_replies,
    seat_of,
)
from solver.limits import MAX_WORLDS, check_count
from solver.protocol import Inference, check_played_unique, played_cards


@dataclass(frozen=True)
class View:
    """One Klabberjass seat's knowledge: ``seat=E trump=H turn=JH [bottom=7S] [dix=E|D]
    hand=<holding> played=<c>,<c>,… [shown=<holding>]``.

    ``dix=`` names the seat that exchanged the trump 7 for the turn-up (``classic``
    rules): the turn-up is then in that seat's hand (or played by him) and the trump 7
    is out of play in its place; both players saw the exchange.

    Attributes:
        seat: the viewer (0 = E, 1 = D); he must be the seat to move.
        trump: the trump suit.
        turn: the turn-up card (out of play).
        hand: the viewer's remaining cards.
        played: every card played so far, in order; E led the first trick.
        bottom: the bottom card of the stock if it was shown (out of play), or None.
        shown: cards the opponent has shown (declared), played or not.
        dix: the seat that exchanged the trump 7 for the turn-up, or None.
    """

    seat: int
    trump: int
    turn: int
    hand: int
    played: tuple[int, ...] = ()
    bottom: int | None = None
    shown: int = 0
    dix: int | None = None

    game: ClassVar[str] = "klabberjass"
    KEYS: ClassVar[tuple[str, ...]] = (
        "seat", "trump", "turn", "bottom", "dix", "hand", "played", "shown",
    )  # fmt: skip

    @classmethod
    def parse(cls, text: str) -> View:
        """Read a view and check that some deal can produce it.

        >>> str(View.parse("hand=AT97.K.A.AT7 seat=e trump=h turn=jh"))
        'seat=E trump=H turn=JH hand=AT97.K.A.AT7 played='

        Raises:
            NotationError: unreadable text or a missing field.
            RulesError, IllegalPlayError: a view no deal can produce.
        """
        f = parse_fields(text, cls.KEYS, ("seat", "trump", "turn", "hand"), what="view")
        view = cls(
            seat=seat_of(f["seat"], text),
            trump=parse_suit(f["trump"], text),
            turn=parse_card(f["turn"], text),
            hand=parse_holding(f["hand"], text),
            played=played_cards(f, text),
            bottom=parse_card(f["bottom"], text) if "bottom" in f else None,
            shown=parse_holding(f["shown"], text) if "shown" in f else 0,
            dix=seat_of(f["dix"], text) if "dix" in f else None,
        )
        view.inference(text)
        return view

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def __str__(self) -> str:
        text = (
            f"seat={'ED'[self.seat]} trump={SUITS[self.trump]} turn={card_str(self.turn)}"
            + (f" bottom={card_str(self.bottom)}" if self.bottom is not None else "")
            + (f" dix={'ED'[self.dix]}" if self.dix is not None else "")
            + f" hand={format_holding(self.hand)} played={','.join(map(card_str, self.played))}"
        )
        if self.shown:
            text += f" shown={format_holding(self.shown)}"
        return text

    def inference(self, text: str | None = None) -> Inference:
        """Replay the cards played: check them and collect what they imply.

        Raises:
            RulesError: cards that cannot go together (a played card in the hand, too
                many cards, the wrong seat to move, more hidden cards than unseen ones).
            IllegalPlayError: a played card that breaks the rules of play.
        """
        replies = legal_replies

        where = f' in "{text if text is not None else self}"'
        me, opp = self.seat, 1 - self.seat
        names = "ED"
        for name, mask in (("hand", self.hand), ("shown", self.shown)):
            if mask & ~PACK:
                raise RulesError(
                    f"{name} card {cards_text(mask & ~PACK)} is not in the Klabberjass pack "
                    f"(7 to A){where}"
                )
        played_mask = check_played_unique(self.played, PACK, where)
        if not PACK >> self.turn & 1 or (self.bottom is not None and not PACK >> self.bottom & 1):
            raise RulesError(f"the turn-up and bottom card must be in the pack (7 to A){where}")
        # The card lying out of play in the turn-up's place: the trump 7 after a dix.
        shown = self.shown
        set_aside = self.turn
        if self.dix is not None:
            seven = 16 * self.trump + 5
            if suit_of(self.turn) != self.trump or self.turn == seven:
                raise RulesError(
                    f"dix={names[self.dix]} needs a turn-up of the trump suit other than its 7 "
                    f"(turn-up {card_str(self.turn)}, trump {SUITS[self.trump]}){where}"
                )
            set_aside = seven
            if self.dix == opp:
                shown |= 1 << self.turn
        out_of_play = 1 << set_aside | (1 << self.bottom if self.bottom is not None else 0)
        if self.bottom == self.turn:
            raise RulesError(f"bottom card {card_str(self.turn)} is also the turn-up{where}")
        for name, mask in (("played", played_mask), ("in the hand", self.hand)):
            clash = mask & out_of_play
            if clash:
                raise RulesError(
                    f"card {cards_text(clash)} {name} is out of play (the turn-up, the bottom card, or the trump 7 after a dix){where}"
                )
        if self.hand & played_mask:
            raise RulesError(
                f"card {cards_text(self.hand & played_mask)} is both played and in the hand{where}"
            )
        if shown & (self.hand | out_of_play):
            raise RulesError(
                f"shown card {cards_text(shown & (self.hand | out_of_play))} is not the "
                f"opponent's to show{where}"
            )
        if len(self.played) > 2 * HAND_SIZE:
            raise RulesError(f"{len(self.played)} cards played, a deal has {2 * HAND_SIZE}{where}")

        # who played what
        seats = []
        lead = 0
        for i in range(0, len(self.played), 2):
            seats.append(lead)
            if i + 1 < len(self.played):
                seats.append(1 - lead)
                lead = (lead, 1 - lead)[beats(self.played[i + 1], self.played[i], self.trump)]
        by = [
            mask_of(c for c, s in zip(self.played, seats, strict=True) if s == seat)
            for seat in (0, 1)
        ]
        mine_played = card_count(by[me])
        if card_count(self.hand) + mine_played != HAND_SIZE:
            raise RulesError(
                f"hand={format_holding(self.hand)} holds {card_count(self.hand)} cards; "
                f"{names[me]} should hold {HAND_SIZE - mine_played} ({HAND_SIZE} less the "
                f"{mine_played} he played){where}"
            )
        opp_size = HAND_SIZE - card_count(by[opp])
        if self.dix is not None and not (self.hand | by[me] | shown) >> self.turn & 1:
            raise RulesError(
                f"dix={names[self.dix]}: the turn-up {card_str(self.turn)} must be in "
                f"{names[self.dix]}'s hand or among his played cards{where}"
            )
        if self.dix == opp and (self.hand | by[me]) >> self.turn & 1:
            raise RulesError(
                f"dix={names[opp]}: the turn-up {card_str(self.turn)} went to {names[opp]}, "
                f"not to {names[me]}{where}"
            )
        stray = shown & by[me]
        if stray:
            raise RulesError(f"shown card {cards_text(stray)} was played by {names[me]}{where}")
        shown_held = shown & ~by[opp]
        if card_count(shown_held) > opp_size:
            raise RulesError(
                f"{card_count(shown_held)} shown cards, but {names[opp]} holds only {opp_size}{where}"
            )
        trick = self.played[-1] if len(self.played) % 2 else None
        to_move = lead if trick is None else 1 - lead
        if to_move != me:
            raise RulesError(
                f"after {len(self.played)} cards it is {names[to_move]}'s turn, not "
                f"{names[me]}'s (the view must be the seat to move){where}"
            )
        if not self.hand:
            raise RulesError(f"{names[me]} has no card left to play{where}")

        # replay each complete trick for legality and inference
        forbidden = 0
        reasons: list[str] = []
        later = [by[0], by[1]]  # cards each seat plays from trick t on
        for t, i in enumerate(range(0, len(self.played) - 1, 2), 1):
            a, b = self.played[i], self.played[i + 1]
            follower = seats[i + 1]
            later[seats[i]] &= ~(1 << a)
            s = suit_of(a)
            if follower == me:
                hand_t = self.hand | later[me]
                if not replies(hand_t, a, self.trump) >> b & 1:
                    legal = cards_text(replies(hand_t, a, self.trump))
                    raise IllegalPlayError(
                        f"card {i + 2} {card_str(b)} by {names[me]} breaks the rules: "
                        f"with {format_holding(hand_t)} on {card_str(a)} he must play one of "
                        f"{legal}{where}"
                    )
                later[me] &= ~(1 << b)
                continue
            known_t = shown_held | later[opp]
            later[opp] &= ~(1 << b)
            banned = 0
            if suit_of(b) != s:
                banned |= suit_mask(s)
                reasons.append(f"{names[opp]} showed out of {SUIT_SYMBOLS[s]} at trick {t}")
                if s != self.trump and suit_of(b) != self.trump:
                    banned |= suit_mask(self.trump)
                    reasons.append(
                        f"{names[opp]} showed out of {SUIT_SYMBOLS[self.trump]} (trumps) at trick {t}"
                    )
            elif s == self.trump and card_power(b, self.trump) < card_power(a, self.trump):
                higher = mask_of(
                    c
                    for c in cards_of(suit_mask(s) & PACK)
                    if card_power(c, self.trump) > card_power(a, self.trump)
                )
                banned |= higher
                reasons.append(
                    f"{names[opp]} could not overtrump {card_str(a)} at trick {t}: "
                    f"holds none of {cards_text(higher & ~played_mask & ~self.hand) or '-'}"
                )
            clash = banned & PACK & (known_t & ~(1 << b))
            if clash:
                raise IllegalPlayError(
                    f"card {i + 2} {card_str(b)} by {names[opp]} breaks the rules: he "
                    f"{'shows' if clash & shown_held else 'later plays'} {cards_text(clash)}"
                    f", so he had to play it on {card_str(a)}{where}"
                )
            forbidden |= banned & PACK
        pool = PACK & ~(self.hand | played_mask | out_of_play | shown | forbidden)
        need = opp_size - card_count(shown_held)
        if card_count(pool) < need:
            raise RulesError(
                f"no deal fits the view: {names[opp]} holds {need} unknown cards but only "
                f"{card_count(pool)} cards can be his ({cards_text(pool) or 'none'}){where}"
            )
        hands = [0, 0]
        hands[me] = self.hand
        position = Position(self.trump, lead, (hands[0], hands[1]), trick, _checked=True)
        return Inference(position, [(opp, None, opp_size, shown_held, forbidden)], pool, reasons)

    def world_count(self) -> int:
        """Number of consistent worlds (possible hidden hands)."""
        inf = self.inference()
        _, _, size, known, _ = inf.hidden[0]
        return comb(card_count(inf.pool), size - card_count(known))

    def sample_worlds(self, n: int, seed: int | None = None) -> list[Any]:
        """``n`` worlds drawn uniformly (with replacement) among the consistent ones.

        Returns:
            Klabberjass positions, the viewer to move, his hand as in the view.

        Raises:
            UsageError: ``n`` not a whole number from 0 to ``solver.limits.MAX_WORLDS``.
        """
        check_count(n, "n", 0, MAX_WORLDS)
        inf = self.inference()
        rng = random.Random(seed)
        opp, _, size, known, _ = inf.hidden[0]
        pool = list(cards_of(inf.pool))
        need = size - card_count(known)
        base = inf.position
        out = []
        for _ in range(n):
            hands = list(base.hands)
            hands[opp] = known | mask_of(rng.sample(pool, need))
            out.append(
                Position(base.trump, base.lead, (hands[0], hands[1]), base.trick, _checked=True)
            )
        return out

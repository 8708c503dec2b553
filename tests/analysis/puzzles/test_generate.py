"""Puzzles: every generated puzzle re-verified independently of the generator.

The checker here shares no code with :mod:`analysis.puzzles.generate`: it asks the slow
reference minimax (small puzzles) or the engine's plain value functions (the published
collection) "how many points can the goal side still take from here", and walks the
game tree itself.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

from analysis.cli.main import main
from analysis.puzzles.generate import (
    Goal,
    NotUniqueError,
    Puzzle,
    analyse,
    generate,
    greedy_card,
    rating,
    verify,
)
from solver import carabin, klabberjass, reference
from solver.cards import card_str, parse_card
from solver.games import get_game
from solver.klabberjass import engine

DATA = Path(__file__).resolve().parents[3] / "data" / "puzzles"


# ------------------------------------------------------------------ independent checker


class Oracle:
    """The goal side's best points (or whether it takes every trick) from a position."""

    def __init__(self, game: str, how: str) -> None:
        self.game, self.how = game, how

    def parse(self, text: str):
        return (klabberjass if self.game == "klabberjass" else carabin).Position.parse(text)

    def goal_seat_moves(self, pos, root) -> bool:
        if self.game == "klabberjass":
            return pos.to_move == root.to_move
        return pos.to_move == pos.bidder

    def took(self, pos, root, winner) -> bool:
        if self.game == "klabberjass":
            return winner == root.to_move
        return winner == pos.bidder

    def best(self, pos, root) -> int:
        if pos.is_over:
            return 0
        if self.game == "klabberjass":
            seat = root.to_move
            if self.how == "reference":
                return reference.klabberjass_points(pos)[seat]
            e = engine.value(pos)
            return e if seat == 0 else pos.points_left() - e
        if self.how == "reference":
            return reference.carabin_points(pos)[0]
        return carabin.value(pos)

    def sweeps(self, pos, root) -> bool:
        if pos.is_over:
            return True
        if self.game == "klabberjass":
            return klabberjass_sweep(pos, root.to_move)
        if self.how == "reference":
            return reference.carabin_all_tricks(pos)
        return carabin.all_tricks(pos)


@cache
def klabberjass_sweep(pos, seat: int) -> bool:
    """Can ``seat`` win every remaining trick? Plain minimax memoised on positions (the
    tests' own code, like :mod:`solver.reference`)."""
    if pos.is_over:
        return True
    results = []
    for card in pos.legal_moves():
        nxt, winner, _ = pos.step(card)
        results.append(winner in (None, seat) and klabberjass_sweep(nxt, seat))
    return any(results) if pos.to_move == seat else all(results)


def klabberjass_sweep_brute(pos, seat: int) -> bool:
    """The same question by brute force: every line of play, no memo."""
    if pos.is_over:
        return True
    results = []
    for card in pos.legal_moves():
        nxt, winner, _ = pos.step(card)
        results.append(winner in (None, seat) and klabberjass_sweep_brute(nxt, seat))
    return any(results) if pos.to_move == seat else all(results)


def reaches(o: Oracle, pos, root, goal: Goal, need: int, alive: bool) -> bool:
    if not alive:
        return False
    if goal.all_tricks:
        return o.sweeps(pos, root)
    return need <= 0 or o.best(pos, root) >= need


def play(o: Oracle, pos, root, goal: Goal, need: int, card: int):
    nxt, winner, pts = pos.step(card)
    alive = True
    if winner is not None:
        if o.took(pos, root, winner):
            need -= pts
        elif goal.all_tricks:
            alive = False
    return nxt, need, alive


def check_solution_line(o: Oracle, puzzle: dict) -> int:
    """docs/cli.md: the goal is reached only by solution[0] and so on; every defence loses.

    Returns the number of goal-side turns with a choice along the line.
    """
    goal = Goal.from_json(puzzle["goal"])
    root = pos = o.parse(puzzle["position"])
    need = goal.points or 0
    assert reaches(o, pos, root, goal, need, True), "the goal is out of reach"
    choices = 0
    for text in puzzle["solution"]:
        card = parse_card(text)
        legal = pos.legal_moves()
        assert card in legal
        if o.goal_seat_moves(pos, root):
            good = []
            for c in legal:
                nxt, n2, alive = play(o, pos, root, goal, need, c)
                if reaches(o, nxt, root, goal, n2, alive):
                    good.append(c)
            assert good == [card] or len(legal) == 1, (
                f"{puzzle['position']}: at {card_str(card)} the winning cards are "
                f"{[card_str(c) for c in good]}"
            )
            choices += len(legal) > 1
        else:
            for c in legal:
                nxt, n2, alive = play(o, pos, root, goal, need, c)
                assert reaches(o, nxt, root, goal, n2, alive), f"defence {card_str(c)} wins"
        pos, need, alive = play(o, pos, root, goal, need, card)
        assert alive
    return choices


def check_no_dual(o: Oracle, puzzle: dict, limit: int = 50_000) -> None:
    """In the whole strategy tree (every defence, every winning card) the winning cards
    at a goal-side turn are one or all: never some of several."""
    goal = Goal.from_json(puzzle["goal"])
    root = o.parse(puzzle["position"])
    seen = set()

    def walk(pos, need: int) -> None:
        if pos.is_over or (not goal.all_tricks and need <= 0) or (pos, need) in seen:
            return
        seen.add((pos, need))
        assert len(seen) < limit
        legal = pos.legal_moves()
        nexts = [play(o, pos, root, goal, need, c) for c in legal]
        ok = [reaches(o, nxt, root, goal, n2, alive) for nxt, n2, alive in nexts]
        if o.goal_seat_moves(pos, root):
            assert sum(ok) in (1, len(legal)), f'dual in "{pos}"'
        else:
            assert all(ok), f'a defence wins in "{pos}"'
        for (nxt, n2, _alive), good in zip(nexts, ok, strict=True):
            if good:
                walk(nxt, n2)

    walk(root, goal.points or 0)


# ------------------------------------------------------------------ generated puzzles


@pytest.mark.parametrize(
    ("game", "cards", "goal", "seed"),
    [
        ("klabberjass", 3, "max", 1),
        ("klabberjass", 4, "max", 2),
        ("klabberjass", 4, "contract", 3),
        ("carabin", 3, "max", 4),
    ],
)
def test_generated_puzzles_agree_with_the_reference(game, cards, goal, seed):
    kw = {"players": 3} if game == "carabin" else {}
    puzzles = generate(game, count=4, seed=seed, cards=cards, goal=goal, min_decisions=1, **kw)
    o = Oracle(game, "reference")
    for p in puzzles:
        obj = p.to_json()
        assert check_solution_line(o, obj) >= p.decisions >= 1
        check_no_dual(o, obj)


def test_larger_puzzles_agree_with_the_engine_values():
    o = Oracle("klabberjass", "engine")
    for p in generate("klabberjass", count=3, seed=5, cards=7, min_decisions=2):
        check_solution_line(o, p.to_json())
        check_no_dual(o, p.to_json())


def test_generation_is_deterministic_by_seed():
    a = [p.to_json() for p in generate("klabberjass", count=3, seed=11, cards=4)]
    b = [p.to_json() for p in generate("klabberjass", count=3, seed=11, cards=4)]
    c = [p.to_json() for p in generate("klabberjass", count=3, seed=12, cards=4)]
    assert a == b
    assert a != c
    again = Puzzle.from_json(a[0])
    assert verify(again)


@pytest.mark.parametrize(
    ("game", "cards", "themes", "seed", "players"),
    [
        ("klabberjass", 3, (), 1, 4),
        ("klabberjass", 3, ("in-trick",), 2, 4),
        ("klabberjass", 4, ("in-trick",), 3, 4),
        ("carabin", 3, (), 4, 3),
        ("carabin", 4, (), 5, 3),
        ("carabin", 4, (), 6, 4),
    ],
)
def test_all_tricks_puzzles_agree_with_the_reference(game, cards, themes, seed, players):
    """Every generated "take every trick" puzzle, re-verified from scratch: the tests'
    own sweep search (Klabberjass) or the reference chelem search (Carabin)."""
    puzzles = generate(
        game, count=3, seed=seed, cards=cards, goal="all-tricks", themes=themes, players=players
    )
    o = Oracle(game, "reference")
    for p in puzzles:
        obj = p.to_json()
        assert obj["goal"] == {
            "side": "bidder" if game == "carabin" else "ED"[o.parse(p.position).to_move],
            "all_tricks": True,
        }
        assert check_solution_line(o, obj) >= p.decisions >= 1
        check_no_dual(o, obj)
        if game == "carabin":  # a chelem always starts inside a trick, the bidder to play
            pos = o.parse(p.position)
            assert pos.trick and pos.to_move == pos.bidder


def test_klabberjass_sweep_search_against_brute_force():
    """solver.klabberjass.game.all_tricks against every line of play, on random
    positions of up to four cards a hand (a card led to the trick or not), for both seats."""
    rng = random.Random(7)
    pack = [c for c in range(64) if klabberjass.PACK >> c & 1]
    seen = {True: 0, False: 0}
    for _ in range(300):
        k = rng.randint(1, 4)
        cards = rng.sample(pack, 2 * k)
        e = sum(1 << c for c in cards[:k])
        d = sum(1 << c for c in cards[k:])
        pos = klabberjass.Position(rng.randrange(4), rng.randrange(2), (e, d))
        if rng.random() < 0.5:
            pos = pos.play(rng.choice(pos.legal_moves()))
        for seat in (0, 1):
            want = klabberjass_sweep_brute(pos, seat)
            assert klabberjass.all_tricks(pos, seat) == want, (str(pos), seat)
            seen[want] += 1
    assert min(seen.values()) > 50  # both answers well represented


def test_in_trick_puzzles_agree_with_the_reference():
    """Puzzles that start inside a trick: the game's notation, the goal side to play, verified."""
    for game, kw in (("klabberjass", {}), ("carabin", {"players": 3})):
        o = Oracle(game, "reference")
        cards = 3 if game == "klabberjass" else 4
        for p in generate(game, count=3, seed=8, cards=cards, themes=("in-trick",), **kw):
            assert "trick=" in p.position
            pos = o.parse(p.position)
            assert str(pos) == p.position  # round trip through the notation
            if game == "carabin":
                assert pos.trick and pos.to_move == pos.bidder
            else:
                assert pos.trick is not None
            obj = p.to_json()
            assert check_solution_line(o, obj) >= 1
            check_no_dual(o, obj)


def test_themes_shape_the_deal():
    for p in generate("klabberjass", count=3, seed=1, cards=5, themes=("bella",)):
        pos = klabberjass.Position.parse(p.position)
        hand = pos.hands[pos.to_move]
        king, queen = (parse_card(r + "SHDC"[pos.trump]) for r in "KQ")
        assert hand >> king & 1 and hand >> queen & 1
    for p in generate("carabin", count=2, seed=1, cards=4, themes=("void",)):
        pos = carabin.Position.parse(p.position)
        left, right = pos.hands[pos.bidder]
        suits = {c >> 4 for c in range(64) if (left | right) >> c & 1}
        assert len(suits) < 4


def test_a_dual_is_refused():
    # E may lead either ace: both take everything
    with pytest.raises(NotUniqueError, match="dual|first move"):
        analyse("klabberjass", "trump=H lead=E E=A..A. D=7..7.", "max")


def test_rating_formula_and_greedy_player():
    assert rating(3, 2, 1) == 3 + 1.0 + 1.5
    g = get_game("klabberjass")
    pos = klabberjass.Position.parse("trump=H lead=D E=A8... D=K... trick=7S")
    # E answers D's 7S: both spades win the trick, the ace brings 11 points with it
    assert card_str(greedy_card(g, pos)) == "AS"


def test_unreachable_goal_is_refused():
    with pytest.raises(NotUniqueError):
        analyse("klabberjass", "trump=H lead=E E=7... D=A...", Goal("E", 30))


# ------------------------------------------------------------------ the published collection


def _collection(game: str) -> list[dict]:
    rows = []
    for path in sorted(DATA.glob(f"{game}-*/puzzles.jsonl")):
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


@pytest.mark.parametrize("game", ["klabberjass", "carabin"])
def test_collection_is_verified(game):
    rows = _collection(game)
    assert len(rows) >= 50
    assert sum(bool(r["goal"].get("all_tricks")) for r in rows) >= 20  # take every trick
    assert any("trick=" in r["position"] for r in rows)  # puzzles starting inside a trick
    assert len({r["position"] for r in rows}) == len(rows)
    o = Oracle(game, "engine")
    for r in rows:
        assert set(r) >= {"position", "goal", "solution", "rating"}
        assert check_solution_line(o, r) >= 1
        if len(r["line"]) <= 16:  # the whole strategy tree where it is quick to walk
            check_no_dual(o, r)


def test_collection_sheets_exist():
    for folder in DATA.glob("*-*/"):
        sheet = (folder / "sheet.html").read_text(encoding="utf-8")
        n = len((folder / "puzzles.jsonl").read_text().splitlines())
        assert sheet.count("<svg") == n
        assert "♥" in sheet


# ------------------------------------------------------------------ command line


def test_cli_json_lines(capsys):
    assert (
        main(["puzzles", "generate", "klabberjass", "--count", "2", "--seed", "3", "--json"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        obj = json.loads(line)
        assert obj["goal"]["side"] in ("E", "D")
        check_solution_line(Oracle("klabberjass", "reference"), obj)


def test_cli_out_folder(tmp_path, capsys):
    args = ["puzzles", "generate", "carabin", "--count", "2", "--seed", "1", "--cards", "4"]
    assert main([*args, "--out", str(tmp_path), "--render", "svg"]) == 0
    out = capsys.readouterr().out
    assert "bidder to take" in out
    assert len((tmp_path / "puzzles.jsonl").read_text().splitlines()) == 2
    assert (tmp_path / "puzzle-001.svg").read_text().startswith("<svg")
    assert (tmp_path / "sheet.html").exists()


@pytest.mark.parametrize(
    "extra",
    [
        ["klabberjass", "--cards", "1"],
        ["klabberjass", "--cards", "10"],
        ["klabberjass", "--goal", "everything"],
        ["carabin", "--goal", "all-tricks", "--players", "2"],
        ["klabberjass", "--theme", "nonsense"],
        ["carabin", "--theme", "bella"],
        ["carabin", "--players", "7"],
        ["klabberjass", "--count", "0"],
        ["klabberjass", "--render", "svg"],
        ["whist"],
        ["klabberjass", "--count", "x"],
    ],
)
def test_cli_bad_options_exit_2(extra, capsys):
    assert main(["puzzles", "generate", *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1

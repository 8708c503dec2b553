"""The board's single-dummy mode, deal-table panel and tree of optimal lines.

Every figure is checked against the function it must come from (``analysis.advice.advise``
on the seat's view, the game's ``deal_table``, ``analysis.trees.optimal_tree``) computed
here independently of the board, and the data the server and the widget send are
checked to hold nothing of the hands the viewer cannot see.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from analysis.advice import advise
from analysis.board.server import BoardServer
from analysis.board.state import BoardState
from analysis.trees import TreeTooLargeError, optimal_tree
from solver.carabin.rules import Rules as CarabinRules
from solver.carabin.view import View as CarabinView
from solver.cards import card_str, cards_of, parse_card
from solver.errors import RulesError, TricklabError
from solver.games import Game, get_game
from solver.klabberjass.view import View
from tests.analysis.test_board import CARABIN_3, CARABIN_4, KLAB_DEAL, KLAB_POSITION, _request

KLAB_DEAL_2 = "E=T.T.Q9.AJ/.97.K. D=Q.AKQ.J.T/J9...9 turn=8S bottom=AD trump=H"  # Deal.random(5)


def _game(name: str, text: str) -> Game:
    if name == "carabin":
        players = len(re.findall(r"(?:^| )\d=", text))
        return get_game("carabin", CarabinRules(players=players))
    return get_game(name)


def _view(game: Game, text: str, seat: int, played: list[str]) -> object:
    """The seat's view after ``played``, built from the deal here, not by the board."""
    deal = game.parse_deal(text)
    pos = game.parse_start(text)
    for c in played:
        pos = game.play(pos, parse_card(c))
    cards = tuple(parse_card(c) for c in played)
    if game.name == "klabberjass":
        return View(seat, pos.trump, deal.turn, pos.hands[seat], cards, deal.bottom)
    return CarabinView(
        pos.players, seat, pos.bidder, pos.trump, deal.turn, pos.hands[seat], cards, pos.trick_order
    )


def _hidden_cards(game: Game, board: BoardState, viewer: int) -> list[str]:
    """Every card still held by a seat other than the viewer."""
    out = []
    for seat, held in enumerate(board.position.hands):
        if seat == viewer:
            continue
        for mask in [held] if isinstance(held, int) else held:
            out.extend(card_str(c) for c in cards_of(mask))
    return out


def _assert_hides(state: dict, hidden: list[str]) -> None:
    text = json.dumps(state)
    leaked = [c for c in hidden if f'"{c}"' in text or re.search(rf"\b{c}\b", text)]
    assert leaked == [], f"hidden cards in the data: {leaked}"


# ---------------------------------------------------------------------- single dummy


@pytest.mark.parametrize(
    ("name", "text", "seat", "samples", "seed"),
    [
        ("klabberjass", KLAB_DEAL, 0, 20, 1),
        ("klabberjass", KLAB_DEAL_2, 1, 30, 7),
        ("carabin", CARABIN_3, 1, 20, 3),
    ],
    ids=["klab-E", "klab-D", "carabin3"],
)
def test_single_dummy_values_are_the_advice_for_the_seats_view(
    name: str, text: str, seat: int, samples: int, seed: int
) -> None:
    game = _game(name, text)
    board = BoardState.from_text(game, text)
    board.set_viewer(seat, samples=samples, seed=seed)
    checked = 0
    while not board.position.is_over and checked < 3:
        state = board.to_json()
        if board.position.to_move == seat:
            view = _view(game, text, seat, [card_str(c) for c in board.history])
            assert state["position"] == str(view)
            expected = advise(view, samples, seed, workers=1)
            assert {
                m["card"]: {k: v for k, v in m.items() if k not in ("card", "best")}
                for m in state["moves"]
            } == expected.moves
            assert [m["card"] for m in state["moves"]] == list(expected.ranked)
            assert [m["card"] for m in state["moves"] if m["best"]] == [expected.best]
            assert state["single_dummy"]["samples"] == samples
            assert state["single_dummy"]["worlds"] == view.world_count()
            assert board.single_dummy().moves == expected.moves
            checked += 1
        else:
            assert state["moves"] == [] and state["single_dummy"] is None
        assert state["value"] is None and state["pv"] == [] and state["critical"] == []
        _assert_hides(state, _hidden_cards(game, board, seat))
        board.best()  # the viewer: his sampled best card; the others: double dummy
    assert checked >= 2


def test_single_dummy_best_plays_the_sampled_best_card() -> None:
    board = BoardState.from_text("klabberjass", KLAB_DEAL).set_viewer("E", samples=20, seed=2)
    best = board.single_dummy().best
    assert card_str(board.best().history[0]) == best


def test_single_dummy_needs_a_deal_and_a_seat() -> None:
    board = BoardState.from_text("klabberjass", KLAB_POSITION)
    with pytest.raises(RulesError, match="needs a board that starts from a deal"):
        board.set_viewer("E")
    board = BoardState.from_text("klabberjass", KLAB_DEAL)
    with pytest.raises(RulesError, match=r"unknown seat 'X' \(seats: E D\)"):
        board.set_viewer("X")
    with pytest.raises(TricklabError, match="samples"):
        board.set_viewer("E", samples=0)
    assert board.viewer is None and board.samples == 20
    before = board.to_json()
    assert before["moves"][0]["value"] is not None
    board.set_viewer("D")
    assert board.to_json()["moves"] == []  # E is to play, hidden from D
    board.set_viewer(None)
    assert board.to_json() == before


def test_the_server_and_widget_send_nothing_of_the_hidden_hands() -> None:
    game = _game("carabin", CARABIN_4)
    board = BoardState.from_text(game, CARABIN_4)
    board.play("KS")  # seat 0 leads; seat 1 (the bidder) is to play
    with BoardServer(board) as server:
        t = server.token

        def act(action: object) -> tuple[int, dict]:
            status, data = _request(server, "POST", "/api/act", json.dumps(action).encode(), t)
            assert isinstance(data, dict)
            return status, data

        status, data = act({"action": "view", "seat": "1", "samples": 6, "seed": 4})
        assert status == 200 and data["error"] == ""
        state = data["state"]
        assert state["viewer"] == "1"
        _assert_hides(state, _hidden_cards(game, board, 1))
        hidden = [s for s in state["seats"] if s["seat"] != "1"]
        assert all(s["hands"] == [[], []] and sum(s["counts"]) > 0 for s in hidden)
        view = _view(game, CARABIN_4, 1, ["KS"])
        expected = advise(view, state["single_dummy"]["samples"], 4, workers=1)
        assert {m["card"]: m["mean"] for m in state["moves"]} == {
            c: m["mean"] for c, m in expected.moves.items()
        }
        status, again = _request(server, "GET", "/api/state", token=t)
        assert isinstance(again, dict) and again["state"] == state
        # refused actions: one line of error, the state unchanged
        for bad in (
            {"action": "view", "seat": "9"},
            {"action": "view", "seat": "1", "samples": "many"},
            {"action": "view", "seat": "1", "seed": 1.5},
            {"action": "tree"},
            {"action": "play", "card": "AS"},
        ):
            status, answer = act(bad)
            assert status == 400 and "\n" not in answer["error"] and answer["state"] == state
        status, data = act({"action": "view", "seat": None})
        assert data["state"]["viewer"] is None and data["state"]["value"] is not None


def test_the_widget_sets_single_dummy_mode() -> None:
    pytest.importorskip("anywidget", reason="the widget needs anywidget (the analysis extra)")
    from analysis.board import Board

    board = Board(KLAB_DEAL)
    sent: list[dict] = []
    board.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    board._on_message(board, {"id": 1, "action": "view", "seat": "E", "seed": 5}, [])
    assert sent[-1]["error"] == ""
    state = json.loads(board.state)
    _assert_hides(state, _hidden_cards(board.board.game, board.board, 0))
    view = _view(board.board.game, KLAB_DEAL, 0, [])
    expected = advise(view, state["single_dummy"]["samples"], 5, workers=1)
    assert board.single_dummy.moves == expected.moves
    assert {m["card"]: m["mean"] for m in state["moves"]} == {
        c: m["mean"] for c, m in expected.moves.items()
    }
    board.view(None)
    assert json.loads(board.state)["viewer"] is None


# ---------------------------------------------------------------------- the deal table


@pytest.mark.parametrize(
    ("name", "text"),
    [("klabberjass", KLAB_DEAL), ("klabberjass", KLAB_DEAL_2), ("carabin", CARABIN_3)],
)
def test_the_deal_table_panel_is_the_games_table(name: str, text: str) -> None:
    game = _game(name, text)
    board = BoardState.from_text(game, text)
    assert board.to_json()["table"] is None
    board.deal_table()
    table = board.to_json()["table"]
    deal = game.parse_deal(text)
    expected = _game(name, text).deal_table(dataclasses.replace(deal, trump=None, bidder=None))
    assert table["records"] == expected.records()
    assert table["table"] == expected.to_json()["table"]
    assert len(table["records"]) == 4 * len(deal.hands)  # every bidder and trump
    board.set_viewer(0)
    assert board.to_json()["table"] is None  # it rests on every hand


def test_the_deal_table_of_a_position_is_refused() -> None:
    board = BoardState.from_text("klabberjass", KLAB_POSITION)
    with pytest.raises(RulesError, match="no deal table"):
        board.deal_table()


def test_a_carabin_deal_table_under_a_time_limit_answers_in_bounds() -> None:
    game = _game("carabin", CARABIN_4)
    board = BoardState.from_text(game, CARABIN_4)
    table = board.deal_table(time_limit=0.5)
    deal = game.parse_deal(CARABIN_4)
    assert len(table) == 16
    for row in board.to_json()["table"]["table"]:
        if row.get("exact", True):
            continue
        lo, hi = row["points"]
        assert 0 <= lo <= hi  # proven bounds
    assert table.deal.hands == deal.hands


# ---------------------------------------------------------------------- the tree


@pytest.mark.parametrize(
    ("name", "text", "before"),
    [("klabberjass", KLAB_DEAL, 6), ("carabin", CARABIN_3, 3), ("carabin", CARABIN_4, 20)],
)
def test_the_tree_opens_node_by_node_and_jumps_the_board(name: str, text: str, before: int) -> None:
    game = _game(name, text)
    board = BoardState.from_text(game, text)
    for _ in range(before):
        board.best()
    root = board.position
    board.build_tree()
    graph = optimal_tree(game, root, per_class=True)
    tree = board.to_json()["tree"]
    assert tree["nodes"] == graph.number_of_nodes() and tree["ply"] == before
    assert [n["path"] for n in tree["lines"]] == [[]]  # collapsed
    board.open_node([])
    lines = board.to_json()["tree"]["lines"]
    children = [
        (d["card"], d["cards"]) for _, _, d in graph.out_edges(graph.graph["root"], data=True)
    ]
    assert [(n["path"][-1], n["cards"]) for n in lines[1:]] == children
    # walk down the first child of each node, then jump the board there
    path: list[str] = []
    while True:
        board.open_node(path)
        lines = board.to_json()["tree"]["lines"]
        below = [
            n for n in lines if n["path"][: len(path)] == path and len(n["path"]) == len(path) + 1
        ]
        if not below or len(path) >= 4:
            break
        path = below[-1]["path"]
    board.follow(path)
    pos = root
    for c in path:
        pos = game.play(pos, parse_card(c))
    assert game.key(board.position) == game.key(pos)
    assert board.ply == before + len(path)
    here = [n for n in board.to_json()["tree"]["lines"] if n["here"]]
    assert [n["path"] for n in here] == [path]
    node = graph.graph["root"]
    for c in path:
        node = next(v for _, v, d in graph.out_edges(node, data=True) if d["card"] == c)
    assert here[0]["transposition"] == (graph.in_degree(node) > 1)
    assert here[0]["value"] == graph.nodes[node]["value"]
    # a path off the tree changes nothing
    state = board.to_json()
    with pytest.raises(RulesError, match="not a line of the tree"):
        board.follow([*path, "ZZ"])
    with pytest.raises(RulesError, match="invalid tree path"):
        board.open_node("AS")  # type: ignore[arg-type]
    assert board.to_json() == state


def test_the_tree_marks_transpositions() -> None:
    game = get_game("klabberjass")
    board = BoardState.from_text(game, KLAB_DEAL)
    board.build_tree()
    graph = optimal_tree(game, board.start, per_class=True)
    marked = {k for k in graph if graph.in_degree(k) > 1}
    assert marked  # this deal has transpositions
    # open every node along the first lines until one transposition is shown
    seen: list[dict] = []
    frontier: list[list[str]] = [[]]
    while frontier and not any(n["transposition"] for n in seen):
        path = frontier.pop(0)
        board.open_node(path)
        seen = board.to_json()["tree"]["lines"]
        frontier.extend(
            n["path"]
            for n in seen
            if len(n["path"]) == len(path) + 1 and n["path"][: len(path)] == path
        )
    shown = [n for n in seen if n["transposition"]]
    assert shown
    for n in shown:
        key = graph.graph["root"]
        for c in n["path"]:
            key = next(v for _, v, d in graph.out_edges(key, data=True) if d["card"] == c)
        assert key in marked


def test_a_tree_too_large_is_refused_and_the_board_is_unchanged() -> None:
    game = _game("carabin", CARABIN_4)
    board = BoardState.from_text(game, CARABIN_4)
    state = board.to_json()
    with pytest.raises(TreeTooLargeError, match="more than 100 positions: play a few cards first"):
        board.build_tree(max_nodes=100)
    assert board.to_json() == state
    with pytest.raises(RulesError, match="no tree"):
        board.follow([])


def test_no_world_solved_in_time_is_an_error_in_the_state_not_a_crash() -> None:
    game = _game("carabin", CARABIN_4)
    board = BoardState.from_text(game, CARABIN_4)
    board.set_viewer("0", samples=5, time_limit=1e-9)
    state = board.to_json()
    assert state["moves"] == [] and "no world was solved" in state["single_dummy"]["error"]
    with pytest.raises(TricklabError, match="no world was solved"):
        board.best()  # the sampled best card is unknown: refused, nothing played
    assert board.ply == 0
    _assert_hides(state, _hidden_cards(game, board, 0))


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--samples", "0"], "--samples 0"),
        (["--samples", "x"], "--samples 'x'"),
        (["--seed", "1.5"], "--seed '1.5'"),
    ],
)
def test_bad_single_dummy_options_give_one_error_line(capsys, argv: list[str], named: str) -> None:
    from analysis.cli.main import main

    assert main(["board", "klabberjass", KLAB_DEAL, "--no-browser", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err


def test_the_widget_shows_the_table_and_the_tree_from_python() -> None:
    pytest.importorskip("anywidget", reason="the widget needs anywidget (the analysis extra)")
    from analysis.board import Board

    board = Board(KLAB_DEAL)
    table = board.table()
    assert json.loads(board.state)["table"]["records"] == table.records()
    graph = board.tree()
    board.expand([])
    lines = json.loads(board.state)["tree"]["lines"]
    assert len(lines) == 1 + graph.out_degree(graph.graph["root"])
    board.follow(lines[1]["path"])
    assert [card_str(c) for c in board.history] == lines[1]["path"]
    assert json.loads(board.state)["tree"]["lines"][1]["here"]

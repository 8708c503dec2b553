"""The analysis board: every value it shows is the engine's, for both games.

The model (:class:`BoardState`) is checked move by move against ``game.move_values``,
``game.value`` and a replay of the line with ``game.step``; the server against its
security rules and its answers; ``tricklab board`` against bad input and the file it
writes (every embedded state checked against the engine); the widget's Python side.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.board.page import static_html
from analysis.board.server import BoardServer
from analysis.board.state import BoardState, guess_game
from analysis.cli.main import main
from solver.carabin.rules import Rules as CarabinRules
from solver.cards import card_str, parse_card
from solver.errors import IllegalPlayError, NotationError, RulesError, TricklabError
from solver.games import Game, get_game

ROOT = Path(__file__).resolve().parents[2]

KLAB_DEAL = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"
KLAB_POSITION = "trump=H lead=E E=AT7.KJ9.7.A8 D=K.AT8.KT9.Q7"
CARABIN_3 = "0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H trump=S bidder=0"
CARABIN_4 = (
    "0=K2.8..3/Q.6.7.2 1=.K.9.87/T.5.A.K 2=..64.Q6/A.JT.5. 3=3..QJ.5/9.7..AJ "
    "turn=3H trump=S bidder=1"
)
STARTS = [
    ("klabberjass", KLAB_DEAL),
    ("klabberjass", KLAB_POSITION),
    ("carabin", CARABIN_3),
    ("carabin", CARABIN_4),
]


def _game(name: str, text: str) -> Game:
    if name == "carabin":
        players = len(re.findall(r"(?:^| )\d=", text))
        return get_game("carabin", CarabinRules(players=players))
    return get_game(name)


def _replay(game: Game, text: str, cards: list[str]) -> tuple[object, list[int], dict[str, int]]:
    """The position after ``cards`` from the start, the points per side and tricks per
    seat, by the game's own rules (independent of the board)."""
    pos = game.parse_start(text)
    taken = [0, 0]
    tricks = {game.seat_label(s): 0 for s in range(len(pos.hands))}
    for text_card in cards:
        card = parse_card(text_card)
        before = pos
        pos = game.play(pos, card)  # checked: the board played only legal cards
        _, winner, pts = game.step(before, card)
        if winner is not None:
            taken[game.side_of(before, winner)] += pts
            tricks[game.seat_label(winner)] += 1
    return pos, taken, tricks


def _check_against_engine(board: BoardState, text: str) -> None:
    """Everything the board's JSON shows, recomputed from the engine and the rules."""
    game = board.game
    state = board.to_json()
    history = [card_str(c) for c in board.history]
    pos, taken, tricks = _replay(game, text, history)
    assert state["position"] == game.key(pos) == str(board.position)
    engine = game.move_values(pos) if not pos.is_over else {}
    best = max(engine.values(), default=0)
    shown = {m["card"]: (m["value"], m["loss"], m["best"]) for m in state["moves"]}
    assert shown == {card_str(c): (v, best - v, v == best) for c, v in engine.items()}
    value = game.value(pos) if not pos.is_over else (0, 0)
    sides = game.sides
    assert state["value"] == dict(zip(sides, value, strict=True))
    assert state["points"] == dict(zip(sides, taken, strict=True))
    assert state["projected"] == {s: taken[i] + value[i] for i, s in enumerate(sides)}
    assert {s["seat"]: s["tricks"] for s in state["seats"]} == tricks
    assert state["points_left"] == game.points_left(pos)
    # the principal variation is legal and optimal at every card, down to the end
    p = pos
    for entry in state["pv"]:
        moves = game.move_values(p)
        card = next(c for c in moves if card_str(c) == entry["card"])
        assert moves[card] == max(moves.values())
        assert entry["seat"] == game.seat_label(p.to_move)
        p = game.play(p, card)
    assert p.is_over
    # every card of the line shows its value and loss at the position it was played in
    p = game.parse_start(text)
    for entry in state["line"]:
        moves = game.move_values(p)
        card = next(c for c in moves if card_str(c) == entry["card"])
        assert (entry["value"], entry["loss"]) == (moves[card], max(moves.values()) - moves[card])
        p = game.play(p, card)
    json.dumps(state)  # plain JSON values only


@pytest.mark.parametrize(("name", "text"), STARTS, ids=lambda v: v[:30])
def test_a_line_with_mistakes_shows_the_engines_values(name: str, text: str) -> None:
    game = _game(name, text)
    board = BoardState.from_text(game, text)
    _check_against_engine(board, text)
    n = 0
    while not board.position.is_over and n < 12:
        moves = board.moves()
        # alternate the worst card and the best one, so that losses show up
        card = min(moves, key=moves.get) if n % 2 == 0 else max(moves, key=moves.get)
        board.play(card)
        _check_against_engine(board, text)
        n += 1
    assert n == 12 or board.position.is_over


@pytest.mark.parametrize(("name", "text"), STARTS, ids=lambda v: v[:30])
def test_best_line_plays_the_principal_variation_to_its_value(name: str, text: str) -> None:
    game = _game(name, text)
    board = BoardState.from_text(game, text)
    start_value = game.value(board.position)
    pv = board.principal_variation()
    board.best_line()
    assert board.history == pv
    assert board.position.is_over
    assert board.points() == start_value
    assert all(entry["loss"] == 0 for entry in board.to_json()["line"])
    _check_against_engine(board, text)
    if name == "klabberjass":  # the engine's own principal variation
        assert pv == list(game.solve(game.parse_start(text)).pv)


def test_an_illegal_card_is_refused_and_changes_nothing() -> None:
    board = BoardState.from_text("klabberjass", "trump=H lead=D E=KQ... D=..A. trick=9S")
    before = board.to_json()
    with pytest.raises(IllegalPlayError, match=r"'AD' may not be played .*\(legal: KS QS\)"):
        board.play("AD")
    with pytest.raises(NotationError):
        board.play("XX")
    assert board.to_json() == before
    board.play("QS").undo()
    with pytest.raises(IllegalPlayError):
        board.play("9S")
    assert board.to_json()["line"][0]["card"] == "QS" and board.ply == 0


@pytest.mark.parametrize(("name", "text"), STARTS[1:3], ids=lambda v: v[:30])
def test_undo_redo_and_jump_show_what_a_fresh_board_shows(name: str, text: str) -> None:
    game = _game(name, text)
    board = BoardState.from_text(game, text)
    for _ in range(5):
        moves = board.moves()
        board.play(min(moves, key=moves.get))
    line = list(board.line)
    board.undo().undo()
    fresh = BoardState.from_text(game, text)
    for c in line[:3]:
        fresh.play(c)
    mine, theirs = board.to_json(), fresh.to_json()
    assert mine["position"] == theirs["position"] and mine["moves"] == theirs["moves"]
    assert mine["pv"] == theirs["pv"] and mine["points"] == theirs["points"]
    assert mine["can_redo"] and not theirs["can_redo"] and len(mine["line"]) == 5
    _check_against_engine(board, text)
    board.redo()
    assert board.history == line[:4]
    board.jump(1)
    _check_against_engine(board, text)
    board.play(line[1])  # the line's own card: the rest of the line stays
    assert board.line == line and board.ply == 2
    other = next(c for c in board.moves() if c != line[2])
    board.play(other)  # another card: the rest of the line goes
    assert board.line == [*line[:2], other]
    _check_against_engine(board, text)
    board.jump(0)
    assert board.history == [] and str(board.position) == str(game.parse_start(text))


def test_cursor_errors() -> None:
    board = BoardState.from_text("klabberjass", "trump=H lead=E E=A... D=K...")
    with pytest.raises(RulesError, match="nothing to undo"):
        board.undo()
    with pytest.raises(RulesError, match="nothing to redo"):
        board.redo()
    with pytest.raises(RulesError, match="invalid ply 3"):
        board.jump(3)
    board.best_line()
    with pytest.raises(RulesError, match="the play is over"):
        board.best()
    assert board.moves() == {} and board.to_json()["over"] and board.to_json()["to_move"] is None


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("klabberjass", "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", "needs trump="),
        ("carabin", "0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H", "bidder"),
        ("klabberjass", "trump=H lead=E E=A.7.. D=A.8..", "in both hands"),
    ],
)
def test_a_start_that_does_not_parse_is_refused(game: str, text: str, message: str) -> None:
    with pytest.raises(TricklabError, match=message):
        BoardState.from_text(game, text)


def test_critical_decisions_match_the_optimal_trees() -> None:
    """The board's critical decisions along its line are the critical nodes of the
    optimal trick tree (analysis.trees) that the line passes through."""
    from analysis.trees import critical_decisions, optimal_tree

    for name, text in [
        ("klabberjass", "trump=S lead=E E=AK9.7.8. D=QJ.8.A7."),
        ("carabin", "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8."),
    ]:
        game = get_game(name)
        board = BoardState.from_text(game, text)
        tree = optimal_tree(game, board.position)
        board.best_line()
        critical = {c["position"]: c for c in critical_decisions(tree)}
        on_line = {game.key(board._positions[i]) for i in range(len(board.line))}
        expected = {k: c for k, c in critical.items() if k in on_line}
        found = board.critical()
        assert expected, "no critical decision on the line: pick another position"
        assert {game.key(board._positions[c["ply"]]) for c in found} == set(expected)
        for c in found:
            tree_c = expected[game.key(board._positions[c["ply"]])]
            assert sorted(c["optimal"]) == sorted(tree_c["optimal"])
            assert c["margin"] == tree_c["margin"] and c["loss"] == 0


def test_guess_game() -> None:
    assert guess_game(KLAB_DEAL) == guess_game(KLAB_POSITION) == "klabberjass"
    assert guess_game(CARABIN_3) == "carabin"


# ---------------------------------------------------------------------- the server


def _request(
    server: BoardServer,
    method: str,
    path: str,
    body: bytes | None = None,
    token: str | None = None,
    host: str | None = None,
) -> tuple[int, dict | str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Host": host or f"127.0.0.1:{server.port}", "Content-Type": "application/json"}
    if token is not None:
        headers["X-Tricklab-Token"] = token
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    data = r.read().decode()
    conn.close()
    kind = r.getheader("Content-Type") or ""
    return r.status, json.loads(data) if kind.startswith("application/json") else data


def test_the_server_answers_only_its_own_page() -> None:
    board = BoardState.from_text("klabberjass", KLAB_POSITION)
    with BoardServer(board) as server:
        assert server.httpd.server_address[0] == "127.0.0.1"
        assert server.url.startswith(f"http://127.0.0.1:{server.port}/?token=")
        status, page = _request(server, "GET", f"/?token={server.token}")
        assert status == 200 and isinstance(page, str)
        assert "export function mount" in page and server.token in page
        assert _request(server, "GET", "/")[0] == 403
        assert _request(server, "GET", "/?token=wrong")[0] == 403
        assert _request(server, "GET", f"/?token={server.token}", host="evil.example:80")[0] == 403
        assert _request(server, "GET", "/api/state")[0] == 403
        assert _request(server, "GET", "/api/state", token="x" * 32)[0] == 403
        play = json.dumps({"action": "play", "card": "AS"}).encode()
        assert _request(server, "POST", "/api/act", play, token="x")[0] == 403
        assert _request(server, "POST", "/api/act", play, server.token, "evil:1")[0] == 403
        assert board.ply == 0  # none of the refused requests played
        status, data = _request(server, "GET", "/api/state", token=server.token)
        assert status == 200 and isinstance(data, dict)
        assert data["state"]["position"] == KLAB_POSITION


def test_the_api_plays_refuses_and_answers_the_engines_values() -> None:
    game = get_game("klabberjass")
    board = BoardState.from_text(game, KLAB_POSITION)
    with BoardServer(board) as server:
        t = server.token

        def act(action: object) -> tuple[int, dict]:
            status, data = _request(server, "POST", "/api/act", json.dumps(action).encode(), t)
            assert isinstance(data, dict)
            return status, data

        status, data = act({"action": "play", "card": "7D"})
        assert status == 200 and data["error"] == ""
        after = game.play(game.parse_position(KLAB_POSITION), parse_card("7D"))
        assert data["state"]["position"] == str(after)
        expected = {card_str(c): v for c, v in game.move_values(after).items()}
        assert {m["card"]: m["value"] for m in data["state"]["moves"]} == expected
        status, refused = act({"action": "play", "card": "QC"})  # D must follow diamonds
        assert status == 400 and "may not be played" in refused["error"]
        assert refused["state"] == data["state"]
        for bad in ({"action": "fly"}, {"action": "jump", "ply": 9}, [1], {"action": "play"}):
            status, answer = act(bad)
            assert status == 400 and answer["error"] and answer["state"] == data["state"]
        status, answer = _request(server, "POST", "/api/act", b"{not json", t)
        assert status == 400
        status, data = act({"action": "undo"})
        assert data["state"]["position"] == KLAB_POSITION and data["state"]["can_redo"]
        status, data = act({"action": "best"})
        assert data["state"]["line"][0]["loss"] == 0
        status, data = act({"action": "jump", "ply": 0})
        assert status == 200 and data["state"]["ply"] == 0


# ---------------------------------------------------------------------- the command line


def _states_of(html: str) -> list[dict]:
    config = re.search(r'<script type="application/json" id="tricklab-config">(.*?)</script>', html)
    assert config
    return json.loads(config.group(1))["states"]


def test_board_html_file_embeds_the_engines_values(capsys, tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    assert main(["board", "carabin", CARABIN_4, "--html", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: the optimal line of 32 cards")
    html = out.read_text()
    assert "export function mount" in html and "http" not in html.split("<script")[0]
    states = _states_of(html)
    assert len(states) == 33
    game = _game("carabin", CARABIN_4)
    pos = game.parse_start(CARABIN_4)
    for i, state in enumerate(states):
        assert state["ply"] == i and state["position"] == str(pos)
        engine = game.move_values(pos) if not pos.is_over else {}
        assert {m["card"]: m["value"] for m in state["moves"]} == {
            card_str(c): v for c, v in engine.items()
        }
        if i < len(states) - 1:
            card = next(c for c in engine if card_str(c) == state["pv"][0]["card"])
            assert engine[card] == max(engine.values())
            pos = game.play(pos, card)


def test_static_html_keeps_the_line_played_so_far() -> None:
    board = BoardState.from_text("klabberjass", KLAB_POSITION)
    moves = board.moves()
    worst = min(moves, key=moves.get)
    board.play(worst).play(board.principal_variation()[0]).undo()
    states = _states_of(static_html(board))
    assert board.ply == 1 and len(board.line) == 18  # back where it was, the line to the end
    assert states[1]["line"][0]["card"] == card_str(worst) and states[1]["line"][0]["loss"] > 0
    assert len(states) == 19 and states[-1]["over"]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["board", "klabberjass", "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C"], "trump="),
        (["board", "klabberjass", "trump=H lead=E E=A.7.. D=A.8.."], "both hands"),
        (["board", "carabin", "trump=S bidder=9 lead=0 next=L 0=.../A... 1=.../K..."], "seat"),
        (["board", "klabberjass", KLAB_POSITION, "--port", "70000"], "--port"),
        (
            ["board", "klabberjass", KLAB_POSITION, "--html", "/nonexistent/dir/b.html"],
            "cannot write",
        ),
    ],
)
def test_bad_input_gives_one_error_line(capsys, argv: list[str], named: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("tricklab: error: ") and named in err


def test_board_serves_until_stopped() -> None:
    """``tricklab board --no-browser`` prints the page's address and serves the API."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "analysis.cli.main",
            "board",
            "klabberjass",
            KLAB_DEAL,
            "--no-browser",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", url)
        assert match, url
        conn = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
        conn.request("GET", "/api/state", headers={"X-Tricklab-Token": match.group(2)})
        state = json.loads(conn.getresponse().read())["state"]
        conn.close()
        game = get_game("klabberjass")
        start = game.parse_start(KLAB_DEAL)
        assert state["position"] == str(start)
        assert {m["card"]: m["value"] for m in state["moves"]} == {
            card_str(c): v for c, v in game.move_values(start).items()
        }
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# ---------------------------------------------------------------------- the widget


def test_the_widget_plays_from_the_view_and_from_python() -> None:
    pytest.importorskip("anywidget", reason="the widget needs anywidget (the analysis extra)")
    from analysis.board import Board

    with pytest.raises(RulesError, match="in both hands"):
        Board("trump=H lead=E E=A.7.. D=A.8..")
    board = Board(KLAB_POSITION)
    sent: list[dict] = []
    board.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    board._on_message(board, {"id": 1, "action": "play", "card": "AS"}, [])
    assert [card_str(c) for c in board.history] == ["AS"] and sent[-1]["error"] == ""
    state = json.loads(board.state)
    game = get_game("klabberjass")
    expected = {card_str(c): v for c, v in game.move_values(board.position).items()}
    assert {m["card"]: m["value"] for m in state["moves"]} == expected
    board._on_message(board, {"id": 2, "action": "play", "card": "AS"}, [])
    assert sent[-1]["id"] == 2 and "may not be played" in sent[-1]["error"]
    assert json.loads(sent[-1]["state"]) == state and len(board.history) == 1
    board.undo()
    assert board.history == [] and str(board.position) == KLAB_POSITION
    assert json.loads(board.state)["position"] == KLAB_POSITION
    carabin = Board(CARABIN_3)
    assert carabin.board.game.name == "carabin"
    assert str(carabin.position) == str(_game("carabin", CARABIN_3).parse_start(CARABIN_3))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("klabberjass", "trump=H lead=D E=KQ.7.. D=.8.A. trick=9S"),
        ("carabin", "trump=H bidder=0 lead=1 next=L 0=A.../K... 1=.../Q... 2=3.../4... trick=2S"),
    ],
)
def test_the_last_trick_includes_cards_led_before_the_start(name: str, text: str) -> None:
    game = get_game(name)
    board = BoardState.from_text(game, text)
    assert board.to_json()["last_trick"] is None
    pos = board.position
    expected = [{"seat": t["seat"], "card": t["card"]} for t in board.to_json()["trick"]]
    while True:
        card = next(iter(board.moves()))
        expected.append({"seat": game.seat_label(pos.to_move), "card": card_str(card)})
        nxt, winner, points = game.step(pos, card)
        board.play(card)
        pos = nxt
        if winner is not None:
            break
    last = board.to_json()["last_trick"]
    assert last == {"cards": expected, "won_by": game.seat_label(winner), "points": points}
    assert len(expected) == len(game.parse_start(text).hands)

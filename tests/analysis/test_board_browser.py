"""The board's page in a real browser: headless Chromium driven by Playwright.

Each test loads the page (served, or the self-contained file), plays by clicking, and
reads back what the page shows (the number under every legal card, the position, the
points) to check it against the engine; after a refused click and after undo, again.
A screenshot of each is saved in pytest's temporary directory. The tests skip only when
Playwright or ``/usr/bin/chromium`` is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from analysis.board.page import static_html
from analysis.board.server import BoardServer
from analysis.board.state import BoardState
from solver.carabin.rules import Rules as CarabinRules
from solver.cards import card_str, parse_card
from solver.games import Game, get_game

CHROMIUM = "/usr/bin/chromium"
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
)
if shutil.which(CHROMIUM) is None:
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

KLAB_DEAL = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"
CARABIN_4 = (
    "0=K2.8..3/Q.6.7.2 1=.K.9.87/T.5.A.K 2=..64.Q6/A.JT.5. 3=3..QJ.5/9.7..AJ "
    "turn=3H trump=S bidder=1"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], errors


def _settle(page: Any) -> None:
    """Wait until the page has its answer (no action on its way) and has drawn it."""
    page.wait_for_function(
        "() => { const b = document.getElementById('board');"
        " return b.dataset.busy !== '1' && b.querySelector('[data-role=position]'); }"
    )


def _shown(page: Any) -> dict[str, str]:
    """Every legal card on the page and the number shown under it."""
    out = {}
    for button in page.query_selector_all("button.card.legal"):
        out[button.get_attribute("data-card")] = button.query_selector(".val").inner_text()
    return out


def _check(page: Any, game: Game, cards: list[str], start_text: str, losses: bool = False) -> Any:
    """The page shows the engine's values for the position after ``cards``."""
    pos = game.parse_start(start_text)
    for c in cards:
        pos = game.play(pos, parse_card(c))
    assert page.inner_text("[data-role=position]") == str(pos)
    moves = game.move_values(pos)
    best = max(moves.values())
    if losses:
        expected = {
            card_str(c): "0" if v == best else f"\u2212{best - v}" for c, v in moves.items()
        }
    else:
        expected = {card_str(c): str(v) for c, v in moves.items()}
    assert _shown(page) == expected
    value = game.value(pos)
    for side, v in zip(game.sides, value, strict=True):
        assert page.inner_text(f"tr[data-side={side}] [data-role=value]") == str(v)
    return pos


def _click_card(page: Any, card: str) -> None:
    page.click(f'button.card[data-card="{card}"]')
    _settle(page)


@pytest.mark.parametrize(
    ("name", "text"), [("klabberjass", KLAB_DEAL), ("carabin", CARABIN_4)], ids=["klab", "carabin"]
)
def test_play_by_clicking_undo_and_a_refused_card(
    page: Any, tmp_path: Path, name: str, text: str
) -> None:
    game = get_game(name) if name == "klabberjass" else get_game(name, CarabinRules(players=4))
    board = BoardState.from_text(game, text)
    with BoardServer(board) as server:
        page.goto(server.url)
        page.wait_for_selector("button.card.legal")
        _settle(page)
        played: list[str] = []
        pos = _check(page, game, played, text)
        for i in range(5):
            shown = {c: int(v) for c, v in _shown(page).items()}
            # the worst card, then the best: the line has mistakes
            card = min(shown, key=shown.get) if i % 2 == 0 else max(shown, key=shown.get)
            _click_card(page, card)
            played.append(card)
            pos = _check(page, game, played, text)
        # a card of a seat not to move: refused, the error shown, the values unchanged
        mover = pos.to_move
        other = next(
            card_str(c)
            for s, hand in enumerate(pos.hands)
            if s != mover
            for c in range(64)
            if (hand if isinstance(hand, int) else hand[0] | hand[1]) >> c & 1
        )
        _click_card(page, other)
        assert "may not be played" in page.inner_text("[data-role=error]")
        _check(page, game, played, text)
        page.click("[data-role=undo]")
        _settle(page)
        _check(page, game, played[:-1], text)
        page.click("[data-role=undo]")
        _settle(page)
        _check(page, game, played[:-2], text)
        page.check("[data-role=show-loss]")
        _check(page, game, played[:-2], text, losses=True)
        page.click("[data-role=best]")
        _settle(page)
        best = board.history[-1]
        before = game.parse_start(text)
        for c in played[:-2]:
            before = game.play(before, parse_card(c))
        values = game.move_values(before)
        assert values[best] == max(values.values())
        _check(page, game, [*played[:-2], card_str(best)], text, losses=True)
        page.click("[data-role=jump-trick] >> nth=0")
        _settle(page)
        _check(page, game, [], text, losses=True)
        # copy the position: the clipboard holds its notation
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.click("[data-role=copy]")
        page.wait_for_function(
            "() => document.querySelector('[data-role=copy]').textContent === 'copied'"
        )
        assert page.evaluate("() => navigator.clipboard.readText()") == str(game.parse_start(text))
        page.screenshot(path=str(tmp_path / f"board-{name}.png"), full_page=True)
        assert (tmp_path / f"board-{name}.png").stat().st_size > 10_000


def test_the_self_contained_file_plays_back_offline(page: Any, tmp_path: Path) -> None:
    game = get_game("klabberjass")
    board = BoardState.from_text(game, KLAB_DEAL)
    path = tmp_path / "board.html"
    path.write_text(static_html(board))
    page.route(
        "**/*",
        lambda route: (
            route.abort() if not route.request.url.startswith("file:") else route.continue_()
        ),
    )
    page.goto(path.as_uri())
    page.wait_for_selector("button.card.legal")
    played: list[str] = []
    pv = board.principal_variation()
    for card in pv[:4]:
        _check(page, game, played, KLAB_DEAL)
        _click_card(page, card_str(card))
        played.append(card_str(card))
    _check(page, game, played, KLAB_DEAL)
    # a card off the optimal line: refused with a message, nothing changes
    shown = _shown(page)
    off = next(c for c in shown if c != card_str(pv[4]))
    _click_card(page, off)
    assert "leaves the analysed line" in page.inner_text("[data-role=error]")
    _check(page, game, played, KLAB_DEAL)
    page.click("[data-role=undo]")
    _settle(page)
    _check(page, game, played[:-1], KLAB_DEAL)
    page.click("[data-role=end]")
    _settle(page)
    assert page.inner_text("h3").endswith("the play is over")
    page.screenshot(path=str(tmp_path / "board-file.png"), full_page=True)


# ---------------------------------------------------------------------- JupyterLab


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_widget_in_jupyterlab(page: Any, tmp_path: Path) -> None:
    """A notebook with the widget, in a real JupyterLab: the view shows the engine's
    values, a click plays, and Python reads the move back from ``board.history``."""
    pytest.importorskip("jupyterlab", reason="JupyterLab is not installed (the notebooks extra)")
    pytest.importorskip("anywidget", reason="anywidget is not installed (the analysis extra)")
    import json
    import os
    import secrets
    import subprocess
    import sys
    import time
    import urllib.request

    root = Path(__file__).resolve().parents[2]
    cells = [
        f"from analysis.board import Board\nboard = Board({KLAB_DEAL!r})",
        "board",
        "print('history', ' '.join(map(str, board.history)), '|', board.position)",
    ]
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": c,
            }
            for c in cells
        ],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "board.ipynb").write_text(json.dumps(notebook))
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "PYTHONPATH": str(root), "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--expose-app-in-browser",
            f"--ServerApp.port={port}",
            "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={tmp_path}",
            "--ServerApp.port_retries=0",
            "--LabApp.news_url=None",
            "--ServerApp.allow_root=True",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=tmp_path,
    )
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2
                )
                break
            except OSError:
                time.sleep(0.5)
        page.set_default_timeout(120_000)
        page.goto(f"http://127.0.0.1:{port}/lab/tree/board.ipynb?token={token}")
        page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-Notebook')")
        page.wait_for_function(
            "() => { const w = window.jupyterapp.shell.currentWidget;"
            " return w && w.sessionContext && w.sessionContext.session"
            " && w.sessionContext.session.kernel && w.sessionContext.session.kernel.status === 'idle'; }"
        )
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_selector(".tlb button.card.legal")
        game = get_game("klabberjass")
        start = game.parse_start(KLAB_DEAL)
        expected = {card_str(c): str(v) for c, v in game.move_values(start).items()}
        page.wait_for_function(
            "() => document.querySelectorAll('.tlb button.card.legal').length > 0"
        )
        assert _shown(page) == expected
        card = max(expected, key=lambda c: int(expected[c]))
        page.click(f'.tlb button.card[data-card="{card}"]')
        after = game.play(start, parse_card(card))
        page.wait_for_function(
            "(text) => { const p = document.querySelector('.tlb [data-role=position]');"
            " return p && p.textContent === text; }",
            arg=str(after),
        )
        expected = {card_str(c): str(v) for c, v in game.move_values(after).items()}
        assert _shown(page) == expected
        # Python sees the card played in the view: run the last cell again
        page.evaluate(
            "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
            " nb.activeCellIndex = 2;"
            " return window.jupyterapp.commands.execute('notebook:run-cell'); }"
        )
        page.wait_for_function(
            "(card) => [...document.querySelectorAll('.jp-OutputArea-output')]"
            ".some((o) => o.textContent.includes('history ' + card + ' |'))",
            arg=card,
        )
        outputs = page.inner_text(".jp-Notebook")
        assert f"history {card} | {after}" in outputs
        # single-dummy mode for D from the view: E's hand hidden, D's sampled values
        from analysis.advice import advise
        from solver.klabberjass.view import View

        page.select_option(".tlb [data-role=viewer]", "D")
        page.wait_for_function(
            "() => (document.querySelector('.tlb [data-role=sd-note]') || {}).textContent"
            " && document.querySelector('.tlb [data-role=sd-note]').textContent.includes('PIMC')"
        )
        deal = game.parse_deal(KLAB_DEAL)
        view = View(1, after.trump, deal.turn, after.hands[1], (parse_card(card),))
        advice = advise(view, 20, 1, workers=1)
        shown = {
            b.get_attribute("data-card"): float(b.query_selector(".val").get_attribute("data-mean"))
            for b in page.query_selector_all(".tlb button.card.legal")
        }
        assert shown == {c: m["mean"] for c, m in advice.moves.items()}
        on_page = {
            b.get_attribute("data-card") for b in page.query_selector_all(".tlb button.card")
        }
        assert on_page.isdisjoint(card_str(c) for c in range(64) if after.hands[0] >> c & 1)
        page.screenshot(path=str(tmp_path / "board-jupyterlab.png"), full_page=True)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


# ---------------------------------------------------------------------- single dummy, table, tree


def _received(page: Any, action: Any) -> dict:
    """Do ``action`` (a click) and return the JSON state the server sent for it."""
    with page.expect_response(lambda r: r.url.endswith("/api/act")) as answer:
        action()
    _settle(page)
    return answer.value.json()["state"]


@pytest.mark.parametrize(
    ("name", "text", "seat"),
    [("klabberjass", KLAB_DEAL, "E"), ("carabin", CARABIN_4, "0")],
    ids=["klab", "carabin"],
)
def test_single_dummy_mode_by_clicking(
    page: Any, tmp_path: Path, name: str, text: str, seat: str
) -> None:
    from analysis.advice import advise

    game = get_game(name) if name == "klabberjass" else get_game(name, CarabinRules(players=4))
    board = BoardState.from_text(game, text)
    with BoardServer(board) as server:
        page.goto(server.url)
        page.wait_for_selector("button.card.legal")
        _settle(page)
        state = _received(page, lambda: page.select_option("[data-role=viewer]", seat))
        viewer = board.viewer
        assert state["viewer"] == seat and viewer is not None
        # the page shows the advice for the seat's view, with its spread
        view = board.view()
        expected = advise(view, state["single_dummy"]["samples"], board.seed, workers=1)
        shown = {}
        for button in page.query_selector_all("button.card.legal"):
            val = button.query_selector(".val")
            shown[button.get_attribute("data-card")] = (
                float(val.get_attribute("data-mean")),
                int(val.get_attribute("data-min")),
                int(val.get_attribute("data-max")),
            )
        assert shown == {c: (m["mean"], m["min"], m["max"]) for c, m in expected.moves.items()}
        assert page.inner_text("[data-role=position]") == str(view)
        # the hidden hands are in neither the data nor the page
        hidden = [
            card_str(c)
            for s, held in enumerate(board.position.hands)
            if s != viewer
            for mask in ([held] if isinstance(held, int) else held)
            for c in range(64)
            if mask >> c & 1
        ]
        text_sent = json.dumps(state)
        assert [c for c in hidden if f'"{c}"' in text_sent] == []
        on_page = {b.get_attribute("data-card") for b in page.query_selector_all("button.card")}
        assert on_page.isdisjoint(hidden) and page.query_selector("[data-role=pv]") is None
        page.screenshot(path=str(tmp_path / f"board-single-dummy-{name}.png"), full_page=True)
        # play the sampled best card; then the other seats' cards with the best button
        best = state["single_dummy"]["best"]
        _click_card(page, best)
        assert card_str(board.history[0]) == best
        # a hidden seat's card typed in is still refused, the board unchanged
        assert page.query_selector("[data-role=error]").inner_text() == ""
        # back to double dummy: every hand and value again
        state = _received(page, lambda: page.select_option("[data-role=viewer]", ""))
        assert state["viewer"] is None
        _check(page, game, [best], text)


def test_the_deal_table_panel_and_the_tree_by_clicking(page: Any, tmp_path: Path) -> None:
    import dataclasses

    from analysis.trees import optimal_tree

    game = get_game("klabberjass")
    board = BoardState.from_text(game, KLAB_DEAL)
    with BoardServer(board) as server:
        page.goto(server.url)
        page.wait_for_selector("button.card.legal")
        _settle(page)
        page.click("[data-role=show-table]")
        _settle(page)
        rows = page.query_selector_all("table.deal-table tr")
        table = game.deal_table(dataclasses.replace(game.parse_deal(KLAB_DEAL), trump=None))
        assert len(rows) == 1 + len(table)
        for row, record in zip(rows[1:], table.records(), strict=True):
            cells = {
                td.get_attribute("data-col"): td.inner_text() for td in row.query_selector_all("td")
            }
            assert cells["bidder"] == record["bidder"] and cells["trump"] == record["trump"]
            assert (
                cells["score_E"] == str(record["score_E"]) and cells["result"] == record["result"]
            )
        # two cards, then the tree from there: collapsed, expanded by a click
        for _ in range(2):
            page.click("[data-role=best]")
            _settle(page)
        root = board.position
        page.click("[data-role=build-tree]")
        _settle(page)
        assert len(page.query_selector_all(".tree .node")) == 1
        graph = optimal_tree(game, root, per_class=True)
        page.click('.tree .node[data-path=""] [data-role=expand]')
        _settle(page)
        children = [d["card"] for _, _, d in graph.out_edges(graph.graph["root"], data=True)]
        shown = [
            n.get_attribute("data-path")
            for n in page.query_selector_all('.tree .node[data-depth="1"]')
        ]
        assert shown == children
        # open down three levels along the last child, then put the board there
        path: list[str] = []
        for _ in range(3):
            nodes = page.query_selector_all(f'.tree .node[data-depth="{len(path) + 1}"]')
            path = nodes[-1].get_attribute("data-path").split(" ")
            page.click(f'.tree .node[data-path="{" ".join(path)}"] [data-role=expand]')
            _settle(page)
        page.click(f'.tree .node[data-path="{" ".join(path)}"] [data-role=follow]')
        _settle(page)
        pos = root
        for c in path:
            pos = game.play(pos, parse_card(c))
        assert page.inner_text("[data-role=position]") == str(pos)
        assert page.query_selector(".tree .node.here").get_attribute("data-path") == " ".join(path)
        _check(page, game, [card_str(c) for c in board.history], KLAB_DEAL)
        # transpositions are marked where the tree's graph has two ways in
        for node in page.query_selector_all(".tree .node"):
            key = graph.graph["root"]
            p = node.get_attribute("data-path")
            for c in p.split(" ") if p else []:
                key = next(v for _, v, d in graph.out_edges(key, data=True) if d["card"] == c)
            marked = node.query_selector("[data-role=transposition]") is not None
            assert marked == (graph.in_degree(key) > 1)
        page.screenshot(path=str(tmp_path / "board-tree.png"), full_page=True)
        # a refused action keeps the tree and the board
        before = page.inner_text("[data-role=position]")
        idle = f'button.card[data-seat="{"DE"[board.position.to_move]}"]'
        page.click(f"{idle} >> nth=0")  # a card of the seat not to move
        _settle(page)
        assert "may not be played" in page.inner_text("[data-role=error]")
        assert page.inner_text("[data-role=position]") == before

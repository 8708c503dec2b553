"""Draw the analysis board's pictures in docs/images/ with headless Chromium.

``board.png``: a Klabberjass deal after a few cards played by clicking (one of them a
mistake, so the line shows its loss). ``board-single-dummy.png``: the same deal in
single-dummy mode, seen by E (D's hand hidden, the sampled values under E's cards).
``board-table.png``: the deal-table panel. ``board-tree.png``: the tree of optimal
lines, two levels opened and the board put on one of its nodes. Each picture is
reduced to a 64-colour palette so the committed PNGs stay small. Needs Playwright,
Pillow and ``/usr/bin/chromium`` (the dev extra; ``.ci/run`` installs Chromium).

    python tools/board_screenshot.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout first

from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from analysis.board.server import BoardServer  # noqa: E402
from analysis.board.state import BoardState  # noqa: E402

DEAL = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"


def _settle(page: Any) -> None:
    page.wait_for_function("() => document.getElementById('board').dataset.busy !== '1'")


def _save(page: Any, out: Path, selector: str | None = None) -> None:
    """A screenshot of the page (or of one element), in a 64-colour palette."""
    if selector is None:
        page.screenshot(path=str(out), full_page=True)
    else:
        page.locator(selector).screenshot(path=str(out))
    image = Image.open(out).convert("RGB").quantize(64)
    image.save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    board = BoardState.from_text("klabberjass", DEAL)
    with BoardServer(board) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(server.url)
        page.wait_for_selector("button.card.legal")
        for _ in range(2):  # two best cards, then the worst one, then the best again
            page.click("[data-role=best]")
            _settle(page)
        worst = min(board.moves(), key=board.moves().get)
        page.click(f'button.card[data-card="{worst}"]')
        _settle(page)
        page.click("[data-role=best]")
        _settle(page)
        _save(page, out / "board.png", "#board > div")
        # the deal table
        page.click("[data-role=show-table]")
        _settle(page)
        _save(page, out / "board-table.png", "[data-role=deal-table]")
        # the tree from the start: the root opened, then its second child
        page.click("[data-role=start]")
        _settle(page)
        page.click("[data-role=build-tree]")
        _settle(page)
        page.click('.tree .node[data-path=""] [data-role=expand]')
        _settle(page)
        second = page.query_selector_all('.tree .node[data-depth="1"]')[1]
        path = second.get_attribute("data-path")
        page.click(f'.tree .node[data-path="{path}"] [data-role=expand]')
        _settle(page)
        child = page.query_selector_all('.tree .node[data-depth="2"]')[0].get_attribute("data-path")
        page.click(f'.tree .node[data-path="{child}"] [data-role=follow]')
        _settle(page)
        _save(page, out / "board-tree.png", "[data-role=tree]")
        # single dummy, seen by E, after the first trick
        page.click("[data-role=start]")
        _settle(page)
        page.select_option("[data-role=viewer]", "E")
        _settle(page)
        for _ in range(2):
            page.click("[data-role=best]")
            _settle(page)
        _save(page, out / "board-single-dummy.png", "#board > div")
        browser.close()


if __name__ == "__main__":
    main()

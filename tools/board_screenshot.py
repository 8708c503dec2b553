"""Draw docs/images/board.png: the analysis board's page in headless Chromium.

Serves a board of a Klabberjass deal, plays a few cards by clicking (one of them a
mistake, so the line shows its loss), and saves a screenshot. Needs Playwright and
``/usr/bin/chromium`` (the dev extra; ``.ci/run`` installs Chromium).

    python tools/board_screenshot.py [OUT.png]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout first

from playwright.sync_api import sync_playwright  # noqa: E402

from analysis.board.server import BoardServer  # noqa: E402
from analysis.board.state import BoardState  # noqa: E402

DEAL = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images" / "board.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    board = BoardState.from_text("klabberjass", DEAL)
    with BoardServer(board) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(server.url)
        page.wait_for_selector("button.card.legal")
        for _ in range(2):  # two best cards, then the worst one, then the best again
            page.click("[data-role=best]")
            page.wait_for_function("() => document.getElementById('board').dataset.busy !== '1'")
        worst = min(board.moves(), key=board.moves().get)
        page.click(f'button.card[data-card="{worst}"]')
        page.wait_for_function("() => document.getElementById('board').dataset.busy !== '1'")
        page.click("[data-role=best]")
        page.wait_for_function("() => document.getElementById('board').dataset.busy !== '1'")
        page.screenshot(path=str(out), full_page=True)
        browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The page `agentchess annotate --out DIR` writes, in headless Chromium at 1280 x 1000:

- it loads with no console message, exception, log error or request for anything but the page
  (the DevTools listener of report_page.py, which first proves on a probe page that it hears
  each of those);
- every game has its summary table, its chart (with a dot for each marked move), a board for
  every move and a card for every marked move, each card's board drawing the move played and,
  where the judge preferred another, the better move;
- the first screen shows the chart and the first mistake: the first game's chart and its
  board and words at its first mistake (or blunder) start inside the window;
- the keyboard moves through the game: ArrowRight one move on, ArrowDown to the next marked
  move, ArrowUp back, Home to the start, and the board, the words and the chart's cursor follow;
- a screenshot of the first screen is not blank.

    cargo build --release
    python3 tests/e2e/annotate_page.py [--pgn GAMES.pgn] [--screenshot docs/annotate.png]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report_page import Browser, Failure, check, check_screenshot, probe  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def js(browser: Browser, expression: str):
    return browser.value(f"(() => {{ {expression} }})()")


def state(browser: Browser) -> dict:
    return js(browser, """
        const g = document.querySelector('section.game');
        const shown = (sel) => Array.from(g.querySelectorAll(sel)).filter(e => !e.hidden).map(e => +e.dataset.ply);
        const c = g.querySelector('svg.chart .cursor');
        return { at: +g.dataset.at, boards: shown('.viewer .pos'), words: shown('.viewer .words'),
                 current: Array.from(g.querySelectorAll('.moves .mv.current')).map(e => +e.dataset.ply),
                 cursor: +c.getAttribute('x1'), x0: +g.querySelector('svg.chart').dataset.x0,
                 dx: +g.querySelector('svg.chart').dataset.dx,
                 marked: Array.from(g.querySelectorAll('.moves .mv.marked')).map(e => +e.dataset.ply) };
    """)


def press(browser: Browser, key: str) -> None:
    for kind in ("keyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode={
            "ArrowRight": 39, "ArrowLeft": 37, "ArrowUp": 38, "ArrowDown": 40, "Home": 36, "End": 35}[key])


def consistent(s: dict) -> None:
    check(s["boards"] == [s["at"]] and s["words"] == [s["at"]], f"board/words shown {s['boards']}/{s['words']}, at {s['at']}")
    check(s["current"] == [s["at"]], f"the move list highlights {s['current']}, at {s['at']}")
    check(abs(s["cursor"] - (s["x0"] + s["at"] * s["dx"])) < 0.5, "the chart's cursor is not at the move shown")


def check_page(browser: Browser, url: str, shot: str | None) -> list[str]:
    notes = []
    browser.open(url, 1280, 1000)
    problems = browser.problems(url)
    check(not problems, "the page is not clean:\n" + "\n".join(problems))
    games = js(browser, """
        return Array.from(document.querySelectorAll('section.game')).map(g => ({
            summary: !!g.querySelector('table[id^=summary] tbody tr'),
            dots: g.querySelectorAll('svg.chart circle.dot').length,
            marked: g.querySelectorAll('.moves .mv.marked').length,
            states: +g.dataset.states,
            boards: g.querySelectorAll('.viewer .pos svg').length,
            cards: g.querySelectorAll('.card').length,
            played: g.querySelectorAll('.card .arrow.played').length,
            better: g.querySelectorAll('.card .arrow.better').length }));
    """)
    check(len(games) > 0, "no game on the page")
    for i, g in enumerate(games, 1):
        check(g["summary"], f"game {i}: no summary table")
        check(g["boards"] == g["states"] + 1, f"game {i}: {g['boards']} boards for {g['states']} moves and the start")
        check(g["dots"] == g["marked"] == g["cards"], f"game {i}: {g['dots']} dots, {g['marked']} marked moves, {g['cards']} cards")
        check(g["played"] == g["cards"], f"game {i}: a card without the move played drawn")
        check(g["better"] >= 1 or g["cards"] == 0, f"game {i}: no card draws a better move")
    notes.append(f"{len(games)} games, {sum(g['cards'] for g in games)} marked moves with boards")
    first = js(browser, """
        const g = document.querySelector('section.game');
        const top = (e) => e ? e.getBoundingClientRect().top : null;
        const bottom = (e) => e ? e.getBoundingClientRect().bottom : null;
        const start = +g.dataset.start;
        const shown = g.querySelector('.viewer .pos:not([hidden])');
        const words = g.querySelector('.viewer .words:not([hidden])');
        const n = g.querySelectorAll('.moves .mv.marked').length;
        return { start, shown: shown ? +shown.dataset.ply : null, chart: bottom(g.querySelector('svg.chart')),
                 board: bottom(shown), words: top(words), tag: words ? words.textContent : '', n };
    """)
    if first["n"] > 0:
        check(first["shown"] == first["start"] and first["start"] > 0, f"the page opens at {first['shown']}, not its first mistake")
        check("Mistake" in first["tag"] or "Blunder" in first["tag"] or "Inaccuracy" in first["tag"],
              f"the words shown first are not a marked move's: {first['tag'][:80]!r}")
    check(first["chart"] is not None and first["chart"] <= 1000, f"the chart ends at {first['chart']} px, below the first screen")
    check(first["board"] is not None and first["board"] <= 1000, f"the first mistake's board ends at {first['board']} px")
    check(first["words"] is not None and first["words"] < 1000 - 60, f"the first mistake's words start at {first['words']} px")
    notes.append(f"first screen: chart to {first['chart']:.0f} px, first mistake's board to {first['board']:.0f} px")
    if shot:
        png = browser.screenshot()
        notes.append(check_screenshot(png, browser.screenshot(0.25), 1280, 1000))
        Path(shot).write_bytes(png)
        notes.append(f"screenshot kept in {shot}")
    s = state(browser)
    consistent(s)
    press(browser, "Home")
    s = state(browser)
    check(s["at"] == 0, f"Home went to {s['at']}")
    consistent(s)
    press(browser, "ArrowRight")
    s = state(browser)
    check(s["at"] == 1, f"ArrowRight from the start went to {s['at']}")
    consistent(s)
    if s["marked"]:
        press(browser, "ArrowDown")
        s = state(browser)
        expected = next((m for m in s["marked"] if m > 1), s["marked"][0] if s["marked"][0] > 1 else 1)
        check(s["at"] == expected, f"ArrowDown went to {s['at']}, not the next marked move {expected}")
        consistent(s)
        press(browser, "ArrowUp")
        s2 = state(browser)
        earlier = [m for m in s2["marked"] if m < expected]
        check(s2["at"] == (earlier[-1] if earlier else expected), f"ArrowUp went to {s2['at']}")
        consistent(s2)
    press(browser, "ArrowLeft")
    consistent(state(browser))
    problems = browser.problems(url)
    check(not problems, "navigating left messages or requests:\n" + "\n".join(problems))
    notes.append("keys: Home, ArrowRight, ArrowDown, ArrowUp, ArrowLeft move the board, words and cursor")
    return notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agentchess", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--pgn", help="annotate these games (default: two seeded games of low levels)")
    ap.add_argument("--nodes", default="20000")
    ap.add_argument("--page", help="check this index.html instead of making one")
    ap.add_argument("--screenshot", help="keep the 1280 x 1000 first screen here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.page:
            page = Path(args.page).resolve()
        else:
            pgn = Path(args.pgn) if args.pgn else Path(tmp) / "games.pgn"
            if not args.pgn:
                subprocess.run([args.agentchess, "match", "level:3", "level:6", "--games", "2", "--seed", "1",
                                "--pgn", str(pgn)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            out = Path(tmp) / "page"
            subprocess.run([args.agentchess, "annotate", str(pgn), "--nodes", args.nodes, "--out", str(out)],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            page = out / "index.html"
        browser = Browser(args.chromium)
        try:
            probe(browser)
            notes = check_page(browser, page.as_uri(), args.screenshot)
        except Failure as e:
            print(f"FAIL {page}: {e}", file=sys.stderr)
            return 1
        finally:
            browser.close()
    print(f"ok {page.name}: no console message, exception or request; " + "; ".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())

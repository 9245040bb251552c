#!/usr/bin/env python3
"""Opens the HTML report of a small seeded `agentchess thesis` run in headless Chromium and checks
what a reader would see:

- the page loads with no console message, no uncaught exception, no browser log error and no
  request for anything but the page itself (it must be self-contained: nothing fetched);
- every table and chart of the report is in the DOM, tables with rows and charts with curves,
  and the fidelity summary agrees with the per-cell tables;
- a 1280 x 2000 screenshot is not blank, and the page prints (a PDF with pages);
- the first screen (1280 x 1000) shows the summary (the fidelity verdicts on a thesis run, the
  rating list otherwise) and at least one chart, its top inside the window, and the Charts
  section begins within the first two screens, before the long tables.

Chromium prints console messages on stderr (--enable-logging) at one level whatever their kind,
and does not print failed loads at all, so this script talks to Chromium over the DevTools
protocol instead (a WebSocket, written here with the standard library) and hears every console
call, exception, log entry and network request. Before looking at the report it checks itself on
a probe page that logs an error, throws, and loads a missing image and a remote script: if any of
those goes unheard, the check fails.

    python3 tests/e2e/report_page.py [--agentchess target/release/agentchess] [--games 4]
    python3 tests/e2e/report_page.py --page results/index.html --screenshot docs/report.png
    python3 tests/e2e/report_page.py --page ladder/index.html --not-thesis

Standard library only; Chromium from Debian's `chromium` package (run as root: --no-sandbox).
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What every report page holds, and what `thesis` adds.
TABLES = ["ratings-table", "los", "matrix", "pairings", "players", "draws", "counters", "rules"]
CHARTS = ["chart-ratings", "chart-material", "chart-running", "chart-attack-requests", "chart-incorrect-threats"]
THESIS_TABLES = ["fidelity-results", "fidelity-draws", "fidelity-suites", "fidelity-counts", "suites"]

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--remote-debugging-port=0",
]


class Failure(Exception):
    pass


def check(ok: bool, what: str) -> None:
    if not ok:
        raise Failure(what)


class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol: text frames, masked from the client,
    fragments joined, pings answered."""

    def __init__(self, url: str) -> None:
        m = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        check(m is not None, f"unexpected DevTools URL {url}")
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.sock = socket.create_connection((host, port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            check(chunk != b"", "DevTools closed the connection during the handshake")
            head += chunk
        check(head.split(b"\r\n", 1)[0].split()[1] == b"101", f"WebSocket handshake refused: {head!r}")

    def _exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            check(chunk != b"", "DevTools closed the connection")
            data += chunk
        return data

    def send(self, text: str, opcode: int = 0x1) -> None:
        payload = text.encode() if isinstance(text, str) else text
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def recv(self) -> str:
        message = b""
        while True:
            b0, b1 = self._exact(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._exact(8))[0]
            mask = self._exact(4) if b1 & 0x80 else None
            payload = self._exact(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self.send(payload, opcode=0xA)
                continue
            check(opcode != 0x8, "DevTools closed the WebSocket")
            message += payload
            if b0 & 0x80:
                return message.decode()


class Browser:
    """A headless Chromium and one page of it, driven over the DevTools protocol; every
    console call, exception, log entry and request of the page is kept."""

    def __init__(self, chromium: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="report-page-")
        self.proc = subprocess.Popen([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + 60
        for line in self.proc.stderr:
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
            check(time.time() < deadline, "Chromium did not open its DevTools port")
        check(port is not None, "Chromium exited before opening its DevTools port")
        # Keep draining stderr so that Chromium never blocks on a full pipe.
        import threading
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?about:blank", method="PUT")
        target = json.load(urllib.request.urlopen(req, timeout=30))
        self.ws = WebSocket(target["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events: list[dict] = []
        for domain in ["Page", "Runtime", "Log", "Network"]:
            self.call(f"{domain}.enable")

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                check("error" not in msg, f"{method}: {msg.get('error')}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_for(self, event: str, timeout: float = 60) -> None:
        if any(e["method"] == event for e in self.events):
            return
        self.ws.sock.settimeout(timeout)
        while True:
            msg = json.loads(self.ws.recv())
            if "method" in msg:
                self.events.append(msg)
                if msg["method"] == event:
                    return

    def open(self, url: str, width: int, height: int) -> None:
        self.events.clear()
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        # Late console messages and failed loads come right after the load event, if at all.
        self.call("Runtime.evaluate", expression="1")
        time.sleep(0.5)
        self.call("Runtime.evaluate", expression="1")

    def problems(self, page_url: str) -> list[str]:
        """Every console message, exception, error or warning log entry, failed load, and
        request for anything but the page itself."""
        found = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled":
                args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                found.append(f"console.{p.get('type')}: {args}")
            elif m == "Runtime.exceptionThrown":
                found.append(f"exception: {p['exceptionDetails'].get('exception', {}).get('description') or p['exceptionDetails'].get('text')}")
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                found.append(f"log {p['entry']['level']}: {p['entry']['text']} {p['entry'].get('url', '')}")
            elif m == "Network.requestWillBeSent" and p["request"]["url"] != page_url:
                found.append(f"request: {p['request']['url']}")
            elif m == "Network.loadingFailed":
                found.append(f"failed load: {p.get('errorText')}")
        return found

    def dom(self) -> str:
        root = self.call("DOM.getDocument", depth=-1)["root"]
        return self.call("DOM.getOuterHTML", nodeId=root["nodeId"])["outerHTML"]

    def screenshot(self, scale: float = 1.0) -> bytes:
        view = self.call("Page.getLayoutMetrics")["cssVisualViewport"]
        clip = {"x": 0, "y": 0, "width": view["clientWidth"], "height": view["clientHeight"], "scale": scale}
        return base64.b64decode(self.call("Page.captureScreenshot", format="png", clip=clip)["data"])

    def value(self, expression: str):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def pdf(self) -> bytes:
        return base64.b64decode(self.call("Page.printToPDF", printBackground=True)["data"])

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Dom(HTMLParser):
    """The report's structure: each table's rows, each figure's SVGs and the marks in them."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, int] = {}
        self.figures: dict[str, list[dict[str, int]]] = {}
        self.cells: dict[str, list[list[str]]] = {}
        self.empty: set[str] = set()
        self._table = self._figure = None
        self._in_body = False
        self._svg: dict[str, int] | None = None
        self._row: list[str] | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("id")
            self.tables[self._table] = 0
            self.cells[self._table] = []
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._table and self._in_body:
            self.tables[self._table] += 1
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._text = ""
        elif tag == "figure":
            self._figure = a.get("id")
            self.figures[self._figure] = []
        elif self._figure and "empty" in (a.get("class") or "").split():
            self.empty.add(self._figure)
        elif tag == "svg" and self._figure:
            self._svg = {}
            self.figures[self._figure].append(self._svg)
        elif self._svg is not None:
            self._svg[tag] = self._svg.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if tag == "table":
            self._table, self._in_body = None, False
        elif tag in ("td", "th") and self._row is not None:
            self._row.append(self._text.strip())
        elif tag == "tr" and self._row is not None:
            self.cells[self._table].append(self._row)
            self._row = None
        elif tag == "figure":
            self._figure = None
        elif tag == "svg":
            self._svg = None

    def handle_data(self, data):
        self._text += data


def check_structure(html: str, thesis: bool) -> list[str]:
    dom = Dom()
    dom.feed(html)
    notes = []
    for t in TABLES + (THESIS_TABLES if thesis else []):
        check(t in dom.tables, f"table #{t} missing")
        check(dom.tables[t] > 0, f"table #{t} has no rows")
    for f in CHARTS:
        check(f in dom.figures, f"chart #{f} missing")
        svgs = dom.figures[f]
        # A chart may say it has nothing to show (a match without attack requests), never in
        # a thesis run.
        if not svgs and f in dom.empty and not thesis:
            notes.append(f"#{f}: nothing to show")
            continue
        check(len(svgs) > 0, f"chart #{f} has no SVG")
        mark = "circle" if f == "chart-ratings" else "polyline"
        check(all(s.get(mark, 0) > 0 for s in svgs), f"a panel of #{f} has no {mark}")
        check(all(s.get("text", 0) >= 5 for s in svgs), f"a panel of #{f} has no axis labels or legend")
        notes.append(f"#{f}: {len(svgs)} panel(s)")
    if thesis:
        # The list of differing cells must be exactly the cells marked "differs" in the detail.
        differs = sum(1 for t in ("fidelity-results", "fidelity-draws", "fidelity-suites") for row in dom.cells[t] if row[-1] == "differs")
        listed = dom.tables.get("fidelity-differ", 0)
        check(differs == listed, f"{differs} cells differ in the detail, {listed} listed at the top")
        notes.append(f"{differs} thesis cells differ")
    rows = dom.tables["ratings-table"]
    check(rows == dom.tables["los"], "the likelihood-of-superiority matrix has a row per rated player")
    notes.append(f"{len(dom.tables)} tables, {rows} rated players")
    return notes


def png_size(data: bytes) -> tuple[int, int]:
    check(data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "the screenshot is not a PNG")
    return struct.unpack("!II", data[16:24])


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB rows of an 8-bit RGB or RGBA PNG, unfiltered."""
    png_size(data)
    pos, idat, width = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack("!I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack("!IIBBBBB", body)
            check(depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {depth}/{colour}/{interlace}")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    rgb = [r if bpp == 3 else bytes(v for i, v in enumerate(r) if i % 4 != 3) for r in rows]
    return width, height, rgb


def check_screenshot(full: bytes, small: bytes, width: int, height: int) -> str:
    """The full screenshot has the window's size; its quarter-scale copy (decoded here, the full
    one would take a pure-Python decoder long) has ink and colours."""
    check(png_size(full) == (width, height), f"screenshot is {png_size(full)}, not {width}x{height}")
    w, h, rows = png_pixels(small)
    pixels = [row[x:x + 3] for row in rows for x in range(0, w * 3, 3)]
    share = sum(min(px) < 200 for px in pixels) / len(pixels)
    colours = len(set(pixels))
    check(share > 0.02, f"the screenshot is blank ({share:.1%} of it is ink)")
    check(colours >= 16, f"the screenshot has {colours} colours only")
    return f"screenshot {width}x{height}: {share:.1%} ink, {colours} colours"


def probe(browser: Browser) -> None:
    """The detector must hear a console error, an exception, a missing file and a remote load."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "probe.html"
        page.write_text('<!DOCTYPE html><title>probe</title><img src="missing.png">'
                        '<script src="http://probe.invalid/x.js"></script>'
                        '<script>console.error("probe-error"); undefined_function();</script>')
        url = page.as_uri()
        browser.open(url, 800, 600)
        found = "\n".join(browser.problems(url))
        for expected in ["console.error: probe-error", "undefined_function", "missing.png", "probe.invalid"]:
            check(expected in found, f"self-test: the detector missed {expected!r}; it heard:\n{found}")


def check_first_screen(browser: Browser, url: str, thesis: bool) -> str:
    """Where the summary and the first chart stand in a 1280 x 1000 window: both must start
    inside it (a page that opens with long tables hides its charts thousands of pixels down)."""
    browser.open(url, 1280, 1000)
    summary = "#fidelity .summary" if thesis else "#ratings-table"
    top = lambda sel: browser.value(
        f"(() => {{ const e = document.querySelector({json.dumps(sel)}); return e ? e.getBoundingClientRect().top : null; }})()"
    )
    summary_top, chart_top = top(summary), top("figure svg")
    check(summary_top is not None and summary_top < 1000, f"the summary ({summary}) starts at {summary_top} px, below the first screen")
    check(chart_top is not None and chart_top < 1000 - 100, f"the first chart starts at {chart_top} px, not on the first screen")
    charts_top = top("#charts")
    check(charts_top is not None and charts_top < 2 * 1000, f"the Charts section starts at {charts_top} px, after the long tables")
    return f"first screen: summary at {summary_top:.0f} px, first chart at {chart_top:.0f} px, Charts at {charts_top:.0f} px"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agentchess", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--games", type=int, default=4, help="games a pairing of the seeded thesis run")
    ap.add_argument("--page", help="check this index.html instead of making one (a thesis run's)")
    ap.add_argument("--screenshot", help="keep the 1280 x 2000 screenshot here")
    ap.add_argument("--not-thesis", action="store_true", help="the --page is a match's or tournament's: no thesis tables")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.page:
            page = Path(args.page).resolve()
        else:
            out = Path(tmp) / "report"
            subprocess.run([args.agentchess, "thesis", "--seed", "1", "--games", str(args.games), "--out", str(out)],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            page = out / "index.html"
        browser = Browser(args.chromium)
        try:
            probe(browser)
            url = page.as_uri()
            browser.open(url, 1280, 2000)
            problems = browser.problems(url)
            check(not problems, "the page is not clean:\n" + "\n".join(problems))
            notes = check_structure(browser.dom(), thesis=not args.not_thesis)
            png = browser.screenshot()
            notes.append(check_screenshot(png, browser.screenshot(0.25), 1280, 2000))
            notes.append(check_first_screen(browser, url, thesis=not args.not_thesis))
            pdf = browser.pdf()
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            check(pdf.startswith(b"%PDF") and pages > 0, "printing gave no PDF pages")
            notes.append(f"prints on {pages} pages")
            if args.screenshot:
                Path(args.screenshot).write_bytes(png)
                notes.append(f"screenshot kept in {args.screenshot}")
        except Failure as e:
            print(f"FAIL {page}: {e}", file=sys.stderr)
            return 1
        finally:
            browser.close()
    print(f"ok {page.name}: no console message, exception or request; " + "; ".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())

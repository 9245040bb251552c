#!/usr/bin/env python3
"""Runs the commands README.md shows, as written, so that README makes no claim CI does not check.

Every fenced block marked ```sh is run line by line (a line ending in a backslash continues on
the next; `#` starts a comment) with `bash`, from a scratch folder that links to the checkout's
files, with the release build first on PATH (the `agentchess` that `cargo install` would put
there), "quit" on standard input and a time limit. A block marked ```sh covered-by=PATH is a
command that needs what a scratch folder cannot give (a GUI on a display, the whole test suite)
and is run by that CI step instead: the file must exist and .ci/run must name it. Blocks marked
otherwise (```text for output, for instance) are not commands.

A command fails the check when it exits non-zero, runs past its time, or panics.

    cargo build --release
    python3 tests/e2e/readme_commands.py [--readme README.md] [--timeout 600]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(\S*)(.*)$")


def blocks(text: str) -> list[tuple[str, str, list[str], int]]:
    """(language, options, lines, line number) of every fenced block."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and m.group(1):
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((m.group(1), m.group(2).strip(), body, start))
        i += 1
    return out


def commands(body: list[str]) -> list[str]:
    """The block's commands: continuation lines joined, comments and blank lines dropped."""
    out, current = [], ""
    for raw in body:
        line = raw.rstrip()
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        text = strip_comment(current).strip()
        if text:
            out.append(text)
        current = ""
    return out


def strip_comment(line: str) -> str:
    """The line without a `#` comment outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def scratch() -> Path:
    """A folder that links to the checkout's files, so that commands writing files leave the
    checkout as it was."""
    folder = Path(tempfile.mkdtemp(prefix="readme-commands-"))
    for name in ("Cargo.toml", "Cargo.lock", "src", "benches", "tests", "docs", "engines.ini", "README.md", "target"):
        if (ROOT / name).exists():
            (folder / name).symlink_to(ROOT / name)
    return folder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--readme", type=Path, default=ROOT / "README.md")
    ap.add_argument("--timeout", type=int, default=600, help="seconds a command may take")
    args = ap.parse_args()
    binary = ROOT / "target" / "release" / "agentchess"
    if not binary.exists():
        print(f"{binary} not built (cargo build --release)")
        return 2
    ci_script = (ROOT / ".ci" / "run").read_text()
    problems: list[str] = []
    ran = covered = 0
    folder = scratch()
    env = dict(os.environ, PATH=f"{binary.parent}:{os.environ['PATH']}")
    for lang, options, body, line_no in blocks(args.readme.read_text()):
        if lang != "sh":
            continue
        opts = dict(o.split("=", 1) for o in options.split() if "=" in o)
        if "covered-by" in opts:
            path = opts["covered-by"]
            if not (ROOT / path).exists():
                problems.append(f"README line {line_no}: covered-by={path}, which does not exist")
            elif path != ".ci/run" and path not in ci_script:
                problems.append(f"README line {line_no}: covered-by={path}, which .ci/run does not run")
            covered += len(commands(body))
            continue
        for cmd in commands(body):
            start = time.monotonic()
            try:
                proc = subprocess.run(["bash", "-c", cmd], cwd=folder, env=env, input="quit\n", capture_output=True,
                                      text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                problems.append(f"README line {line_no}: `{cmd}` ran past {args.timeout} s")
                continue
            took = time.monotonic() - start
            ran += 1
            status = "ok" if proc.returncode == 0 and "panicked" not in proc.stderr else "FAILED"
            print(f"  [{status}] {took:6.1f} s  {cmd}")
            if status != "ok":
                problems.append(f"README line {line_no}: `{cmd}` exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
    print(f"README commands: {ran} run, {covered} run by the CI steps that cover them, {len(problems)} problems")
    for p in problems:
        print("  PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check: OpenBench builds the engine and reads its bench, with OpenBench's own client code.

An OpenBench client builds an engine by running `make -j EXE=NAME` in the engine's source
(Client/utils.py, `makefile_command`), expects the binary at NAME there
(`check_for_engine_binary`), then runs `./NAME bench` in several processes at once and reads
the node count and the speed from the output's last lines (Client/bench.py, `run_benchmark`),
refusing the engine when the counts differ. This check does exactly that on a fresh clone of
this repository's HEAD, calling the snapshot of that code in ../shared/tools/openbench, with
two processes (--processes), and fails on any exception it raises. It prints the bench and the
mean speed, and checks that the bench is the node count `agentchess bench` prints last.

    python3 tests/e2e/openbench.py [--openbench ../shared/tools/openbench] [--processes 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "agentchess-openbench"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--openbench", default=str(ROOT.parent / "shared" / "tools" / "openbench"))
    ap.add_argument("--processes", type=int, default=2, help="concurrent bench runs (OpenBench's threads)")
    ap.add_argument("--sets", type=int, default=1, help="times the concurrent runs are repeated")
    args = ap.parse_args()
    client = Path(args.openbench) / "Client"
    if not (client / "bench.py").is_file():
        print(f"FAIL: no OpenBench client at {client}")
        return 2
    sys.path.insert(0, str(client))
    import bench  # noqa: E402  (OpenBench's Client/bench.py)
    import utils  # noqa: E402  (OpenBench's Client/utils.py)

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "agentchess"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(src)], check=True)
        # OpenBench's build command for an engine whose compiler is cargo (the build path is
        # the root), run where OpenBench runs it.
        command = utils.makefile_command(None, "", NAME, "cargo>=1.88")
        print("build:", " ".join(command))
        started = time.time()
        built = subprocess.run(command, cwd=src, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if built.returncode != 0:
            print(f"FAIL: {' '.join(command)} exited {built.returncode}:\n{built.stdout[-3000:]}")
            return 1
        binary = utils.check_for_engine_binary(str(src / NAME))
        if not binary:
            print(f"FAIL: {' '.join(command)} left no {NAME} in the clone's root")
            return 1
        print(f"built {NAME} from a fresh clone in {time.time() - started:.0f} s")
        # run_benchmark runs `./NAME bench` from the working directory.
        os.chdir(src)
        try:
            nps, nodes = bench.run_benchmark(NAME, args.processes, args.sets)
        except utils.OpenBenchBadBenchException as e:
            print(f"FAIL: OpenBench refused the bench: {e.message}")
            return 1
        last = subprocess.run([f"./{NAME}", "bench"], capture_output=True, text=True, check=True).stdout
        last_line = last.strip().splitlines()[-1]
        if last_line.split()[0] != str(nodes):
            print(f"FAIL: OpenBench read bench {nodes}, the last line says {last_line!r}")
            return 1
        print(f"OpenBench's client read bench {nodes} from {args.processes} concurrent runs "
              f"({args.sets} set(s)), {nps} nps on average; last line {last_line!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Conformance with a UCI client nobody here wrote: python-chess.

Usage: protocol_conformance.py <path to the cheversi binary>

python-chess completes the handshake, parses every option line, sets Hash and
Threads, pings with isready and quits. Any deviation from UCI that it notices
raises; the exit code says pass (0) or fail (1).
"""

import logging
import sys

import chess.engine

EXPECTED = {
    # Hash's max is the machine's physical memory in MiB (checked below).
    "Hash": ("spin", 16, 1, None),
    "Threads": ("spin", 1, 1, 64),
    "MultiPV": ("spin", 1, 1, 64),
    "Move Overhead": ("spin", 20, 0, 5000),
    "Clear Hash": ("button", None, None, None),
    "TunedEval": ("check", True, None, None),
    "OwnBook": ("check", True, None, None),
    "UCI_Variant": ("combo", "standard", None, None),
}


def live_lines(binary: str) -> list:
    """An infinite search from the empty board (out of the book) until two
    live lines, `info depth D nodes N nps N hashfull H time T`, have come:
    python-chess reads them as infos with those figures and no score, and
    the nodes rise. (Its chess board cannot read our placements in the pv
    lines or a bestmove: it logs those, so this engine is closed, not quit.)"""

    class Empty(chess.Board):  # python-chess sends its UCI_Variant and `position startpos`
        uci_variant = "standard"

    for name in ("chess.engine", "asyncio"):  # the pv lines it cannot read
        logging.getLogger(name).setLevel(logging.CRITICAL)
    engine = chess.engine.SimpleEngine.popen_uci([binary], timeout=10)
    live = []
    try:
        engine.configure({"OwnBook": False})
        analysis = engine.analysis(Empty())
        while len(live) < 2:
            info = analysis.get()
            if "score" not in info and "nodes" in info:
                assert {"depth", "nps", "hashfull", "time"} <= info.keys(), info
                live.append(info)
    finally:
        engine.close()
    nodes = [i["nodes"] for i in live]
    assert nodes[0] < nodes[1], nodes
    return live


def main(binary: str) -> int:
    engine = chess.engine.SimpleEngine.popen_uci([binary], timeout=10)
    try:
        name = engine.id.get("name", "")
        assert name.startswith("Cheversi"), f"id name: {name!r}"
        assert engine.id.get("author"), "no id author"
        for key, (kind, default, lo, hi) in EXPECTED.items():
            opt = engine.options[key]
            got = (opt.type, opt.default, opt.min, opt.max)
            if key == "Hash":
                assert opt.max >= 1024, f"Hash max {opt.max}"
                got = got[:3] + (None,)
            assert got == (kind, default, lo, hi), f"{key}: {got}"
        variant = engine.options["UCI_Variant"]
        assert list(variant.var) == ["standard", "open", "original"], variant.var
        engine.configure({"Hash": 32, "Threads": 2})
        engine.ping()
        live = live_lines(binary)
        print(f"python-chess {chess.__version__}: {name}: {len(engine.options)} options, "
              f"configured Hash and Threads, ping answered, {len(live)} live lines read "
              f"(nodes {[i['nodes'] for i in live]})")
    finally:
        engine.quit()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        sys.exit(main(sys.argv[1]))
    except Exception as e:  # any failure of the client is a test failure
        print(f"conformance failed: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)

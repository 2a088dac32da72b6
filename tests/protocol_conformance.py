#!/usr/bin/env python3
"""Conformance with a UCI client nobody here wrote: python-chess.

Usage: protocol_conformance.py <path to the cheversi binary>

python-chess completes the handshake, parses every option line, sets Hash and
Threads, pings with isready and quits. Any deviation from UCI that it notices
raises; the exit code says pass (0) or fail (1).
"""

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
        print(f"python-chess {chess.__version__}: {name}: {len(engine.options)} options, "
              "configured Hash and Threads, ping answered")
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

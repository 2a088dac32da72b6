#!/usr/bin/env python3
"""Check a solution store against a second, different search.

Draws positions at random from those a store proves (optionally only the
ones whose bounds are new or tighter than in an older copy of the store),
gives each to the engine through the protocol (`go depth <plies left>`,
OwnBook off, so the value comes from the engine's own search and not from
the book or the store) and checks that the score it prints lies inside
the store's proven interval. Prints one line per position and exits
non-zero if any lies outside.

    python3 tools/check_store.py ENGINE STORE [--old OLD_STORE] [--count N]
        [--left L] [--seed S] [--hash MiB] [--bound any|upper|lower|exact]

The store's `lo` and `hi` are points from the side to move's view
(-1000/1000 mean unbounded), as the engine's `score cp` is (100 a point).
"""

import argparse
import random
import sqlite3
import subprocess
import sys
import time

UNBOUNDED = 1000


def rows(path, left):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        variant = dict(con.execute("select name, value from meta"))["variant"]
        found = {
            key: (fen, lo, hi)
            for key, fen, lo, hi in con.execute(
                "select key, fen, lo, hi from positions where left = ?", (left,)
            )
        }
    finally:
        con.close()
    return variant, found


def engine_score(engine, variant, fen, depth, hash_mib):
    script = (
        "uci\n"
        f"setoption name UCI_Variant value {variant}\n"
        "setoption name OwnBook value false\n"
        f"setoption name Hash value {hash_mib}\n"
        "isready\n"
        f"position fen {fen}\n"
        f"go depth {depth}\n"
    )
    proc = subprocess.Popen(
        [engine],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    proc.stdin.write(script)
    proc.stdin.flush()
    score = None
    best = None
    for line in proc.stdout:
        words = line.split()
        if "score" in words:
            i = words.index("score")
            if words[i + 1] == "cp" and "lowerbound" not in words and "upperbound" not in words:
                score = int(words[i + 2])
        if words and words[0] == "bestmove":
            best = words[1]
            break
        if words[:2] == ["info", "string"] and "error" in line:
            print(line.strip(), file=sys.stderr)
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return score, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("store")
    ap.add_argument("--old", help="check only positions new or tighter than in this store")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--left", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=1024)
    ap.add_argument(
        "--bound",
        choices=["any", "upper", "lower", "exact"],
        default="any",
        help="only positions with a proven upper bound, lower bound or exact value",
    )
    args = ap.parse_args()

    variant, new = rows(args.store, args.left)
    if args.old:
        old_variant, old = rows(args.old, args.left)
        if old_variant != variant:
            sys.exit(f"the stores are of different variants: {variant}, {old_variant}")
        new = {k: v for k, v in new.items() if old.get(k) != v}
    wanted = {
        "any": lambda lo, hi: True,
        "upper": lambda lo, hi: hi < UNBOUNDED,
        "lower": lambda lo, hi: lo > -UNBOUNDED,
        "exact": lambda lo, hi: lo == hi,
    }[args.bound]
    keys = sorted(k for k, (_, lo, hi) in new.items() if wanted(lo, hi))
    print(f"{len(keys)} candidate positions with {args.left} plies left ({variant})")
    random.Random(args.seed).shuffle(keys)
    outside = 0
    for key in keys[: args.count]:
        fen, lo, hi = new[key]
        start = time.monotonic()
        score, best = engine_score(args.engine, variant, fen, args.left, args.hash)
        took = time.monotonic() - start
        lo_cp = -float("inf") if lo <= -UNBOUNDED else lo * 100
        hi_cp = float("inf") if hi >= UNBOUNDED else hi * 100
        ok = score is not None and lo_cp <= score <= hi_cp
        outside += not ok
        shown = lambda v: "-inf" if v <= -UNBOUNDED else ("inf" if v >= UNBOUNDED else str(v))
        print(
            f"{'inside ' if ok else 'OUTSIDE'} {fen}  store [{shown(lo)}, {shown(hi)}]"
            f"  score cp {score}  bestmove {best}  {took:.1f} s"
        )
    print(f"{min(args.count, len(keys)) - outside} inside, {outside} outside")
    sys.exit(1 if outside else 0)


if __name__ == "__main__":
    main()

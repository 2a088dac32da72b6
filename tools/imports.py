#!/usr/bin/env python3
"""The import graph of src/: which file uses which, from `crate::`/`super::`
paths (in `use` lines and inline), with the cycles between files and between
folders. Test-only uses (inside `#[cfg(test)]` modules and test-only files)
are left out unless --tests is given.

    python3 tools/imports.py [--tests] [--edges]
"""

import os
import re
import sys
from collections import defaultdict

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
# `super::{a, b}` too: a group straight after the first word.
PATH = re.compile(r"\b(crate|super|self)((?:::\w+)*)(?:::\{([^}]*)\})?")


def modules():
    """Module path (tuple) -> file, from the file tree."""
    out = {}
    for root, _, files in os.walk(SRC):
        for f in files:
            if not f.endswith(".rs") or f == "main.rs":
                continue
            rel = os.path.relpath(os.path.join(root, f), SRC)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib"):
                rel = rel[:-1]
            out[tuple(rel)] = os.path.relpath(os.path.join(root, f), os.path.join(SRC, ".."))
    return out


def resolve(mods, path):
    """The deepest module that `path` names."""
    while path and tuple(path) not in mods:
        path = path[:-1]
    return tuple(path)


def uses(mods, mod, file, with_tests):
    text = open(os.path.join(SRC, "..", file)).read()
    test_file = False
    if mod:
        parent = open(os.path.join(SRC, "..", mods[mod[:-1]])).read()
        test_file = re.search(r"#\[cfg\(test\)\]\s*(pub(\(\w+\))? )?mod " + mod[-1] + ";", parent) is not None
    if test_file and not with_tests:
        return set()
    children = [c for c in re.findall(r"^\s*(?:pub(?:\(\w+\))? )?mod (\w+);", text, re.M)]
    depth, inline, out = 0, [], set()  # inline: [(brace depth, is test)]
    pending_test = False
    for line in text.splitlines():
        code = line.split("//")[0]
        if re.match(r"\s*#\[cfg\(test\)\]", code):
            pending_test = True
        m = re.match(r"\s*(pub(\(\w+\))? )?mod \w+\s*\{", code)
        if m:
            inline.append((depth, pending_test or (inline and inline[-1][1])))
        if code.strip() and not code.strip().startswith("#"):
            pending_test = pending_test and m is None and "mod" in code
        in_test = bool(inline and inline[-1][1])
        if children and not in_test:
            for c in re.findall(r"(?<![:\w])(" + "|".join(children) + r")::", code):
                out.add(resolve(mods, list(mod) + [c]))
        if not in_test or with_tests:
            for base, rest, group in PATH.findall(code):
                if not rest and not group:
                    continue
                parts = rest.split("::")[1:]
                nest = len(inline) - (1 if m else 0)
                here = list(mod) + ["<inline>"] * nest
                if base == "crate":
                    start = []
                elif base == "self":
                    start = here
                else:
                    start = here[:-1]
                    while parts and parts[0] == "super":
                        start, parts = start[:-1], parts[1:]
                start = [p for p in start if p != "<inline>"]
                names = [parts]
                if group:
                    names = [parts + [g.strip().split(" ")[0].split("::")[0]] for g in group.split(",") if g.strip()]
                for p in names:
                    t = resolve(mods, start + p)
                    if t != mod and mods.get(t) != file:
                        out.add(t)
        depth += code.count("{") - code.count("}")
        while inline and depth <= inline[-1][0]:
            inline.pop()
    return out


def sccs(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            c = []
            while True:
                w = stack.pop()
                on.discard(w)
                c.append(w)
                if w == v:
                    break
            if len(c) > 1:
                out.append(sorted(c))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return out


# The layers, lowest first: a unit is a top-level file of src/ or a folder.
LAYERS = [
    "src/types.rs", "src/codes.rs", "src/bitboard.rs", "src/attacks.rs", "src/zobrist.rs", "src/testing.rs",
    "src/position.rs", "src/variant", "src/fen.rs", "src/symmetry.rs", "src/perft.rs",
    "src/value.rs", "src/gains", "src/eval", "src/search/endgame/node", "src/search/endgame/open", "src/search/endgame/standard",
    "src/search/endgame/standard/four_left_bound",
    "src/search/endgame", "src/search", "src/solve", "src/suite", "src/engine.rs", "src/protocol/response", "src/protocol/io", "src/protocol/cecp", "src/protocol", "src/lib.rs",
    "src/main.rs",
]


def folder(file):
    """The unit a file belongs to: its folder, or itself at the top of src/."""
    d = os.path.dirname(file)
    return file if d == "src" else d


def rank(unit):
    return LAYERS.index(unit) if unit in LAYERS else -1


def main():
    with_tests = "--tests" in sys.argv
    mods = modules()
    files = defaultdict(set)
    for mod, file in mods.items():
        for t in uses(mods, mod, file, with_tests):
            if mods[t] != file:
                files[file].add(mods[t])
    edges = sum(len(v) for v in files.values())
    print(f"{len(mods)} files, {edges} imports between files" + (" (with tests)" if with_tests else ""))
    if "--edges" in sys.argv:
        for f in sorted(files):
            print(f"  {f} -> {', '.join(sorted(files[f]))}")
    cyc = sccs(files)
    print(f"file cycles: {len(cyc)}")
    for c in cyc:
        inner = sum(1 for f in c for t in files[f] if t in c)
        print(f"  {len(c)} files, {inner} imports among them: {' '.join(c)}")
    folders = defaultdict(set)
    for f, ts in files.items():
        for t in ts:
            if folder(f) != folder(t):
                folders[folder(f)].add(folder(t))
    print("imports between units (top-level files and folders):")
    for f in sorted(folders):
        print(f"  {f} -> {', '.join(sorted(folders[f]))}")
    fc = sccs(folders)
    print(f"unit cycles: {len(fc)}")
    for c in fc:
        print(f"  {' '.join(c)}")
    up = [(f, t) for f, ts in files.items() for t in ts if rank(folder(t)) > rank(folder(f))]
    print(f"upward imports (a lower layer using a higher one, by LAYERS): {len(up)}")
    for f, t in sorted(up):
        print(f"  {f} -> {t}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A person's game in XBoard, played by clicks: XBoard (under Xvfb) with
`cheversi` as Black, White's placements made through XBoard's board with
xdotool (click the piece in White's holdings, click the square), to the end
of the game. Checks the saved game (16 placements, legal when replayed
through `cheversi`, XBoard's result and points the engine's) and saves a
screenshot of the board in the middle of the game with the legal squares of
a lifted piece marked.

    python3 tools/xboard_human.py target/release/cheversi [--shot out.png] [--keep DIR]

Needs xboard, Xvfb, xdotool and ImageMagick's `import` (Debian: xboard,
xvfb, xdotool, imagemagick). XBoard 4.9.1's `-mode MachineBlack` refuses to
start at the initial position ("It is not Black's turn": the mode asks the
engine to move now); XBoard's start mode is the same arrangement (you play
White, the engine Black), so the script starts XBoard in it and checks that
XBoard's debug log shows the engine playing Black.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HAND = ["N", "B", "R", "Q", "K"]  # XBoard's holdings rows, White's from rank 1 up


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


class Uci:
    """cheversi over UCI, for the legal moves and the replay."""

    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.p.stdout.readline()  # the banner

    def ask(self, line):
        self.p.stdin.write(line + "\nisready\n")
        self.p.stdin.flush()
        out = []
        while (l := self.p.stdout.readline().rstrip("\n")) != "readyok":
            out.append(l)
        return out

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.flush()
        self.p.wait(10)


def screenshot(display, path):
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True)


def pixels(display):
    """The screen as (width, height, rgb bytes), from a PPM."""
    ppm = subprocess.run(["import", "-display", display, "-window", "root", "-depth", "8", "ppm:-"],
                         check=True, capture_output=True).stdout
    parts = ppm.split(maxsplit=4)
    w, h = int(parts[1]), int(parts[2])
    return w, h, parts[4][-w * h * 3:]


def wood(rgb):
    r, g, b = rgb
    return r > 200 and 170 < g < 235 and b < 200


def board_geometry(display):
    """The board's top-left corner and square pitch, found on the screen:
    the first column of board squares is file a, two columns right of
    Black's holdings (holdings, counts, then the board)."""
    w, h, px = pixels(display)
    at = lambda x, y: tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3])
    # Rows and columns of the board hold many light squares (a tooltip or
    # a menu holds fewer wooden pixels, or none).
    ys = [y for y in range(h) if sum(wood(at(x, y)) for x in range(w)) >= 100]
    xs = [x for x in range(w) if sum(wood(at(x, y)) for y in range(h)) >= 100]
    top, bottom, left, right = min(ys), max(ys), min(xs), max(xs)
    pitch = (bottom - top + 1) / 8
    cols = round((right - left + 1) / pitch)  # 12: holdings, counts, 8 files, counts, holdings
    assert cols == 12 and abs(pitch * 12 - (right - left + 1)) < 6, (top, bottom, left, right, pitch)
    return left, top, pitch


def click(display, geo, col, row):
    left, top, pitch = geo
    x, y = int(left + pitch * col + pitch / 2), int(top + pitch * row + pitch / 2)
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=True, env=env)
    time.sleep(0.6)


def square(geo_sq):
    f, r = ord(geo_sq[0]) - ord("a"), int(geo_sq[1])
    return f + 2, 8 - r


def game_moves(debug):
    """The placements so far, from XBoard's debug log."""
    moves = []
    for l in open(debug, errors="replace"):
        # XBoard's log may split a line with a timestamp: "usermove 6565 >first : K@a1".
        m = re.search(r">first : usermove (?:\d+ >first : )?([KQRBN]@[a-h][1-8])|<first : move ([KQRBN]@[a-h][1-8])", l)
        if m:
            moves.append(m.group(1) or m.group(2))
    return moves


def read_pgn(path):
    text = open(path).read()
    result = re.search(r'\[Result "([^"]*)"\]', text).group(1)
    body = "\n".join(l for l in text.splitlines() if not l.startswith("["))
    comments = re.findall(r"\{([^}]*)\}", body)
    moves = re.findall(r"[KQRBN]@[a-h][1-8]", re.sub(r"\{[^}]*\}", " ", body))
    return result, moves, comments[-1].strip() if comments else ""


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))  # still clean up
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--shot", help="where to save the mid-game screenshot")
    ap.add_argument("--keep", help="a folder to keep the saved game and XBoard's log in")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    xboard = shutil.which("xboard") or "/usr/games/xboard"
    tmp = tempfile.mkdtemp(prefix="cheversi-human-")
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp", "-br"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    display = ":" + xvfb.stdout.readline().strip()
    pgn, debug = os.path.join(tmp, "game.pgn"), os.path.join(tmp, "xboard.debug")
    xb = subprocess.Popen([xboard, "-fcp", binary, "-variant", "cheversi", "-tc", "0:30", "-inc", "0",
                           "-boardSize", "Medium", "-saveGameFile", pgn, "-debug", "-nameOfDebugFile", debug,
                           "-saveSettingsOnExit", "false", "-popupExitMessage", "false"],
                          env=dict(os.environ, DISPLAY=display, HOME=tmp), cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    uci = Uci(binary)
    start = time.time()
    try:
        time.sleep(3)
        env = dict(os.environ, DISPLAY=display)
        subprocess.run(["xdotool", "mousemove", "799", "599"], check=True, env=env)
        time.sleep(1.5)  # no tooltip over the board
        if os.environ.get("XBOARD_HUMAN_DEBUG"):
            screenshot(display, os.environ["XBOARD_HUMAN_DEBUG"])
        geo = board_geometry(display)
        print(f"board at ({geo[0]}, {geo[1]}), squares {geo[2]:.1f} px")
        while True:
            moves = game_moves(debug)
            if len(moves) == 16:
                break
            if len(moves) % 2 == 1:  # the engine (Black) is thinking
                time.sleep(0.3)
                continue
            assert not uci.ask("position startpos moves " + " ".join(moves))
            legal = uci.ask("moves")[0].split()[2:]
            mv = legal[len(moves) * 7 % len(legal)]  # any legal placement, varied
            piece, target = mv.split("@")
            click(display, geo, 11, 7 - HAND.index(piece))  # lift it from White's holdings
            if len(moves) == 8 and args.shot:
                screenshot(display, args.shot)  # mid-game, its legal squares marked
                print(f"screenshot with {piece}'s legal squares marked: {args.shot}")
            click(display, geo, *square(target))  # and put it down
            deadline = time.time() + 30
            while len(game_moves(debug)) == len(moves) and time.time() < deadline:
                time.sleep(0.2)
            assert len(game_moves(debug)) > len(moves), f"XBoard did not send {mv}"
            print(f"White (clicks): {mv}")
        deadline = time.time() + 30
        while time.time() < deadline and not (os.path.exists(pgn) and '[Result "' in open(pgn).read()):
            time.sleep(0.2)
        result, moves, comment = read_pgn(pgn)
        log = open(debug, errors="replace").read()
        assert "MachinePlaysBlack" in log or ">first : go" not in log.split("usermove")[0], "engine as Black"
        print(open(pgn).read())
        uci.ask("setoption name UCI_Variant value standard")
        errors = uci.ask("position startpos moves " + " ".join(moves))
        assert len(moves) == 16 and not errors, (moves, errors)
        engine_result = {"response p1win": "1-0", "response p2win": "0-1", "response draw": "1/2-1/2"}[
            uci.ask("query result")[0]]
        points = next(l for l in uci.ask("d") if l.startswith("Points: ")).split()
        want = f"White {points[2]} : {points[4]} Black"
        assert (result, comment) == (engine_result, want), (result, comment, engine_result, want)
        print(f"16 placements, legal; XBoard recorded {result} {{{comment}}}, the engine's own; "
              f"{time.time() - start:.1f} s")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copy(pgn, os.path.join(args.keep, "human.pgn"))
            shutil.copy(debug, os.path.join(args.keep, "human.debug"))
    finally:
        uci.close()
        xb.kill()
        xb.wait()
        xvfb.kill()
        xvfb.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

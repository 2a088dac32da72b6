// What the page's modules share: the names of things, and the page's state.

export const PIECES = ["K", "Q", "R", "B", "N"];
export const GLYPH = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞" };
export const NAME = { K: "King", Q: "Queen", R: "Rook", B: "Bishop", N: "Knight" };
export const FILES = "abcdefgh";

export const $ = (id) => document.getElementById(id);

// The page's state: the last state from the server and what the page
// decides on its own (the piece picked, which way the board is turned).
export const ui = {
  st: null,
  selected: null, // the piece letter picked from the hand
  selectedFen: "", // the position it was picked in
  flipped: false,
  flipTouched: false,
};

export function squareName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }

export function sideIndex(color) { return color === "white" ? 0 : 1; }

export function title(color) { return color === "white" ? "White" : "Black"; }

// Whether a human plays the side to move (and the game is not over).
export function humanToMove() {
  const st = ui.st;
  if (!st || st.position.result) return false;
  return st.players[sideIndex(st.position.side)] === "human";
}

// Move numbers as in PGN: `3.` before White's placement, `3…` before a
// Black placement that starts a list.
export function moveNumber(ply, first) {
  if (ply % 2 === 0) return `${ply / 2 + 1}.`;
  return first ? `${(ply - 1) / 2 + 1}…` : "";
}

// The notice line under the hands: a message (an error, a rule) until the
// next action or the next position, else a hint about the piece picked.
let message = null;

export function notice(text, cls) {
  message = { text, cls };
  drawNotice();
}

export function clearNotice() {
  message = null;
  drawNotice();
}

export function drawNotice() {
  const n = $("notice");
  if (message) {
    n.textContent = message.text;
    n.className = message.cls;
    return;
  }
  const hint = ui.selected && humanToMove() ? `${NAME[ui.selected]} picked: click a marked square` : "";
  n.textContent = hint;
  n.className = hint ? "hint" : "";
}

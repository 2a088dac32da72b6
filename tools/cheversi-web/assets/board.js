// The board and the two hands: drawn from the server's state, clicked or
// driven by the keyboard (every square and hand piece takes focus and is
// named for screen readers).

import { $, FILES, GLYPH, NAME, PIECES, drawNotice, humanToMove, notice, sideIndex, squareName, title, ui } from "./common.js";

let sendPlay = () => {};

// `play(text)` is how a placement is sent.
export function initBoard(play) {
  sendPlay = play;
}

function times(n) {
  return n === 1 ? "once" : n === 2 ? "twice" : `${n} times`;
}

// "e4, empty, attacked twice by White and once by Black, legal for the Rook".
function squareLabel(name, i, legal) {
  const p = ui.st.position;
  const piece = p.board[i];
  if (piece) {
    const white = piece === piece.toUpperCase();
    return `${name}, ${white ? "White" : "Black"} ${NAME[piece.toUpperCase()]}`;
  }
  const w = p.attackers[0][i], b = p.attackers[1][i];
  const by = [];
  if (w) by.push(`${times(w)} by White`);
  if (b) by.push(`${times(b)} by Black`);
  let text = `${name}, empty` + (by.length ? `, attacked ${by.join(" and ")}` : ", not attacked");
  if (legal) text += `, legal for the ${NAME[ui.selected]}`;
  return text;
}

export function drawBoard() {
  const st = ui.st;
  const board = $("board");
  const p = st.position;
  const legal = new Set(p.legal.filter((m) => m[0] === ui.selected).map((m) => m.slice(2)));
  const showAtt = $("show-attacks").checked;
  board.replaceChildren();
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = ui.flipped ? row : 7 - row;
      const file = ui.flipped ? 7 - col : col;
      const i = rank * 8 + file;
      const name = squareName(i);
      const sq = document.createElement("div");
      sq.id = "sq-" + name;
      sq.className = "sq " + ((rank + file) % 2 === 0 ? "dark" : "light");
      sq.dataset.square = name;
      sq.tabIndex = 0;
      sq.setAttribute("role", "button");
      const piece = p.board[i];
      if (piece) {
        const white = piece === piece.toUpperCase();
        const g = document.createElement("span");
        g.className = "piece " + (white ? "white" : "black");
        g.textContent = GLYPH[piece.toUpperCase()];
        g.setAttribute("aria-hidden", "true");
        sq.appendChild(g);
        sq.dataset.piece = piece;
      } else if (showAtt) {
        const w = p.attackers[0][i], b = p.attackers[1][i];
        if (w) sq.appendChild(mark("att att-w", w));
        if (b) sq.appendChild(mark("att att-b", b));
        if (w || b) sq.classList.add(w > b ? "att-white" : b > w ? "att-black" : "att-both");
      }
      if (p.last === name) sq.classList.add("last");
      if (legal.has(name)) sq.classList.add("legal");
      sq.setAttribute("aria-label", squareLabel(name, i, legal.has(name)));
      if (col === 0) sq.appendChild(mark("coord rank", rank + 1));
      if (row === 7) sq.appendChild(mark("coord file", FILES[file]));
      sq.addEventListener("click", () => clickSquare(name));
      sq.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); clickSquare(name); }
      });
      board.appendChild(sq);
    }
  }
}

// A mark drawn on a square, left out of its spoken name (the name says it).
function mark(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  s.setAttribute("aria-hidden", "true");
  return s;
}

// The hands, the player's own nearest to them: below the board unless it is turned.
export function drawHands() {
  const st = ui.st;
  const p = st.position;
  $("left").classList.toggle("flipped", ui.flipped);
  const movable = new Set(p.legal.map((m) => m[0]));
  for (const color of ["white", "black"]) {
    const box = $("hand-" + color);
    const ci = sideIndex(color);
    const human = st.players[ci] === "human";
    const mine = p.side === color && !p.result;
    box.classList.toggle("to-move", mine);
    $("points-" + color).textContent = p.points[ci];
    $("who-" + color).textContent = title(color) + " · " + (human ? "human" : st.engine_name || "engine");
    const pieces = box.querySelector(".pieces");
    pieces.replaceChildren();
    PIECES.forEach((k, pi) => {
      const n = p.hands[ci][pi];
      const b = document.createElement("button");
      b.id = `hand-${color}-${k}`;
      b.className = "hand-piece " + color;
      b.dataset.count = n;
      b.innerHTML = `<span class="glyph" aria-hidden="true">${GLYPH[k]}</span><span class="n" aria-hidden="true">${n}</span>`;
      const usable = n > 0 && mine && human;
      const blocked = usable && !movable.has(k);
      let name = `${title(color)} ${NAME[k]}, ${n} in hand`;
      if (!usable) {
        b.setAttribute("aria-disabled", "true");
        b.classList.add("off");
      } else if (blocked) {
        b.setAttribute("aria-disabled", "true");
        b.classList.add("blocked");
        name += `, cannot be placed now: ${p.restriction || "no legal square"}`;
      } else if (ui.selected === k) {
        b.classList.add("selected");
        b.setAttribute("aria-pressed", "true");
        name += ", picked";
      }
      b.title = name;
      b.setAttribute("aria-label", name);
      b.addEventListener("click", () => pick(color, k));
      pieces.appendChild(b);
    });
  }
}

function pick(color, k) {
  const st = ui.st;
  const p = st.position;
  if (p.result || p.side !== color || !humanToMove()) return;
  if (p.hands[sideIndex(color)][PIECES.indexOf(k)] === 0) return;
  if (!p.legal.some((m) => m[0] === k)) {
    notice(`the ${NAME[k]} cannot be placed now: ${p.restriction || "no square is legal for it"}`, "illegal");
    return;
  }
  ui.selected = k;
  ui.selectedFen = p.fen;
  drawBoard();
  drawHands();
  drawNotice();
}

function clickSquare(name) {
  const st = ui.st;
  if (!st) return;
  const p = st.position;
  if (p.result) { notice("the game is over: start a new game, or go back to an earlier placement", "error"); return; }
  if (!humanToMove()) { notice(`${title(p.side)} is played by the engine`, "error"); return; }
  if (!ui.selected) { notice("pick a piece from the hand first", "error"); return; }
  sendPlay(`${ui.selected}@${name}`);
}

// Keeps the piece picked only for the position it was picked in; picks the
// only piece that can be placed.
export function settleSelection() {
  const p = ui.st.position;
  if (ui.selected && (ui.selectedFen !== p.fen || !humanToMove())) ui.selected = null;
  const pieces = new Set(p.legal.map((m) => m[0]));
  if (humanToMove() && pieces.size === 1) {
    ui.selected = [...pieces][0];
    ui.selectedFen = p.fen;
  }
}

// The analysis panel: the lines of the search running (or of the last one),
// labelled with the position they belong to; live elapsed time between the
// engine's lines; a click on a placement of a line plays the line up to it.

import { $, moveNumber, title, ui } from "./common.js";

// Book lines by search id: one may come before the state that starts its
// search, or before its first line.
const books = new Map();
let search = fresh(0, 0);
let playLine = () => {};
let timer = null;

function fresh(id, ply) {
  return { id, ply, left: null, purpose: null, lines: new Map(), book: books.get(id) || null, t0: performance.now(), running: false, last: 0, live: null };
}

// `play(list)` plays placements one after the other from the position shown.
export function initAnalysis(play) {
  playLine = play;
}

// The lines' score for a position, White's view, for the graph.
export function scoreOf(msg) {
  const cp = msg.info.cp;
  if (cp === null || cp === undefined) return null;
  return msg.ply % 2 === 0 ? cp / 100 : -cp / 100;
}

// Each new state: which search is running decides what the lines belong to.
export function analysisState() {
  const st = ui.st;
  const s = st.search;
  if (s) {
    if (s.id !== search.id) {
      const book = search.id === 0 ? search.book : null;
      search = fresh(s.id, s.ply);
      search.book = search.book || book;
      search.t0 = performance.now() - s.elapsed;
    }
    search.purpose = s.purpose;
    search.running = true;
  } else {
    if (search.running) search.last = performance.now() - search.t0;
    search.running = false;
    // The engine's search for the move just played stays (with its solved
    // line) until the position moves on.
    const engineMove = st.position.ply === search.ply + 1 && st.players[search.ply % 2] === "engine";
    if (search.ply !== st.position.ply && !engineMove && !st.analyse && !st.thinking) search = fresh(0, st.position.ply);
  }
  if (search.running && !timer) timer = setInterval(drawStats, 250);
  if (!search.running && timer) { clearInterval(timer); timer = null; }
  drawAnalysis();
}

export function onBook(msg) {
  const book = { text: msg.text, ply: msg.ply ?? search.ply };
  books.set(msg.search, book);
  for (const id of books.keys()) if (id < msg.search - 8) books.delete(id);
  if (msg.search === search.id || search.id === 0) {
    search.id = msg.search;
    search.book = book;
    drawAnalysis();
  }
}

// The engine's book line ("solved: win (exact 1)", the side to move's
// view at `ply`) turned to White's view, as every number on the page:
// "solved: Black wins by 1 (White −1, exact)".
export function solvedText(text, ply) {
  const m = /^(?:solved: )?.*\((exact|at least|at most) ([+-]?\d+)\)$/.exec(text);
  if (!m) return text.startsWith("solved") ? text : "solved: " + text;
  const white = ply % 2 === 0;
  const v = Number(m[2]) * (white ? 1 : -1);
  const how = m[1] === "exact" ? "=" : (m[1] === "at least") === white ? "≥" : "≤";
  const signed = v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
  if (how === "=") {
    const words = v > 0 ? `White wins by ${v}` : v < 0 ? `Black wins by ${-v}` : "a draw";
    return `solved: ${words} (White ${signed}, exact)`;
  }
  let words = "not decided by the data";
  if (how === "≥" && v >= 1) words = `White wins by at least ${v}`;
  else if (how === "≥" && v === 0) words = "White draws or wins";
  else if (how === "≤" && v <= -1) words = `Black wins by at least ${-v}`;
  else if (how === "≤" && v === 0) words = "Black draws or wins";
  return `solved: ${words} (White ${how} ${signed})`;
}

// Returns the search's first line when it is new, for the evaluation graph.
export function onInfo(msg) {
  if (msg.search !== search.id) {
    const s = fresh(msg.search, msg.ply);
    s.running = true;
    search = s;
  }
  search.left = msg.left;
  const prev = search.lines.get(msg.info.multipv);
  if (msg.info.multipv > 1 && prev && prev.info.depth > msg.info.depth) return;
  search.lines.set(msg.info.multipv, msg);
  // A deeper first line makes the other lines stale.
  if (msg.info.multipv === 1) {
    for (const [k, v] of search.lines) if (k > 1 && v.info.depth < msg.info.depth - 1) search.lines.delete(k);
  }
  drawAnalysis();
}

// The engine's live figures between its lines (`info depth D nodes N nps N
// ... time T`): the depth under way, nodes, nodes/s.
export function onProgress(msg) {
  if (msg.search !== search.id) return;
  search.live = msg.info;
  drawStats();
}

export function scoreText(msg) {
  const i = msg.info;
  if (i.cp === null || i.cp === undefined) return "";
  const v = scoreOf(msg);
  const sign = v > 0 ? "+" : v < 0 ? "−" : "±";
  const mag = Math.abs(v);
  const num = msg.exact ? String(Math.round(mag)) : mag.toFixed(2);
  const whiteMoves = msg.ply % 2 === 0;
  const bound = i.bound === "lower" ? (whiteMoves ? "≥" : "≤") : i.bound === "upper" ? (whiteMoves ? "≤" : "≥") : "";
  return bound + sign + num;
}

function fmtNum(n) {
  if (n === null || n === undefined) return "–";
  if (n >= 1e9) return (n / 1e9).toFixed(2) + " G";
  if (n >= 1e6) return (n / 1e6).toFixed(2) + " M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + " k";
  return String(n);
}

function label() {
  const st = ui.st;
  const engine = st.engine_name || "engine";
  if (search.running && search.purpose === "move") {
    return `${engine} thinking for ${title(search.ply % 2 === 0 ? "white" : "black")} at ply ${search.ply}`;
  }
  if (search.running) return `analysing ply ${search.ply}`;
  if (search.lines.size || search.book) return `last search: ply ${search.ply}`;
  if (st.analyse) return st.position.result ? "the game is over: nothing to analyse" : "waiting for the engine";
  return "analysis off";
}

function drawStats() {
  const first = search.lines.get(1);
  const secs = ((search.running ? performance.now() - search.t0 : search.last) / 1000).toFixed(1);
  const parts = [];
  // The newer of the first line and the live figures gives nodes and nodes/s.
  const live = search.live && (!first || (search.live.nodes ?? 0) > (first.info.nodes ?? 0)) ? search.live : null;
  const figures = live || (first && first.info);
  if (first) {
    parts.push(`depth ${first.info.depth ?? "–"}/${first.info.seldepth ?? "–"} of ${search.left} left`);
    const under = live && live.depth > first.info.depth ? live.depth : first.info.depth + 1;
    if (search.running && first.info.depth < search.left) parts.push(`searching depth ${under}`);
  } else if (search.running) {
    parts.push(`searching depth ${live ? live.depth : 1}`);
  }
  if (figures) parts.push(`${fmtNum(figures.nodes)} nodes`, `${fmtNum(figures.nps)} nodes/s`);
  if (search.running || first) parts.push(`${secs} s`);
  if (first) parts.push("score: White's expected final point lead");
  $("an-stats").textContent = parts.join(" · ");
}

export function drawAnalysis() {
  const st = ui.st;
  if (!st) return;
  $("an-what").textContent = label();
  const solved = $("solved");
  solved.hidden = !search.book;
  if (search.book) solved.textContent = solvedText(search.book.text, search.book.ply);
  const body = $("an-lines").tBodies[0];
  body.replaceChildren();
  const here = search.ply === st.position.ply;
  for (const k of [...search.lines.keys()].sort((a, b) => a - b)) {
    const msg = search.lines.get(k);
    const tr = document.createElement("tr");
    tr.className = "line";
    const depth = msg.info.depth === null ? "" : msg.exact ? `${msg.info.depth} exact` : `d${msg.info.depth}`;
    tr.innerHTML = `<td class="score"></td><td class="depth"></td><td class="pv"></td>`;
    tr.children[0].textContent = scoreText(msg);
    tr.children[1].textContent = depth;
    const pv = tr.children[2];
    msg.info.pv.forEach((m, j) => {
      const num = moveNumber(msg.ply + j, j === 0);
      if (num) pv.append(num + " ");
      const a = document.createElement(here ? "button" : "span");
      a.className = "pv-move";
      a.textContent = m;
      if (here) {
        a.title = `play the line up to ${m}`;
        a.addEventListener("click", () => playLine(msg.info.pv.slice(0, j + 1)));
      }
      pv.append(a, " ");
    });
    if (msg.exact) tr.classList.add("exact");
    body.appendChild(tr);
  }
  drawStats();
}

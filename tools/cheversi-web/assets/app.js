// The Cheversi board page. The server holds the game and the rules (from the
// engine's library); this script draws what it sends and sends what is clicked.
"use strict";

const PIECES = ["K", "Q", "R", "B", "N"];
const GLYPH = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞" };
const NAME = { K: "King", Q: "Queen", R: "Rook", B: "Bishop", N: "Knight" };
const FILES = "abcdefgh";

let ws = null;
let st = null; // the last state from the server
let selected = null; // the piece letter picked from the hand
let flipped = false;
let flipTouched = false;
let search = { id: 0, ply: 0, lines: new Map(), book: null };
let endDismissed = "";
let settingsShown = false;

const $ = (id) => document.getElementById(id);

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = () => {
    $("engine-status").textContent = "disconnected from the server: reload the page";
    $("engine-status").className = "status bad";
  };
}

function handle(msg) {
  switch (msg.type) {
    case "state": st = msg; onState(); break;
    case "info": onInfo(msg); break;
    case "book":
      if (msg.search === search.id || search.id === 0) { search.id = msg.search; search.book = msg.text; drawAnalysis(); }
      break;
    case "engine_text": $("engine-text").textContent = "engine: " + msg.text; break;
    case "engine": onEngine(msg); break;
    case "illegal": notice(msg.reason, "illegal"); break;
    case "pgn": $("io").value = msg.text; notice("the game as PGN is in the box below", ""); break;
    case "error": notice(msg.message, "error"); break;
  }
}

function notice(text, cls) {
  const n = $("notice");
  n.textContent = text;
  n.className = cls;
}

function onEngine(msg) {
  const s = $("engine-status");
  if (msg.status === "restarted" || msg.status === "failed") {
    const f = $("fault");
    f.textContent = `⚠ ${new Date().toLocaleTimeString()}: ${msg.message}`;
    f.hidden = false;
    f.dataset.status = msg.status;
  }
  $("restart").hidden = msg.status !== "failed";
  s.dataset.status = msg.status;
  s.textContent = msg.status === "ready" ? msg.message
    : msg.status === "failed" ? "engine stopped" : "engine starting…";
  s.className = "status " + (msg.status === "ready" ? "ok" : msg.status === "failed" ? "bad" : "");
  if (st) drawStatus();
}

// ---- state ----

function onState() {
  const p = st.position;
  const mover = p.side;
  const human = st.players[mover === "white" ? 0 : 1] === "human";
  if (!flipTouched) flipped = st.players[0] === "engine" && st.players[1] === "human";
  if (selected && (!human || handOf(mover)[PIECES.indexOf(selected)] === 0)) selected = null;
  const pieces = new Set(p.legal.map((m) => m[0]));
  if (human && pieces.size === 1) selected = [...pieces][0];
  if (search.ply !== p.ply && !st.thinking && !st.analyse) clearAnalysis();
  if (!settingsShown) { showSettings(st.settings); settingsShown = true; }
  $("variant").value = st.variant;
  $("white-player").value = st.players[0];
  $("black-player").value = st.players[1];
  $("analyse").checked = st.analyse;
  const both = st.players[0] === "engine" && st.players[1] === "engine";
  $("pause").hidden = !both;
  $("pause").textContent = st.paused ? "Go on" : "Pause";
  draw();
}

function handOf(color) { return st.position.hands[color === "white" ? 0 : 1]; }

function draw() {
  drawBoard();
  drawHands();
  drawMoves();
  drawStatus();
  drawEnd();
  drawAnalysis();
}

function squareName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }

function drawBoard() {
  const board = $("board");
  const p = st.position;
  const legal = new Set(p.legal.filter((m) => m[0] === selected).map((m) => m.slice(2)));
  const showAtt = $("show-attacks").checked;
  board.replaceChildren();
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = flipped ? row : 7 - row;
      const file = flipped ? 7 - col : col;
      const i = rank * 8 + file;
      const name = squareName(i);
      const sq = document.createElement("div");
      sq.id = "sq-" + name;
      sq.className = "sq " + ((rank + file) % 2 === 0 ? "dark" : "light");
      sq.dataset.square = name;
      const piece = p.board[i];
      if (piece) {
        const white = piece === piece.toUpperCase();
        const g = document.createElement("span");
        g.className = "piece " + (white ? "white" : "black");
        g.textContent = GLYPH[piece.toUpperCase()];
        sq.appendChild(g);
        sq.dataset.piece = piece;
      } else if (showAtt) {
        const w = p.attackers[0][i], b = p.attackers[1][i];
        if (w) sq.appendChild(count("att-w", w));
        if (b) sq.appendChild(count("att-b", b));
        if (w || b) sq.classList.add(w > b ? "att-white" : b > w ? "att-black" : "att-both");
      }
      if (p.last === name) sq.classList.add("last");
      if (legal.has(name)) sq.classList.add("legal");
      if (col === 0) sq.appendChild(label("rank", rank + 1));
      if (row === 7) sq.appendChild(label("file", FILES[file]));
      sq.addEventListener("click", () => clickSquare(name));
      board.appendChild(sq);
    }
  }
}

function count(cls, n) {
  const s = document.createElement("span");
  s.className = "att " + cls;
  s.textContent = n;
  return s;
}

function label(cls, text) {
  const s = document.createElement("span");
  s.className = "coord " + cls;
  s.textContent = text;
  return s;
}

function drawHands() {
  const p = st.position;
  for (const color of ["white", "black"]) {
    const box = $("hand-" + color);
    const ci = color === "white" ? 0 : 1;
    const human = st.players[ci] === "human";
    const mine = p.side === color && !p.result;
    box.classList.toggle("to-move", mine);
    $("points-" + color).textContent = p.points[ci];
    $("who-" + color).textContent =
      (color === "white" ? "White" : "Black") + " · " + (human ? "human" : st.engine_name || "engine");
    const pieces = box.querySelector(".pieces");
    pieces.replaceChildren();
    PIECES.forEach((k, pi) => {
      const n = p.hands[ci][pi];
      const b = document.createElement("button");
      b.id = `hand-${color}-${k}`;
      b.className = "hand-piece " + color;
      b.title = NAME[k];
      b.dataset.count = n;
      b.innerHTML = `<span class="glyph">${GLYPH[k]}</span><span class="n">${n}</span>`;
      b.disabled = n === 0 || !mine || !human;
      if (mine && selected === k) b.classList.add("selected");
      b.addEventListener("click", () => { selected = k; notice(`${NAME[k]} picked: click a square`, ""); drawBoard(); drawHands(); });
      pieces.appendChild(b);
    });
  }
}

function clickSquare(name) {
  if (!st) return;
  const p = st.position;
  if (p.result) { notice("the game is over", "error"); return; }
  if (!selected) { notice("pick a piece from the hand first", "error"); return; }
  send({ type: "play", placement: `${selected}@${name}` });
}

function drawMoves() {
  const ol = $("moves");
  ol.replaceChildren();
  st.moves.forEach((m, i) => {
    const ply = st.start_ply + i;
    const li = document.createElement("li");
    li.dataset.ply = i + 1;
    li.dataset.move = m;
    const num = ply % 2 === 0 ? `${ply / 2 + 1}.` : (i === 0 ? `${(ply - 1) / 2 + 1}…` : "");
    li.innerHTML = `<span class="num">${num}</span>${m}`;
    li.className = (ply % 2 === 0 ? "w" : "b") + (i + 1 === st.cursor ? " current" : "") + (i + 1 > st.cursor ? " after" : "");
    li.addEventListener("click", () => send({ type: "goto", ply: i + 1 }));
    ol.appendChild(li);
  });
  $("first").disabled = st.cursor === 0;
  $("back").disabled = st.cursor === 0;
  $("forward").disabled = st.cursor === st.moves.length;
  $("last").disabled = st.cursor === st.moves.length;
}

function drawStatus() {
  if (!st) return;
  const s = $("engine-status");
  if (st.thinking && s.dataset.status === "ready") {
    s.textContent = `${st.engine_name || "engine"} is thinking for ${st.thinking}…`;
  } else if (s.dataset.status === "ready") {
    s.textContent = `${st.engine_name || "engine"} is ready`;
  }
}

function drawEnd() {
  const r = st.position.result;
  const key = st.variant + (st.start_fen || "") + st.moves.join(" ");
  const show = r && st.cursor === st.moves.length && endDismissed !== key;
  $("end").hidden = !show;
  if (!show) return;
  const [w, b] = st.position.points;
  $("end-score").textContent = `White ${w} : ${b} Black`;
  $("end-result").textContent = `${r.text} (${r.pgn})`;
  $("end").dataset.winner = r.winner;
}

// ---- analysis ----

function clearAnalysis() {
  search = { id: 0, ply: st ? st.position.ply : 0, lines: new Map(), book: null };
}

function onInfo(msg) {
  if (msg.search !== search.id) {
    search = { id: msg.search, ply: msg.ply, left: msg.left, lines: new Map(), book: search.id === 0 ? search.book : null };
  }
  const prev = search.lines.get(msg.info.multipv);
  if (msg.info.multipv > 1 && prev && prev.info.depth > msg.info.depth) return;
  search.lines.set(msg.info.multipv, msg);
  // A deeper first line makes the other lines stale.
  if (msg.info.multipv === 1) {
    for (const [k, v] of search.lines) if (k > 1 && v.info.depth < msg.info.depth - 1) search.lines.delete(k);
  }
  drawAnalysis();
}

function scoreText(msg) {
  const i = msg.info;
  if (i.cp === null || i.cp === undefined) return "";
  const white = msg.ply % 2 === 0 ? i.cp : -i.cp; // cp is the mover's view
  const v = white / 100;
  const sign = v > 0 ? "+" : v < 0 ? "−" : "±";
  const mag = Math.abs(v);
  const num = msg.exact ? String(Math.round(mag)) : mag.toFixed(2);
  const bound = i.bound === "lower" ? (msg.ply % 2 === 0 ? "≥" : "≤") : i.bound === "upper" ? (msg.ply % 2 === 0 ? "≤" : "≥") : "";
  return bound + sign + num;
}

function pvText(startPly, pv) {
  const out = [];
  pv.forEach((m, k) => {
    const ply = startPly + k;
    if (ply % 2 === 0) out.push(`${ply / 2 + 1}.`);
    else if (k === 0) out.push(`${(ply - 1) / 2 + 1}…`);
    out.push(m);
  });
  return out.join(" ");
}

function fmtNum(n) {
  if (n === null || n === undefined) return "–";
  if (n >= 1e9) return (n / 1e9).toFixed(2) + " G";
  if (n >= 1e6) return (n / 1e6).toFixed(2) + " M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + " k";
  return String(n);
}

function drawAnalysis() {
  const what = $("an-what");
  if (!st) return;
  if (st.thinking) what.textContent = `engine thinking for ${st.thinking}`;
  else if (st.analyse) what.textContent = st.position.result ? "the game is over" : `analysing ply ${st.position.ply}`;
  else what.textContent = search.id ? `last search (ply ${search.ply})` : "analysis off";
  const solved = $("solved");
  solved.hidden = !search.book;
  if (search.book) solved.textContent = search.book.startsWith("solved") ? search.book : "solved: " + search.book;
  const body = $("an-lines").tBodies[0];
  body.replaceChildren();
  const keys = [...search.lines.keys()].sort((a, b) => a - b);
  for (const k of keys) {
    const msg = search.lines.get(k);
    const tr = document.createElement("tr");
    tr.className = "line";
    const depth = msg.info.depth === null ? "" : msg.exact ? `${msg.info.depth} exact` : `d${msg.info.depth}`;
    tr.innerHTML = `<td class="score"></td><td class="depth"></td><td class="pv"></td>`;
    tr.children[0].textContent = scoreText(msg);
    tr.children[1].textContent = depth;
    tr.children[2].textContent = pvText(msg.ply, msg.info.pv);
    if (msg.exact) tr.classList.add("exact");
    body.appendChild(tr);
  }
  const first = search.lines.get(1);
  $("an-stats").textContent = first
    ? `depth ${first.info.depth ?? "–"}/${first.info.seldepth ?? "–"} of ${first.left} left · ${fmtNum(first.info.nodes)} nodes · ${fmtNum(first.info.nps)} nodes/s · score: White's expected final point lead`
    : "";
}

// ---- settings ----

function showSettings(s) {
  $("limit").value = s.limit;
  $("limit-value").value = s.value;
  $("threads").value = s.threads;
  $("hash").value = s.hash;
  $("multipv").value = s.multipv;
  $("delay").value = s.delay;
  $("delay-text").textContent = `${s.delay} ms between moves`;
}

function readSettings() {
  const n = (id) => Number.parseInt($(id).value, 10);
  return {
    type: "settings",
    limit: $("limit").value,
    value: n("limit-value"),
    threads: n("threads"),
    hash: n("hash"),
    multipv: n("multipv"),
    delay: n("delay"),
  };
}

function setup() {
  $("new").addEventListener("click", () => { endDismissed = ""; send({ type: "new", variant: $("variant").value }); });
  $("end-new").addEventListener("click", () => { endDismissed = ""; send({ type: "new", variant: st.variant }); });
  $("end-close").addEventListener("click", () => {
    endDismissed = st.variant + (st.start_fen || "") + st.moves.join(" ");
    drawEnd();
  });
  const players = () => send({ type: "players", white: $("white-player").value, black: $("black-player").value });
  $("white-player").addEventListener("change", players);
  $("black-player").addEventListener("change", players);
  $("pause").addEventListener("click", () => send({ type: "pause", on: !st.paused }));
  $("first").addEventListener("click", () => send({ type: "goto", ply: 0 }));
  $("back").addEventListener("click", () => send({ type: "goto", ply: Math.max(0, st.cursor - 1) }));
  $("forward").addEventListener("click", () => send({ type: "goto", ply: Math.min(st.moves.length, st.cursor + 1) }));
  $("last").addEventListener("click", () => send({ type: "goto", ply: st.moves.length }));
  $("takeback").addEventListener("click", () => { endDismissed = ""; send({ type: "takeback" }); });
  $("analyse").addEventListener("change", () => send({ type: "analyse", on: $("analyse").checked }));
  $("show-attacks").addEventListener("change", () => { if (st) drawBoard(); });
  $("flip").addEventListener("click", () => { flipped = !flipped; flipTouched = true; if (st) drawBoard(); });
  $("apply").addEventListener("click", () => send(readSettings()));
  $("delay").addEventListener("input", () => { $("delay-text").textContent = `${$("delay").value} ms between moves`; });
  $("delay").addEventListener("change", () => send(readSettings()));
  $("restart").addEventListener("click", () => send({ type: "restart_engine" }));
  $("load-position").addEventListener("click", () => { endDismissed = ""; send({ type: "load_position", variant: $("variant").value, text: $("io").value }); });
  $("load-pgn").addEventListener("click", () => { endDismissed = ""; send({ type: "load_pgn", text: $("io").value }); });
  $("export-position").addEventListener("click", () => { if (st) $("io").value = st.position.fen; });
  $("export-pgn").addEventListener("click", () => send({ type: "export_pgn" }));
  document.addEventListener("keydown", (e) => {
    if (!st || e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") send({ type: "goto", ply: Math.max(0, st.cursor - 1) });
    if (e.key === "ArrowRight") send({ type: "goto", ply: Math.min(st.moves.length, st.cursor + 1) });
  });
  // A page kept in the back-forward cache would keep its engine: close.
  window.addEventListener("pagehide", () => { if (ws) ws.close(); });
  connect();
}

setup();

// The Cheversi board page. The server holds the game and the rules (from the
// engine's library); this page draws what it sends and sends what is
// clicked. Modules: common.js (shared state, the notice line), board.js,
// moves.js, graph.js, analysis.js, settings.js, address.js.
//
// For other scripts on the page (e.g. an explorer panel): a `cheversi:position`
// event on `window` whenever the position shown changes, with
// `{variant, fen, side, ply, moves, start_fen}` (`moves`: the placements
// leading to it), and `window.cheversi` with `play("K@d4")`, `goto(ply)`
// and `state()`.

import { $, clearNotice, drawNotice, notice, ui } from "./common.js";
import { drawBoard, drawHands, initBoard, settleSelection } from "./board.js";
import { drawMoves, initMoves } from "./moves.js";
import { drawGraph, initGraph } from "./graph.js";
import { analysisState, initAnalysis, onBook, onInfo, onProgress } from "./analysis.js";
import { applySettings, settingsError, settingsState, showCaps, showSettings } from "./settings.js";
import { matches, readAddress, restoreMessages, writeAddress } from "./address.js";

let ws = null;
let endDismissed = "";
let settingsShown = false;
let restoring = null; // the game the address asked for, until it is shown
let positionKey = "";
let gameKey = "";

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

// A player's action: the old message goes, the new one is sent.
function act(msg) {
  clearNotice();
  send(msg);
}

function connect() {
  $("blocker").hidden = true;
  let full = false;
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => {
    const a = readAddress();
    restoring = a;
    if (a) for (const m of restoreMessages(a)) send(m);
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "full" || msg.type === "idle") full = true;
    handle(msg);
  };
  ws.onclose = () => {
    $("engine-status").textContent = "disconnected from the server";
    $("engine-status").className = "status bad";
    $("engine-status").dataset.status = "closed";
    if (!full) block("The connection to the server was lost.", "Reconnect");
  };
}

// Covers the page: nothing can be played until it is open again.
function block(text, button) {
  $("blocker-text").textContent = text;
  $("blocker-retry").textContent = button;
  $("blocker").hidden = false;
}

function handle(msg) {
  switch (msg.type) {
    case "state": st(msg); break;
    case "info": onInfo(msg); break;
    case "progress": onProgress(msg); break;
    case "book": onBook(msg); break;
    case "engine_text": $("engine-text").textContent = "engine: " + msg.text; break;
    case "engine": onEngine(msg); break;
    case "illegal": notice(msg.reason, "illegal"); break;
    case "pgn": $("io").value = msg.text; notice("the game as PGN is in the box below", ""); break;
    case "error":
      if (restoring) { restoring = null; notice("the address's game cannot be shown: " + msg.message, "error"); break; }
      if (!settingsError(msg.message)) notice(msg.message, "error");
      break;
    case "full": block(`The server is busy: ${msg.message}.`, "Try again"); break;
    case "idle": block(`${msg.message[0].toUpperCase()}${msg.message.slice(1)}.`, "Reconnect"); break;
  }
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
  if (ui.st) drawStatus();
}

// ---- state ----

function st(msg) {
  ui.st = msg;
  if (restoring && matches(restoring, msg)) restoring = null;
  if (!restoring) writeAddress(msg);
  const key = [msg.variant, msg.start_fen, msg.moves.join(" "), msg.cursor].join("|");
  if (key !== gameKey) { gameKey = key; clearNotice(); }
  if (!ui.flipTouched) ui.flipped = msg.players[0] === "engine" && msg.players[1] === "human";
  settleSelection();
  if (!settingsShown) { showSettings(msg.settings); settingsShown = true; showCaps(msg.caps); }
  settingsState();
  $("variant").value = msg.variant;
  $("white-player").value = msg.players[0];
  $("black-player").value = msg.players[1];
  $("analyse").checked = msg.analyse;
  const both = msg.players[0] === "engine" && msg.players[1] === "engine";
  $("pause").hidden = !both;
  $("pause").textContent = msg.paused ? "Go on" : "Pause";
  draw();
  analysisState();
  announce(msg);
}

// Tells other scripts on the page that the position shown changed.
function announce(s) {
  const moves = s.moves.slice(0, s.cursor);
  const key = [s.variant, s.start_fen, moves.join(" ")].join("|");
  if (key === positionKey) return;
  const placed = positionKey && s.cursor > 0 && key.startsWith(positionKey + (positionKey.endsWith("|") ? "" : " "));
  positionKey = key;
  if (placed) sound();
  const detail = { variant: s.variant, fen: s.position.fen, side: s.position.side, ply: s.position.ply, moves, start_fen: s.start_fen };
  window.dispatchEvent(new CustomEvent("cheversi:position", { detail }));
}

// A short click for each placement, when the player turned sound on.
let audio = null;
let sounds = 0;
function sound() {
  if (!$("sound").checked) return;
  sounds += 1;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 520;
    gain.gain.setValueAtTime(0.25, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.09);
  } catch {
    // No audio here: the game goes on silently.
  }
}

// Redraws everything, keeping the keyboard focus where it was.
function draw() {
  const focused = document.activeElement && document.activeElement.id;
  drawBoard();
  drawHands();
  drawMoves();
  drawGraph();
  drawStatus();
  drawEnd();
  drawNotice();
  if (focused && document.activeElement !== $(focused) && $(focused)) $(focused).focus({ preventScroll: true });
}

function drawStatus() {
  const s = $("engine-status");
  const st = ui.st;
  if (st.thinking && s.dataset.status === "ready") {
    s.textContent = `${st.engine_name || "engine"} is thinking for ${st.thinking}…`;
  } else if (s.dataset.status === "ready") {
    s.textContent = `${st.engine_name || "engine"} is ready`;
  }
}

function endKey() {
  const st = ui.st;
  return st.variant + (st.start_fen || "") + st.moves.join(" ");
}

function drawEnd() {
  const st = ui.st;
  const r = st.position.result;
  const show = r && st.cursor === st.moves.length && endDismissed !== endKey();
  $("end").hidden = !show;
  if (!show) return;
  const [w, b] = st.position.points;
  $("end-score").textContent = `White ${w} : ${b} Black`;
  $("end-result").textContent = `${r.text} (${r.pgn})`;
  $("end").dataset.winner = r.winner;
}

function goto(ply) {
  if (!ui.st) return;
  const n = Math.max(0, Math.min(ui.st.moves.length, ply));
  if (n !== ui.st.cursor) act({ type: "goto", ply: n });
}

function gotoNode(node) {
  act({ type: "goto_node", node });
}

function play(text) {
  act({ type: "play", placement: text });
}

function newGame(variant) {
  endDismissed = "";
  act({ type: "new", variant });
}

function setup() {
  initBoard(play);
  initAnalysis((list) => list.forEach(play));
  initMoves({ goto, gotoNode });
  initGraph(goto);
  $("sound").checked = localStorage.getItem("cheversi-sound") === "on";
  $("sound").addEventListener("change", () => localStorage.setItem("cheversi-sound", $("sound").checked ? "on" : "off"));
  $("new").addEventListener("click", () => newGame($("variant").value));
  $("variant").addEventListener("change", () => newGame($("variant").value));
  $("end-new").addEventListener("click", () => newGame(ui.st.variant));
  $("end-close").addEventListener("click", () => { endDismissed = endKey(); drawEnd(); });
  const players = () => act({ type: "players", white: $("white-player").value, black: $("black-player").value });
  $("white-player").addEventListener("change", players);
  $("black-player").addEventListener("change", players);
  $("pause").addEventListener("click", () => act({ type: "pause", on: !ui.st.paused }));
  $("first").addEventListener("click", () => goto(0));
  $("back").addEventListener("click", () => goto(ui.st.cursor - 1));
  $("forward").addEventListener("click", () => goto(ui.st.cursor + 1));
  $("last").addEventListener("click", () => goto(ui.st.moves.length));
  $("takeback").addEventListener("click", () => { endDismissed = ""; act({ type: "takeback" }); });
  $("analyse").addEventListener("change", () => act({ type: "analyse", on: $("analyse").checked }));
  $("show-attacks").addEventListener("change", () => { if (ui.st) drawBoard(); });
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; ui.flipTouched = true; if (ui.st) draw(); });
  $("apply").addEventListener("click", () => { clearNotice(); applySettings(send); });
  $("delay").addEventListener("input", () => { $("delay-text").textContent = `${$("delay").value} ms between moves`; });
  $("delay").addEventListener("change", () => applySettings(send));
  $("restart").addEventListener("click", () => act({ type: "restart_engine" }));
  $("blocker-retry").addEventListener("click", () => { if (ws) ws.close(); connect(); });
  const box = () => $("io").value;
  $("load-position").addEventListener("click", () => {
    if (!box().trim()) { notice("nothing to load: paste a position string in the box below (optionally followed by 'moves K@d4 ...')", "error"); return; }
    endDismissed = "";
    act({ type: "load_position", variant: $("variant").value, text: box() });
  });
  $("load-pgn").addEventListener("click", () => {
    if (!box().trim()) { notice("nothing to load: paste a PGN game in the box below", "error"); return; }
    endDismissed = "";
    act({ type: "load_pgn", text: box(), variant: $("variant").value });
  });
  $("export-position").addEventListener("click", () => { if (ui.st) { $("io").value = ui.st.position.fen; clearNotice(); } });
  $("export-pgn").addEventListener("click", () => act({ type: "export_pgn" }));
  document.addEventListener("keydown", (e) => {
    const tag = e.target.tagName;
    if (!ui.st || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: ui.st.cursor - 1, ArrowRight: ui.st.cursor + 1, ArrowUp: 0, ArrowDown: ui.st.moves.length, Home: 0, End: ui.st.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goto(to);
  });
  // A page kept in the back-forward cache would keep its engine: close.
  window.addEventListener("pagehide", () => { if (ws) ws.close(); });
  window.addEventListener("pageshow", (e) => { if (e.persisted) connect(); });
  window.cheversi = {
    play,
    goto,
    gotoNode,
    state: () => ui.st,
    sounds: () => sounds,
    send: (text) => { if (ws) ws.send(text); },
  };
  connect();
}

setup();

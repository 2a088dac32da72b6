// The explorer panel: every legal move of the position shown with its
// proven value, from `/api/explore` (streamed as it narrows), best first;
// the words speak for the side to move, the numbers are White's final
// point lead as everywhere on the page. A click on a move plays it; the
// moves proven best are drawn as arrows from the hand to their square.
// It follows the page through `cheversi:position` and `window.cheversi`
// (app.js) and decides nothing itself: the server's answer is the values.

// The most any server takes; each gives at most its --explore-max-ms and
// says how much in the answer's budget_ms.
const ASK_MS = 600000;
const $ = (id) => document.getElementById(id);

let current = null; // {detail, controller, answer, error, t0}

window.addEventListener("cheversi:position", (e) => explore(e.detail));
window.addEventListener("resize", drawArrows);

function explore(detail) {
  if (current && current.controller) current.controller.abort();
  current = { detail, controller: null, answer: null, error: null, t0: performance.now() };
  draw();
  if (!$("ex-on").checked) return;
  const q = new URLSearchParams({ variant: detail.variant, fen: detail.fen, ms: String(ASK_MS), stream: "1" });
  const run = current;
  run.controller = new AbortController();
  fetch(`/api/explore?${q}`, { signal: run.controller.signal })
    .then((r) => read(r, run))
    .catch((err) => {
      if (err.name === "AbortError" || run !== current) return;
      run.error = "the explorer cannot be reached: " + err.message;
      draw();
    });
}

// Reads the answer's lines (one JSON object each) as they come.
async function read(response, run) {
  if (!response.ok && !response.body) throw new Error(`HTTP ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) take(JSON.parse(line), run);
    }
  }
  if (buffer.trim()) take(JSON.parse(buffer), run);
}

function take(obj, run) {
  if (run !== current) return;
  if (obj.error) run.error = obj.error;
  else run.answer = obj;
  draw();
}

// ---- words and numbers ----

// The outcome for the side that plays the move, in words.
export function words(lo, hi) {
  if (lo !== null && lo === hi) return lo > 0 ? `wins by ${lo}` : lo < 0 ? `loses by ${-lo}` : "draws";
  if (lo !== null && lo >= 1) return hi === null ? `wins by at least ${lo}` : `wins by ${lo} to ${hi}`;
  if (hi !== null && hi <= -1) return lo === null ? `loses by at least ${-hi}` : `loses by ${-hi} to ${-lo}`;
  if (lo === 0) return hi === null ? "draws or wins" : `draws or wins by up to ${hi}`;
  if (hi === 0) return lo === null ? "draws or loses" : `draws or loses by up to ${-lo}`;
  if (hi !== null && lo === null) return `at best wins by ${hi}`;
  if (lo !== null && hi === null) return `at worst loses by ${-lo}`;
  if (lo !== null) return `between losing by ${-lo} and winning by ${hi}`;
  return "not proven yet";
}

export function kind(lo, hi) {
  if (lo !== null && lo >= 1) return "win";
  if (hi !== null && hi <= -1) return "loss";
  if (lo === 0 && hi === 0) return "draw";
  return "open";
}

function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}

// The same interval as White's final point lead.
export function whiteText(lo, hi, side) {
  const [a, b] = side === "w" ? [lo, hi] : [hi === null ? null : -hi, lo === null ? null : -lo];
  if (a !== null && a === b) return signed(a);
  if (a !== null && b !== null) return `${signed(a)}…${signed(b)}`;
  if (a !== null) return `≥ ${signed(a)}`;
  if (b !== null) return `≤ ${signed(b)}`;
  return "?";
}

function fmtNum(n) {
  if (n >= 1e9) return (n / 1e9).toFixed(2) + " G";
  if (n >= 1e6) return (n / 1e6).toFixed(2) + " M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + " k";
  return String(n);
}

// ---- drawing ----

function draw() {
  drawPanel();
  drawArrows();
}

function drawPanel() {
  const body = $("ex-moves").tBodies[0];
  body.replaceChildren();
  const head = $("ex-head");
  const stats = $("ex-stats");
  stats.textContent = "";
  if (!current) { head.textContent = "waiting for the game"; return; }
  const d = current.detail;
  const mover = d.side === "white" || d.side === "w" ? "White" : "Black";
  if (!$("ex-on").checked) { head.textContent = "explorer off"; return; }
  if (current.error) { head.textContent = current.error; head.className = "error"; return; }
  head.className = "";
  const a = current.answer;
  if (!a) { head.textContent = `proving every move of ply ${d.ply}…`; return; }
  if (!a.moves.length) { head.textContent = "the game is over: no move left"; return; }
  head.textContent = `${mover} to move: each move's outcome for ${mover}`;
  const best = new Set(a.best);
  for (const m of a.moves) {
    const tr = document.createElement("tr");
    tr.className = `ex-move ${kind(m.lo, m.hi)}` + (m.lo !== null && m.lo === m.hi ? " exact" : " bound") + (best.has(m.move) ? " best" : "");
    tr.dataset.move = m.move;
    tr.innerHTML = `<td class="ex-pl"><button></button></td><td class="ex-words"></td><td class="ex-white"></td>`;
    const b = tr.querySelector("button");
    b.textContent = m.move;
    b.title = `play ${m.move}`;
    b.addEventListener("click", () => window.cheversi && window.cheversi.play(m.move));
    tr.children[1].textContent = words(m.lo, m.hi);
    tr.children[2].textContent = whiteText(m.lo, m.hi, a.side);
    tr.children[2].title = "White's final point lead";
    body.appendChild(tr);
  }
  const secs = ((a.done ? a.time_ms : performance.now() - current.t0) / 1000).toFixed(1);
  const budget = `${+(a.budget_ms / 1000).toFixed(1)} s`;
  const state = a.done ? (a.complete ? "complete" : `stopped after ${budget}`) : `proving… (at most ${budget})`;
  stats.textContent = `${a.exact} of ${a.moves.length} moves settled · ${fmtNum(a.nodes)} nodes · ${secs} s · ${state}`;
}

// Arrows from the mover's hand piece to the squares of the moves proven best.
function drawArrows() {
  const left = $("left");
  let svg = $("ex-arrows");
  if (!svg) {
    svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "ex-arrows";
    svg.innerHTML = `<defs><marker id="ex-arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1b7a2bcc"/></marker></defs>`;
    left.appendChild(svg);
  }
  for (const l of [...svg.querySelectorAll("line")]) l.remove();
  const a = current && current.answer;
  if (!a || !$("ex-on").checked || !a.best.length) return;
  const base = left.getBoundingClientRect();
  svg.setAttribute("width", base.width);
  svg.setAttribute("height", base.height);
  const color = a.side === "w" ? "white" : "black";
  for (const m of a.best) {
    const from = $(`hand-${color}-${m[0]}`);
    const to = $(`sq-${m.slice(2)}`);
    if (!from || !to) continue;
    const f = from.getBoundingClientRect(), t = to.getBoundingClientRect();
    const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    line.setAttribute("x1", f.left + f.width / 2 - base.left);
    line.setAttribute("y1", f.top + f.height / 2 - base.top);
    line.setAttribute("x2", t.left + t.width / 2 - base.left);
    line.setAttribute("y2", t.top + t.height / 2 - base.top);
    line.setAttribute("stroke-width", Math.max(4, t.width / 7));
    line.setAttribute("marker-end", "url(#ex-arrowhead)");
    line.dataset.move = m;
    svg.appendChild(line);
  }
}

function setup() {
  $("ex-on").addEventListener("change", () => {
    if (current) explore(current.detail);
  });
  // The board and hands are drawn again on every state: follow them.
  const redraw = () => requestAnimationFrame(drawArrows);
  const watch = new MutationObserver(redraw);
  for (const id of ["board", "hand-white", "hand-black"]) watch.observe($(id), { childList: true, subtree: true });
  const st = window.cheversi && window.cheversi.state();
  if (st) {
    const moves = st.moves.slice(0, st.cursor);
    explore({ variant: st.variant, fen: st.position.fen, side: st.position.side, ply: st.position.ply, moves, start_fen: st.start_fen });
  } else {
    draw();
  }
}

setup();

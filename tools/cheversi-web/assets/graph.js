// The evaluation graph: the engine's word on each position of the line
// shown, White's view (up: White ahead), exact values (the game's value)
// as filled dots, others hollow; the ply shown marked; a click goes there.

import { $, ui } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320, H = 90;

let goto = () => {};

export function initGraph(go) {
  goto = go;
  $("graph").addEventListener("click", (e) => {
    const svg = $("graph");
    const n = Number(svg.dataset.span || 0);
    if (!n) return;
    const r = svg.getBoundingClientRect();
    const i = Math.round(((e.clientX - r.left) / r.width) * n);
    goto(Math.max(0, Math.min(ui.st.moves.length, i)));
  });
}

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function drawGraph() {
  const st = ui.st;
  const svg = $("graph");
  svg.replaceChildren();
  // The whole game's width: up to the 16th placement.
  const span = Math.max(1, Math.max(16 - st.start_ply, st.moves.length));
  svg.dataset.span = span;
  const values = st.evals.map((e) => (e ? e.cp / 100 : null));
  const top = Math.max(8, ...values.filter((v) => v !== null).map(Math.abs));
  const x = (i) => (i / span) * (W - 8) + 4;
  const y = (v) => H / 2 - (Math.max(-top, Math.min(top, v)) / top) * (H / 2 - 6);
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H / 2, class: "white-half" }));
  svg.append(el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "zero" }));
  svg.append(el("line", { x1: x(st.cursor), x2: x(st.cursor), y1: 0, y2: H, class: "cursor" }));
  let path = "";
  values.forEach((v, i) => {
    if (v === null) return;
    path += `${path ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  });
  if (path) svg.append(el("path", { d: path, class: "curve" }));
  const known = [];
  st.evals.forEach((e, i) => {
    if (!e) return;
    const c = el("circle", { cx: x(i), cy: y(e.cp / 100), r: e.exact ? 3.5 : 3, class: e.exact ? "exact" : "approx" });
    c.dataset.ply = i;
    const v = e.cp / 100;
    const text = `ply ${st.start_ply + i}: ${v > 0 ? "+" : ""}${e.exact ? Math.round(v) : v.toFixed(2)}${e.exact ? " exact" : ` (depth ${e.depth})`}`;
    const t = el("title", {});
    t.textContent = text;
    c.append(t);
    svg.append(c);
    known.push(text);
  });
  svg.setAttribute("aria-label", known.length
    ? `evaluation graph, White's view: ${known.join("; ")}`
    : "evaluation graph: no position analysed yet");
  $("graph-note").textContent = known.length ? `${known.length} of ${st.evals.length} positions evaluated · White up, Black down · ● exact` : "turn on analysis, or play the engine, to fill the graph";
}

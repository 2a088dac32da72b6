// The engine panel: values checked here against the server's ranges (and
// this server's caps), said beside Apply; a refused value goes back to the
// one the engine keeps.

import { $, ui } from "./common.js";

const FIELDS = [
  ["limit-value", "value"],
  ["threads", "threads"],
  ["hash", "hash"],
  ["multipv", "multipv"],
  ["delay", "delay"],
];

let pending = null; // the settings sent, until the server takes or refuses them

// The ranges the server takes, narrowed by its caps.
function ranges(limit) {
  const caps = (ui.st && ui.st.caps) || {};
  const r = {
    value: limit === "depth" ? [1, caps.depth || 16] : [10, caps.movetime || 600000],
    threads: [1, caps.threads || 64],
    hash: [1, caps.hash || 1024],
    multipv: [1, 16],
    delay: [0, 60000],
  };
  return r;
}

const WORD = { value: "", threads: "threads", hash: "hash (MiB)", multipv: "lines", delay: "speed (ms)" };

export function showSettings(s) {
  $("limit").value = s.limit;
  $("limit-value").value = s.value;
  $("threads").value = s.threads;
  $("hash").value = s.hash;
  $("multipv").value = s.multipv;
  $("delay").value = s.delay;
  $("delay-text").textContent = `${s.delay} ms between moves`;
  const r = ranges(s.limit);
  $("limit-value").min = r.value[0];
  $("limit-value").max = r.value[1];
  $("threads").max = r.threads[1];
  $("hash").max = r.hash[1];
}

function note(text, cls) {
  const n = $("settings-note");
  n.textContent = text;
  n.className = cls;
}

// The settings message, or the first value out of its range.
function read() {
  const limit = $("limit").value;
  const r = ranges(limit);
  const msg = { type: "settings", limit };
  for (const [id, key] of FIELDS) {
    const raw = $(id).value.trim();
    const [lo, hi] = r[key];
    const name = key === "value" ? (limit === "depth" ? "depth" : "time (ms)") : WORD[key];
    const n = Number(raw);
    if (raw === "" || !/^\d+$/.test(raw) || n < lo || n > hi) {
      const what = raw === "" ? "empty" : `not ${raw}`;
      return { error: `${name} must be a whole number from ${lo} to ${hi}, ${what}` };
    }
    msg[key] = n;
  }
  return { msg };
}

export function describe(s) {
  const limit = s.limit === "depth" ? `depth ${s.value}` : `${s.value} ms a move`;
  return `${limit} · ${s.threads} thread${s.threads === 1 ? "" : "s"} · hash ${s.hash} MiB · ${s.multipv} line${s.multipv === 1 ? "" : "s"}`;
}

// Apply: sends the settings, or says what is wrong and shows the engine's.
export function applySettings(send) {
  const r = read();
  if (r.error) {
    note(r.error + (ui.st ? `; the engine keeps ${describe(ui.st.settings)}` : ""), "error");
    if (ui.st) showSettings(ui.st.settings);
    return;
  }
  pending = r.msg;
  send(r.msg);
}

// A state after Apply: the settings took.
export function settingsState() {
  if (!pending) return;
  const s = ui.st.settings;
  if (!Object.keys(s).every((k) => s[k] === pending[k])) return;
  pending = null;
  showSettings(ui.st.settings);
  note(`applied: ${describe(ui.st.settings)}`, "ok");
}

// An error after Apply: the server refused them.
export function settingsError(message) {
  if (!pending) return false;
  pending = null;
  note(message, "error");
  if (ui.st) showSettings(ui.st.settings);
  return true;
}

// What this server lets the page's engine use, when it is less than the
// messages allow.
export function showCaps(caps) {
  const parts = [];
  if (caps.threads < 64) parts.push(`${caps.threads} thread${caps.threads === 1 ? "" : "s"}`);
  if (caps.hash < 1024) parts.push(`hash ${caps.hash} MiB`);
  if (caps.movetime < 600000) parts.push(`${caps.movetime} ms a move (and an analysis)`);
  if (caps.depth < 16) parts.push(`depth ${caps.depth}`);
  $("caps").hidden = parts.length === 0;
  $("caps").textContent = "this server allows at most " + parts.join(" · ");
}

// The page's address carries the game, its variations too:
// `?variant=standard&moves=K@b2,R@a1(Q@c3,K@c2),R@c1&at=3` (a variation in
// parentheses right after the placement it replaces; `at=` the placement
// shown, counted in writing order, 0 the start, left out at the main line's
// end; `fen=` a start position, `white=`/`black=` the players when not the
// default). Addresses of the main line alone written before variations,
// with `ply=`, mean the same. It follows the game (history.replaceState)
// and a page opened at it, or reloaded, shows that game; the server checks
// it (src/address.rs) and refuses a bad one with the reason.

const DEFAULT_PLAYERS = ["human", "engine"];
const MAX_TEXT = 8192;

// What the address asks for, or null when it names no game.
export function readAddress() {
  const q = new URLSearchParams(location.search);
  if (!q.has("variant") && !q.has("moves") && !q.has("fen")) return null;
  const moves = (q.get("moves") || "").slice(0, MAX_TEXT + 1);
  const atText = q.get("at") ?? q.get("ply");
  const at = atText !== null && /^\d{1,6}$/.test(atText) ? Number(atText) : null;
  const players = [q.get("white") || DEFAULT_PLAYERS[0], q.get("black") || DEFAULT_PLAYERS[1]];
  return { variant: q.get("variant") || "standard", fen: q.get("fen") || null, moves, at, players };
}

// The messages that bring a new session to that game.
export function restoreMessages(a) {
  const out = [{ type: "load_game", variant: a.variant, fen: a.fen, moves: a.moves, at: a.at }];
  if (a.players.some((p, i) => p !== DEFAULT_PLAYERS[i])) out.push({ type: "players", white: a.players[0], black: a.players[1] });
  return out;
}

// The tree text as the server writes it: placements `K@b2` (piece upper,
// square lower case) joined by commas, parentheses bare.
function canonical(text) {
  let out = "";
  for (const t of text.split(/([(),\s])/)) {
    if (!t || t === "," || /^\s$/.test(t)) continue;
    if (t === "(" || t === ")") { out += t; continue; }
    if (out && !out.endsWith("(")) out += ",";
    out += t.length > 1 ? t[0].toUpperCase() + t.slice(1).toLowerCase() : t;
  }
  return out;
}

// Whether the state shows the game the address asked for.
export function matches(a, st) {
  return st.variant === a.variant && (st.start_fen || null) === (a.fen || null) && st.tree_text === canonical(a.moves);
}

export function addressOf(st) {
  // '@', ',' and the parentheses are left as they are: the address stays readable.
  let q = `?variant=${encodeURIComponent(st.variant)}`;
  if (st.start_fen) q += `&fen=${encodeURIComponent(st.start_fen)}`;
  q += `&moves=${st.tree_text}`;
  if (st.tree_at !== null && st.tree_at !== undefined) q += `&at=${st.tree_at}`;
  if (st.players[0] !== DEFAULT_PLAYERS[0]) q += `&white=${st.players[0]}`;
  if (st.players[1] !== DEFAULT_PLAYERS[1]) q += `&black=${st.players[1]}`;
  return q;
}

export function writeAddress(st) {
  const q = addressOf(st);
  if (q !== location.search) history.replaceState(null, "", location.pathname + q);
}

// The page's address carries the game: `?variant=standard&moves=K@b2,R@a1`
// (`fen=` a start position, `ply=` the placement shown when not the last,
// `white=`/`black=` the players when not the default). It follows the game
// (history.replaceState) and a page opened at it, or reloaded, shows that game.

const DEFAULT_PLAYERS = ["human", "engine"];

// What the address asks for, or null when it names no game.
export function readAddress() {
  const q = new URLSearchParams(location.search);
  if (!q.has("variant") && !q.has("moves") && !q.has("fen")) return null;
  const moves = (q.get("moves") || "").split(/[,\s]+/).filter(Boolean);
  const ply = q.has("ply") ? Number.parseInt(q.get("ply"), 10) : null;
  const players = [q.get("white") || DEFAULT_PLAYERS[0], q.get("black") || DEFAULT_PLAYERS[1]];
  return { variant: q.get("variant") || "standard", fen: q.get("fen") || null, moves, ply, players };
}

// The messages that bring a new session to that game.
export function restoreMessages(a) {
  const text = (a.fen || "startpos") + (a.moves.length ? " moves " + a.moves.join(" ") : "");
  const out = [{ type: "load_position", variant: a.variant, text }];
  if (a.players.some((p, i) => p !== DEFAULT_PLAYERS[i])) out.push({ type: "players", white: a.players[0], black: a.players[1] });
  if (a.ply !== null && Number.isFinite(a.ply) && a.ply >= 0 && a.ply < a.moves.length) out.push({ type: "goto", ply: a.ply });
  return out;
}

// Whether the state shows the game the address asked for.
export function matches(a, st) {
  return st.variant === a.variant && (st.start_fen || null) === (a.fen || null) && st.moves.join(",") === a.moves.join(",");
}

export function addressOf(st) {
  // '@' and ',' are left as they are: the address stays readable.
  let q = `?variant=${encodeURIComponent(st.variant)}`;
  if (st.start_fen) q += `&fen=${encodeURIComponent(st.start_fen)}`;
  q += `&moves=${st.moves.join(",")}`;
  if (st.cursor < st.moves.length) q += `&ply=${st.cursor}`;
  if (st.players[0] !== DEFAULT_PLAYERS[0]) q += `&white=${st.players[0]}`;
  if (st.players[1] !== DEFAULT_PLAYERS[1]) q += `&black=${st.players[1]}`;
  return q;
}

export function writeAddress(st) {
  const q = addressOf(st);
  if (q !== location.search) history.replaceState(null, "", location.pathname + q);
}

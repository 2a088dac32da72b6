// The move list: each placement with its number and comment, the one shown
// marked; a click shows its position.

import { $, moveNumber, ui } from "./common.js";

export function drawMoves(goto) {
  const st = ui.st;
  const ol = $("moves");
  ol.replaceChildren();
  st.moves.forEach((m, i) => {
    const ply = st.start_ply + i;
    const li = document.createElement("li");
    li.dataset.ply = i + 1;
    li.dataset.move = m;
    const num = moveNumber(ply, i === 0);
    const b = document.createElement("button");
    b.className = "move";
    b.innerHTML = `<span class="num"></span>`;
    b.firstChild.textContent = num;
    b.append(m);
    b.addEventListener("click", () => goto(i + 1));
    li.appendChild(b);
    const comment = st.comments && st.comments[i];
    if (comment) {
      const c = document.createElement("span");
      c.className = "comment";
      c.textContent = comment;
      li.appendChild(c);
    }
    li.className = (ply % 2 === 0 ? "w" : "b") + (i + 1 === st.cursor ? " current" : "") + (i + 1 > st.cursor ? " after" : "");
    ol.appendChild(li);
  });
  $("first").disabled = st.cursor === 0;
  $("back").disabled = st.cursor === 0;
  $("forward").disabled = st.cursor === st.moves.length;
  $("last").disabled = st.cursor === st.moves.length;
  const cur = ol.querySelector("li.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

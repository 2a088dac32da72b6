// The move list: the main line with its variations in ( ... ) (a placement
// from an earlier position starts one), each placement with its number and
// comment; the one shown is marked; a click shows its position.

import { $, moveNumber, ui } from "./common.js";

let nav = { goto: () => {}, gotoNode: () => {} };

export function initMoves(actions) {
  nav = actions;
}

export function drawMoves() {
  const st = ui.st;
  const ol = $("moves");
  ol.replaceChildren();
  const nodes = new Map(st.tree.map((n) => [n.id, n]));
  const onLine = new Map(st.line.map((id, i) => [id, i + 1]));
  const shown = st.cursor > 0 ? st.line[st.cursor - 1] : null;

  function item(node, number) {
    const li = document.createElement("li");
    li.dataset.node = node.id;
    const b = document.createElement("button");
    b.className = "move";
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = number;
    b.append(num, node.placement);
    const ply = onLine.get(node.id);
    if (ply !== undefined) {
      li.dataset.ply = ply;
      li.dataset.move = node.placement;
      if (ply > st.cursor) li.classList.add("after");
      b.addEventListener("click", () => nav.goto(ply));
    } else {
      b.addEventListener("click", () => nav.gotoNode(node.id));
    }
    if (node.id === shown) li.classList.add("current");
    li.classList.add(node.ply % 2 === 0 ? "w" : "b");
    li.appendChild(b);
    if (node.comment) {
      const c = document.createElement("span");
      c.className = "comment";
      c.textContent = node.comment;
      li.appendChild(c);
    }
    return li;
  }

  // The line from `choices[0]` down its main continuation, the other
  // choices as variations after the placement they replace.
  function line(list, choices, ply, forceNumber, depth) {
    while (choices.length) {
      const main = nodes.get(choices[0]);
      if (!main) return;
      list.appendChild(item(main, moveNumber(ply, forceNumber)));
      forceNumber = !!main.comment;
      for (const alt of choices.slice(1)) {
        const v = document.createElement("li");
        v.className = "variation" + (depth > 0 ? " nested" : "");
        const inner = document.createElement("ol");
        line(inner, [alt], ply, true, depth + 1);
        v.append("(", inner, ")");
        list.appendChild(v);
        forceNumber = true;
      }
      choices = main.children;
      ply += 1;
    }
  }

  const top = st.tree.filter((n) => n.parent === null).map((n) => n.id);
  line(ol, top, st.start_ply, true, 0);
  $("first").disabled = st.cursor === 0;
  $("back").disabled = st.cursor === 0;
  $("forward").disabled = st.cursor === st.moves.length;
  $("last").disabled = st.cursor === st.moves.length;
  const cur = ol.querySelector("li.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

// The game as it went: the move list (jump to any move), the value history chart (SVG, one
// point per position whose value is known, on the first player's scale) and the evaluation
// bar of the position shown. Nothing here knows a game or works out a value: the values are
// the server's, put on one scale by values.js.

import { colour } from "./board.js";

const NS = "http://www.w3.org/2000/svg";

function el(name, attributes = {}, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** The moves in `list` as buttons numbered by full moves (1. 4 4  2. 5 5), the start first;
 * the one leading to `ply` is the current one. `onGo(ply)` jumps. */
export function drawMoveList(list, moves, ply, onGo) {
  list.replaceChildren();
  const button = (text, to, label) => {
    const node = document.createElement("button");
    node.type = "button";
    node.textContent = text;
    node.dataset.ply = String(to);
    node.setAttribute("aria-label", label);
    if (to === ply) { node.setAttribute("aria-current", "step"); node.classList.add("current"); }
    node.addEventListener("click", () => onGo(to));
    return node;
  };
  const start = document.createElement("li");
  start.append(button("start", 0, "the starting position"));
  list.append(start);
  for (let index = 0; index < moves.length; index += 2) {
    const item = document.createElement("li");
    const number = document.createElement("span");
    number.className = "muted";
    number.textContent = `${index / 2 + 1}.`;
    item.append(number, button(moves[index], index + 1, `move ${index + 1}: ${moves[index]}`));
    if (index + 1 < moves.length) item.append(button(moves[index + 1], index + 2, `move ${index + 2}: ${moves[index + 1]}`));
    list.append(item);
  }
  const current = list.querySelector(".current");
  if (current) list.scrollTop = Math.max(0, current.offsetTop - list.offsetTop - list.clientHeight / 2);
}

/** The value history: `points[ply]` = {y (-1..1, the first player's side up), proven, kind, text} or
 * null, for plies 0..n; `ply` is marked; clicking a point jumps to it. `players`: the names
 * written at the top (the first player winning) and bottom. */
export function drawChart(svg, points, ply, onGo, players) {
  svg.replaceChildren();
  const width = 600, height = 150, left = 8, right = 8, top = 16, bottom = 18;
  const n = Math.max(1, points.length - 1);
  const x = (index) => left + (index / n) * (width - left - right);
  const y = (value) => top + (1 - value) / 2 * (height - top - bottom);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  const known = points.map((point, index) => [point, index]).filter(([point]) => point);
  svg.setAttribute("aria-label", `value history: ${known.length} of ${points.length} positions valued`);
  svg.append(el("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom, fill: "#fff",
    stroke: "var(--line)" }));
  svg.append(el("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), stroke: "#bbb", "stroke-dasharray": "4 3" }));
  svg.append(el("text", { x: left + 2, y: top - 4, "font-size": 11, class: "caption" }, `${players[0]} winning`));
  svg.append(el("text", { x: left + 2, y: height - 4, "font-size": 11, class: "caption" }, `${players[1]} winning`));
  svg.append(el("text", { x: width - right - 2, y: y(0) - 4, "font-size": 11, "text-anchor": "end", class: "caption" }, "draw"));
  // The line joins the known points in order; a gap (a position not valued) breaks it.
  let path = "", previous = -2;
  for (const [point, index] of known) {
    path += `${index === previous + 1 ? "L" : "M"}${x(index).toFixed(1)},${y(point.y).toFixed(1)} `;
    previous = index;
  }
  if (path) svg.append(el("path", { d: path, fill: "none", stroke: "var(--accent)", "stroke-width": 2 }));
  svg.append(el("line", { x1: x(ply), x2: x(ply), y1: top, y2: height - bottom, stroke: "#d08a00", "stroke-width": 2,
    class: "chart-current", "data-ply": ply }));
  for (const [point, index] of known) {
    // A proven result in the colour of the side it favours (MAX blue, MIN red), grey for a
    // draw; an estimate in the estimates' colour.
    const fill = !point.proven ? colour("estimate") : point.y > 0 ? "var(--max)" : point.y < 0 ? "var(--min)" : colour("draw");
    const dot = el("circle", { cx: x(index), cy: y(point.y), r: index === ply ? 6 : 4, fill,
      stroke: "#333", "data-ply": index, "data-kind": point.kind, class: "chart-point" });
    dot.append(el("title", {}, `after ${index} ${index === 1 ? "move" : "moves"}: ${point.text}`));
    svg.append(dot);
  }
  // The whole height of each ply is a target: a click near a move jumps to it.
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * width;
    onGo(Math.max(0, Math.min(points.length - 1, Math.round(((at - left) / (width - left - right)) * n))));
  };
}

/** The evaluation bar of the position shown: the first player's share (`point.y` from -1 to
 * 1) from the bottom (from the top when `flipped`), and the value in words beside it. */
export function drawBar(bar, point, players, flipped) {
  const share = point ? (point.y + 1) / 2 : 0.5;
  bar.style.setProperty("--share", `${(share * 100).toFixed(1)}%`);
  bar.classList.toggle("flipped", Boolean(flipped));
  bar.classList.toggle("unknown", !point);
  bar.dataset.share = share.toFixed(3);
  bar.dataset.kind = point ? point.kind : "";
  const words = point ? point.text : "no value yet";
  bar.setAttribute("aria-label", `evaluation: ${words}`);
  bar.title = `${players[0]} ${Math.round(share * 100)} % : ${players[1]} ${Math.round((1 - share) * 100)} % (${words})`;
}

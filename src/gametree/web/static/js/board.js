// SVG boards: a grid (m,n,k games), columns with falling stones (Connect Four), rows of sticks
// (Nim, Sticks), a heap (Bones, subtraction games; click a counter to take it and those after
// it); any other game as its text. Every legal move
// is also a button in a list below the board, labelled with its value when values are shown.

import { colour, describe, ink } from "./values.js";

const NS = "http://www.w3.org/2000/svg";

function el(name, attributes = {}, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** Make an SVG element act as a button: click, Enter or Space plays `move`. */
function target(node, move, label, onMove) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.classList.add("target");
  node.dataset.move = move.text;
  node.addEventListener("click", () => onMove(move.text));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onMove(move.text); }
  });
}

function valueLabel(values, text) {
  const entry = values && values.byMove.get(text);
  return entry ? describe(entry, values.result) : null;
}

function grid(svg, position, values, onMove, hint) {
  const { rows, cols, cells } = position.board;
  const size = 64;
  svg.setAttribute("viewBox", `0 0 ${cols * size + 2} ${rows * size + 2}`);
  svg.setAttribute("width", Math.min(480, cols * size + 2));
  const byCell = new Map(position.moves.map((move) => [move.cell.join(","), move]));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = 1 + c * size, y = 1 + r * size;
      const group = el("g", { "data-cell": `${r},${c}`, "data-mark": cells[r][c] });
      const square = el("rect", { x, y, width: size, height: size, fill: "#fff", stroke: "#444" });
      group.append(square);
      const move = byCell.get(`${r},${c}`);
      const described = move ? valueLabel(values, move.text) : null;
      if (described) square.setAttribute("fill", colour(described));
      if (cells[r][c]) {
        group.append(el("text", { x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle",
          "font-size": size * 0.55, fill: cells[r][c] === "X" ? "var(--max)" : "var(--min)" },
        cells[r][c]));
      } else if (move) {
        if (described) {
          group.append(el("text", { x: x + size / 2, y: y + size * 0.58, "text-anchor": "middle",
            "font-size": 12, fill: ink(described) }, described.text));
        }
        if (hint === move.text) square.classList.add("hint");
        target(group, move, `play ${move.text}${described ? ` (${described.text})` : ""}`, onMove);
      }
      svg.append(group);
    }
  }
}

function columns(svg, position, values, onMove, hint) {
  const { width, height, cells } = position.board;
  const size = 56, top = 26;
  svg.setAttribute("viewBox", `0 0 ${width * size + 2} ${height * size + top + 22}`);
  svg.setAttribute("width", Math.min(560, width * size + 2));
  svg.append(el("rect", { x: 1, y: top, width: width * size, height: height * size, fill: "#2b5cb8", rx: 8 }));
  const byColumn = new Map(position.moves.map((move) => [move.column, move]));
  for (let c = 0; c < width; c++) {
    const move = byColumn.get(c);
    const described = move ? valueLabel(values, move.text) : null;
    for (let r = 0; r < height; r++) {
      const mark = cells[r][c];
      svg.append(el("circle", { cx: 1 + c * size + size / 2, cy: top + r * size + size / 2, r: size * 0.38,
        fill: mark === "X" ? "#e0312b" : mark === "O" ? "#f3c623" : "#fff",
        "data-cell": `${r},${c}`, "data-mark": mark, stroke: "#1a3d80" }));
    }
    svg.append(el("text", { x: 1 + c * size + size / 2, y: top + height * size + 17, "text-anchor": "middle",
      "font-size": 13 }, String(c + 1)));
    if (described) {
      svg.append(el("rect", { x: 3 + c * size, y: 2, width: size - 4, height: top - 5, rx: 4, fill: colour(described) }));
      svg.append(el("text", { x: 1 + c * size + size / 2, y: top - 9, "text-anchor": "middle", "font-size": 10.5,
        fill: ink(described) }, described.text));
    }
    if (move) {
      const hit = el("rect", { x: 1 + c * size, y: top, width: size, height: height * size, fill: "transparent",
        class: hint === move.text ? "hint" : "" });
      target(hit, move, `drop in column ${move.text}${described ? ` (${described.text})` : ""}`, onMove);
      svg.append(hit);
    }
  }
}

function rows(svg, position, values, onMove, hint) {
  const { rows: sizes, start } = position.board;
  const longest = Math.max(1, ...start), gap = 22, height = 44;
  svg.setAttribute("viewBox", `0 0 ${40 + longest * gap} ${sizes.length * height + 6}`);
  svg.setAttribute("width", Math.min(560, 40 + longest * gap));
  const byMove = new Map(position.moves.map((move) => [`${move.row}:${move.count}`, move]));
  sizes.forEach((size, row) => {
    const y = 6 + row * height;
    svg.append(el("text", { x: 4, y: y + 26, "font-size": 14 }, `${row + 1}.`));
    for (let stick = 0; stick < size; stick++) {
      const move = byMove.get(`${row}:${size - stick}`);
      const described = move ? valueLabel(values, move.text) : null;
      const shape = el("rect", { x: 30 + stick * gap, y, width: 9, height: height - 12, rx: 3,
        fill: described ? colour(described) : "#8a5a2b", "data-row": row, "data-stick": stick,
        class: move && hint === move.text ? "hint" : "" });
      if (move) {
        target(shape, move, `take ${size - stick} from row ${row + 1}${described ? ` (${described.text})` : ""}`, onMove);
      }
      svg.append(shape);
    }
  });
}

function heap(svg, position, values, onMove, hint) {
  const { heap: count, start } = position.board;
  const shown = Math.min(Math.max(start, count), 60), gap = 12;
  svg.setAttribute("viewBox", `0 0 ${20 + shown * gap} 70`);
  svg.setAttribute("width", Math.min(720, 20 + shown * gap));
  // Click a counter: take it and those after it (the legal takes only).
  const byTake = new Map(position.moves.map((move) => [move.take, move]));
  const drawn = Math.min(count, 60);
  for (let i = 0; i < drawn; i++) {
    const move = byTake.get(count - i);
    const described = move ? valueLabel(values, move.text) : null;
    const shape = el("rect", { x: 10 + i * gap, y: 10, width: 6, height: 40, rx: 2,
      fill: described ? colour(described) : "#8a5a2b", "data-counter": i,
      class: move && hint === move.text ? "hint" : "" });
    if (move) target(shape, move, `take ${move.take}${described ? ` (${described.text})` : ""}`, onMove);
    svg.append(shape);
  }
  svg.append(el("text", { x: 10, y: 66, "font-size": 12 }, `heap: ${count}`));
}

/** Draw `position` into `svg`; `values`: {result, byMove} from an analysis, or null. */
export function drawBoard(svg, position, { values = null, onMove = () => {}, hint = null } = {}) {
  svg.replaceChildren();
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `board: ${position.text.replaceAll("\n", " / ")}`);
  const kind = position.board.kind;
  if (kind === "grid") grid(svg, position, values, onMove, hint);
  else if (kind === "columns") columns(svg, position, values, onMove, hint);
  else if (kind === "rows") rows(svg, position, values, onMove, hint);
  else if (kind === "heap") heap(svg, position, values, onMove, hint);
  else {
    const lines = position.text.split("\n");
    svg.setAttribute("viewBox", `0 0 420 ${lines.length * 18 + 10}`);
    svg.setAttribute("width", 420);
    lines.forEach((line, i) => svg.append(el("text", { x: 6, y: 18 + i * 18, "font-family": "monospace",
      "font-size": 14, "xml:space": "preserve" }, line)));
  }
}

/** The legal moves as buttons in `list`, with their values when known. */
export function drawMoveButtons(list, position, { values = null, onMove = () => {}, hint = null } = {}) {
  list.replaceChildren();
  // Buttons in the board's order (the engine lists Connect Four's columns centre first).
  const place = (move) => move.column ?? (move.cell ? move.cell[0] * 1000 + move.cell[1] : 0);
  for (const move of [...position.moves].sort((a, b) => place(a) - place(b))) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move.text;
    const described = valueLabel(values, move.text);
    button.append(move.text);
    if (described) {
      const small = document.createElement("small");
      small.textContent = described.text;
      button.append(small);
      button.style.background = colour(described);
      button.style.color = ink(described);
    }
    if (hint === move.text) button.classList.add("hint");
    button.setAttribute("aria-label", `play ${move.text}${described ? `: ${described.text}` : ""}`);
    button.addEventListener("click", () => onMove(move.text));
    item.append(button);
    list.append(item);
  }
}

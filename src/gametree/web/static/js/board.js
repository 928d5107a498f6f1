// Any position drawn from the game's own description of it (its view, docs/json.md
// "Positions"): a grid of labelled cells (squares, or discs in a frame whose moves are columns),
// heaps of counters, a tree node with its children, or the game's text with its spacing kept.
// Nothing here knows a game: where a move acts (its cell, column, heap and count, child), its
// label and its key all come with the position. Every legal move is also a button in a list
// below the board, with the value the server wrote for it (value_text, coloured by value_kind).

const NS = "http://www.w3.org/2000/svg";
const XML = "http://www.w3.org/XML/1998/namespace";
const MAX_COUNTERS = 60;

function el(name, attributes = {}, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** The value the server gave `move` ({text, kind}), or null: the page derives none itself. */
function valueOf(values, move) {
  const entry = values && values.byMove.get(move.text);
  if (!entry || entry.value_text === undefined || entry.value_text === null) return null;
  return { text: entry.value_text, kind: entry.value_kind || "" };
}

/** A fill for a value of `kind` (win, loss, draw, estimate, score). */
export function colour(kind) {
  if (kind === "win") return "hsl(var(--win), 40%)";
  if (kind === "loss") return "hsl(var(--loss), 48%)";
  if (kind === "draw") return "hsl(var(--draw), 62%)";
  return "hsl(210, 25%, 80%)";
}

/** Text that reads on a fill of colour(kind). */
export function ink(kind) {
  return kind === "win" || kind === "loss" ? "#fff" : "#111";
}

/** Make an SVG element act as a button: click, Enter or Space plays `move`. */
function target(node, move, value, onMove) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", `${move.label}${value ? ` (${value.text})` : ""}`);
  if (move.key) node.setAttribute("aria-keyshortcuts", move.key);
  node.classList.add("target");
  node.dataset.move = move.text;
  node.addEventListener("click", () => onMove(move.text));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onMove(move.text); }
  });
}

function grid(svg, position, { values, onMove, hint, flipped }) {
  const { rows, columns, cells, pieces, shape, row_labels: rowLabels, column_labels: columnLabels,
    column_labels_below: below } = position.grid;
  const disc = shape === "disc";
  const size = disc ? 56 : 64;
  const left = rowLabels.length ? 22 : 0;
  const top = (disc ? 26 : 0) + (columnLabels.length && !below ? 20 : 0);
  const bottom = columnLabels.length && below ? 22 : 0;
  const width = left + columns * size + 2, height = top + rows * size + bottom + 2;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", Math.min(disc ? 560 : 480, width));
  const place = (row, col) => (flipped ? [rows - 1 - row, columns - 1 - col] : [row, col]);
  const x = (col) => 1 + left + place(0, col)[1] * size;
  const y = (row) => 1 + top + place(row, 0)[0] * size;
  const owner = (label) => (label === pieces[0] ? 0 : label === pieces[1] ? 1 : null);
  // A cell may carry several marks (the last stone of a winning line is both): all kept.
  const marks = new Map();
  for (const mark of position.marks) {
    const cell = mark.cell.join(",");
    marks.set(cell, marks.has(cell) ? `${marks.get(cell)} ${mark.kind}` : mark.kind);
  }
  const byCell = new Map(position.moves.filter((move) => move.cell).map((move) => [move.cell.join(","), move]));
  if (disc) svg.append(el("rect", { x: 1 + left, y: top, width: columns * size, height: rows * size, fill: "#2b5cb8", rx: 8 }));
  columnLabels.forEach((label, col) => svg.append(el("text", { x: x(col) + size / 2, "text-anchor": "middle", "font-size": 13,
    y: below ? top + rows * size + 17 : top - 6 }, label)));
  rowLabels.forEach((label, row) => svg.append(el("text", { x: left - 6, y: y(row) + size / 2 + 5, "text-anchor": "end",
    "font-size": 13 }, label)));
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      const label = cells[row][col], who = owner(label), mark = marks.get(`${row},${col}`) || "";
      const group = el("g", { "data-cell": `${row},${col}`, "data-mark": label, "data-highlight": mark,
        class: mark ? `marked ${mark}` : "" });
      const move = byCell.get(`${row},${col}`);
      const value = move ? valueOf(values, move) : null;
      const cx = x(col) + size / 2, cy = y(row) + size / 2;
      if (disc) {
        group.append(el("circle", { cx, cy, r: size * 0.38, stroke: "#1a3d80",
          fill: who === 0 ? "#e0312b" : who === 1 ? "#f3c623" : value ? colour(value.kind) : "#fff" }));
        if (label && who === null) group.append(el("text", { x: cx, y: cy + 5, "text-anchor": "middle" }, label));
      } else {
        group.append(el("rect", { x: x(col), y: y(row), width: size, height: size, stroke: "#444",
          fill: value ? colour(value.kind) : "#fff" }));
        if (label) {
          group.append(el("text", { x: cx, y: y(row) + size * 0.68, "text-anchor": "middle", "font-size": size * 0.55,
            fill: who === 0 ? "var(--max)" : who === 1 ? "var(--min)" : "#333" }, label));
        } else if (value) {
          group.append(el("text", { x: cx, y: y(row) + size * 0.58, "text-anchor": "middle", "font-size": 12,
            fill: ink(value.kind) }, value.text));
        }
      }
      if (move) {
        if (hint === move.text) group.classList.add("hint");
        target(group, move, value, onMove);
      }
      svg.append(group);
    }
  }
  // A winning line: a stroke through its cells, when they lie on one line.
  const line = position.marks.filter((mark) => mark.kind === "win").map((mark) => place(...mark.cell))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (line.length >= 2) {
    const [[r0, c0], [r1, c1]] = [line[0], line[line.length - 1]];
    if (line.every(([r, c]) => (r - r0) * (c1 - c0) === (c - c0) * (r1 - r0))) {
      const at = ([r, c]) => [1 + left + c * size + size / 2, 1 + top + r * size + size / 2];
      const [[x1, y1], [x2, y2]] = [at([r0, c0]), at([r1, c1])];
      svg.append(el("line", { x1, y1, x2, y2, class: "win-line", stroke: "#1e8a3a", "stroke-opacity": 0.75,
        "stroke-width": size * 0.16, "stroke-linecap": "round", "pointer-events": "none" }));
    }
  }
  // Moves that are columns: the whole column is the button, the value written above it.
  const byColumn = position.moves.filter((item) => item.column !== undefined).sort((a, b) => a.column - b.column);
  for (const move of byColumn) {
    const value = valueOf(values, move);
    const left2 = x(move.column);
    if (value) {
      svg.append(el("rect", { x: left2 + 2, y: 2, width: size - 4, height: 21, rx: 4, fill: colour(value.kind) }));
      const fits = Math.min(10.5, (size - 6) / (0.56 * value.text.length));  // long words get smaller
      svg.append(el("text", { x: left2 + size / 2, y: 17, "text-anchor": "middle", "font-size": fits.toFixed(1),
        fill: ink(value.kind) }, value.text));
    }
    const hit = el("rect", { x: left2, y: top, width: size, height: rows * size, fill: "transparent",
      "data-column": move.column, class: hint === move.text ? "hint" : "" });
    target(hit, move, value, onMove);
    svg.append(hit);
  }
  return height;
}

function heaps(svg, position, { values, onMove, hint }) {
  const { sizes, labels } = position.heaps;
  const gap = 14, rowHeight = 48;
  const left = labels.length ? 12 + 8 * Math.max(...labels.map((label) => label.length)) : 8;
  const longest = Math.min(MAX_COUNTERS, Math.max(1, ...sizes));
  const width = left + longest * gap + 30, height = sizes.length * rowHeight + 6;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", Math.min(720, width));
  const byTake = new Map(position.moves.filter((move) => move.heap !== undefined)
    .map((move) => [`${move.heap}:${move.count}`, move]));
  sizes.forEach((size, heap) => {
    const y = 6 + heap * rowHeight;
    if (labels.length) svg.append(el("text", { x: 4, y: y + 26, "font-size": 14 }, labels[heap]));
    // Click a counter: take it and those after it (where that is a legal move).
    for (let counter = 0; counter < Math.min(size, MAX_COUNTERS); counter++) {
      const move = byTake.get(`${heap}:${size - counter}`);
      const value = move ? valueOf(values, move) : null;
      const shape = el("rect", { x: left + counter * gap, y, width: 8, height: rowHeight - 12, rx: 3,
        fill: value ? colour(value.kind) : "#8a5a2b", "data-heap": heap, "data-counter": counter,
        class: move && hint === move.text ? "hint" : "" });
      if (move) target(shape, move, value, onMove);
      svg.append(shape);
    }
    if (size > MAX_COUNTERS) svg.append(el("text", { x: left + MAX_COUNTERS * gap, y: y + 26 }, "…"));
  });
  return height;
}

function tree(svg, position, { values, onMove, hint }) {
  const { label, role, children } = position.node;
  const gap = 90, width = Math.max(1, children.length) * gap + 40, top = 34;
  svg.setAttribute("viewBox", `0 0 ${width} 170`);
  svg.setAttribute("width", Math.min(720, width));
  const root = width / 2, below = top + 90;
  const points = role === "MAX" ? `${root},${top - 16} ${root - 17},${top + 14} ${root + 17},${top + 14}`
    : `${root - 17},${top - 14} ${root + 17},${top - 14} ${root},${top + 16}`;
  svg.append(el("polygon", { points, fill: role === "MAX" ? "#dce6f7" : "#f7e1da",
    stroke: role === "MAX" ? "var(--max)" : "var(--min)", "stroke-width": 1.5 }));
  svg.append(el("text", { x: root + 22, y: top + 5, "font-size": 14, "font-weight": 700 }, `${label} (${role})`));
  const byChild = new Map(position.moves.filter((move) => move.child !== undefined).map((move) => [move.child, move]));
  children.forEach((child, index) => {
    const cx = 20 + gap / 2 + index * gap;
    const move = byChild.get(index);
    const value = move ? valueOf(values, move) : null;
    svg.append(el("line", { x1: root, y1: top + 16, x2: cx, y2: below - 16, stroke: "#888" }));
    if (move && move.text !== child.label) {
      svg.append(el("text", { x: (root + cx) / 2 + 4, y: (top + below) / 2, "font-size": 11, fill: "#777" }, move.text));
    }
    const group = el("g", { "data-child": index, "data-label": child.label, class: move && hint === move.text ? "hint" : "" });
    group.append(el("rect", { x: cx - 36, y: below - 16, width: 72, height: 32, rx: 5, stroke: "#444",
      fill: value ? colour(value.kind) : "#fff" }));
    group.append(el("text", { x: cx, y: below + 5, "text-anchor": "middle", "font-size": 13,
      fill: value ? ink(value.kind) : "#111" }, child.value === null ? child.label : `${child.label} = ${child.value}`));
    if (value) group.append(el("text", { x: cx, y: below + 32, "text-anchor": "middle", "font-size": 11 }, value.text));
    if (move) target(group, move, value, onMove);
    svg.append(group);
  });
  return 170;
}

function text(svg, position) {
  const lines = position.text.split("\n");
  const longest = Math.max(20, ...lines.map((line) => line.length));
  const width = longest * 8.6 + 16, height = lines.length * 18 + 10;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", Math.min(720, width));
  lines.forEach((line, i) => {
    const node = el("text", { x: 6, y: 18 + i * 18, "font-family": "monospace", "font-size": 14,
      style: "white-space: pre", "data-line": i }, line);
    node.setAttributeNS(XML, "xml:space", "preserve");  // the game's spacing is its drawing
    svg.append(node);
  });
  return height;
}

const DRAW = { grid, heaps, tree, text };

/** Draw `position` into `svg`. `values`: {result, byMove} from an analysis, or null; `hint`:
 * a move text to outline; `flipped`: turn the drawing by 180 degrees (if the view allows). */
export function drawBoard(svg, position, { values = null, onMove = () => {}, hint = null, flipped = false } = {}) {
  svg.replaceChildren();
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `board: ${position.text.replaceAll("\n", " / ")}`);
  svg.dataset.kind = position.kind;
  const draw = DRAW[position.kind] || text;
  const height = draw(svg, position, { values, onMove, hint, flipped: flipped && position.flippable });
  if (position.caption) {
    const box = svg.getAttribute("viewBox").split(" ").map(Number);
    svg.setAttribute("viewBox", `0 0 ${box[2]} ${height + 22}`);
    svg.append(el("text", { x: 6, y: height + 15, "font-size": 12, class: "caption" }, position.caption));
  }
}

/** Where a move acts, for listing moves in the board's order (rows, then columns; heaps by
 * count; a tree's children left to right); moves with no place keep the game's order. */
function place(move) {
  if (move.cell) return [move.cell[0], move.cell[1]];
  if (move.column !== undefined) return [0, move.column];
  if (move.heap !== undefined) return [move.heap, move.count];
  if (move.child !== undefined) return [0, move.child];
  return [0, 0];
}

/** The legal moves as buttons in `list`, with their values and keys when known. */
export function drawMoveButtons(list, position, { values = null, onMove = () => {}, hint = null } = {}) {
  list.replaceChildren();
  const ordered = [...position.moves].sort((a, b) => {
    const [p, q] = [place(a), place(b)];
    return p[0] - q[0] || p[1] - q[1];
  });
  for (const move of ordered) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move.text;
    const value = valueOf(values, move);
    button.append(move.text);
    if (move.key && move.key !== move.text) {
      const key = document.createElement("kbd");
      key.textContent = move.key;
      button.append(" ", key);
    }
    if (move.key) button.setAttribute("aria-keyshortcuts", move.key);
    if (value) {
      const small = document.createElement("small");
      small.textContent = value.text;
      button.append(small);
      button.dataset.kind = value.kind;
      button.style.background = colour(value.kind);
      button.style.color = ink(value.kind);
    }
    if (hint === move.text) button.classList.add("hint");
    button.setAttribute("aria-label", `play ${move.text}${value ? `: ${value.text}` : ""}`);
    button.addEventListener("click", () => onMove(move.text));
    item.append(button);
    list.append(item);
  }
}

/** Words for the keys that play moves here (`1–7`, `1, 3, 9`), or "" when no move has a key. */
export function keysText(position) {
  const keys = [...new Set(position.moves.map((move) => move.key).filter(Boolean))];
  if (!keys.length) return "";
  const numbers = keys.every((key) => /^[0-9]$/.test(key)) ? keys.map(Number).sort((a, b) => a - b) : null;
  if (numbers && numbers.length > 2 && numbers[numbers.length - 1] - numbers[0] === numbers.length - 1) {
    return `${numbers[0]}–${numbers[numbers.length - 1]}`;
  }
  return (numbers || keys.sort()).join(", ");
}

// Trees drawn as the textbooks draw them (MAX ▲, MIN ▼, CHANCE ●, leaves ■), and a trace replayed onto
// them: which node the search is at, alpha and beta, values backing up, pruned branches.

const NS = "http://www.w3.org/2000/svg";
const key = (path) => path.join("\u0001");

function el(name, attributes = {}, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [name2, value] of Object.entries(attributes)) node.setAttribute(name2, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** A bound as the log writes it: the API's words for it, with ∞ for the open ends. The page
 * derives no value of its own: the trace's events carry their values in words. */
function boundText(text) {
  if (text === null || text === undefined) return "";
  return text.replace("-inf", "−∞").replace("+inf", "+∞");
}

/** A node of the drawn tree in words: the leaf number an explicit tree gives, or a game's
 * result word (the tree answer's own fields). */
function nodeText(node) {
  if (node.value !== null && node.value !== undefined) return String(node.value);
  return node.result || "";
}

/** The tree of an API /tree answer, indexed: nodes by path key, children, the leaf order. */
export function indexTree(data) {
  const nodes = data.nodes.map((node) => ({ ...node, key: key(node.path), children: [] }));
  for (const node of nodes) if (node.parent !== null) nodes[node.parent].children.push(node);
  return { nodes, byKey: new Map(nodes.map((node) => [node.key, node])) };
}

/** The state of every node after the first `upto` events of a trace. */
export function replay(tree, events, upto) {
  const state = new Map();
  const get = (path) => {
    const id = key(path);
    if (!state.has(id)) state.set(id, { value: null, alpha: null, beta: null, status: "visited", reason: null });
    return state.get(id);
  };
  const pathAt = [];
  const pending = [];
  const counts = { nodes: 0, leaves: 0, prunes: 0 };
  const pruned = [];
  let current = null;
  for (let i = 0; i < upto; i++) {
    const event = events[i];
    const ply = event.ply;
    if (event.kind === "enter") {
      const path = ply === 0 ? [] : pending[ply];
      pathAt[ply] = path;
      pathAt.length = ply + 1;
      const node = get(path);
      node.status = "open";
      node.alpha = event.alpha_text; node.beta = event.beta_text;
      counts.nodes += 1;
      current = path;
    } else if (event.kind === "try") {
      pending[ply + 1] = [...pathAt[ply], event.move];
      current = pathAt[ply];
    } else if (event.kind === "leaf") {
      const path = ply === 0 ? [] : pending[ply];
      const node = get(path);
      node.value = event.value_text; node.status = "leaf";
      counts.nodes += 1; counts.leaves += 1;
      current = path;
    } else if (["alpha", "beta", "scored"].includes(event.kind) && pathAt[ply]) {
      const node = get(pathAt[ply]);
      if (event.alpha !== null) node.alpha = event.alpha_text;
      if (event.beta !== null) node.beta = event.beta_text;
      if (event.kind === "scored") node.best = event.value_text;
      current = pathAt[ply];
    } else if (event.kind === "prune" && pathAt[ply]) {
      const at = tree.byKey.get(key(pathAt[ply]));
      const label = at ? at.label : event.node;
      const window = `(α = ${boundText(event.alpha_text)}, β = ${boundText(event.beta_text)})`;
      // At a chance node a Star1/Star2 cut-off: the outcomes searched bound its value outside the window.
      const reason = event.role === "CHANCE" ? `Star cut-off at chance node ${label}: its expected value is bounded outside ${window}`
        : `alpha >= beta at node ${label} ${window}`;
      counts.prunes += 1;
      for (const move of event.skipped) {
        const top = tree.byKey.get(key([...pathAt[ply], move]));
        if (!top) continue;
        pruned.push({ label: top.label, reason });
        const stack = [top];
        while (stack.length) {
          const node = stack.pop();
          const entry = get(node.path);
          entry.status = "pruned"; entry.reason = reason;
          stack.push(...node.children);
        }
      }
      current = pathAt[ply];
    } else if (event.kind === "done" && pathAt[ply]) {
      const node = get(pathAt[ply]);
      node.value = event.value_text; node.status = "done";
      current = pathAt[ply];
    }
  }
  return { state, current: current === null ? null : key(current), counts, pruned };
}

/** A leaf's box width for the text it shows: about 7 px a character, at least 30. */
function leafWidth(text) {
  return Math.max(30, 7 * String(text).length + 8);
}

/** Draw `tree` into `svg` as `replayed` left it (or unsearched, without it). */
export function drawTree(svg, tree, replayed = null) {
  svg.replaceChildren();
  const leaves = [];
  const walk = (node) => { if (!node.children.length) leaves.push(node); node.children.forEach(walk); };
  walk(tree.nodes[0]);
  // Leaves side by side, each box as wide as its widest value ("loss in 12") and a little more.
  const leafText = (node) => {
    const seen = replayed && replayed.state.get(node.key);
    if (seen && seen.value !== null) return seen.value;
    return nodeText(node);
  };
  // A leaf whose value only the search gives (a game's) may show "loss in 10": room for it
  // from the first step, so that the tree keeps its shape while the values come in.
  const widest = Math.max(0, ...leaves.map((node) =>
    leafWidth(node.value !== null && node.value !== undefined ? nodeText(node) : "loss in 10")));
  const gap = Math.max(widest + 6, Math.max(30, Math.min(58, 1100 / Math.max(1, leaves.length))));
  const level = 84;
  const position = new Map();
  leaves.forEach((node, i) => position.set(node.key, 24 + i * gap + gap / 2));
  const place = (node) => {
    if (!node.children.length) return position.get(node.key);
    const xs = node.children.map(place);
    const x = (Math.min(...xs) + Math.max(...xs)) / 2;
    position.set(node.key, x);
    return x;
  };
  place(tree.nodes[0]);
  let depth = 0;
  for (const node of tree.nodes) depth = Math.max(depth, node.path.length);
  const width = 48 + leaves.length * gap, height = 60 + depth * level + 40;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the game tree");
  const y = (node) => 34 + node.path.length * level;
  const info = (node) => (replayed && replayed.state.get(node.key)) || null;
  for (const node of tree.nodes) {
    for (const child of node.children) {
      const seen = info(child);
      const classes = ["edge", seen ? seen.status : "unvisited"].join(" ");
      svg.append(el("line", { x1: position.get(node.key), y1: y(node) + 12, x2: position.get(child.key),
        y2: y(child) - 12, stroke: seen && seen.status !== "pruned" ? "#444" : "#bbb", "stroke-width": 1.5, class: classes }));
      // A move's name where it differs from the child's label; below a chance node, its probability.
      const edgeText = child.probability ? `p ${child.probability}` : child.move && child.move !== child.label ? child.move : "";
      if (edgeText) {
        svg.append(el("text", { x: (position.get(node.key) + position.get(child.key)) / 2 + 4,
          y: (y(node) + y(child)) / 2, "font-size": 10, fill: child.probability ? "#6b5200" : "#777",
          class: child.probability ? "probability" : "move" }, edgeText));
      }
    }
  }
  for (const node of tree.nodes) {
    const seen = info(node);
    const status = seen ? seen.status : "unvisited";
    const x = position.get(node.key), top = y(node);
    const group = el("g", { class: `tree-node ${status}${replayed && replayed.current === node.key ? " current" : ""}`,
      "data-label": node.label, "data-path": node.path.join(" "), "data-state": status, "data-role": node.role });
    const fill = status === "unvisited" ? "#fff" : node.role === "MAX" ? "#dce6f7" : node.role === "CHANCE" ? "#f3ecd2" : "#f7e1da";
    const stroke = node.role === "MAX" ? "var(--max)" : node.role === "CHANCE" ? "#8a6d00" : "var(--min)";
    let shown = "";
    if (node.leaf) {
      shown = leafText(node);
      const width = leafWidth(shown);
      group.append(el("rect", { x: x - width / 2, y: top - 12, width, height: 24, fill, stroke }));
      group.append(el("text", { x, y: top + 5, "text-anchor": "middle", "font-size": 12 }, shown));
    } else {
      if (node.role === "CHANCE") {  // a chance node: a circle, as the textbooks draw it
        group.append(el("circle", { cx: x, cy: top, r: 14, fill, stroke, "stroke-width": 1.5 }));
      } else {
        const points = node.role === "MAX" ? `${x},${top - 14} ${x - 15},${top + 12} ${x + 15},${top + 12}`
          : `${x - 15},${top - 12} ${x + 15},${top - 12} ${x},${top + 14}`;
        group.append(el("polygon", { points, fill, stroke, "stroke-width": 1.5 }));
      }
      shown = seen && seen.value !== null ? seen.value : "";
      if (shown) group.append(el("text", { x: x + 18, y: top + 4, "font-size": 13, "font-weight": 700 }, shown));
      if (seen && seen.alpha !== null && seen.alpha !== undefined && status !== "pruned") {
        group.append(el("text", { x, y: top + 28, "text-anchor": "middle", "font-size": 10, fill: "#555" },
          `α ${boundText(seen.alpha)} β ${boundText(seen.beta)}`));
      }
    }
    group.dataset.value = shown;
    group.append(el("text", { x: x - 18, y: top - 12, "text-anchor": "end", "font-size": 11, fill: "#333" }, node.label));
    const reason = seen && seen.reason ? `: pruned, ${seen.reason}` : "";
    group.setAttribute("aria-label", `${node.role} ${node.leaf ? "leaf" : "node"} ${node.label}${shown ? ` = ${shown}` : ""}${reason}`);
    if (seen && seen.reason) { group.dataset.reason = seen.reason; group.append(el("title", {}, `pruned: ${seen.reason}`)); }
    svg.append(group);
  }
}

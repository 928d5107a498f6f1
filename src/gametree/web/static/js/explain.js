// The explain page: a tree, a search traced on it, and controls to step through the trace.
// The URL keeps the choice (?source=seed004&algorithm=alphabeta-hard&step=79).

import { games, optionFields, optionValues, post } from "./api.js";
import { drawTree, indexTree, replay } from "./tree.js";

const $ = (id) => document.getElementById(id);
const PRESETS = {
  seed004: { options: { leaves: "10 11 12 9 14 15 13 14 5 2 4 1 3 22 20 21", labels: "current A B C D E F G H I J K L M N" } },
  seed000: { options: { leaves: "10 11 9 11 14 15 13 14 5 2 4 1 3 22 20 21", labels: "A B C D E F G H I J K L M N O" } },
  seed003: { options: { leaves: "3 5 2 9 12 5 23 23" } },
  aima: { tree: { root: "A", children: { A: { a1: "B", a2: "C", a3: "D" }, B: { b1: "B1", b2: "B2", b3: "B3" },
    C: { c1: "C1", c2: "C2", c3: "C3" }, D: { d1: "D1", d2: "D2", d3: "D3" } },
  values: { B1: 3, B2: 12, B3: 8, C1: 2, C2: 4, C3: 6, D1: 14, D2: 5, D3: 2 } } },
  // AIMA's Figure 5.12: a tree with chance nodes (expectiminimax, Star1/Star2).
  aimachance: { options: { preset: "aima-chance" }, chance: true },
};
/** The searches of a tree with chance nodes (alpha-beta and its kin have no chance nodes). */
const CHANCE_ALGORITHMS = ["expectiminimax", "engine-star1", "engine-star2"];
const view = { tree: null, trace: null, step: 0, timer: null, uploaded: null };

function showFields() {
  const source = $("source").value;
  $("leaves-fields").hidden = source !== "leaves";
  $("json-fields").hidden = source !== "json";
  $("game-fields").hidden = source !== "game";
}

/** The tree request of the form: game, options, tree document, moves, depth. */
function source() {
  const choice = $("source").value;
  if (PRESETS[choice]) return { game: "tree", options: PRESETS[choice].options || {}, tree: PRESETS[choice].tree || null };
  if (choice === "leaves") {
    const options = { leaves: $("leaves").value, branching: $("branching").value || "2" };
    if ($("labels").value.trim()) options.labels = $("labels").value;
    return { game: "tree", options };
  }
  if (choice === "json") {
    if (!view.uploaded) throw new Error("choose a JSON tree file first");
    return { game: "tree", options: {}, tree: view.uploaded };
  }
  return { game: $("game").value, options: optionValues($("game-options")), moves: $("moves").value, depth: $("depth").value };
}

function algorithm(name) {
  if (name === "alphabeta-hard") return { algorithm: "alphabeta", fail_hard: true };
  if (name.startsWith("engine-star")) return { algorithm: "engine", chance_pruning: name.slice("engine-".length) };
  return { algorithm: name };
}

/** A chance tree is searched by expectiminimax or the engine's Star1/Star2; a tree without chance
 * by the others: the choice follows the tree. */
function fitAlgorithm() {
  const chance = Boolean((PRESETS[$("source").value] || {}).chance);
  if (chance !== CHANCE_ALGORITHMS.includes($("algorithm").value)) $("algorithm").value = chance ? "expectiminimax" : "alphabeta";
  return chance;
}

function writeUrl() {
  const query = new URLSearchParams({ source: $("source").value, algorithm: $("algorithm").value });
  if ($("source").value === "leaves") {
    query.set("leaves", $("leaves").value); query.set("branching", $("branching").value);
    if ($("labels").value) query.set("labels", $("labels").value);
  }
  if ($("source").value === "game") {
    query.set("game", $("game").value); query.set("moves", $("moves").value); query.set("depth", $("depth").value);
  }
  if (!$("compare-view").hidden) query.set("compare", "1");
  else if (view.trace) query.set("step", String(view.step));
  history.replaceState(null, "", `/explain?${query}`);
}

async function load(kind) {
  const request = source();
  const { depth, ...position } = request;
  const drawn = await post("tree", depth === undefined ? position : { ...position, depth });
  const searchRequest = depth === undefined ? position : { ...position, depth };
  return { tree: indexTree(drawn), searchRequest, kind };
}

function render() {
  const { tree, trace } = view;
  if (!tree || !trace) return;
  const events = trace.events;
  const replayed = replay(tree, events, view.step);
  drawTree($("tree"), tree, replayed);
  $("step").textContent = `step ${view.step} / ${events.length}`;
  $("counts").textContent = ` · nodes ${replayed.counts.nodes} · leaves ${replayed.counts.leaves} · cut-offs ${replayed.counts.prunes}` +
    (view.step === events.length ? ` · value ${trace.value_text}, best move ${trace.best_move}` : "");
  document.body.dataset.step = String(view.step);
  document.body.dataset.steps = String(events.length);
  const log = $("log");
  log.replaceChildren();
  let currentLine = null;
  trace.log.forEach((line, index) => {
    if (line === null) return;
    const row = document.createElement("div");
    row.textContent = line;
    if (index >= view.step) row.className = "later";
    else currentLine = row;
    log.append(row);
  });
  if (currentLine) {
    currentLine.className = "current";
    // Scroll the log box only (scrollIntoView would scroll the page away from the tree).
    log.scrollTop = Math.max(0, currentLine.offsetTop - log.offsetTop - log.clientHeight / 2);
  }
  const pruned = $("pruned");
  pruned.replaceChildren(...replayed.pruned.map((entry) => {
    const item = document.createElement("li");
    item.textContent = `${entry.label}: ${entry.reason}`;
    return item;
  }));
  writeUrl();
}

function go(step) {
  if (!view.trace) return;
  view.step = Math.max(0, Math.min(view.trace.events.length, step));
  render();
}

function pause() {
  clearInterval(view.timer);
  view.timer = null;
  $("play").textContent = "▶ Play";
}

function playPause() {
  if (view.timer) { pause(); return; }
  if (view.trace && view.step >= view.trace.events.length) view.step = 0;
  $("play").textContent = "‖ Pause";  // (⏸ is missing from common fonts)
  view.timer = setInterval(() => {
    if (!view.trace || view.step >= view.trace.events.length) { pause(); return; }
    go(view.step + 1);
  }, 1000 / Number($("speed").value));
}

async function show(step = 0) {
  pause();
  $("error").textContent = "";
  $("compare-view").hidden = true;
  $("single").hidden = false;
  try {
    fitAlgorithm();
    const loaded = await load();
    const trace = await post("trace", { ...loaded.searchRequest, ...algorithm($("algorithm").value) });
    view.tree = loaded.tree; view.trace = trace;
    view.step = Math.min(step, trace.events.length);
    render();
  } catch (error) { $("error").textContent = error.message; }
}

async function compare() {
  pause();
  $("error").textContent = "";
  try {
    const chance = fitAlgorithm();
    const loaded = await load();
    // A chance tree: expectiminimax against the engine's Star2 (or Star1, if chosen).
    const plain = chance ? "expectiminimax" : "minimax";
    const chosen = chance ? ($("algorithm").value === "engine-star1" ? "engine-star1" : "engine-star2")
      : $("algorithm").value.startsWith("alphabeta") ? $("algorithm").value : "alphabeta";
    const [left, right] = await Promise.all([
      post("trace", { ...loaded.searchRequest, algorithm: plain }),
      post("trace", { ...loaded.searchRequest, ...algorithm(chosen) }),
    ]);
    $("single").hidden = true;
    $("compare-view").hidden = false;
    const titles = { alphabeta: "alpha-beta (fail-soft)", "alphabeta-hard": "alpha-beta (fail-hard)",
      "engine-star1": "the engine, Star1", "engine-star2": "the engine, Star2" };
    const sides = [["left", left, plain], ["right", right, titles[chosen]]];
    const leaves = [];
    for (const [side, trace, title] of sides) {
      const replayed = replay(loaded.tree, trace.events, trace.events.length);
      drawTree($(side), loaded.tree, replayed);
      $(`${side}-title`).textContent = title;
      $(`${side}-counts`).textContent = `value ${trace.value_text}, best move ${trace.best_move}: ` +
        `${replayed.counts.nodes} nodes, ${replayed.counts.leaves} leaves evaluated`;
      leaves.push(replayed.counts.leaves);
    }
    $("saved").textContent = `${chance ? titles[chosen] : "Alpha-beta"} evaluated ${leaves[1]} leaves instead of ${leaves[0]}: ${leaves[0] - leaves[1]} saved, same value.`;
    view.trace = null;
    writeUrl();
  } catch (error) { $("error").textContent = error.message; }
}

function keyboard(event) {
  if (event.target.matches("input, select, textarea") || !view.trace) return;
  const keys = { ArrowRight: () => go(view.step + 1), ArrowLeft: () => go(view.step - 1),
    Home: () => go(0), End: () => go(view.trace.events.length), " ": playPause };
  if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
}

async function start() {
  const query = new URLSearchParams(location.search);
  const gameSelect = $("game");
  const specs = await games();
  for (const spec of specs.filter((item) => item.name !== "tree")) gameSelect.append(new Option(spec.name, spec.name));
  const fillOptions = () => optionFields($("game-options"), specs.find((item) => item.name === gameSelect.value), {});
  gameSelect.value = query.get("game") || "tictactoe";
  fillOptions();
  gameSelect.addEventListener("change", fillOptions);
  if (query.get("source")) $("source").value = query.get("source");
  if (query.get("algorithm")) $("algorithm").value = query.get("algorithm");
  for (const name of ["leaves", "branching", "labels", "moves", "depth"]) if (query.get(name)) $(name).value = query.get(name);
  $("source").addEventListener("change", showFields);
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    try { view.uploaded = file ? JSON.parse(await file.text()) : null; $("error").textContent = ""; }
    catch (error) { $("error").textContent = `not valid JSON: ${error.message}`; }
  });
  $("show").addEventListener("click", () => show());
  $("compare").addEventListener("click", () => compare());
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(view.step - 1));
  $("forward").addEventListener("click", () => go(view.step + 1));
  $("last").addEventListener("click", () => go(view.trace ? view.trace.events.length : 0));
  $("play").addEventListener("click", playPause);
  $("speed").addEventListener("change", () => { if (view.timer) { pause(); playPause(); } });
  document.addEventListener("keydown", keyboard);
  showFields();
  if ($("source").value === "json") return;
  if (query.get("compare") === "1") await compare();
  else await show(Number(query.get("step") || 0));
}

start();

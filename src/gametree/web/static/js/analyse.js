// The analyse page: a position (moves typed, options such as a board text, or clicks) ->
// its value, the best move, every move's exact value, the principal variation and the cost.

import { games, joinMoves, optionFields, optionValues, post, splitMoves } from "./api.js";
import { colour, drawBoard, drawMoveButtons, ink } from "./board.js";

const $ = (id) => document.getElementById(id);
let specs = [];
let separator = " ";  // what joins the game's move texts: each position says it

function request() {
  const body = { game: $("game").value, options: optionValues($("options")), moves: $("moves").value.trim() };
  return body;
}

function writeUrl() {
  const query = new URLSearchParams({ game: $("game").value });
  if ($("moves").value.trim()) query.set("moves", $("moves").value.trim());
  for (const [key, value] of Object.entries(optionValues($("options")))) query.set(key, value);
  history.replaceState(null, "", `/analyse?${query}`);
}

function clickMove(text) {
  $("moves").value = joinMoves(separator, [...splitMoves(separator, $("moves").value), text]);
  analyse();
}

async function analyse() {
  $("error").textContent = "";
  writeUrl();
  try {
    const position = await post("position", request());
    separator = position.separator;
    drawBoard($("board"), position, { onMove: clickMove });
    drawMoveButtons($("moves-list"), position, { onMove: clickMove });
    const search = { ...request(), algorithm: $("algorithm").value };
    if ($("depth").value) search.depth = $("depth").value;
    if ($("time").value) search.time = $("time").value;
    $("value").textContent = position.over ? `Game over: ${position.result}.` : "Searching…";
    if (position.over) { $("table").replaceChildren(); return; }
    const result = await post("analyze", search);
    const values = { result, byMove: new Map(result.moves.map((entry) => [entry.move, entry])) };
    drawBoard($("board"), position, { values, onMove: clickMove, hint: result.best_move });
    drawMoveButtons($("moves-list"), position, { values, onMove: clickMove, hint: result.best_move });
    $("value").textContent = `${position.to_move_name} to move: ${result.value_text}` + (result.outcome ? "" : " (not proven)");
    $("best").textContent = `best move: ${result.best_move}`;
    $("pv").textContent = `principal variation: ${result.pv.join(" ")}`;
    $("extra").textContent = "score" in result ? `Pons' score: ${result.score ?? "not proven"}` : "";
    const rows = result.moves.map((entry) => {
      // The server's words for the value (value_text, value_kind): the page derives none.
      const row = document.createElement("tr");
      row.dataset.move = entry.move;
      const name = document.createElement("td"); name.textContent = entry.move;
      const value = document.createElement("td"); value.textContent = entry.value_text ?? "";
      if (entry.value_kind) {
        value.dataset.kind = entry.value_kind;
        value.style.background = colour(entry.value_kind); value.style.color = ink(entry.value_kind);
      }
      const raw = document.createElement("td"); raw.textContent = String(entry.value); raw.className = "muted";
      row.append(name, value, raw);
      return row;
    });
    const head = document.createElement("tr");
    head.innerHTML = "<th>move</th><th>value</th><th>number</th>";
    $("table").replaceChildren(head, ...rows);
    const stopped = result.stats.stopped_by ? ` (stopped by the ${result.stats.stopped_by} limit)` : "";
    $("cost").textContent = `${result.algorithm}, ${result.tier} tier: ${result.stats.nodes.toLocaleString()} nodes, ` +
      `depth ${result.stats.depth_reached}, ${result.stats.seconds.toFixed(3)} s${stopped}`;
  } catch (error) { $("error").textContent = error.message; $("value").textContent = ""; }
}

async function start() {
  specs = await games();
  const query = new URLSearchParams(location.search);
  for (const spec of specs) $("game").append(new Option(spec.name, spec.name));
  $("game").value = query.get("game") || "connect4";
  const options = {};
  for (const [key, value] of query) if (!["game", "moves"].includes(key)) options[key] = value;
  const fill = (values) => optionFields($("options"), specs.find((spec) => spec.name === $("game").value), values);
  fill(options);
  $("moves").value = query.get("moves") || (query.get("game") ? "" : "4455");
  $("game").addEventListener("change", () => { fill({}); $("moves").value = ""; analyse(); });
  $("analyse").addEventListener("click", analyse);
  $("moves").addEventListener("keydown", (event) => { if (event.key === "Enter") analyse(); });
  $("undo").addEventListener("click", () => {
    $("moves").value = joinMoves(separator, splitMoves(separator, $("moves").value).slice(0, -1));
    analyse();
  });
  await analyse();
}

start();

// The analyse page: a position (moves typed, options such as a board text, or clicks) ->
// its value, the best move, every move's exact value, the principal variation and the cost.

import { games, joinMoves, optionFields, optionValues, pageWords, post, splitMoves } from "./api.js";
import { colour, drawBoard, drawMoveButtons, ink } from "./board.js";
import { describeLine, drawLegend, entryWords } from "./values.js";

const $ = (id) => document.getElementById(id);
let specs = [];
let separator = " ";  // what joins the game's move texts: each position says it
let generation = 0;  // each analysis supersedes the previous one: a late answer is dropped

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

/** Nothing of the previous analysis left on screen (a new one starts, or an error). */
function clearResult() {
  for (const id of ["value", "best", "pv", "extra", "table", "cost", "values-words"]) $(id).replaceChildren();
}

/** An error: said, with no board or values of an earlier position left under it. */
function fail(error) {
  clearResult();
  $("board").replaceChildren();
  $("moves-list").replaceChildren();
  $("error").textContent = error.message;
}

function showNotation() {
  const spec = specs.find((item) => item.name === $("game").value);
  $("notation").textContent = spec ? `How ${spec.name}'s moves are written: ${pageWords(spec.notation)}.` : "";
}

async function analyse() {
  const current = ++generation;
  $("error").textContent = "";
  clearResult();
  showNotation();
  writeUrl();
  try {
    const position = await post("position", request());
    if (current !== generation) return;
    separator = position.separator;
    drawBoard($("board"), position, { onMove: clickMove });
    drawMoveButtons($("moves-list"), position, { onMove: clickMove });
    const search = { ...request(), algorithm: $("algorithm").value };
    if ($("depth").value) search.depth = $("depth").value;
    if ($("time").value) search.time = $("time").value;
    $("value").textContent = position.over ? `Game over: ${position.result}.` : "Searching…";
    if (position.over) { $("table").replaceChildren(); return; }
    const result = await post("analyze", search);
    if (current !== generation) return;
    const values = { result, byMove: new Map(result.moves.map((entry) => [entry.move, entry])) };
    drawBoard($("board"), position, { values, onMove: clickMove, hint: result.best_move });
    drawMoveButtons($("moves-list"), position, { values, onMove: clickMove, hint: result.best_move });
    $("value").textContent = `${position.to_move_name} to move: ${result.value_text}` + (result.source === "book" ? " (exact, opening book)" : result.outcome ? "" : " (not proven)");
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
      const raw = document.createElement("td"); raw.textContent = entryWords(entry, result); raw.className = "muted";
      row.append(name, value, raw);
      return row;
    });
    const head = document.createElement("tr");
    head.innerHTML = "<th>move</th><th>value</th><th>what it is</th>";
    $("table").replaceChildren(head, ...rows);
    const stopped = result.stats.stopped_by ? ` (stopped by the ${result.stats.stopped_by} limit)` : "";
    $("cost").textContent = `${result.algorithm}, ${result.tier} tier: ${result.stats.nodes.toLocaleString()} nodes, ` +
      `depth ${result.stats.depth_reached}, ${result.stats.seconds.toFixed(3)} s${stopped}`;
    $("values-words").textContent = describeLine(result);
  } catch (error) { if (current === generation) fail(error); }
}

async function start() {
  specs = await games();
  drawLegend($("legend"));
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

// The analyse page: a position (moves typed, options such as a board text, or clicks) ->
// its value, the best move, every move's exact value, the principal variation and the cost.
// The moves typed are a line to step through (the move list, ← → Home End): the position
// analysed is the one after the moves up to the step shown (?ply= in the URL).

import { games, joinMoves, optionFields, optionValues, pageWords, post, splitMoves } from "./api.js";
import { colour, drawBoard, drawMoveButtons, ink } from "./board.js";
import { drawBar, drawMoveList } from "./chart.js";
import { describeLine, drawLegend, entryWords, largestEstimate, towardFirst, valueEntry } from "./values.js";

const $ = (id) => document.getElementById(id);
let specs = [];
let generation = 0;  // each analysis supersedes the previous one: a late answer is dropped
// line: the moves typed, as move texts; ply: how many of them the position shown has played;
// separator: what joins the game's move texts (learnt from its starting position).
const state = { line: [], ply: 0, separator: null, flipped: false, players: ["first", "second"], position: null };

const options = () => optionValues($("options"));
const request = () => ({ game: $("game").value, options: options(), moves: joinMoves(state.separator, state.line.slice(0, state.ply)) });

function writeUrl() {
  const query = new URLSearchParams({ game: $("game").value });
  if (state.line.length) query.set("moves", joinMoves(state.separator, state.line));
  for (const [key, value] of Object.entries(options())) query.set(key, value);
  if (state.ply < state.line.length) query.set("ply", String(state.ply));
  if (state.flipped) query.set("flip", "1");
  history.replaceState(null, "", `/analyse?${query}`);
}

/** The moves field read as a line, with the game's separator (asked for once per game). */
async function readLine() {
  if (state.separator === null) {
    state.separator = (await post("position", { game: $("game").value, options: options(), moves: "" })).separator;
  }
  state.line = splitMoves(state.separator, $("moves").value);
}

function clickMove(text) {
  state.line = [...state.line.slice(0, state.ply), text];
  state.ply = state.line.length;
  $("moves").value = joinMoves(state.separator, state.line);
  analyse();
}

/** Show the position after `ply` moves of the line, and analyse it. */
function go(ply) {
  const to = Math.max(0, Math.min(state.line.length, ply));
  if (to === state.ply) return;
  state.ply = to;
  analyse();
}

function flip() {
  if (!state.position || !state.position.flippable) return;
  state.flipped = !state.flipped;
  analyse();
}

/** The typed moves, read again: the position after all of them. */
async function analyseTyped() {
  try { await readLine(); } catch (error) { fail(error); return; }
  state.ply = state.line.length;
  await analyse();
}

/** Nothing of the previous analysis left on screen (a new one starts, or an error). */
function clearResult() {
  for (const id of ["value", "best", "pv", "extra", "table", "cost", "values-words"]) $(id).replaceChildren();
}

/** An error: said, with no board or values of an earlier position left under it. */
function fail(error) {
  clearResult();
  for (const id of ["board", "moves-list", "history"]) $(id).replaceChildren();
  drawBar($("bar"), null, state.players, state.flipped);
  $("error").textContent = error.message;
}

/** The bar of the position analysed: its value on the first player's scale. */
function showBar(position, result) {
  let point = null;
  if (position.over) {
    const winner = position.winner === null ? null : position.players.indexOf(position.winner);
    point = { y: winner === null ? 0 : winner === 0 ? 1 : -1, kind: "result", text: `game over: ${position.result}` };
  } else if (result) {
    const entry = valueEntry(result);
    point = { y: towardFirst(entry, position.to_move, largestEstimate([entry, ...result.moves])), kind: entry.value_kind,
      text: `${position.to_move_name} to move: ${result.value_text}` };
  }
  drawBar($("bar"), point, position.players, state.flipped);
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
  try {
    if (state.separator === null) await readLine();
    state.ply = Math.max(0, Math.min(state.line.length, state.ply));
    writeUrl();
    drawMoveList($("history"), state.line, state.ply, go);
    document.body.dataset.ply = String(state.ply);
    document.body.dataset.plies = String(state.line.length);
    const position = await post("position", request());
    if (current !== generation) return;
    state.position = position;
    const flipped = state.flipped;
    $("flip").hidden = !position.flippable;
    drawBoard($("board"), position, { onMove: clickMove, flipped });
    drawMoveButtons($("moves-list"), position, { onMove: clickMove });
    showBar(position, null);
    const search = { ...request(), algorithm: $("algorithm").value };
    if ($("depth").value) search.depth = $("depth").value;
    if ($("time").value) search.time = $("time").value;
    $("value").textContent = position.over ? `Game over: ${position.result}.` : "Searching…";
    if (position.over) { $("table").replaceChildren(); return; }
    const result = await post("analyze", search);
    if (current !== generation) return;
    const values = { result, byMove: new Map(result.moves.map((entry) => [entry.move, entry])) };
    drawBoard($("board"), position, { values, onMove: clickMove, hint: result.best_move, flipped });
    showBar(position, result);
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
      const raw = document.createElement("td"); raw.textContent = entryWords(entry); raw.className = "muted";
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
  const given = {};
  for (const [key, value] of query) if (!["game", "moves", "ply", "flip"].includes(key)) given[key] = value;
  const fill = (values) => optionFields($("options"), specs.find((spec) => spec.name === $("game").value), values);
  fill(given);
  $("moves").value = query.get("moves") || (query.get("game") ? "" : "4455");
  state.flipped = query.get("flip") === "1";
  $("game").addEventListener("change", () => {
    fill({}); $("moves").value = ""; state.separator = null; state.flipped = false; analyseTyped();
  });
  $("options").addEventListener("change", () => { state.separator = null; analyseTyped(); });
  $("analyse").addEventListener("click", analyseTyped);
  $("moves").addEventListener("keydown", (event) => { if (event.key === "Enter") analyseTyped(); });
  $("undo").addEventListener("click", () => {
    state.line = state.line.slice(0, Math.max(0, state.ply - 1));
    state.ply = state.line.length;
    $("moves").value = joinMoves(state.separator ?? "", state.line);
    analyse();
  });
  $("flip").addEventListener("click", flip);
  $("go-first").addEventListener("click", () => go(0));
  $("go-back").addEventListener("click", () => go(state.ply - 1));
  $("go-forward").addEventListener("click", () => go(state.ply + 1));
  $("go-last").addEventListener("click", () => go(state.line.length));
  document.addEventListener("keydown", (event) => {
    if (event.target.matches("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { ArrowLeft: () => go(state.ply - 1), ArrowRight: () => go(state.ply + 1), Home: () => go(0),
      End: () => go(state.line.length), f: flip };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });
  try { await readLine(); } catch (error) { fail(error); return; }
  state.ply = query.has("ply") ? Number(query.get("ply")) || 0 : state.line.length;
  await analyse();
}

start();

// The play page: a game against the engine. The position lives in the URL
// (/play/connect4?moves=4455&side=0&strength=perfect), so a game can be shared and reloaded.

import { games, joinMoves, optionFields, optionValues, post, splitMoves } from "./api.js";
import { drawBoard, drawMoveButtons, keysText } from "./board.js";

const TREE = "3 5 2 9 12 5 23 23";
const RESERVED = new Set(["moves", "side", "strength", "level", "values", "flip"]);
const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "tictactoe");
const $ = (id) => document.getElementById(id);
// separator: what joins this game's move texts (each position says it; learnt before the
// moves of the URL are read).
const page = { moves: [], separator: " ", position: null, values: null, hint: null, busy: false, thinking: null,
  analysis: null, loading: false, analysing: false, generation: 0, flipped: false, urlMoves: "" };

function readUrl() {
  const query = new URLSearchParams(location.search);
  page.urlMoves = query.get("moves") || "";
  page.flipped = query.get("flip") === "1";
  $("side").value = query.get("side") === "1" ? "1" : "0";
  $("strength").value = ["depth", "time"].includes(query.get("strength")) ? query.get("strength") : "perfect";
  if (query.get("level")) $("level").value = query.get("level");
  $("show-values").checked = query.get("values") === "1";
  const options = {};
  for (const [key, value] of query) if (!RESERVED.has(key)) options[key] = value;
  // The tree game has no tree by default: start from seed 003's (3 5 2 9 12 5 23 23).
  if (game === "tree" && !["leaves", "nested"].some((name) => options[name])) options.leaves = TREE;
  return options;
}

function writeUrl() {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(optionValues($("options")))) query.set(key, value);
  if (page.moves.length) query.set("moves", movesText());
  if ($("side").value === "1") query.set("side", "1");
  if ($("strength").value !== "perfect") {
    query.set("strength", $("strength").value);
    query.set("level", $("level").value);
  }
  if ($("show-values").checked) query.set("values", "1");
  if (page.flipped) query.set("flip", "1");
  const text = query.toString().replaceAll("%2C", ",").replaceAll("+", "%20");
  history.replaceState(null, "", `${location.pathname}${text ? "?" + text : ""}`);
  $("moves-text").textContent = movesText() || "(none)";
}

const movesText = () => joinMoves(page.separator, page.moves);
const request = () => ({ game, options: optionValues($("options")), moves: movesText() });
const human = () => Number($("side").value);

function say(text) { $("status").textContent = text; }
function fail(error) { $("error").textContent = error.message; }

/** Busy (data-busy="1") while a position loads, the engine thinks or the values are worked out. */
function markBusy() {
  document.body.dataset.busy = page.busy || page.loading || page.analysing ? "1" : "0";
}

function render() {
  const position = page.position;
  markBusy();
  if (!position) return;
  const options = { values: $("show-values").checked ? page.values : null, onMove: play, hint: page.hint,
    flipped: page.flipped };
  drawBoard($("board"), position, options);
  drawMoveButtons($("moves"), position, options);
  const keys = keysText(position);
  $("move-keys").textContent = keys ? `${keys} play the moves with those keys; ` : "";
  $("flip").hidden = $("flip-key").hidden = !position.flippable;
  document.body.dataset.over = position.over ? "1" : "0";
  document.body.dataset.moves = movesText();
  if (position.over) say(`Game over: ${position.result}.`);
  else if (position.chance) say(`${position.to_move_name} rolls the die…`);
  else if (page.busy) say(`The engine (${position.to_move_name}) is thinking…`);
  else if (position.to_move === human()) {
    say(`Your move (${position.to_move_name}).${page.analysing ? " Working out the values…" : ""}`);
  } else say(`${position.to_move_name} to move (the engine).`);
}

/** Draw the position of the moves played, then let the engine move or show the values.
 * Each call supersedes the previous one: an answer for an older position is dropped. */
async function refresh() {
  const generation = ++page.generation;
  if (page.analysis) page.analysis.abort();  // the server stops a search nobody waits for
  writeUrl();
  $("error").textContent = "";
  page.hint = null;
  page.values = null;
  page.analysing = false;
  page.loading = true;
  markBusy();
  let position;
  try { position = await post("position", request()); }
  finally { if (generation === page.generation) page.loading = false; }
  if (generation !== page.generation) return;
  page.position = position;
  page.separator = position.separator;
  render();
  if (position.over) return;
  if (position.chance) { roll(position); await refresh(); return; }
  if (position.to_move !== human()) await engineMove(generation);
  else if ($("show-values").checked) await showValues(generation);
}

/** Chance moves (a die is rolled): the page draws an outcome with its probability and plays it. */
function roll(position) {
  let point = Math.random();
  const outcomes = position.chance_outcomes;
  let chosen = outcomes[outcomes.length - 1];
  for (const outcome of outcomes) {
    point -= outcome.weight;
    if (point < 0) { chosen = outcome; break; }
  }
  page.moves.push(chosen.text);
  $("rolled").textContent = `${position.to_move_name} rolled ${chosen.text} (probability ${chosen.probability}).`;
}

async function showValues(generation) {
  page.analysing = true;
  render();
  page.analysis = new AbortController();
  try {
    const result = await post("analyze", request(), page.analysis.signal);
    if (generation !== page.generation) return;  // the position changed meanwhile
    page.values = { result, byMove: new Map(result.moves.map((entry) => [entry.move, entry])) };
  } catch (error) {
    if (error.name !== "AbortError" && generation === page.generation) fail(error);
  } finally {
    if (generation === page.generation) { page.analysing = false; render(); }
  }
}

function strength() {
  const kind = $("strength").value;
  if (kind === "depth") return { strength: "depth", depth: $("level").value };
  if (kind === "time") return { strength: "time", time: $("level").value };
  return { strength: "perfect" };
}

async function engineMove(generation) {
  page.busy = true;
  render();
  page.thinking = new AbortController();
  try {
    const result = await post("move", { ...request(), ...strength() }, page.thinking.signal);
    if (generation !== page.generation) return;  // taken back, or a new game, meanwhile
    page.busy = false;
    if (result.best_move === null) { render(); return; }
    page.moves.push(result.best_move);
    const stopped = result.stats.stopped_by ? `, stopped by its ${result.stats.stopped_by} limit` : "";
    // In a game with chance on OpenSpiel's scale -1..1 (Pig), the engine's win probability too.
    const chance = result.win_probability === undefined || result.win_probability === null ? ""
      : `, win probability ${Math.round(100 * result.win_probability)}%`;
    $("engine-info").textContent = `The engine played ${result.best_move} (${result.value_text}${chance}; ` +
      `${result.tier} tier, ${result.stats.nodes.toLocaleString()} nodes, ${result.stats.seconds.toFixed(2)} s${stopped}).`;
    await refresh();
  } catch (error) {
    if (generation !== page.generation) return;
    page.busy = false;
    if (error.name !== "AbortError") fail(error);
    render();
  }
}

/** Stop what the page is waiting for (the engine's move, the values): the user acts. */
function interrupt() {
  page.generation += 1;
  if (page.thinking) page.thinking.abort();
  if (page.analysis) page.analysis.abort();
  page.busy = false;
  page.analysing = false;
}

async function play(text) {
  if (page.busy || page.loading || !page.position || page.position.over || page.position.to_move !== human()) return;
  page.moves.push(text);
  try { await refresh(); } catch (error) { page.moves.pop(); fail(error); render(); }
}

async function undo() {
  interrupt();
  if (!page.moves.length) { await refresh().catch(fail); return; }
  page.moves.pop();
  // Back to a position where it is your turn (the engine's reply and the dice are taken back too).
  let position = await post("position", request());
  while (page.moves.length && (position.chance || position.to_move !== human())) {
    page.moves.pop();
    position = await post("position", request());
  }
  await refresh().catch(fail);
}

async function hint() {
  if (!page.position || page.position.over || page.busy) return;
  try {
    const result = await post("solve", request());
    page.hint = result.best_move;
    $("engine-info").textContent = `Hint: ${result.best_move} (${result.value_text}); line: ${result.pv.join(" ")}.`;
    render();
  } catch (error) { fail(error); }
}

async function newGame() {
  interrupt();
  page.moves = [];
  await refresh().catch(fail);
}

async function swap() {
  interrupt();
  $("side").value = $("side").value === "1" ? "0" : "1";
  await refresh().catch(fail);
}

function keyboard(event) {
  if (event.target.matches("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const position = page.position;
  // The keys the position gives its moves come first (Connect Four's 1-7, a tree's children).
  const move = position && position.moves.find((item) => item.key === event.key);
  if (move) { event.preventDefault(); play(move.text); return; }
  const actions = { u: undo, h: hint, n: newGame, s: swap, f: flip,
    v: () => { $("show-values").checked = !$("show-values").checked; refresh().catch(fail); } };
  if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
}

function flip() {
  if (!page.position || !page.position.flippable) return;
  page.flipped = !page.flipped;
  writeUrl();
  render();
}

/** The moves of the URL, read with the game's separator (learnt from its first position). */
async function readUrlMoves() {
  if (!page.urlMoves) return;
  const first = await post("position", { game, options: optionValues($("options")), moves: "" });
  page.separator = first.separator;
  page.moves = splitMoves(page.separator, page.urlMoves);
}

async function start() {
  const spec = (await games()).find((item) => item.name === game);
  if (!spec) { fail(new Error(`unknown game ${game}`)); return; }
  $("title").textContent = `Play ${spec.name}`;
  document.title = `Play ${spec.name} — gametree`;
  optionFields($("options"), spec, readUrl());
  $("options").addEventListener("change", () => { page.moves = []; refresh().catch(fail); });
  for (const id of ["side", "strength", "level", "show-values"]) $(id).addEventListener("change", () => refresh().catch(fail));
  $("undo").addEventListener("click", () => undo());
  $("hint").addEventListener("click", () => hint());
  $("new").addEventListener("click", () => newGame());
  $("swap").addEventListener("click", () => swap());
  $("flip").addEventListener("click", () => flip());
  document.addEventListener("keydown", keyboard);
  try { await readUrlMoves(); } catch (error) { fail(error); return; }
  await refresh().catch(fail);
}

start();

// The play page: a game against the engine, and the game as it went (the move list to step
// through, the value history, the evaluation bar, records to download and upload). The
// position lives in the URL (/play/connect4?moves=4455&side=0&strength=perfect&ply=2), so a
// game can be shared and reloaded.

import { games, joinMoves, optionFields, optionValues, pageWords, post, splitMoves } from "./api.js";
import { drawBoard, drawMoveButtons, keysText } from "./board.js";
import { drawBar, drawChart, drawMoveList } from "./chart.js";
import { download, makeRecord, readRecord } from "./record.js";
import { describeLine, drawLegend, largestEstimate, towardFirst, valueEntry } from "./values.js";

const TREE = "3 5 2 9 12 5 23 23";
const RESERVED = new Set(["moves", "side", "strength", "level", "values", "flip", "ply"]);
const EVALUATE_SECONDS = 1;  // each position's search when the whole game is valued
const STASH = "gametree-record";  // a record uploaded for another game, kept across the page change
const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "tictactoe");
const $ = (id) => document.getElementById(id);
// moves: the game's line; ply: the position shown (moves.length: the game's present).
// values[i], movers[i]: the value of the position after i moves (for its player to move, in
// the server's words) and who moves there. positions: drawn positions by moves text.
// line: bumped whenever the line changes under a running evaluation of the game.
const page = { moves: [], ply: 0, values: [], movers: [], positions: new Map(), separator: " ", position: null,
  analysis: null, analysed: null, hint: null, busy: false, thinking: null, loading: false, analysing: false,
  generation: 0, line: 0, evaluating: false, flipped: false, urlMoves: "", urlPly: null, players: ["first", "second"],
  transcript: null };

const live = () => page.ply === page.moves.length;
const prefix = (ply) => joinMoves(page.separator, page.moves.slice(0, ply));
const movesText = () => prefix(page.moves.length);
const request = (ply = page.ply) => ({ game, options: optionValues($("options")), moves: prefix(ply) });
const human = () => Number($("side").value);

function readUrl() {
  const query = new URLSearchParams(location.search);
  page.urlMoves = query.get("moves") || "";
  page.urlPly = query.has("ply") ? Number(query.get("ply")) : null;
  page.flipped = query.get("flip") === "1";
  $("side").value = query.get("side") === "1" ? "1" : "0";
  $("strength").value = ["depth", "time", "level"].includes(query.get("strength")) ? query.get("strength") : "perfect";
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
  if (!live()) query.set("ply", String(page.ply));
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

function say(text) { $("status").textContent = text; }
function fail(error) { $("error").textContent = error.message; }

/** Busy (data-busy="1") while a position loads, the engine thinks or the values are worked out. */
function markBusy() {
  document.body.dataset.busy = page.busy || page.loading || page.analysing ? "1" : "0";
}

/** The position after `ply` moves of the line (asked once, then kept). */
async function positionAt(ply) {
  const text = prefix(ply);
  if (!page.positions.has(text)) page.positions.set(text, await post("position", request(ply)));
  return page.positions.get(text);
}

/** Keep `result` (a search of the position after `ply` moves) as that position's value. */
function keepValue(ply, result, position) {
  page.values[ply] = valueEntry(result);
  page.movers[ply] = position.to_move;
}

/** The line cut to its first `ply` moves, with the values of the positions kept. */
function cut(ply) {
  page.moves = page.moves.slice(0, ply);
  page.values = page.values.slice(0, ply + 1);
  page.movers = page.movers.slice(0, ply + 1);
  page.ply = Math.min(page.ply, ply);
  page.line += 1;
}

/** The chart's point of each position 0..n: its value on the first player's scale. */
function points() {
  const largest = largestEstimate(page.values);
  const result = [];
  for (let ply = 0; ply <= page.moves.length; ply++) {
    const position = page.positions.get(prefix(ply));
    if (position && position.over) {
      const winner = position.winner === null ? null : position.players.indexOf(position.winner);
      result.push({ y: winner === null ? 0 : winner === 0 ? 1 : -1, proven: true, kind: "result",
        text: `game over: ${position.result}` });
      continue;
    }
    const entry = page.values[ply];
    const mover = page.movers[ply];
    if (!entry || mover === undefined) { result.push(null); continue; }
    const book = entry.source === "book" ? " (opening book)" : "";
    result.push({ y: towardFirst(entry, mover, largest), proven: entry.value_kind !== "estimate", kind: entry.value_kind,
      text: `${page.players[mover]} to move: ${entry.value_text}${book}` });
  }
  return result;
}

function renderGame() {
  drawMoveList($("history"), page.moves, page.ply, go);
  $("ply").textContent = `move ${page.ply} of ${page.moves.length}`;
  const shown = points();
  drawChart($("chart"), shown, page.ply, go, page.players);
  const [first, second] = page.players;
  $("chart-words").textContent = `The value of each position: up, ${first} winning; down, ${second} winning; ` +
    "proven results at the edges, a draw on the dashed line, heuristic estimates in between (at most half way: " +
    "the largest in this game reaches it). The bar beside the board shows the position on the board. Click the chart to go to a move.";
  drawBar($("bar"), shown[page.ply], page.players, page.flipped);
  document.body.dataset.ply = String(page.ply);
  document.body.dataset.plies = String(page.moves.length);
}

function render() {
  const position = page.position;
  markBusy();
  if (!position) return;
  const options = { values: $("show-values").checked ? page.analysed : null, onMove: play, hint: page.hint,
    flipped: page.flipped };
  drawBoard($("board"), position, options);
  drawMoveButtons($("moves"), position, options);
  $("position-text").textContent = position.text;
  // A tree's drawing shows one node and its children: its indented outline shows the rest.
  if (position.kind === "tree") $("position-text").parentElement.open = true;
  const keys = keysText(position);
  $("move-keys").textContent = keys ? `${keys} play the moves with those keys; ` : "";
  $("flip").hidden = $("flip-key").hidden = !position.flippable;
  document.body.dataset.over = position.over ? "1" : "0";
  document.body.dataset.moves = movesText();
  renderGame();
  const looking = ` (after move ${page.ply} of ${page.moves.length}; End: the game's end)`;
  const past = live() ? "" : position.to_move === human() && !position.over
    ? ` (after move ${page.ply} of ${page.moves.length}: a move here replaces the later ones)` : looking;
  if (position.over) say(`Game over: ${position.result}.${live() ? "" : looking}`);
  else if (position.chance) say(`${position.to_move_name} rolls the die…${live() ? "" : looking}`);
  else if (page.busy) say(`The engine (${position.to_move_name}) is thinking…`);
  else if (position.to_move === human()) {
    say(`Your move (${position.to_move_name}).${past}${page.analysing ? " Working out the values…" : ""}`);
  } else say(`${position.to_move_name} to move (the engine).${past}`);
}

/** Draw the position shown, then let the engine move (at the game's present) or show the
 * values. Each call supersedes the previous one: an answer for an older position is dropped. */
async function refresh() {
  const generation = ++page.generation;
  if (page.analysis) page.analysis.abort();  // the server stops a search nobody waits for
  page.ply = Math.max(0, Math.min(page.moves.length, page.ply));
  writeUrl();
  $("error").textContent = "";
  page.hint = null;
  page.analysed = null;
  page.analysing = false;
  page.loading = true;
  markBusy();
  let position;
  try { position = await positionAt(page.ply); }
  finally { if (generation === page.generation) page.loading = false; }
  if (generation !== page.generation) return;
  page.position = position;
  page.players = position.players;
  page.separator = position.separator;
  render();
  if (position.over) return;
  // Chance moves (a die is rolled) at the game's present: the page draws one and plays it.
  if (position.chance) { if (live()) { roll(position); await refresh(); } return; }
  if (live() && position.to_move !== human()) await engineMove(generation);
  else if ($("show-values").checked) await showValues(generation);
}

/** Draw a chance move with its probability (a position's `chance_outcomes`: text, weight,
 * probability) and play it. */
function roll(position) {
  let point = Math.random();
  const outcomes = position.chance_outcomes;
  let chosen = outcomes[outcomes.length - 1];
  for (const outcome of outcomes) {
    point -= outcome.weight;
    if (point < 0) { chosen = outcome; break; }
  }
  page.moves.push(chosen.text);
  page.ply = page.moves.length;
  $("rolled").textContent = `${position.to_move_name} rolled ${chosen.text} (probability ${chosen.probability}).`;
}

async function showValues(generation) {
  page.analysing = true;
  render();
  page.analysis = new AbortController();
  const ply = page.ply, position = page.position;
  try {
    const result = await post("analyze", request(ply), page.analysis.signal);
    if (generation !== page.generation) return;  // the position changed meanwhile
    page.analysed = { result, byMove: new Map(result.moves.map((entry) => [entry.move, entry])) };
    keepValue(ply, result, position);
    $("values-words").textContent = describeLine(result);
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
  // The level field goes only with a level the user picked (without it: the full engine).
  if (kind === "level") return { level: Number($("level").value) };
  return { strength: "perfect" };
}

/** The engine as a record's players name it (docs/records.md): "gametree", or "gametree
 * level N" at a level. */
function engineName() {
  return $("strength").value === "level" ? `gametree level ${$("level").value}` : "gametree";
}

/** Words for an engine's search: its value, what kind of value it is, and its cost. */
function searchWords(result) {
  const stopped = result.stats.stopped_by ? `, stopped by its ${result.stats.stopped_by} limit` : "";
  // In a game with chance on OpenSpiel's scale -1..1 (Pig), the engine's win probability too.
  const chance = result.win_probability === undefined || result.win_probability === null ? ""
    : `, win probability ${Math.round(100 * result.win_probability)}%`;
  return `${result.value_text}${chance}; ${result.tier} tier, ${result.stats.nodes.toLocaleString()} nodes, ` +
    `${result.stats.seconds.toFixed(2)} s${stopped}`;
}

async function engineMove(generation) {
  page.busy = true;
  render();
  page.thinking = new AbortController();
  const position = page.position, ply = page.ply;
  try {
    const result = await post("move", { ...request(ply), ...strength() }, page.thinking.signal);
    if (generation !== page.generation) return;  // taken back, or a new game, meanwhile
    page.busy = false;
    if (result.best_move === null) { render(); return; }
    keepValue(ply, result, position);
    page.moves.push(result.best_move);
    page.ply = page.moves.length;
    if (result.position) page.positions.set(movesText(), result.position);
    // At a level the answer says how the level chose (docs/web.md, Levels): the best move, one
    // sampled among the good ones, or a blunder.
    const chose = result.level && typeof result.level === "object"
      ? ` At level ${result.level.level} it ${{ best: "played its best move", sampled: "picked a good move",
        blunder: "blundered on purpose" }[result.level.how] || result.level.how}` +
        `${result.level.how !== "best" && result.level.best ? `; its best was ${result.level.best}` : ""}.` : "";
    $("engine-info").textContent = `The engine played ${result.best_move} (${searchWords(result)}).${chose}`;
    $("values-words").textContent = describeLine(result);
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
  if (page.busy || page.loading || !page.position || page.position.over || page.position.chance ||
      page.position.to_move !== human()) return;
  if (!live()) cut(page.ply);  // a move in the past starts a new line from there
  page.moves.push(text);
  page.ply = page.moves.length;
  try { await refresh(); } catch (error) { cut(page.moves.length - 1); page.ply = page.moves.length; fail(error); render(); }
}

/** Show the position after `ply` moves (the engine waits while the past is shown). */
function go(ply) {
  const to = Math.max(0, Math.min(page.moves.length, ply));
  if (to === page.ply && page.position) return;
  interrupt();
  page.ply = to;
  refresh().catch(fail);
}

async function undo() {
  interrupt();
  page.ply = page.moves.length;
  if (!page.moves.length) { await refresh().catch(fail); return; }
  cut(page.moves.length - 1);
  // Back to a position where it is your turn (the engine's reply and the dice are taken back too).
  try {
    let position = await positionAt(page.moves.length);
    while (page.moves.length && (position.chance || position.to_move !== human())) {
      cut(page.moves.length - 1);
      position = await positionAt(page.moves.length);
    }
  } catch (error) { fail(error); return; }
  page.ply = page.moves.length;
  await refresh().catch(fail);
}

async function hint() {
  if (!page.position || page.position.over || page.busy) return;
  const ply = page.ply, position = page.position, generation = page.generation;
  try {
    const result = await post("solve", request(ply));
    if (generation !== page.generation) return;
    page.hint = result.best_move;
    keepValue(ply, result, position);
    $("engine-info").textContent = `Hint: ${result.best_move} (${searchWords(result)}); line: ${result.pv.join(" ")}.`;
    $("values-words").textContent = describeLine(result);
    render();
  } catch (error) { fail(error); }
}

async function newGame() {
  interrupt();
  cut(0);
  page.ply = 0;
  await refresh().catch(fail);
}

async function swap() {
  interrupt();
  $("side").value = $("side").value === "1" ? "0" : "1";
  page.ply = page.moves.length;
  await refresh().catch(fail);
}

/** Value every position of the game not valued yet, one search each (up to
 * EVALUATE_SECONDS), the chart filling in as the answers come. */
async function evaluate() {
  if (page.evaluating) return;
  page.evaluating = true;
  const line = page.line;
  $("evaluate").disabled = true;
  try {
    for (let ply = 0; ply <= page.moves.length && line === page.line; ply++) {
      if (page.values[ply]) continue;
      const position = await positionAt(ply);
      if (position.over || line !== page.line) continue;
      $("evaluating").textContent = `valuing the position after ${ply} of ${page.moves.length} moves…`;
      const result = await post("solve", { ...request(ply), time: EVALUATE_SECONDS });
      if (line !== page.line) break;
      keepValue(ply, result, position);
      renderGame();
    }
    $("evaluating").textContent = line === page.line ? "every position valued" : "";
  } catch (error) { fail(error); $("evaluating").textContent = ""; }
  finally { page.evaluating = false; $("evaluate").disabled = false; }
}

/** The game on the page as a record (docs/records.md), or null before its first position. */
function pageRecord() {
  if (!page.position) return null;
  const you = "you", engine = engineName();
  const players = human() === 0 ? [you, engine] : [engine, you];
  const level = $("strength").value === "level" ? Number($("level").value) : null;
  // The options as the server typed them (its position answer), as the terminal's record has them.
  return makeRecord({ game, options: page.position.options ?? optionValues($("options")), players, level, moves: page.moves,
    values: page.values, position: page.positions.get(movesText()) || null });
}

function saveRecord() {
  const record = pageRecord();
  if (record) download(record);
}

/** Download the game in the text format its game declares (PGN), as the server writes it. */
async function saveTranscript() {
  const record = pageRecord();
  if (!record) return;
  try {
    const written = await post("transcript/write", { record });
    download(record, written.text, written.suffix);
  } catch (error) { fail(error); }
}

/** Load a game given in its game's own text format (PGN), pasted or from the file `name`:
 * the server reads it into a record. */
async function loadTranscript(text, name = null) {
  try {
    await loadRecord(readRecord(JSON.stringify(await post("transcript/read", { game, text })), "the game"));
  } catch (error) {
    clearGame();
    fail(name ? new Error(`${name}: ${error.message}`) : error);
  }
}

/** Nothing of the game left on screen (an upload failed: its error is all there is). */
function clearGame() {
  interrupt();
  page.position = null;
  for (const id of ["board", "moves", "history", "chart", "position-text", "values-words", "engine-info", "rolled",
    "moves-text"]) {
    $(id).replaceChildren();
  }
  drawBar($("bar"), null, page.players, page.flipped);
  say("");
  document.body.dataset.moves = "";
  document.body.dataset.plies = "0";
  document.body.dataset.ply = "0";
  document.body.dataset.over = "0";
}

/** Show the game of a record (checked by readRecord): its options, moves and values. */
async function loadRecord(record) {
  if (record.game !== game) {
    // Another game: its page takes it over (the record waits in this tab's session storage).
    const specs = await games();
    if (!specs.some((spec) => spec.name === record.game)) throw new Error(`this server does not offer the game ${record.game}`);
    sessionStorage.setItem(STASH, JSON.stringify(record));
    location.assign(`/play/${encodeURIComponent(record.game)}?loading=record`);
    return;
  }
  interrupt();
  const spec = (await games()).find((item) => item.name === game);
  optionFields($("options"), spec, Object.fromEntries(Object.entries(record.options).map(([key, value]) => [key, String(value)])));
  if (record.level !== null) { $("strength").value = "level"; $("level").value = String(record.level); }
  levelField();
  // The person plays the side the record calls "you" (as the terminal's --load).
  if (record.players.filter((name) => name === "you").length === 1) $("side").value = String(record.players.indexOf("you"));
  page.positions.clear();
  page.line += 1;
  const first = await post("position", { game, options: optionValues($("options")), moves: "" });
  page.separator = first.separator;
  page.moves = [...record.moves];
  page.values = [...record.values];
  page.movers = [];
  page.ply = page.moves.length;
  // Every position of the game, asked once: they check its moves and say who moved where.
  for (let ply = 0; ply <= page.moves.length; ply++) {
    try { page.movers[ply] = (await positionAt(ply)).to_move; }
    catch (error) { throw new Error(`the record's move ${ply} (${page.moves[ply - 1]}) cannot be played here: ${error.message}`); }
  }
  await refresh();
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  const transcript = page.transcript;
  if (transcript && file.name.toLowerCase().endsWith(transcript.suffix)) {
    try { await loadTranscript(await file.text(), file.name); } finally { $("upload").value = ""; }
    return;
  }
  try {
    await loadRecord(readRecord(await file.text(), file.name));
  } catch (error) {
    clearGame();
    fail(error);
  } finally { $("upload").value = ""; }
}

function keyboard(event) {
  if (event.target.matches("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const position = page.position;
  // The keys the position gives its moves come first (Connect Four's 1-7, a tree's children).
  const move = position && position.moves.find((item) => item.key === event.key);
  if (move) { event.preventDefault(); play(move.text); return; }
  const actions = { u: undo, h: hint, n: newGame, s: swap, f: flip,
    v: () => { $("show-values").checked = !$("show-values").checked; refresh().catch(fail); },
    ArrowLeft: () => go(page.ply - 1), ArrowRight: () => go(page.ply + 1),
    Home: () => go(0), End: () => go(page.moves.length) };
  if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
}

function flip() {
  if (!page.position || !page.position.flippable) return;
  page.flipped = !page.flipped;
  writeUrl();
  render();
}

/** The level field's meaning follows the engine's strength. */
function levelField() {
  const kind = $("strength").value;
  const input = $("level");
  $("level-name").textContent = { depth: "plies", time: "seconds", level: "level" }[kind] || "level";
  input.disabled = kind === "perfect";
  if (kind === "level") { input.min = "1"; input.max = "10"; input.step = "1"; }
  else { input.min = "0"; input.removeAttribute("max"); input.step = "any"; }
}

/** The moves of the URL, read with the game's separator (learnt from its first position). */
async function readUrlMoves() {
  if (!page.urlMoves) return;
  const first = await post("position", { game, options: optionValues($("options")), moves: "" });
  page.separator = first.separator;
  page.moves = splitMoves(page.separator, page.urlMoves);
  page.ply = page.urlPly === null || Number.isNaN(page.urlPly) ? page.moves.length : page.urlPly;
}

async function start() {
  const spec = (await games()).find((item) => item.name === game);
  if (!spec) { fail(new Error(`unknown game ${game}`)); return; }
  $("title").textContent = `Play ${spec.name}`;
  document.title = `Play ${spec.name} — gametree`;
  $("notation").textContent = `How moves are written: ${pageWords(spec.notation)}. The moves played are listed ` +
    "in the Game panel, joined as the URL's moves write them.";
  drawLegend($("legend"));
  // A game that declares a text format of its own (chess's PGN) downloads and loads it too.
  page.transcript = spec.transcript;
  if (spec.transcript) {
    $("download-transcript").textContent = spec.transcript.name;
    $("download-transcript").hidden = false;
    $("upload").accept += `,${spec.transcript.suffix}`;
    $("transcript-text").placeholder = `or paste ${spec.transcript.name}`;
    $("paste-transcript").hidden = false;
  }
  optionFields($("options"), spec, readUrl());
  levelField();
  $("options").addEventListener("change", () => { interrupt(); cut(0); page.positions.clear(); refresh().catch(fail); });
  $("strength").addEventListener("change", levelField);
  for (const id of ["side", "strength", "level", "show-values"]) $(id).addEventListener("change", () => refresh().catch(fail));
  $("undo").addEventListener("click", () => undo());
  $("hint").addEventListener("click", () => hint());
  $("new").addEventListener("click", () => newGame());
  $("swap").addEventListener("click", () => swap());
  $("flip").addEventListener("click", () => flip());
  $("go-first").addEventListener("click", () => go(0));
  $("go-back").addEventListener("click", () => go(page.ply - 1));
  $("go-forward").addEventListener("click", () => go(page.ply + 1));
  $("go-last").addEventListener("click", () => go(page.moves.length));
  $("evaluate").addEventListener("click", () => evaluate());
  $("download").addEventListener("click", saveRecord);
  $("download-transcript").addEventListener("click", () => saveTranscript());
  $("load-transcript").addEventListener("click", () => loadTranscript($("transcript-text").value));
  $("upload").addEventListener("change", () => upload());
  document.addEventListener("keydown", keyboard);
  const stashed = sessionStorage.getItem(STASH);
  if (stashed) {
    sessionStorage.removeItem(STASH);
    try { await loadRecord(readRecord(stashed, "the record")); } catch (error) { clearGame(); fail(error); }
    return;
  }
  try { await readUrlMoves(); } catch (error) { fail(error); return; }
  await refresh().catch(fail);
}

start();

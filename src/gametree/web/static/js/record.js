// Game records (docs/records.md): a game as JSON with exactly the keys format, version, game,
// options, players, level, moves, values, result and date. Written for download, read and
// checked on upload (every fault named, so a bad file gets a clear error).

export const FORMAT = "gametree-record";
export const VERSION = 1;
const KEYS = ["format", "version", "game", "options", "players", "level", "moves", "values", "result", "date"];
const VALUE_KEYS = ["value", "value_text", "value_kind", "depth"];

/** A record of a game: `values[i]` is the value of the position before move i (or null);
 * `position` the last one (its result, if the game is over). */
export function makeRecord({ game, options, players, level, moves, values, position }) {
  const over = position && position.over;
  return {
    format: FORMAT,
    version: VERSION,
    game,
    options,
    players,
    level: level ?? null,
    moves: [...moves],
    values: moves.map((_move, index) => {
      const entry = values[index];
      return entry ? Object.fromEntries(VALUE_KEYS.map((key) => [key, entry[key] ?? null])) : null;
    }),
    result: over ? { winner: position.winner === null ? null : position.players.indexOf(position.winner),
      text: position.result } : null,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),  // ISO 8601 in UTC, to the second
  };
}

/** Save `record` as a file (game-YYYYMMDD-HHMMSS.json), or as `text` in the game's own
 * format named with `suffix` (the server writes that text: /api/transcript/write). */
export function download(record, text = JSON.stringify(record, null, 1), suffix = ".json") {
  const blob = new Blob([text], { type: suffix === ".json" ? "application/json" : "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  const stamp = record.date.replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  link.download = `${record.game}-${stamp}${suffix}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** The record in `text` (a file's contents), checked; throws an Error naming what is wrong. */
export function readRecord(text, name = "the file") {
  let record;
  try { record = JSON.parse(text); } catch (error) { throw new Error(`${name} is not JSON: ${error.message}`); }
  const fault = (what) => new Error(`${name} is not a game record: ${what}`);
  if (!isObject(record)) throw fault("it is not a JSON object");
  if (record.format !== FORMAT) throw fault(`"format" is ${JSON.stringify(record.format)}, not "${FORMAT}"`);
  if (record.version !== VERSION) throw fault(`version ${JSON.stringify(record.version)} (this page reads version ${VERSION})`);
  const missing = KEYS.filter((key) => !(key in record));
  if (missing.length) throw fault(`it has no ${missing.map((key) => `"${key}"`).join(", ")}`);
  const extra = Object.keys(record).filter((key) => !KEYS.includes(key));
  if (extra.length) throw fault(`unknown ${extra.map((key) => `"${key}"`).join(", ")}`);
  if (typeof record.game !== "string" || !record.game) throw fault('"game" is not a game name');
  if (!isObject(record.options)) throw fault('"options" is not an object');
  if (!Array.isArray(record.players) || record.players.length !== 2 || !record.players.every((item) => typeof item === "string")) {
    throw fault('"players" is not two names');
  }
  if (record.level !== null && !(Number.isInteger(record.level) && record.level >= 1 && record.level <= 10)) {
    throw fault('"level" is neither null nor a whole number from 1 to 10');
  }
  if (!Array.isArray(record.moves) || !record.moves.every((move) => typeof move === "string" && move.trim())) {
    throw fault('"moves" is not a list of move texts');
  }
  if (!Array.isArray(record.values) || record.values.length !== record.moves.length) {
    throw fault(`"values" must have one entry per move (${record.moves.length})`);
  }
  record.values.forEach((entry, index) => {
    if (entry === null) return;
    if (!isObject(entry) || !VALUE_KEYS.every((key) => key in entry) || typeof entry.value !== "number" ||
        typeof entry.value_text !== "string" || typeof entry.value_kind !== "string") {
      throw fault(`value ${index + 1} is neither null nor {value, value_text, value_kind, depth}`);
    }
  });
  if (record.result !== null && !(isObject(record.result) && [0, 1, null].includes(record.result.winner) &&
      typeof record.result.text === "string")) {
    throw fault('"result" is neither null nor {winner: 0, 1 or null, text}');
  }
  if (typeof record.date !== "string" || Number.isNaN(Date.parse(record.date))) throw fault('"date" is not an ISO 8601 date');
  return record;
}

// What the values on a page are, in words (exact, from the opening book, or a heuristic at a
// depth and why), the colours' legend, and a value put on one scale seen from the first
// player for the chart and the evaluation bar. The words of each value are the server's
// (value_text, value_kind, reading): nothing here derives a value or its words.

import { colour } from "./board.js";

const PROVEN = new Set(["win", "loss", "draw"]);

/** A search answer's value as a game record keeps it: the four fields of the JSON API's root
 * (`depth`: the plies searched, null for a search to the end). `source` (the opening book,
 * when the server says so) is kept for the page, not for the record. */
export function valueEntry(result) {
  const entry = { value: result.value, value_text: result.value_text, value_kind: result.value_kind,
    depth: result.depth ?? null };
  if (result.source) entry.source = result.source;
  return entry;
}

/** What kind of values a search answer shows, in the server's words (its `reading`: words,
 * cause, why: "exact", "exact, from the opening book", "heuristic, depth N" and why). */
export function describe(result) {
  return result.reading;
}

/** What one move's value is (an entry of a search answer's `moves`), in the server's words:
 * "exact", "heuristic, depth N", or "a bound" (alpha-beta's, see docs/json.md). */
export function entryWords(entry) {
  return entry.reading;
}

/** describe() as one line: "Values: heuristic, depth 12 — the search reached ...". */
export function describeLine(result) {
  const { words, why } = describe(result);
  return `Values: ${words} — ${why}.`;
}

/** One value entry of the player to move, on a scale from -1 (the second player wins) to 1
 * (the first player wins): proven results at the ends, a draw in the middle, and estimates or
 * scores inside, v / (|v| + largest) of the way to the end (`largest`: the largest magnitude
 * seen in the game), so that no estimate, however large, looks like a proven result: the
 * largest reaches half way. */
export function towardFirst(entry, mover, largest) {
  if (!entry) return null;
  let y;
  if (entry.value_kind === "win") y = 1;
  else if (entry.value_kind === "loss") y = -1;
  else if (entry.value_kind === "draw") y = 0;
  else y = largest > 0 ? entry.value / (Math.abs(entry.value) + largest) : 0;
  return mover === 1 ? -y : y;
}

/** The largest magnitude of the estimates and scores among `entries` (the chart's scale). */
export function largestEstimate(entries) {
  let largest = 0;
  for (const entry of entries) {
    if (entry && !PROVEN.has(entry.value_kind) && Number.isFinite(entry.value)) largest = Math.max(largest, Math.abs(entry.value));
  }
  return largest;
}

/** The colours' legend: one swatch per kind of value, in `container`. */
export function drawLegend(container) {
  container.replaceChildren();
  container.classList.add("value-legend");
  const kinds = [["win", "win for the player to move"], ["draw", "draw"], ["loss", "loss for the player to move"],
    ["estimate", "estimate (heuristic: not proven)"]];
  for (const [kind, words] of kinds) {
    const item = document.createElement("span");
    item.dataset.kind = kind;
    const swatch = document.createElement("i");
    swatch.style.background = colour(kind);
    item.append(swatch, ` ${words}`);
    container.append(item);
  }
}

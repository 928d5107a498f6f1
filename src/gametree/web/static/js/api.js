// The JSON API, the games' options as form fields, and moves texts: shared by the pages.

const WAITS = 40;  // how many times a request the server asks to repeat later is repeated

/** Say `text` in the page's notice line (the server is busy or preparing a game), or clear it. */
function notice(text) {
  const line = document.getElementById("notice");
  if (line) line.textContent = text;
}

/** Why the server said "not yet", in words: the kernel it prepares and how far it is (a
 * 503's `preparing`: kernel, state, elapsed, expected, ahead), or its own message. */
function waitWords(status, data) {
  const prep = data.preparing;
  if (prep && prep.kernel) {
    const about = prep.expected ? ` of about ${Math.round(prep.expected)} s` : "";
    const ahead = prep.ahead ? `, ${prep.ahead} to compile before it` : "";
    return `Preparing ${prep.kernel} on the server, once (${prep.state}, ${Math.round(prep.elapsed || 0)} s${about}${ahead})`;
  }
  const said = (data.detail || data.message || "").replace(/[;,.]? *try again[^;]*$/i, "");
  return said || (status === 202 ? "The server is preparing this game" : "The server is busy");
}

/** Resolve after `seconds`, or reject as aborted when `signal` aborts first. */
function pause(seconds, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, seconds * 1000);
    if (signal) {
      signal.addEventListener("abort", () => { clearTimeout(timer); reject(new DOMException("stopped", "AbortError")); },
        { once: true });
    }
  });
}

/** POST a JSON body to an API path; resolves with the answer or throws Error(detail).
 * An answer that says "not yet" — 202 (the server is preparing the game: compiling its
 * engine) or 503 with Retry-After (every worker busy) — is said in the page's notice line
 * and the request repeated after the time the server gives (1 to 10 s). */
export async function post(path, body, signal) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`/api/${path}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal,
    });
    const data = await response.json().catch(() => ({ detail: response.statusText }));
    const later = response.status === 202 || (response.status === 503 && response.headers.has("Retry-After"));
    if (later && attempt < WAITS) {
      const seconds = Math.min(10, Math.max(1, Number(response.headers.get("Retry-After")) || 2));
      notice(`${waitWords(response.status, data)}: trying again in ${seconds} s…`);
      try { await pause(seconds, signal); } catch (error) { notice(""); throw error; }
      continue;
    }
    notice("");
    if (!response.ok || response.status === 202) {
      const error = new Error(data.detail || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }
}

let gamesList = null;

/** Every game with its options (as `gametree games --json`). */
export async function games() {
  if (!gamesList) {
    const response = await fetch("/api/games");
    gamesList = await response.json();
  }
  return gamesList;
}

/** Put one labelled field per game option into `container`; `values` are initial texts. */
export function optionFields(container, spec, values = {}) {
  container.replaceChildren();
  for (const option of spec.options) {
    if (option.reads_file) continue;  // the server reads no files
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = option.name;
    input.dataset.option = option.name;
    if (option.flag) {
      input.type = "checkbox";
      input.checked = values[option.name] === "true" || values[option.name] === true;
      label.append(input, ` ${option.name}`);
    } else {
      input.type = "text";
      input.placeholder = option.default ?? "";
      input.value = values[option.name] ?? "";
      label.append(`${option.name} `, input);
    }
    label.title = pageWords(option.help);
    container.append(label);
  }
}

/** The options the fields hold (empty fields left out: the game's defaults). */
export function optionValues(container) {
  const values = {};
  for (const input of container.querySelectorAll("input[data-option]")) {
    if (input.type === "checkbox") { if (input.checked) values[input.dataset.option] = true; }
    else if (input.value.trim()) values[input.dataset.option] = input.value.trim();
  }
  return values;
}

/** Move texts as one moves text, joined by the game's separator (a position's `separator`:
 * " " for most games, "" for Connect Four's 4455). */
export function joinMoves(separator, moves) {
  return moves.join(separator);
}

/** A moves text as a list of move texts: the inverse of joinMoves for the texts the pages write
 * (with no separator, each character that is not a space or a comma is a move). */
export function splitMoves(separator, text) {
  const trimmed = (text || "").trim();
  if (!trimmed) return [];
  if (separator === "") return [...trimmed].filter((char) => !/[\s,;]/.test(char));
  if (!separator.trim()) return trimmed.split(/[\s;]+/);
  return trimmed.split(separator).map((part) => part.trim()).filter(Boolean);
}

/** A game's summary or an option's help as a page says it: the command line's flags
 * (`--misere`) become the option's name as the form shows it (`misere`). */
export function pageWords(text) {
  return (text || "").replace(/(^|[\s(])--([a-z][a-z0-9-]*)/g, (_all, before, name) => `${before}${name.replaceAll("-", "_")}`);
}

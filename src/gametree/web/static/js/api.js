// The JSON API, the games' options as form fields, and moves texts: shared by the pages.

/** POST a JSON body to an API path; resolves with the answer or throws Error(detail). */
export async function post(path, body, signal) {
  const response = await fetch(`/api/${path}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal,
  });
  const data = await response.json().catch(() => ({ detail: response.statusText }));
  if (!response.ok) {
    const error = new Error(data.detail || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
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

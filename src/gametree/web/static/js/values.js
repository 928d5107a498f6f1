// Values in words and colours: win / draw / loss, shaded by distance (nearer: stronger).

const WIN = 1000000;
const PROVEN = 500000;

/** {kind: "win"|"draw"|"loss"|"estimate", plies, text} for a value seen from the mover. */
export function describe(entry, result) {
  const value = entry.value;
  const bound = entry.bound === "upper" ? "≤ " : entry.bound === "lower" ? "≥ " : "";
  if (result && result.weak) {
    const word = value > 0 ? "win" : value < 0 ? "loss" : "draw";
    return { kind: word, plies: null, text: bound + word };
  }
  if (Math.abs(value) >= PROVEN && result && result.distance_scoring) {
    const plies = WIN - Math.abs(value);
    const kind = value > 0 ? "win" : "loss";
    return { kind, plies, text: `${bound}${kind} in ${plies}` };
  }
  const proven = result && (result.outcome !== null || result.stats.evaluations === 0);
  if (value === 0 && proven) return { kind: "draw", plies: null, text: bound + "draw" };
  if (proven && !result.distance_scoring) {
    const kind = value > 0 ? "win" : value < 0 ? "loss" : "draw";
    return { kind, plies: null, text: `${bound}${kind} (${value})` };
  }
  return { kind: "estimate", plies: null, text: `${bound}${value}` };
}

/** A fill colour: green for a win, grey for a draw, red for a loss; paler when further. */
export function colour(described) {
  const far = described.plies === null ? 0.4 : Math.min(1, described.plies / 40);
  const light = 38 + Math.round(far * 40);
  if (described.kind === "win") return `hsl(var(--win), ${light}%)`;
  if (described.kind === "loss") return `hsl(var(--loss), ${light}%)`;
  if (described.kind === "draw") return "hsl(var(--draw), 62%)";
  return "hsl(210, 25%, 80%)";
}

/** Black or white text for a fill of colour(described). */
export function ink(described) {
  if (described.kind === "draw" || described.kind === "estimate") return "#111";
  return described.plies !== null && described.plies > 22 ? "#111" : "#fff";
}

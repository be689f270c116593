// Minesweeper statistics, kept in the browser's local storage: per board and rule, the games
// played and won, the best time and the best 3BV/s.

const KEY = "puzzles-web.mines-stats.v1";

/** The statistics as stored (an object keyed by `board rule`). */
export function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) ?? {};
  } catch {
    return {};
  }
}

/** Counts a finished game (not one the bot moved in, nor a replay). */
export function record(game) {
  const all = load();
  const key = `${game.board} ${game.rule}${game.no_guess ? " no-guess" : ""}`;
  const s = all[key] ?? { played: 0, won: 0, best_ms: null, best_rate: null };
  s.played += 1;
  if (game.status === "won") {
    s.won += 1;
    if (s.best_ms === null || game.elapsed_ms < s.best_ms) s.best_ms = game.elapsed_ms;
    const rate = game.score?.per_second ?? null;
    if (rate !== null && (s.best_rate === null || rate > s.best_rate)) s.best_rate = rate;
  }
  all[key] = s;
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** Forgets every game. */
export function clear() {
  localStorage.removeItem(KEY);
}

/** Fills the statistics table's body. */
export function show(tbody) {
  tbody.replaceChildren();
  for (const [key, s] of Object.entries(load()).sort()) {
    const row = document.createElement("tr");
    const best = s.best_ms === null ? "" : `${(s.best_ms / 1000).toFixed(2)} s`;
    const rate = s.best_rate === null ? "" : s.best_rate.toFixed(2);
    for (const text of [key, s.played, `${s.won} (${Math.round((100 * s.won) / s.played)}%)`, best, rate]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    tbody.append(row);
  }
}

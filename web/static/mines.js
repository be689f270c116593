// The Minesweeper page: games on the server, the analysis overlay, the bot, replays, statistics.

import { get, post, sleep } from "./api.js";
import { cellSize, drawMines, drawOverlay, clearOverlay } from "./board.js";
import * as stats from "./stats.js";

const $ = (id) => document.getElementById(id);

/** What the page shows; `window.puzzles.mines` for the tests to read. */
const state = {
  game: null,
  analysis: null,
  overlay: false,
  watching: false,
  playing: false, // a replay is being played back at its pace
  renders: 0,
  overlayMs: [], // each overlay's time, from the request to the drawing (Performance API)
  counted: new Set(), // games already in the statistics
};
window.puzzles = Object.assign(window.puzzles ?? {}, { mines: state });

let clockTimer = null;
let clockBase = 0;

export function start() {
  $("mines-level").addEventListener("change", () => {
    $("mines-custom").hidden = $("mines-level").value !== "custom";
  });
  $("mines-setup").addEventListener("submit", (e) => {
    e.preventDefault();
    newGame();
  });
  $("mines-overlay").addEventListener("click", toggleOverlay);
  $("mines-bot").addEventListener("click", () => act(() => post(`/api/mines/${state.game.id}/bot`)));
  $("mines-watch").addEventListener("click", watch);
  $("mines-save").addEventListener("click", saveReplay);
  $("replay-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("replay-text").value = await file.text();
  });
  $("replay-load").addEventListener("click", loadReplay);
  $("replay-step").addEventListener("click", () => step());
  $("mines-stats-clear").addEventListener("click", () => {
    stats.clear();
    stats.show($("mines-stats").tBodies[0]);
  });
  stats.show($("mines-stats").tBodies[0]);
  bindBoard($("mines-board"));
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      const g = state.game;
      if (g) $("mines-board").style.setProperty("--cell", `${cellSize(g.width)}px`);
    }, 100);
  });
  newGame();
}

/** The seed of the next game, from the address's `?seed=N` (then N + 1, …), else drawn by the server. */
let nextSeed = (() => {
  const seed = new URLSearchParams(location.search).get("seed");
  return seed !== null && /^[0-9]{1,15}$/.test(seed) ? Number(seed) : null;
})();

function setup() {
  const level = $("mines-level").value;
  const request = { rule: $("mines-rule").value, no_guess: $("mines-noguess").checked };
  if (nextSeed !== null) request.seed = nextSeed++;
  if (level === "custom") {
    request.width = Number($("mines-width").value);
    request.height = Number($("mines-height").value);
    request.mines = Number($("mines-count").value);
  } else {
    request.level = level;
  }
  return request;
}

async function newGame() {
  state.watching = false;
  state.playing = false;
  try {
    show(await post("/api/mines/new", setup()));
    $("mines-said").textContent = "";
  } catch (e) {
    $("mines-said").textContent = e.message;
  }
}

/** Runs one request that answers a game, and shows it (or its error). */
async function act(request) {
  if (!state.game) return;
  try {
    const game = await request();
    show(game);
    return game;
  } catch (e) {
    $("mines-said").textContent = e.message;
    state.watching = false;
    return null;
  }
}

function move(action, x, y) {
  if (!state.game || state.game.status !== "playing" || state.game.playback) return;
  act(() => post(`/api/mines/${state.game.id}/move`, { action, x, y }));
}

/** Mouse and touch: click reveals (chords on a number), right click or a long press flags. */
function bindBoard(root) {
  let press = null;
  const cellOf = (target) => target.closest?.(".mcell");
  root.addEventListener("click", (e) => {
    const cell = cellOf(e.target);
    if (!cell || press?.fired) return;
    const x = Number(cell.dataset.x), y = Number(cell.dataset.y);
    const letter = cell.dataset.state;
    if (letter >= "1" && letter <= "8") move("chord", x, y);
    else if (letter === ".") move("reveal", x, y);
  });
  root.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    const cell = cellOf(e.target);
    if (!cell || press) return;
    move("flag", Number(cell.dataset.x), Number(cell.dataset.y));
  });
  root.addEventListener("auxclick", (e) => {
    const cell = cellOf(e.target);
    if (cell && e.button === 1) move("chord", Number(cell.dataset.x), Number(cell.dataset.y));
  });
  root.addEventListener("touchstart", (e) => {
    const cell = cellOf(e.target);
    if (!cell || e.touches.length !== 1) return;
    press = { fired: false };
    const current = press;
    press.timer = setTimeout(() => {
      current.fired = true;
      move("flag", Number(cell.dataset.x), Number(cell.dataset.y));
    }, 450);
  }, { passive: true });
  const end = (e) => {
    if (!press) return;
    clearTimeout(press.timer);
    if (press.fired && e.cancelable) e.preventDefault();
    const done = press;
    // The click that follows a long press is swallowed, then the press is forgotten.
    setTimeout(() => { if (press === done) press = null; }, 350);
  };
  root.addEventListener("touchend", end);
  root.addEventListener("touchmove", () => press && clearTimeout(press.timer), { passive: true });
}

function show(game) {
  state.game = game;
  const root = $("mines-board");
  drawMines(root, game.width, game.height, game.cells);
  state.renders += 1;
  root.dataset.rendered = state.renders;
  root.dataset.status = game.status;
  $("mines-left").textContent = `mines ${game.mines_left}`;
  $("mines-state").textContent = game.playback
    ? `replay: ${game.status}`
    : game.status === "playing" ? (game.no_guess ? "playing, no guess" : "playing") : game.status;
  let score = "";
  if (game.three_bv !== null) score += `3BV ${game.three_bv}`;
  if (game.score) {
    if (game.score.per_second !== null) score += `, 3BV/s ${game.score.per_second.toFixed(2)}`;
    if (game.score.efficiency !== null) score += `, efficiency ${Math.round(game.score.efficiency * 100)}%`;
  }
  $("mines-score").textContent = score;
  const words = [game.notice, game.said, ...(game.events.length > 8 ? [`${game.events.length} bot moves`] : game.events)];
  $("mines-said").textContent = words.filter(Boolean).join("; ");
  $("mines-save").disabled = game.status === "playing" || game.playback !== null;
  if (game.playback) {
    const b = game.playback;
    $("replay-progress").textContent = `action ${b.played} of ${b.total}, ${(b.time_ms / 1000).toFixed(3)} s`;
    $("replay-step").disabled = b.played >= b.total;
  }
  runClock(game);
  if (game.status !== "playing" && !game.botted && !game.playback && !state.counted.has(game.id)) {
    state.counted.add(game.id);
    stats.record(game);
    stats.show($("mines-stats").tBodies[0]);
  }
  // Once the game is over the mines are shown: the analysis has nothing left to tell.
  if (state.overlay && game.status === "playing") refreshOverlay();
  else {
    overlayRequest += 1;
    clearOverlay(root);
    if (game.status !== "playing") $("mines-overlay-info").textContent = "";
  }
}

function runClock(game) {
  clearInterval(clockTimer);
  const shown = () => $("mines-time").textContent = `${(clockBase / 1000).toFixed(1)} s`;
  clockBase = game.elapsed_ms;
  shown();
  const opened = game.cells.split("").some((c) => c !== "." && c !== "F");
  if (game.status === "playing" && opened && !game.playback) {
    const t0 = performance.now() - game.elapsed_ms;
    clockTimer = setInterval(() => { clockBase = performance.now() - t0; shown(); }, 100);
  }
}

function toggleOverlay() {
  state.overlay = !state.overlay;
  $("mines-overlay").setAttribute("aria-pressed", String(state.overlay));
  if (state.overlay && state.game?.status === "playing") refreshOverlay();
  else {
    clearOverlay($("mines-board"));
    $("mines-overlay-info").textContent = "";
    delete $("mines-board").dataset.overlay;
  }
}

let overlayRequest = 0;

/** Fetches and draws the analysis of the game as shown; measured from the request to the paint. */
async function refreshOverlay() {
  const game = state.game;
  const root = $("mines-board");
  const n = ++overlayRequest;
  delete root.dataset.overlay;
  const t0 = performance.now();
  try {
    const analysis = await get(`/api/mines/${game.id}/analysis`);
    const fetched = performance.now() - t0;
    if (n !== overlayRequest || !state.overlay || state.game !== game) return;
    state.analysis = analysis;
    drawOverlay(root, game.width, analysis);
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const ms = performance.now() - t0;
    performance.measure("overlay", { start: t0, duration: ms });
    state.overlayMs.push({ ms, fetch: fetched, server: analysis.server_ms });
    const safe = analysis.safe.length, mines = analysis.mines.length;
    const best = analysis.best ? `best (${analysis.best[0]}, ${analysis.best[1]}) p = ${analysis.best[2].toFixed(4)}` : "no cell can be safe";
    $("mines-overlay-info").textContent = `${safe} safe, ${mines} certain mines, ${best}; ${ms.toFixed(0)} ms`;
    root.dataset.overlay = String(state.renders);
  } catch (e) {
    if (n === overlayRequest) $("mines-overlay-info").textContent = e.message;
  }
}

/** The bot plays to the end at the chosen pace (the button stops it). */
async function watch() {
  if (state.watching) {
    state.watching = false;
    return;
  }
  state.watching = true;
  $("mines-watch").textContent = "Stop the bot";
  while (state.watching && state.game?.status === "playing" && !state.game.playback) {
    const game = await act(() => post(`/api/mines/${state.game.id}/bot`));
    if (!game) break;
    const pace = Number($("mines-pace").value);
    if (pace > 0) await sleep(pace);
  }
  state.watching = false;
  $("mines-watch").textContent = "Watch the bot";
}

async function saveReplay() {
  try {
    const text = await get(`/api/mines/${state.game.id}/replay`, true);
    $("replay-text").value = text;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = `minesweeper-${state.game.board.replace("/", "-")}-${state.game.status}.txt`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (e) {
    $("mines-said").textContent = e.message;
  }
}

/** Loads the replay's text and plays it back at its pace times the speed. */
async function loadReplay() {
  state.watching = false;
  try {
    show(await post("/api/mines/replay", $("replay-text").value));
  } catch (e) {
    $("replay-progress").textContent = e.message;
    return;
  }
  state.playing = true;
  const id = state.game.id;
  while (state.playing && state.game.id === id && state.game.playback.played < state.game.playback.total) {
    const speed = Number($("replay-speed").value);
    const wait = state.game.playback.next_in_ms ?? 0;
    if (speed > 0 && wait > 0) await sleep(Math.min(wait / speed, 5000));
    if (!state.playing || state.game.id !== id) break;
    if (!(await step())) break;
  }
  state.playing = false;
}

/** Plays back the replay's next action. */
function step() {
  if (!state.game?.playback) return Promise.resolve(null);
  return act(() => post(`/api/mines/${state.game.id}/step`));
}

// The Quarto page: a game against the computer, every move's value on the board on demand.

import { get, post } from "./api.js";
import { bestByCell, drawQuartoBoard, pieceElement, valueLabel, bits } from "./board.js";

const $ = (id) => document.getElementById(id);

const state = { match: null, pending: null, values: null, showValues: false, busy: false, renders: 0 };
window.puzzles = Object.assign(window.puzzles ?? {}, { quarto: state });

const LINES = [
  [0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15],
  [0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15],
  [0, 5, 10, 15], [3, 6, 9, 12],
];

/** Whether placing `piece` on `cell` of `board` completes a line sharing an attribute. */
function wins(board, cell, piece) {
  const after = board.slice();
  after[cell] = piece;
  return LINES.some((line) => line.includes(cell) && line.every((c) => after[c] !== null) &&
    (line.reduce((a, c) => a & after[c], 15) !== 0 || line.reduce((a, c) => a | after[c], 0) !== 15));
}

export function start() {
  $("quarto-setup").addEventListener("submit", (e) => {
    e.preventDefault();
    newGame();
  });
  $("quarto-values-toggle").addEventListener("click", () => {
    state.showValues = !state.showValues;
    $("quarto-values-toggle").setAttribute("aria-pressed", String(state.showValues));
    if (state.showValues) loadValues();
    else { state.values = null; draw(); }
  });
  $("quarto-hint").addEventListener("click", hint);
  $("quarto-copy").addEventListener("click", () => navigator.clipboard?.writeText($("quarto-text").textContent));
  newGame();
}

async function newGame() {
  await send(() => post("/api/quarto/new", { you: Number($("quarto-you").value), level: $("quarto-level").value }));
}

/** Sends a request that answers the game, and shows it. */
async function send(request) {
  state.busy = true;
  $("quarto-said").textContent = state.match ? "thinking…" : "";
  try {
    state.match = await request();
    state.pending = null;
    state.values = null;
    $("quarto-said").textContent = "";
  } catch (e) {
    $("quarto-said").textContent = e.message;
  }
  state.busy = false;
  draw();
  if (state.showValues && yourTurn()) loadValues();
}

const yourTurn = () => state.match && state.match.result === null && state.match.to_move === state.match.you;

function draw() {
  const m = state.match;
  if (!m) return;
  const p = m.position;
  const size = Math.min(64, Math.floor(($("quarto-board").clientWidth || 340) / 4) - 14);
  drawQuartoBoard($("quarto-board"), p.board, size);
  for (const cell of m.winning) $("quarto-board").children[cell].classList.add("win");
  const pending = state.pending;
  if (pending !== null) {
    const el = $("quarto-board").children[pending];
    el.classList.add("pending");
    el.append(pieceElement(p.hand, size).firstChild);
    el.lastChild.style.opacity = "0.6";
  }
  $("quarto-hand").replaceChildren(...(p.hand === null ? [] : [pieceElement(p.hand)]));
  $("quarto-hand-label").textContent = m.result ? "" : p.hand === null ? "No piece in hand yet" : (yourTurn() ? "To place (yours)" : "In hand");
  $("quarto-free").replaceChildren(...p.free.map((piece) => pieceElement(piece)));
  for (const el of $("quarto-board").children) el.addEventListener("click", () => clickCell(Number(el.dataset.cell)));
  for (const el of $("quarto-free").children) el.addEventListener("click", () => clickPiece(Number(el.dataset.piece)));
  $("quarto-text").textContent = p.text;
  $("quarto-moves").replaceChildren(...m.moves.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  let words;
  if (m.result === "draw") words = "draw: the board is full";
  else if (m.result) words = Number(m.result[0]) === m.you ? "you win" : `you lose (${m.level} wins)`;
  else if (!yourTurn()) words = "the computer is thinking";
  else if (p.hand === null) words = "your move: give a piece";
  else if (pending === null) words = "your move: place the piece in hand";
  else words = "now the piece to give";
  $("quarto-state").textContent = words;
  $("quarto-state").dataset.result = m.result ?? "";
  if (state.values) drawValues();
  state.renders += 1;
  $("quarto-board").dataset.rendered = state.renders;
}

function clickCell(cell) {
  const m = state.match;
  if (!yourTurn() || state.busy || m.position.hand === null || m.position.board[cell] !== null) return;
  if (wins(m.position.board, cell, m.position.hand) || m.position.free.length === 0) {
    send(() => post(`/api/quarto/${m.id}/move`, { place: cell, give: null }));
    return;
  }
  state.pending = state.pending === cell ? null : cell;
  draw();
}

function clickPiece(piece) {
  const m = state.match;
  if (!yourTurn() || state.busy) return;
  if (m.position.hand !== null && state.pending === null) {
    $("quarto-said").textContent = "first place the piece in hand on a free cell";
    return;
  }
  send(() => post(`/api/quarto/${m.id}/move`, { place: state.pending, give: piece }));
}

let valuesRequest = 0;

async function loadValues() {
  const m = state.match;
  if (!yourTurn()) return;
  const n = ++valuesRequest;
  $("quarto-board").dataset.values = "";
  try {
    const values = await get(`/api/quarto/${m.id}/values`);
    if (n !== valuesRequest || state.match !== m) return;
    state.values = values;
    draw();
  } catch (e) {
    $("quarto-said").textContent = e.message;
  }
}

/** The values: on each cell its best placement's, on each piece the value of giving it. */
function drawValues() {
  const lines = state.values.lines;
  const p = state.match.position;
  if (p.hand !== null) {
    for (const [cell, line] of bestByCell(lines)) $("quarto-board").children[cell].append(valueLabel(line));
  }
  const place = p.hand === null ? null : state.pending;
  if (p.hand === null || place !== null) {
    for (const el of $("quarto-free").children) {
      const line = lines.find((l) => l.place === place && l.give === Number(el.dataset.piece));
      if (line) el.append(valueLabel(line));
    }
  }
  $("quarto-board").dataset.values = String(state.renders + 1);
}

/** Shows the best move (the first line of the values) and marks its cell and piece. */
async function hint() {
  if (!yourTurn()) return;
  if (!state.values) await loadValues();
  const best = state.values?.lines[0];
  if (!best) return;
  $("quarto-said").textContent = `hint: ${best.text}`;
  if (best.place !== null) $("quarto-board").children[best.place].classList.add("hinted");
  if (best.give !== null) {
    for (const el of $("quarto-free").children) {
      if (Number(el.dataset.piece) === best.give) el.classList.add("hinted");
    }
  }
}

export { wins, bits };

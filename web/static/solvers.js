// The solvers' page: a puzzle's text in its solver's format, answered and drawn.

import { post } from "./api.js";
import { drawMines, drawOverlay, drawQuartoBoard, pieceElement, valueLabel, bestByCell } from "./board.js";

const $ = (id) => document.getElementById(id);

const EXAMPLES = {
  minesweeper: "8x8x10\nHHHHHHHH\nHH2112HH\nH21..12H\nH1....1H\nH1....1H\nH21..12H\nHH2112HH\nHHHHHHHH\n",
  maxblack: "9 4\n",
  quarto: "0000 . . .\n. 1111 . .\n. . . .\n. . . 0101\n0011\n",
};

const state = { answer: null, renders: 0 };
window.puzzles = Object.assign(window.puzzles ?? {}, { solvers: state });

export function start() {
  const kind = $("solver-kind");
  kind.addEventListener("change", () => {
    $("solver-input").value = EXAMPLES[kind.value];
    clear();
  });
  $("solver-input").value = EXAMPLES[kind.value];
  $("solver-run").addEventListener("click", solve);
}

function clear() {
  $("solver-drawing").replaceChildren();
  $("solver-output").textContent = "";
  $("solver-said").textContent = "";
}

async function solve() {
  const kind = $("solver-kind").value;
  clear();
  $("solver-said").textContent = "solving…";
  const t0 = performance.now();
  try {
    const answer = await post(`/api/solve/${kind}`, $("solver-input").value);
    state.answer = answer;
    $("solver-output").textContent = answer.text;
    ({ minesweeper: drawMinesweeper, maxblack: drawMaxblack, quarto: drawQuarto })[kind](answer);
    $("solver-said").textContent = `solved in ${(performance.now() - t0).toFixed(0)} ms`;
  } catch (e) {
    $("solver-said").textContent = e.message;
  }
  state.renders += 1;
  $("solver-drawing").dataset.rendered = state.renders;
}

function drawMinesweeper(a) {
  const root = document.createElement("div");
  root.className = "mboard";
  $("solver-drawing").append(root);
  drawMines(root, a.width, a.height, a.cells);
  drawOverlay(root, a.width, { cells: a.probabilities, safe: a.safe, mines: a.mines_certain, best: a.best });
  const info = document.createElement("p");
  info.className = "said";
  info.textContent = `${a.safe.length} safe, ${a.mines_certain.length} certain mines` +
    (a.best ? `, best (${a.best[0]}, ${a.best[1]}) p = ${a.best[2]}` : ", no cell can be safe");
  $("solver-drawing").append(info);
}

function drawMaxblack(a) {
  const info = document.createElement("p");
  info.className = "said";
  info.id = "maxblack-summary";
  info.textContent = `${a.rows} × ${a.cols}, no ${a.k} in a row: at most ${a.max} black cells; ` +
    `${a.orbits} optimal grids up to symmetry, ${a.total} in all`;
  const grids = document.createElement("div");
  grids.className = "grids";
  for (const g of a.grids.slice(0, 200)) {
    const grid = document.createElement("div");
    grid.className = "mbgrid";
    grid.style.gridTemplateColumns = `repeat(${a.cols}, 16px)`;
    for (const row of g) {
      for (const c of row) {
        const cell = document.createElement("div");
        if (c === "#") cell.className = "b";
        grid.append(cell);
      }
    }
    grids.append(grid);
  }
  $("solver-drawing").append(info, grids);
}

function drawQuarto(a) {
  const board = document.createElement("div");
  board.className = "qboard";
  const wrap = document.createElement("div");
  wrap.append(board);
  $("solver-drawing").append(wrap);
  drawQuartoBoard(board, a.position.board, 56);
  for (const [cell, line] of bestByCell(a.lines)) board.children[cell].append(valueLabel(line));
  if (a.position.hand !== null) {
    const hand = document.createElement("p");
    hand.className = "said";
    hand.textContent = "In hand:";
    hand.append(pieceElement(a.position.hand));
    wrap.append(hand);
  }
  const list = document.createElement("ol");
  list.id = "quarto-lines";
  for (const line of a.lines.slice(0, 300)) {
    const item = document.createElement("li");
    item.textContent = line.text;
    list.append(item);
  }
  $("solver-drawing").append(list);
}

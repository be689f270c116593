// Drawing the boards: Minesweeper cells (the game and the solver page) and Quarto pieces.

/** The cell side in pixels for a board `width` cells wide, to fit the window (within limits). */
export function cellSize(width) {
  const room = Math.max(200, Math.min(window.innerWidth, 1100) - 40);
  return Math.max(20, Math.min(30, Math.floor(room / width) - 1));
}

/**
 * Draws a Minesweeper board into `root` (a `.mboard`): `cells` one letter per cell, row-major
 * (`.` hidden, `F` flag, `0`-`8` revealed, `*` mine, `X` the mine hit, `!` a wrong flag).
 * Reuses the cells already there when the size is the same.
 */
export function drawMines(root, width, height, cells) {
  root.style.setProperty("--cell", `${cellSize(width)}px`);
  root.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
  if (root.children.length !== width * height) {
    root.replaceChildren();
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const cell = document.createElement("div");
        cell.dataset.x = x;
        cell.dataset.y = y;
        root.append(cell);
      }
    }
  }
  for (let i = 0; i < width * height; i++) {
    const cell = root.children[i];
    const letter = cells[i];
    cell.className = "mcell " + cellClass(letter);
    cell.dataset.state = letter;
    cell.textContent = letter >= "1" && letter <= "8" ? letter : "";
  }
}

function cellClass(letter) {
  switch (letter) {
    case ".": return "hidden";
    case "F": return "flag";
    case "*": return "mine";
    case "X": return "hit";
    case "!": return "wrong";
    default: return `open n${letter}`;
  }
}

/**
 * Draws the analysis over a drawn board: each hidden cell's probability, the safe cells, the
 * certain mines and the recommended click.
 */
export function drawOverlay(root, width, analysis) {
  clearOverlay(root);
  for (const [x, y, p] of analysis.cells) {
    const cell = root.children[y * width + x];
    const label = document.createElement("span");
    label.className = "p";
    label.textContent = p === 0 ? "0" : p === 1 ? "1" : percent(p);
    cell.append(label);
    cell.dataset.p = p;
    if (p > 0 && p < 1) cell.style.background = shade(p);
  }
  for (const [x, y] of analysis.safe) root.children[y * width + x].classList.add("a-safe");
  for (const [x, y] of analysis.mines) root.children[y * width + x].classList.add("a-mine");
  if (analysis.best) {
    const [x, y] = analysis.best;
    root.children[y * width + x].classList.add("a-best");
  }
}

/** Removes the analysis from a drawn board. */
export function clearOverlay(root) {
  for (const cell of root.children) {
    cell.classList.remove("a-safe", "a-mine", "a-best");
    cell.style.background = "";
    delete cell.dataset.p;
    for (const label of cell.querySelectorAll(".p")) label.remove();
  }
}

function percent(p) {
  const v = p * 100;
  return v < 1 ? "<1" : v > 99 ? ">99" : Math.round(v).toString();
}

/** From pale yellow (a small probability) to red (a large one). */
function shade(p) {
  const hue = Math.round(55 - 55 * p);
  return `hsl(${hue} 80% ${Math.round(85 - 20 * p)}%)`;
}

/**
 * A Quarto piece as an SVG element: bit 3 tall or short, bit 2 dark or light, bit 1 round or
 * square, bit 0 hollow or solid. `size` is the height in pixels.
 */
export function pieceSvg(piece, size) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 40 50");
  svg.setAttribute("width", (size * 0.8).toString());
  svg.setAttribute("height", size.toString());
  svg.classList.add("shape");
  const tall = piece & 8, dark = piece & 4, round = piece & 2, hollow = piece & 1;
  const h = tall ? 46 : 28;
  const top = 48 - h;
  const fill = dark ? "#4a2c17" : "#f1d9a8";
  const stroke = dark ? "#2a170a" : "#a0804a";
  const body = document.createElementNS(ns, round ? "rect" : "rect");
  body.setAttribute("x", "6");
  body.setAttribute("y", top.toString());
  body.setAttribute("width", "28");
  body.setAttribute("height", h.toString());
  body.setAttribute("rx", round ? "14" : "2");
  body.setAttribute("fill", fill);
  body.setAttribute("stroke", stroke);
  body.setAttribute("stroke-width", "2");
  svg.append(body);
  if (hollow) {
    const hole = document.createElementNS(ns, round ? "circle" : "rect");
    if (round) {
      hole.setAttribute("cx", "20");
      hole.setAttribute("cy", (top + 10).toString());
      hole.setAttribute("r", "6");
    } else {
      hole.setAttribute("x", "14");
      hole.setAttribute("y", (top + 4).toString());
      hole.setAttribute("width", "12");
      hole.setAttribute("height", "12");
    }
    hole.setAttribute("fill", dark ? "#c9a27a" : "#7a5a3a");
    svg.append(hole);
  }
  return svg;
}

/** The 4 binary digits of a piece, as the solver writes it. */
export const bits = (piece) => piece.toString(2).padStart(4, "0");

/** A piece as a `.qpiece` element with its drawing and its digits. */
export function pieceElement(piece, size = 56) {
  const el = document.createElement("div");
  el.className = "qpiece";
  el.dataset.piece = piece;
  el.append(pieceSvg(piece, size));
  const code = document.createElement("span");
  code.className = "code";
  code.textContent = bits(piece);
  el.append(code);
  return el;
}

/** A value label: `W3`, `D` or `L2`, coloured. */
export function valueLabel(line) {
  const el = document.createElement("span");
  el.className = `val ${line.value}`;
  el.textContent = line.value === "draw" ? "D" : `${line.value === "win" ? "W" : "L"}${line.distance}`;
  el.title = line.text;
  return el;
}

/** Draws a Quarto board into `root` (a `.qboard`): `board` 16 pieces or nulls, row-major. */
export function drawQuartoBoard(root, board, size) {
  root.replaceChildren();
  board.forEach((piece, i) => {
    const cell = document.createElement("div");
    cell.className = "qcell";
    cell.dataset.cell = i;
    if (piece !== null) {
      cell.dataset.piece = piece;
      cell.append(pieceSvg(piece, size));
    }
    root.append(cell);
  });
}

/** The best line for each cell (its first among `lines`, which are best first). */
export function bestByCell(lines) {
  const best = new Map();
  for (const line of lines) {
    if (line.place !== null && !best.has(line.place)) best.set(line.place, line);
  }
  return best;
}

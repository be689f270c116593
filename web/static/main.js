// The app: three pages behind the tabs, chosen by the address's fragment.

import * as mines from "./mines.js";
import * as quarto from "./quarto.js";
import * as solvers from "./solvers.js";

const pages = { mines, quarto, solvers };
const started = new Set();

function route() {
  const name = location.hash.slice(1) in pages ? location.hash.slice(1) : "mines";
  for (const key of Object.keys(pages)) {
    document.getElementById(`page-${key}`).hidden = key !== name;
    document.getElementById(`tab-${key}`).classList.toggle("active", key === name);
  }
  if (!started.has(name)) {
    started.add(name);
    pages[name].start();
  }
}

window.addEventListener("hashchange", route);
route();

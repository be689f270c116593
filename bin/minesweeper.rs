//! `minesweeper`: reads a `.mine` board on stdin, prints its safe cells, certain mines and mine
//! probabilities (see `cp_puzzles::minesweeper`).

mod cli;

use std::process::ExitCode;

const PROGRAM: cli::Program = cli::Program {
    name: "minesweeper",
    usage: "minesweeper < board.mine",
    help: concat!(
        "Reads a board in JSMinesweeper's .mine format on stdin: a header `WxHxM` (width, height, mines\n",
        "in all, flags included), then H rows of W cells: 0-8 or `.` revealed, `H` or `?` hidden, `F`\n",
        "flagged (counted as a mine). Blank lines and trailing spaces are ignored.\n",
        "\n",
        "Prints, every arrangement of the mines that fits the board being equally likely (x the column,\n",
        "y the row, both from 0; lists row by row):\n",
        "  safe <k>          then `<x> <y>` per hidden cell that is never a mine\n",
        "  mines <m>         then `<x> <y>` per hidden unflagged cell that is always a mine\n",
        "  best <x> <y> <p>  the click to make: the first safe cell, else the guess likeliest to be\n",
        "                    safe; `best none` if no hidden cell can be safe\n",
        "  cells <n>         then `<x> <y> <p>` per hidden unflagged cell, p its exact mine\n",
        "                    probability rounded to 6 decimals\n",
        "An inconsistent board, or one too complex for an exact analysis, is an error.\n",
    ),
    options: "",
};

fn main() -> ExitCode {
    PROGRAM.main(cli::args(), cp_puzzles::minesweeper::run)
}

//! `minimax`: reads a game tree on stdin, prints `<value> <nodes>` (see `cp_puzzles::minimax`).

mod cli;

use std::process::ExitCode;

const PROGRAM: cli::Program = cli::Program {
    name: "minimax",
    usage: "minimax < input",
    help: "Reads a game tree on stdin: `D B` (its depth and branching factor), then the B^D \
           integer leaf\nscores of the maximizing player, left to right. Prints `<value> <nodes>`: \
           the root's value\nunder alpha-beta (children left to right, ties prune) and the number \
           of nodes it visited.\n",
    options: "",
};

fn main() -> ExitCode {
    PROGRAM.main(cli::args(), cp_puzzles::minimax::run)
}

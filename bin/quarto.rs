//! `quarto`: reads a position on stdin, prints the perfect-play move and its value (see
//! `cp_puzzles::quarto`).

mod cli;

use std::process::ExitCode;

const PROGRAM: cli::Program = cli::Program {
    name: "quarto",
    usage: "quarto < input",
    help: "Reads a Quarto position on stdin: 4 lines of 4 cells (`.` or a piece as 4 binary \
           digits), then\nthe piece in hand (4 binary digits, or `-` on the empty board). Prints \
           the first optimal move\n(`place R C give PPPP`, `place R C` or `give PPPP`) and its \
           value for the player to move\n(`win`, `draw` or `loss`), each on its own line.\n",
    options: "",
};

fn main() -> ExitCode {
    PROGRAM.main(cli::args(), cp_puzzles::quarto::run)
}

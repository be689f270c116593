//! The programs that play the puzzles. The binaries in `src/bin` are thin: the game front-ends
//! live here, one module per program.

pub mod input;
pub mod minesweeper_bot;
pub mod minesweeper_play;
pub mod quarto_play;

/// A command-line parser's message (clap's) without its `error: ` prefix, usage and tips, on one
/// line, as the programs print their usage errors.
#[must_use]
pub fn one_line(text: &str) -> String {
    let head = text.split("\n\n").next().unwrap_or_default();
    let head = head.strip_prefix("error: ").unwrap_or(head);
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}

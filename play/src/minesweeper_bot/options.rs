//! Helpers for a command line that runs the bot: the strategies' help text and cells written
//! `X,Y`. The strategies' own syntax is in [`super::syntax`].

use std::fmt;

use cp_puzzles::minesweeper::Pos;

/// The strategies and their parameters, for a command line's help.
pub const STRATEGY_HELP: &str = "\
Strategies (--strategy and --compare take NAME[:key=value,...]):
  lowest     the lowest mine probability, first in row-major order
  analyzer   the analyzer's recommended cell
  progress   the lowest probability traded against the chance that the number shown proves a
             cell safe (one move of lookahead); next-risk=0.1, the assumed risk of the next guess
  endgame    progress, and an exact search for the best click when few arrangements remain;
             next-risk=0.1
  survival   the endgame search, and a lookahead for surviving two clicks; window=0.1
  secondary  the endgame search, the dead 50/50s, and a lookahead with the exact chance of each
             number; the parameters below
  regions    secondary, and first an exact search in a region independent of the rest of the
             board (the default)
Parameters of secondary and regions, with their defaults:
  window=0.1     the lookahead's candidates: the cells whose mine probability is at most
                 p + window * (1 - p), p the lowest (next-risk is another name for it)
  blend=0.2      the weight of the second-best safety after a guess
  lone=0.2       after a number that proves one cell safe, the weight of the best other safety
  endgame=4000   the most arrangements for the exact endgame search (up to 1000000)
  candidates=12  the most cells the lookahead examines
  interior=4     the most of them off the frontier
  near=0         how many of those are kept for cells next to the frontier (below interior)
  deep=0         how many of the best candidates get a second move of lookahead (experimental)
  forced=sets    which 50/50s the game forces are guessed at once: none, dead, pseudo or sets
  influence=0.9  the weight of the 50/50 influence in the lookahead's score
  extra=8        with influence, the most cells outside the window examined for it
A strategy prints with the parameters that differ from its defaults, e.g.
--strategy regions:endgame=1000,blend=0.3 --compare lowest";

/// A cell's text that is not `X,Y`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellError {
    pub found: String,
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a cell as X,Y (0-based column and row), found \"{}\"",
            self.found
        )
    }
}

impl std::error::Error for CellError {}

/// Reads a cell written `X,Y` (0-based column and row, e.g. `3,3`).
///
/// # Errors
/// [`CellError`] if the text is not two whole numbers separated by a comma.
pub fn parse_cell(text: &str) -> Result<Pos, CellError> {
    let number = |t: &str| t.trim().parse::<usize>().ok();
    text.split_once(',')
        .and_then(|(x, y)| Some(Pos::new(number(x)?, number(y)?)))
        .ok_or_else(|| CellError {
            found: text.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_as_x_comma_y() {
        assert_eq!(parse_cell("3, 2"), Ok(Pos::new(3, 2)));
        for bad in ["3", "3;2", "-1,0", "1,2,3", ""] {
            assert!(parse_cell(bad).is_err(), "{bad}");
        }
    }
}

//! What the bot prints: a run's report, a paired comparison's, and one game move by move. Names
//! print as the command line writes them (`first click safe`, `strategy regions`).

use std::fmt;

use super::player::Event;
use super::runner::{play_observed, Comparison, Run, RunError, Summary};
use super::stats::{sign_test_z, wilson_interval};
use super::syntax::Spelled;
use cp_puzzles::minesweeper::game::Status;
use cp_puzzles::minesweeper::{Board, Pos};

/// `board 30x16/99, first click safe at (0, 0), strategy regions, seed 1, threads 2`.
impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board {}, first click {} at {}, strategy {}, seed {}, threads {}",
            self.config,
            self.rule,
            Cell(self.first_click()),
            Spelled(self.strategy),
            self.seed,
            self.threads
        )
    }
}

/// A cell as `(x, y)`.
struct Cell(Pos);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.0.x, self.0.y)
    }
}

/// A run and its totals. `Display` gives the run, then one line per figure: games, wins, the win
/// rate with its 95% Wilson interval, guesses and analyzer calls per game, and milliseconds per
/// game (the only line that varies between identical runs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    pub run: Run,
    pub summary: Summary,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        let per_game = |x: f64| x / s.games.max(1) as f64;
        let (low, high) = wilson_interval(s.wins, s.games);
        writeln!(f, "{}", self.run)?;
        writeln!(f, "games {}\nwins {}", s.games, s.wins)?;
        writeln!(
            f,
            "win rate {:.2}% (95% interval {:.2}% to {:.2}%)",
            100.0 * per_game(s.wins as f64),
            100.0 * low,
            100.0 * high
        )?;
        writeln!(f, "guesses/game {:.3}", per_game(s.guesses as f64))?;
        writeln!(f, "analyses/game {:.1}", per_game(s.analyses as f64))?;
        writeln!(f, "ms/game {:.3}", per_game(1000.0 * s.seconds))
    }
}

/// The run (its strategy is the first), the second strategy, then the games, each strategy's
/// wins, the games only one of them won, and the sign test's z over those (see
/// [`sign_test_z`]).
impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = |wins: u64| 100.0 * wins as f64 / self.games.max(1) as f64;
        writeln!(f, "{}\ncompared with {}", self.run, Spelled(self.second))?;
        writeln!(f, "games {}", self.games)?;
        writeln!(
            f,
            "first wins {} ({:.2}%)",
            self.first_wins,
            rate(self.first_wins)
        )?;
        writeln!(
            f,
            "second wins {} ({:.2}%)",
            self.second_wins,
            rate(self.second_wins)
        )?;
        writeln!(
            f,
            "only first {}\nonly second {}",
            self.only_first, self.only_second
        )?;
        let z = sign_test_z(self.only_first, self.only_second);
        writeln!(f, "sign test z {z:.2}")
    }
}

/// One game, move by move, as [`replay`] played it.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The game's number in its run.
    pub index: u64,
    /// Each move, with the player's view after it.
    pub moves: Vec<(Event, Board)>,
    /// The mine that ended the game, if it was lost.
    pub lost_on: Option<Pos>,
}

/// Plays game `index` of `run` and records every move.
///
/// # Errors
/// As [`super::run()`].
pub fn replay(run: &Run, index: u64) -> Result<Replay, RunError> {
    let mut replay = Replay {
        index,
        moves: Vec::new(),
        lost_on: None,
    };
    play_observed(run, index, &mut |event, game| {
        if game.status() == Status::Lost {
            replay.lost_on = Some(clicked(event));
        }
        replay.moves.push((event, game.view().clone()));
    })?;
    Ok(replay)
}

/// The cell an event is about.
fn clicked(event: Event) -> Pos {
    match event {
        Event::First(p) | Event::Safe(p) | Event::Flag(p) | Event::Guess(p, _) => p,
    }
}

/// Each move as `move N: WHAT` followed by the view in the `.mine` format (`H` hidden, `F` flag,
/// digits; the lines that `minesweeper` reads) and a blank line; then `game I: won` or
/// `game I: lost on the mine at (x, y)` (the view before it is the position of the losing click).
impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, (event, view)) in self.moves.iter().enumerate() {
            let what = match *event {
                Event::First(p) => format!("first click {}", Cell(p)),
                Event::Safe(p) => format!("safe {}", Cell(p)),
                Event::Flag(p) => format!("flag {}", Cell(p)),
                Event::Guess(p, q) => format!("guess {} p = {q:.4}", Cell(p)),
            };
            writeln!(f, "move {}: {what}\n{view}", n + 1)?;
        }
        match self.lost_on {
            None => writeln!(f, "game {}: won", self.index),
            Some(p) => writeln!(f, "game {}: lost on the mine at {}", self.index, Cell(p)),
        }
    }
}

//! What the bot prints: a run's report, a paired comparison's, and one game move by move. Names
//! print as the command line writes them (`first click safe`, `strategy regions`).

use std::fmt;

use super::player::{play, Event};
use super::runner::{new_game, Comparison, Run, RunError, Summary};
use super::sources::Sources;
use super::stats::{sign_test_z, wilson_interval};
use super::syntax::Spelled;
use cp_puzzles::minesweeper::game::{Layout, Status};
use cp_puzzles::minesweeper::{Board, Pos};

/// `board 30x16/99, first click safe at (0, 0), strategy regions, seed 1, threads 2`, with
/// `, no guess` after the board for no-guess boards.
impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.header(f, &self.threads)
    }
}

impl Run {
    /// The run's line, with `threads` for its threads.
    fn header(&self, f: &mut fmt::Formatter<'_>, threads: &dyn fmt::Display) -> fmt::Result {
        write!(
            f,
            "board {}{}, first click {} at {}, strategy {}, seed {}, threads {threads}",
            self.config,
            if self.no_guess { ", no guess" } else { "" },
            self.rule,
            Cell(self.first_click()),
            Spelled(self.strategy),
            self.seed,
        )
    }
}

/// The report's games line: `games N` for games 0 to N - 1, `games N (game K to game L)` for a
/// run that starts at game K > 0 (`games 0 (from game K)` when it is empty).
struct Games<'a>(&'a Run);

impl fmt::Display for Games<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Run {
            first_game, games, ..
        } = *self.0;
        write!(f, "games {games}")?;
        match (first_game, games) {
            (0, _) => Ok(()),
            (_, 0) => write!(f, " (from game {first_game})"),
            _ => write!(
                f,
                " (game {first_game} to game {})",
                first_game.saturating_add(games - 1)
            ),
        }
    }
}

/// The threads of a report: `N`, or `N to M` for merged runs played with different numbers.
struct Threads(usize, usize);

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == self.1 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{} to {}", self.0, self.1)
        }
    }
}

/// A cell as `(x, y)`.
struct Cell(Pos);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.0.x, self.0.y)
    }
}

/// A run and its totals. `Display` gives the run, then one line per figure: games (and which, see
/// `Games`), wins, the win rate with its 95% Wilson interval, guesses and analyzer calls per
/// game, and milliseconds per game (the only line that varies between identical runs, with the
/// next); for no-guess boards, then, the milliseconds each board took to make (`generation
/// ms/board median M, mean A, worst W`); last, the sources that played it (`sources
/// 0123456789abcdef`, or `sources unknown` for reports written before they were recorded).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The run; for merged runs, `run.threads` is the fewest threads of any of them.
    pub run: Run,
    pub summary: Summary,
    /// The most threads of the runs merged into this one (`run.threads` for a single run).
    pub most_threads: usize,
    /// The fingerprint of the sources that played the run ([`Sources::BUILT`] for a run of this
    /// program); `None` if unknown (a report written before the fingerprint was recorded).
    pub sources: Option<Sources>,
}

impl Report {
    /// A single run's report, played by this program.
    #[must_use]
    pub fn new(run: Run, summary: Summary) -> Report {
        Report {
            run,
            summary,
            most_threads: run.threads,
            sources: Some(Sources::BUILT),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        let per_game = |x: f64| x / s.games.max(1) as f64;
        let (low, high) = wilson_interval(s.wins, s.games);
        let run = Run {
            games: s.games,
            ..self.run
        };
        run.header(f, &Threads(run.threads, self.most_threads))?;
        writeln!(f, "\n{}\nwins {}", Games(&run), s.wins)?;
        writeln!(
            f,
            "win rate {:.2}% (95% interval {:.2}% to {:.2}%)",
            100.0 * per_game(s.wins as f64),
            100.0 * low,
            100.0 * high
        )?;
        writeln!(f, "guesses/game {:.3}", per_game(s.guesses as f64))?;
        writeln!(f, "analyses/game {:.1}", per_game(s.analyses as f64))?;
        writeln!(f, "ms/game {:.3}", per_game(1000.0 * s.seconds))?;
        if self.run.no_guess {
            let g = &s.generation;
            writeln!(
                f,
                "generation ms/board median {:.3}, mean {:.3}, worst {:.3}",
                g.median_ms(),
                g.mean_ms(),
                g.worst_ms()
            )?;
        }
        match self.sources {
            Some(sources) => writeln!(f, "sources {sources}"),
            None => writeln!(f, "sources unknown"),
        }
    }
}

/// The run (its strategy is the first), the second strategy, then the games, each strategy's
/// wins, the games only one of them won, and the sign test's z over those (see
/// [`sign_test_z`]).
impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = |wins: u64| 100.0 * wins as f64 / self.games.max(1) as f64;
        writeln!(f, "{}\ncompared with {}", self.run, Spelled(self.second))?;
        let run = Run {
            games: self.games,
            ..self.run
        };
        writeln!(f, "{}", Games(&run))?;
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
    /// The game's layout.
    pub layout: Layout,
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
    let (mut game, _) = new_game(run, index)?;
    let mut replay = Replay {
        index,
        layout: game.layout().clone(),
        moves: Vec::new(),
        lost_on: None,
    };
    play(
        &mut game,
        run.first_click(),
        run.strategy,
        &mut |event, game| {
            if game.status() == Status::Lost {
                replay.lost_on = Some(clicked(event));
            }
            replay.moves.push((event, game.view().clone()));
        },
    )
    .map_err(|error| RunError::Game { game: index, error })?;
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

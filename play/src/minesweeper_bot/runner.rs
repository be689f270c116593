//! Many games on several threads, with totals that do not depend on the number of threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::generation::Generation;
use super::player::{play, Played};
use super::BotError;
use cp_puzzles::minesweeper::bot::Strategy;
use cp_puzzles::minesweeper::game::{self, game_seed, Config, FirstClick, Game};
use cp_puzzles::minesweeper::no_guess::{self, Effort, NoGuessError};
use cp_puzzles::minesweeper::Pos;

/// What to run. Its `Display` is the first line of a report (see [`super::Report`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub config: Config,
    pub rule: FirstClick,
    /// The bot's first click, if not the rule's convention ([`FirstClick::cell`]). It must be on
    /// the board, and under `opening` its 3x3 block must leave room for the mines.
    pub first: Option<Pos>,
    /// Whether every game is played on a no-guess board: a layout made for the bot's first click
    /// by [`no_guess::generate`] (with [`Effort::default_for`] the board), from the game's seed,
    /// instead of a uniform one. The bot then wins every game without a guess.
    pub no_guess: bool,
    pub strategy: Strategy,
    /// The number of the run's first game: the run plays games `first_game` to
    /// `first_game + games - 1` of its seed, so that runs over disjoint ranges (shards) add up to
    /// one run over their union.
    pub first_game: u64,
    pub games: u64,
    /// Game `i` is played on the layout drawn from `game_seed(seed, i)`, whatever the range it is
    /// played in.
    pub seed: u64,
    pub threads: usize,
}

impl Run {
    /// The bot's first click: [`Run::first`], else the rule's convention.
    #[must_use]
    pub fn first_click(&self) -> Pos {
        self.first.unwrap_or_else(|| self.rule.cell(&self.config))
    }

    /// One past the number of the run's last game, if it is below 2^64.
    #[must_use]
    pub fn end_game(&self) -> Option<u64> {
        self.first_game.checked_add(self.games)
    }

    /// Checks that the first click is on the board and that the rule leaves room for the mines
    /// there.
    ///
    /// # Errors
    /// As [`Config::check_first`].
    pub fn check(&self) -> Result<(), game::Error> {
        self.config.check_first(self.rule, self.first_click())
    }

    /// Checks [`Run::check`] and that the games are numbered below 2^64.
    fn check_all(&self) -> Result<(), RunError> {
        self.check().map_err(RunError::Config)?;
        match self.end_game() {
            Some(_) => Ok(()),
            None => Err(RunError::Range {
                first_game: self.first_game,
                games: self.games,
            }),
        }
    }
}

/// The totals of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub games: u64,
    pub wins: u64,
    pub guesses: u64,
    pub analyses: u64,
    /// Wall-clock seconds for the whole run (the no-guess boards' generation included).
    pub seconds: f64,
    /// The time each no-guess board took to make, for a run of [`Run::no_guess`] (else empty).
    pub generation: Generation,
}

impl Summary {
    /// The totals of two runs (or parts of one) together: counts, seconds and generation times
    /// added; `None` if a count would pass 2^64 - 1.
    #[must_use]
    pub fn checked_add(self, other: &Summary) -> Option<Summary> {
        Some(Summary {
            games: self.games.checked_add(other.games)?,
            wins: self.wins.checked_add(other.wins)?,
            guesses: self.guesses.checked_add(other.guesses)?,
            analyses: self.analyses.checked_add(other.analyses)?,
            seconds: self.seconds + other.seconds,
            generation: self.generation.merged(&other.generation)?,
        })
    }
}

/// Games handed to a thread at a time.
const CHUNK: u64 = 16;

/// Plays games `run.first_game` to `run.first_game + run.games - 1`, `run.threads` at a time; `progress` is called with the number of
/// games just finished (from any thread).
///
/// # Errors
/// A first click the rule cannot hold ([`RunError::Config`]), games numbered past 2^64 - 1
/// ([`RunError::Range`]), or an analyzer failure in some game.
pub fn run(run: &Run, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, RunError> {
    run.check_all()?;
    let start = Instant::now();
    let tally = |summary: &mut Summary, index: u64| {
        let (played, made_in) = play_game(run, index)?;
        if let Some(time) = made_in {
            summary.generation.add(time);
        }
        summary.games += 1;
        summary.wins += u64::from(played.won);
        summary.guesses += u64::from(played.guesses);
        summary.analyses += u64::from(played.analyses);
        Ok(())
    };
    let mut summary = across_threads(run, progress, Summary::default(), &tally, add)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// Why a run failed.
#[derive(Debug)]
pub enum RunError {
    /// The game cannot be set up: the first click is off the board, or leaves no room for the
    /// mines.
    Config(game::Error),
    /// The games' numbers run past 2^64 - 1.
    Range { first_game: u64, games: u64 },
    /// The analyzer failed in game `game`.
    Game { game: u64, error: BotError },
    /// No no-guess board was made for game `game` within the generator's effort.
    NoGuess { game: u64, error: NoGuessError },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Config(e) => write!(f, "{e}"),
            RunError::Range { first_game, games } => write!(
                f,
                "expected the games to be numbered below 2^64, found {games} games from game \
                 {first_game}"
            ),
            RunError::Game { game, error } => write!(f, "game {game}: {error}"),
            RunError::NoGuess { game, error } => write!(f, "game {game}: {error}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Config(e) => Some(e),
            RunError::Range { .. } => None,
            RunError::Game { error, .. } => Some(error),
            RunError::NoGuess { error, .. } => Some(error),
        }
    }
}

/// Plays games `run.first_game..run.first_game + run.games` on `run.threads` threads: each thread takes chunks of game numbers
/// until none are left, `tally` adds one game to its totals (each thread starts from `zero`), and
/// `merge` adds the threads' totals. Totals are integer sums, so they do not depend on the number
/// of threads.
fn across_threads<T: Clone + Send + Sync>(
    run: &Run,
    progress: &(dyn Fn(u64) + Sync),
    zero: T,
    tally: &(dyn Fn(&mut T, u64) -> Result<(), RunError> + Sync),
    merge: fn(T, T) -> T,
) -> Result<T, RunError> {
    let next = AtomicU64::new(0);
    let totals = Mutex::new(Ok(zero.clone()));
    std::thread::scope(|scope| {
        for _ in 0..run.threads.max(1) {
            scope.spawn(|| {
                let local = worker(run, &next, progress, zero.clone(), tally);
                let mut totals = totals.lock().unwrap_or_else(|e| e.into_inner());
                let before = std::mem::replace(&mut *totals, Ok(zero.clone()));
                *totals = match (before, local) {
                    (Ok(a), Ok(b)) => Ok(merge(a, b)),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
            });
        }
    });
    totals.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Takes chunks of the run's games until none are left, adding each game to `totals`; returns
/// this thread's totals. `next` counts from 0, the run's first game.
fn worker<T>(
    run: &Run,
    next: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
    mut totals: T,
    tally: &(dyn Fn(&mut T, u64) -> Result<(), RunError> + Sync),
) -> Result<T, RunError> {
    loop {
        let begin = next.fetch_add(CHUNK, Ordering::Relaxed);
        if begin >= run.games {
            return Ok(totals);
        }
        let end = (begin + CHUNK).min(run.games);
        for offset in begin..end {
            tally(&mut totals, run.first_game + offset)?;
        }
        progress(end - begin);
    }
}

/// Plays game number `index` of `run`.
///
/// # Errors
/// As [`run`].
pub fn play_one(run: &Run, index: u64) -> Result<Played, RunError> {
    play_game(run, index).map(|(played, _)| played)
}

/// Plays game number `index` of `run`; also returns the time its no-guess board took to make
/// (`None` for a uniform board).
///
/// # Errors
/// As [`run`].
fn play_game(run: &Run, index: u64) -> Result<(Played, Option<Duration>), RunError> {
    let (mut game, made_in) = new_game(run, index)?;
    let played = play_with(&mut game, run, index, run.strategy)?;
    Ok((played, made_in))
}

/// Plays `game`, game number `index` of `run`, with `strategy` from the run's first click.
fn play_with(
    game: &mut Game,
    run: &Run,
    index: u64,
    strategy: Strategy,
) -> Result<Played, RunError> {
    play(game, run.first_click(), strategy, &mut |_, _| {})
        .map_err(|error| RunError::Game { game: index, error })
}

/// Game number `index` of `run` before its first click: its layout drawn from
/// `game_seed(run.seed, index)`, uniform or, for [`Run::no_guess`], no-guess for the bot's first
/// click (the board `minesweeper-play --no-guess` makes for that seed and first click); with the
/// time the no-guess board took to make.
///
/// # Errors
/// As [`run`]: the first click cannot be held, or no no-guess board was made.
pub(crate) fn new_game(run: &Run, index: u64) -> Result<(Game, Option<Duration>), RunError> {
    let (first, seed) = (run.first_click(), game_seed(run.seed, index));
    if !run.no_guess {
        let game = Game::new(run.config, run.rule, first, seed).map_err(RunError::Config)?;
        return Ok((game, None));
    }
    let start = Instant::now();
    let made = no_guess::generate(
        run.config,
        run.rule,
        first,
        seed,
        Effort::default_for(run.config),
    );
    let made_in = start.elapsed();
    match made {
        Ok(made) => Ok((Game::with_layout(made.layout), Some(made_in))),
        Err(NoGuessError::Config(e)) => Err(RunError::Config(e)),
        Err(error) => Err(RunError::NoGuess { game: index, error }),
    }
}

/// Two strategies on the same games: how many each won, and how many games only one of them won
/// (the paired comparison: under "no difference", `only_first` and `only_second` are two draws of
/// the same binomial). Its `Display` is the comparison's report, with the sign test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The games, the first strategy being `run.strategy`.
    pub run: Run,
    /// The strategy compared with it.
    pub second: Strategy,
    pub games: u64,
    pub first_wins: u64,
    pub second_wins: u64,
    pub only_first: u64,
    pub only_second: u64,
}

/// Plays every game of `run` with `run.strategy` and with `other`, on the same layouts (each
/// made once).
///
/// # Errors
/// As [`run`].
pub fn compare(
    run: &Run,
    other: Strategy,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Comparison, RunError> {
    run.check_all()?;
    let tally = |c: &mut Comparison, index: u64| {
        let (game, _) = new_game(run, index)?;
        let a = play_with(&mut game.clone(), run, index, run.strategy)?.won;
        let b = play_with(&mut game.clone(), run, index, other)?.won;
        c.games += 1;
        c.first_wins += u64::from(a);
        c.second_wins += u64::from(b);
        c.only_first += u64::from(a && !b);
        c.only_second += u64::from(b && !a);
        Ok(())
    };
    let zero = Comparison {
        run: *run,
        second: other,
        games: 0,
        first_wins: 0,
        second_wins: 0,
        only_first: 0,
        only_second: 0,
    };
    across_threads(run, progress, zero, &tally, add_comparisons)
}

fn add_comparisons(a: Comparison, b: Comparison) -> Comparison {
    Comparison {
        games: a.games + b.games,
        first_wins: a.first_wins + b.first_wins,
        second_wins: a.second_wins + b.second_wins,
        only_first: a.only_first + b.only_first,
        only_second: a.only_second + b.only_second,
        ..a
    }
}

/// The threads' totals together (their seconds are 0: the run's are set at its end).
fn add(a: Summary, b: Summary) -> Summary {
    a.checked_add(&b).expect("a run has fewer than 2^64 games")
}

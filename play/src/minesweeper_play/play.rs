//! One game in progress, as both modes play it: the engine's [`Game`], its number in the run,
//! its clock, and the bot's moves.

use std::fmt;
use std::time::Duration;

use crate::minesweeper_bot::{self as bot, BotError, Calls, Event, Strategy};
use cp_puzzles::minesweeper::game::{self, game_seed, Game, Layout, Reveal, Status};
use cp_puzzles::minesweeper::no_guess::{self, Effort};
use cp_puzzles::minesweeper::{analyze, solve, three_bv, Analysis, Answer, Board, Error, Pos};

use super::clock::Clock;
use super::moves::Move;
use super::replay::Replay;
use super::Setup;

/// What a move did, in words for the player (its `Display`), or nothing worth saying.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    /// The move changed the board and did not end the game.
    Nothing,
    /// The cell is not on the board.
    OffBoard(Pos),
    /// The move changed nothing, and why.
    Ignored(&'static str),
    /// The game was lost on the mine at this cell.
    Lost(Pos),
    /// The game was won, in this time.
    Won(Duration),
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Said::Nothing => Ok(()),
            Said::OffBoard(p) => write!(f, "({}, {}) is off the board", p.x, p.y),
            Said::Ignored(why) => write!(f, "nothing happened: {why}"),
            Said::Lost(p) => write!(f, "lost on the mine at ({}, {})", p.x, p.y),
            Said::Won(d) => write!(f, "won in {:.1} s", d.as_secs_f64()),
        }
    }
}

/// Where a game stands before and after its first click.
#[derive(Clone, Debug)]
enum Stage {
    /// No click yet: the view, all hidden (the layout is drawn by the first click).
    Unopened(Board),
    /// The first click drew the layout and was made.
    Opened(Game),
}

/// The game in progress: game number `index` of the run seeded with `setup.seed`. Its layout is
/// drawn at the first click, wherever it is, from the seed `minesweeper-bot --seed S --game
/// index` draws from: it is the bot's game when the first click is the bot's
/// ([`FirstClick::cell`](cp_puzzles::minesweeper::game::FirstClick::cell)), and the game
/// `minesweeper-bot --first-cell X,Y` plays when it is at (X, Y).
#[derive(Clone, Debug)]
pub struct Play {
    setup: Setup,
    index: u64,
    stage: Stage,
    clock: Clock,
    /// Whether the bot made a move in this game (such a game does not count in the statistics).
    botted: bool,
    /// The analyzer calls of the bot's moves in this game.
    calls: Calls,
    /// The player's clicks in this game: every move on the board while it was playing, those
    /// that changed nothing included.
    clicks: u64,
    /// The layout's 3BV, once the first click has drawn it.
    three_bv: Option<usize>,
    /// Something to tell the player once (a no-guess board that could not be made).
    notice: Option<String>,
    /// The moves made in this game (the player's and the bot's), each with the time on the
    /// clock when it was made: what [`Play::replay`] writes.
    actions: Vec<(Duration, Move)>,
    /// The layout the first click uses instead of drawing one (to play a replay back).
    fixed: Option<Layout>,
}

/// A won game's score: its 3BV, 3BV per second, and efficiency (3BV per click).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub three_bv: usize,
    /// 3BV divided by the time in seconds, or `None` for a game won in under
    /// [`SCORED_TIME`], too short a time for a rate (a scripted game won in a millisecond made
    /// thousands).
    pub per_second: Option<f64>,
    /// 3BV divided by the player's clicks, or `None` if the bot moved.
    pub efficiency: Option<f64>,
}

/// The shortest winning time that gets a 3BV/s.
pub const SCORED_TIME: Duration = Duration::from_secs(1);

/// `3BV 120, 3BV/s 1.23, efficiency 87%` (no 3BV/s under [`SCORED_TIME`], no efficiency if the
/// bot moved).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "3BV {}", self.three_bv)?;
        if let Some(rate) = self.per_second {
            write!(f, ", 3BV/s {rate:.2}")?;
        }
        if let Some(e) = self.efficiency {
            write!(f, ", efficiency {:.0}%", 100.0 * e)?;
        }
        Ok(())
    }
}

/// Why a chord did nothing.
const CHORD: &str =
    "a chord needs a number with exactly that many flags around it and a hidden cell";

/// Why a move once the game is over did nothing.
pub const GAME_OVER: &str = "the game is over";

/// Why a flag before the first click did nothing.
const FLAG_FIRST: &str = "flags come after the first click, which places the mines";

/// The bot's strategy: the library's best.
pub const STRATEGY: Strategy = Strategy::REGIONS;

impl Play {
    /// Game 0 of `setup`, before its first click.
    ///
    /// # Errors
    /// As [`Setup::check`]: some first click would leave no room for the mines.
    pub fn new(setup: Setup) -> Result<Play, game::Error> {
        setup.check()?;
        Ok(Play::numbered(setup, 0))
    }

    /// Game `index` of a checked `setup`, before its first click.
    fn numbered(setup: Setup, index: u64) -> Play {
        let c = setup.config;
        let blank = Board::new(c.width(), c.height(), c.mines())
            .expect("a config always has a valid board shape");
        Play {
            setup,
            index,
            stage: Stage::Unopened(blank),
            clock: Clock::default(),
            botted: false,
            calls: Calls::default(),
            clicks: 0,
            three_bv: None,
            notice: None,
            actions: Vec::new(),
            fixed: None,
        }
    }

    /// The game of `replay`, before its first click: its first click uses the replay's layout,
    /// wherever it is (the replay's own first action is where it was made).
    #[must_use]
    pub fn from_replay(replay: &Replay) -> Play {
        let setup = Setup {
            config: replay.layout.config(),
            rule: replay.rule,
            seed: 0,
            no_guess: replay.no_guess,
        };
        let mut play = Play::numbered(setup, 0);
        play.fixed = Some(replay.layout.clone());
        play
    }

    /// Whether this is a replay's game ([`Play::from_replay`]), which has no seed.
    #[must_use]
    pub fn is_replay(&self) -> bool {
        self.fixed.is_some()
    }

    /// This game as a replay (its layout, and every move made with its time), once the first
    /// click has drawn the layout.
    #[must_use]
    pub fn replay(&self) -> Option<Replay> {
        Some(Replay {
            layout: self.game()?.layout().clone(),
            rule: self.setup.rule,
            no_guess: self.setup.no_guess,
            actions: self.actions.clone(),
        })
    }

    /// Starts the next game of the run.
    pub fn restart(&mut self) {
        *self = Play::numbered(self.setup, self.index + 1);
    }

    /// Makes the first click at `first`: draws the layout for it (no-guess if the setup asks,
    /// else uniform; a no-guess board that cannot be made gives a uniform one and a notice),
    /// reveals it and starts the clock. The game must not be opened yet, and `first` must be on
    /// the board.
    fn open(&mut self, first: Pos) {
        debug_assert!(!self.opened());
        let s = self.setup;
        let seed = game_seed(s.seed, self.index);
        if let Some(layout) = self.fixed.clone() {
            let mut game = Game::with_layout(layout);
            self.three_bv = Some(three_bv(game.layout()));
            game.reveal(first);
            self.clock.start();
            self.stage = Stage::Opened(game);
            return;
        }
        let made = s.no_guess.then(|| {
            no_guess::generate(s.config, s.rule, first, seed, Effort::default_for(s.config))
        });
        let mut game = match made {
            Some(Ok(board)) => Game::with_layout(board.layout),
            Some(Err(e)) => {
                self.notice = Some(format!("{e}; this board may need a guess"));
                Game::new(s.config, s.rule, first, seed)
                    .expect("the setup was checked: every first click leaves room for the mines")
            }
            None => Game::new(s.config, s.rule, first, seed)
                .expect("the setup was checked: every first click leaves room for the mines"),
        };
        self.three_bv = Some(three_bv(game.layout()));
        game.reveal(first);
        self.clock.start();
        self.stage = Stage::Opened(game);
    }

    #[must_use]
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The game's number in the run (0 for the first).
    #[must_use]
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The game, once the first click has drawn its layout.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        match &self.stage {
            Stage::Unopened(_) => None,
            Stage::Opened(game) => Some(game),
        }
    }

    /// Whether the first click has been made.
    #[must_use]
    pub fn opened(&self) -> bool {
        self.game().is_some()
    }

    /// What the player sees (all hidden before the first click).
    #[must_use]
    pub fn view(&self) -> &Board {
        match &self.stage {
            Stage::Unopened(blank) => blank,
            Stage::Opened(game) => game.view(),
        }
    }

    /// Where the game stands (playing before the first click).
    #[must_use]
    pub fn status(&self) -> Status {
        self.game().map_or(Status::Playing, Game::status)
    }

    /// The mine whose reveal lost the game, if it is lost.
    #[must_use]
    pub fn hit(&self) -> Option<Pos> {
        self.game().and_then(Game::hit)
    }

    /// The notice to show once, if any (taken).
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// The layout's 3BV, once the first click has drawn it.
    #[must_use]
    pub fn three_bv(&self) -> Option<usize> {
        self.three_bv
    }

    /// The player's clicks so far in this game.
    #[must_use]
    pub fn clicks(&self) -> u64 {
        self.clicks
    }

    /// The score of a won game, `None` before it is won.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        if self.status() != Status::Won {
            return None;
        }
        let three_bv = self.three_bv?;
        let time = self.elapsed();
        Some(Score {
            three_bv,
            per_second: (time >= SCORED_TIME).then(|| three_bv as f64 / time.as_secs_f64()),
            efficiency: (!self.botted && self.clicks > 0)
                .then(|| three_bv as f64 / self.clicks as f64),
        })
    }

    /// Whether the bot moved in this game.
    #[must_use]
    pub fn botted(&self) -> bool {
        self.botted
    }

    /// The mines minus the flags (negative with too many flags); 0 once the game is won, as
    /// every mine is then known.
    #[must_use]
    pub fn mines_left(&self) -> i64 {
        if self.status() == Status::Won {
            return 0;
        }
        self.view().mines() as i64 - self.view().flags() as i64
    }

    /// Replaces the game clock (by [`Clock::frozen`] for a screen to compare).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The time on the game clock.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }

    /// Makes the player's move. The first click is the first reveal, anywhere: it draws the
    /// layout and starts the clock; a flag or a chord before it does nothing. Once the game is
    /// over every move does nothing and says so, on the board or off it.
    pub fn play(&mut self, m: Move) -> Said {
        let p = m.cell();
        if self.status() != Status::Playing {
            return Said::Ignored(GAME_OVER);
        }
        if !self.view().grid().contains(p) {
            return Said::OffBoard(p);
        }
        if self.opened() || matches!(m, Move::Reveal(_)) {
            self.clicks += 1;
        }
        if self.opened() {
            self.actions.push((self.elapsed(), m));
        }
        let game = match (&mut self.stage, m) {
            (Stage::Opened(game), _) => game,
            (Stage::Unopened(_), Move::Reveal(p)) => {
                self.open(p);
                self.actions.push((self.elapsed(), m));
                return self.ended();
            }
            (Stage::Unopened(_), Move::Flag(_)) => return Said::Ignored(FLAG_FIRST),
            (Stage::Unopened(_), Move::Chord(_)) => return Said::Ignored(CHORD),
        };
        let changed = match m {
            Move::Reveal(p) => game.reveal(p) != Reveal::Ignored,
            Move::Flag(p) => game.toggle_flag(p),
            Move::Chord(p) => game.chord(p) != Reveal::Ignored,
        };
        if !changed {
            return Said::Ignored(match m {
                Move::Reveal(_) => "the cell is revealed or flagged",
                Move::Flag(_) => "the cell is revealed",
                Move::Chord(_) => CHORD,
            });
        }
        self.ended()
    }

    /// What the end of the game says, once it is over (and stops the clock).
    fn ended(&mut self) -> Said {
        match self.status() {
            Status::Playing => Said::Nothing,
            Status::Won => {
                self.clock.stop();
                Said::Won(self.elapsed())
            }
            Status::Lost => {
                self.clock.stop();
                Said::Lost(self.hit().expect("a lost game has hit a mine"))
            }
        }
    }

    /// One move of the bot (see [`bot::step`]); `observe` sees each of its events. Before the
    /// first click, the move is the bot's first click, at the rule's cell ([`Event::First`]).
    /// Returns what the end of the game says, if it ended.
    ///
    /// # Errors
    /// If the analyzer rejects the view: the player's flags contradict the numbers, or the board
    /// is too complex.
    pub fn bot_step(&mut self, observe: &mut dyn FnMut(Event)) -> Result<Said, BotError> {
        if self.status() != Status::Playing {
            return Ok(Said::Ignored(GAME_OVER));
        }
        self.botted = true;
        let game = match &mut self.stage {
            Stage::Opened(game) => game,
            Stage::Unopened(_) => {
                let first = self.setup.rule.cell(&self.setup.config);
                self.open(first);
                self.actions.push((self.elapsed(), Move::Reveal(first)));
                observe(Event::First(first));
                return Ok(self.ended());
            }
        };
        let actions = &mut self.actions;
        let time = self.clock.elapsed();
        bot::step(game, STRATEGY, &mut self.calls, &mut |e, _| {
            actions.push((time, bot_move(e)));
            observe(e);
        })?;
        Ok(self.ended())
    }

    /// What `minesweeper` prints for the current view.
    ///
    /// # Errors
    /// As [`solve`]: the flags contradict the numbers, or the board is too complex.
    pub fn hint(&self) -> Result<Answer, Error> {
        solve(self.view())
    }

    /// The analysis of the current view, for the overlay.
    ///
    /// # Errors
    /// As [`analyze`].
    pub fn analysis(&self) -> Result<Analysis, Error> {
        analyze(self.view())
    }

    /// `mines left 95, time 12 s, playing` (or `won`, or `lost`), then `, no guess` for a
    /// no-guess setup, and once won the [`Score`]: `, 3BV 120, 3BV/s 1.23, efficiency 87%`.
    #[must_use]
    pub fn status_line(&self) -> String {
        let word = match self.status() {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Lost => "lost",
        };
        let mut line = format!(
            "mines left {}, time {} s, {word}",
            self.mines_left(),
            self.elapsed().as_secs()
        );
        if self.setup.no_guess {
            line += ", no guess";
        }
        if let Some(score) = self.score() {
            line += &format!(", {score}");
        }
        line
    }
}

/// The move of one of the bot's events (a guess is a reveal).
fn bot_move(event: Event) -> Move {
    match event {
        Event::First(p) | Event::Safe(p) | Event::Guess(p, _) => Move::Reveal(p),
        Event::Flag(p) => Move::Flag(p),
    }
}

/// The words for one of the bot's events: `safe (x, y)`, `flag (x, y)`, `guess (x, y) p = 0.1234`
/// (the words of `minesweeper-bot --show`).
#[must_use]
pub fn event_text(event: Event) -> String {
    match event {
        Event::First(p) => format!("first click ({}, {})", p.x, p.y),
        Event::Safe(p) => format!("safe ({}, {})", p.x, p.y),
        Event::Flag(p) => format!("flag ({}, {})", p.x, p.y),
        Event::Guess(p, q) => format!("guess ({}, {}) p = {q:.4}", p.x, p.y),
    }
}

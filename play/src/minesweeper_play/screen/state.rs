//! The full-screen mode's state and its transitions: no drawing and no terminal here.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::minesweeper_bot::Event;
use cp_puzzles::minesweeper::game::{FirstClick, Status};
use cp_puzzles::minesweeper::{Analysis, Board, Cell, Pos};

use super::super::moves::Move;
use super::super::play::{event_text, Play, Said};
use super::playback::Playback;
use crate::minesweeper_play::replay::Replay;
use crate::minesweeper_play::Clock;

/// The screens, as far as the keys go: each has its own keys, and its key bar says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A game before its first click: no flag, chord or replay yet.
    Start,
    /// A game under way.
    Playing,
    /// The bot playing the game to its end: any key stops it.
    Bot,
    /// A game won or lost: what is left is saving it, the next game, the help and quitting.
    Over,
    /// The help, over any of the game's screens: any key closes it.
    Help,
    /// A replay played back at the game's pace.
    Replay,
    /// A replay played back one action per key.
    Stepping,
    /// A replay played back to its last action.
    ReplayOver,
}

impl Mode {
    /// Every mode, for the tests that check each.
    pub const ALL: [Mode; 8] = [
        Mode::Start,
        Mode::Playing,
        Mode::Bot,
        Mode::Over,
        Mode::Help,
        Mode::Replay,
        Mode::Stepping,
        Mode::ReplayOver,
    ];
}

/// What the player asks for (from a key, a mouse click or the clock); which keys ask for what on
/// each screen is in the tables of [`bindings`](super::bindings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Moves the cursor by columns and rows (clamped to the board).
    Cursor(isize, isize),
    /// Reveals the cell under the cursor.
    Reveal,
    Flag,
    Chord,
    /// A left click on a cell: reveals it, or chords it if it shows a number.
    Click(Pos),
    /// A right click on a cell: flags it.
    FlagAt(Pos),
    Hint,
    Help,
    /// One bot move.
    Bot,
    /// The bot plays to the end (or stops doing so).
    BotAll,
    Save,
    /// Saves the game so far as a replay.
    SaveReplay,
    /// A move of a replay being played back (the cursor goes to its cell).
    Replayed(Move),
    /// The next action of the replay played back, at once; one per key from then on.
    Next,
    /// The replay played back at the game's pace again.
    Pace,
    Restart,
    Quit,
    /// Any other key: closes the help, or stops the bot playing to the end.
    Dismiss,
    /// The clock ticked: the bot, when it plays to the end, makes its next move.
    Tick,
}

/// The hint overlay: the analysis of the view it was made for, or why there is none.
#[derive(Clone, Debug)]
pub struct Overlay {
    view: Board,
    pub analysis: Result<Analysis, String>,
}

impl Overlay {
    /// The mine probability of `p`, if it is a hidden unflagged cell.
    #[must_use]
    pub fn probability(&self, p: Pos) -> Option<f64> {
        let analysis = self.analysis.as_ref().ok()?;
        analysis
            .probabilities
            .binary_search_by_key(&p, |&(q, _)| q)
            .ok()
            .map(|i| analysis.probabilities[i].1)
    }
}

/// A game that just ended, for the statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finished {
    /// The winning time, or `None` for a loss.
    pub won: Option<Duration>,
    /// The winning 3BV/s, or `None` for a loss or a win too quick for a rate
    /// ([`Score::per_second`](crate::minesweeper_play::Score::per_second)).
    pub per_second: Option<f64>,
    /// Whether the bot moved in the game.
    pub botted: bool,
}

/// Everything the screen shows.
#[derive(Clone, Debug)]
pub struct State {
    pub play: Play,
    pub cursor: Pos,
    /// Whether the hint overlay is on.
    pub hint: bool,
    pub help: bool,
    /// Whether the bot is playing to the end.
    pub auto: bool,
    /// The last thing worth saying (a bot move, a saved file, the end of the game).
    pub message: String,
    /// The analysis shown by the overlay, kept for the view it was made for.
    pub overlay: Option<Overlay>,
    /// Set when a game ends; the terminal loop takes it to update the statistics.
    pub finished: Option<Finished>,
    /// The bot's last guess in this game, with its mine probability.
    pub last_guess: Option<(Pos, f64)>,
    /// The guess of the bot's last move, if it guessed.
    guessed: Option<(Pos, f64)>,
    /// The number of the last game whose end was handed over in `finished`.
    recorded: Option<u64>,
    pub quit: bool,
    /// Where `s` saves the view.
    pub save_dir: PathBuf,
    /// The replay played back, if this screen plays one back.
    pub playback: Option<Playback>,
}

impl State {
    /// The screen of `play`, the cursor on the bot's first click (so that Space plays the bot's
    /// game), and a message that says the first click goes anywhere.
    #[must_use]
    pub fn new(play: Play) -> State {
        let setup = play.setup();
        State {
            cursor: setup.rule.cell(&setup.config),
            message: start_message(&play),
            play,
            hint: false,
            help: false,
            auto: false,
            overlay: None,
            finished: None,
            recorded: None,
            last_guess: None,
            guessed: None,
            quit: false,
            save_dir: PathBuf::from("."),
            playback: None,
        }
    }

    /// The screen of `replay` played back: its game before the first click, the clock at 0, the
    /// actions to come at the game's pace from the first [`State::catch_up`].
    #[must_use]
    pub fn replaying(replay: &Replay) -> State {
        let mut state = State::new(Play::from_replay(replay));
        state.play.set_clock(Clock::frozen(Duration::ZERO));
        state.playback = Some(Playback::new(replay.actions.clone()));
        state.say_progress();
        state
    }

    /// Which screen this is, for its keys ([`keys::bindings`](super::keys::bindings)).
    #[must_use]
    pub fn mode(&self) -> Mode {
        if let Some(playback) = &self.playback {
            return if playback.done() {
                Mode::ReplayOver
            } else if playback.stepping() {
                Mode::Stepping
            } else {
                Mode::Replay
            };
        }
        if self.help {
            Mode::Help
        } else if self.auto {
            Mode::Bot
        } else if self.play.status() != Status::Playing {
            Mode::Over
        } else if self.play.opened() {
            Mode::Playing
        } else {
            Mode::Start
        }
    }

    /// Plays the replay's actions due at `now` at the game's pace (none while stepping, or on a
    /// screen that plays no replay back).
    pub fn catch_up(&mut self, now: Instant) {
        while let Some(action) = self.playback.as_mut().and_then(|p| p.due(now)) {
            self.replay_step(action);
        }
    }

    /// Plays one action of the replay: the clock shows its time, and the message what it did
    /// (or, if nothing, how far the replay is).
    fn replay_step(&mut self, (time, m): (Duration, Move)) {
        self.play.set_clock(Clock::frozen(time));
        self.cursor = m.cell();
        self.play_move(m);
        // A replay is never counted in the statistics.
        self.finished = None;
        self.say_progress();
    }

    /// `replay: action 3 of 29` in the message, unless it says something else.
    fn say_progress(&mut self) {
        if let (Some(p), true) = (&self.playback, self.message.is_empty()) {
            let (next, all) = p.progress();
            self.message = format!("replay: action {next} of {all}");
        }
    }

    /// Applies `action`. Any action but the clock's tick and [`Action::BotAll`] (which toggles
    /// it) stops the bot playing to the end, and any but [`Action::Quit`] closes the help (doing
    /// nothing else).
    pub fn apply(&mut self, action: Action) {
        if !matches!(action, Action::Tick | Action::Bot) {
            self.guessed = None;
        }
        if action != Action::Tick {
            if self.help && action != Action::Quit {
                self.help = false;
                return;
            }
            if action != Action::BotAll {
                self.auto = false;
            }
        }
        match action {
            Action::Cursor(dx, dy) => self.move_cursor(dx, dy),
            Action::Reveal => self.play_move(Move::Reveal(self.cursor)),
            Action::Flag => self.play_move(Move::Flag(self.cursor)),
            Action::Chord => self.play_move(Move::Chord(self.cursor)),
            Action::Click(p) => {
                self.cursor = p;
                let m = match self.play.view().get(p) {
                    Cell::Revealed(n) if n > 0 => Move::Chord(p),
                    _ => Move::Reveal(p),
                };
                self.play_move(m);
            }
            Action::FlagAt(p) => {
                self.cursor = p;
                self.play_move(Move::Flag(p));
            }
            Action::Hint => self.hint = !self.hint,
            Action::Help => self.help = true,
            Action::Bot => self.bot(),
            Action::BotAll => {
                self.auto = !self.auto && self.play.status() == Status::Playing;
            }
            Action::Tick if self.auto => self.bot(),
            Action::Tick => {}
            Action::Save => self.save(),
            Action::SaveReplay => self.save_replay(),
            Action::Replayed(m) => {
                self.cursor = m.cell();
                self.play_move(m);
            }
            Action::Next => {
                if let Some(action) = self.playback.as_mut().and_then(Playback::step) {
                    self.replay_step(action);
                }
            }
            Action::Pace => {
                if let Some(playback) = &mut self.playback {
                    playback.resume();
                }
            }
            Action::Restart => {
                self.play.restart();
                self.last_guess = None;
                let setup = self.play.setup();
                self.cursor = setup.rule.cell(&setup.config);
                self.message = format!("game {} of seed {}", self.play.index(), setup.seed);
            }
            Action::Quit => self.quit = true,
            Action::Dismiss => {}
        }
        self.refresh_overlay();
    }

    fn move_cursor(&mut self, dx: isize, dy: isize) {
        let config = self.play.setup().config;
        let clamp = |v: usize, d: isize, n: usize| v.saturating_add_signed(d).min(n - 1);
        self.cursor = Pos::new(
            clamp(self.cursor.x, dx, config.width()),
            clamp(self.cursor.y, dy, config.height()),
        );
    }

    fn play_move(&mut self, m: Move) {
        let said = self.play.play(m);
        self.message = match (&said, self.play.score()) {
            (Said::Nothing, _) => String::new(),
            (Said::Won(_), Some(score)) => format!("{said}: {score}"),
            (said, _) => said.to_string(),
        };
        if let Some(notice) = self.play.take_notice() {
            self.message = notice;
        }
        self.note_end();
    }

    /// One bot move, described in the message.
    fn bot(&mut self) {
        let mut events = Vec::new();
        match self.play.bot_step(&mut |e| events.push(e)) {
            Ok(said) => {
                self.guessed = events.iter().find_map(|&e| match e {
                    Event::Guess(p, q) => Some((p, q)),
                    _ => None,
                });
                if self.guessed.is_some() {
                    self.last_guess = self.guessed;
                }
                let mut words = summary(&events);
                match (&said, self.play.score()) {
                    (Said::Nothing | Said::Ignored(_), _) => {}
                    (Said::Won(_), Some(score)) => words.push(format!("{said}: {score}")),
                    (said, _) => words.push(said.to_string()),
                }
                self.message = format!("bot: {}", words.join(", "));
            }
            Err(e) => {
                self.auto = false;
                self.message = format!("the bot cannot move: {}", e.analyzer());
            }
        }
        self.note_end();
    }

    /// Stops the bot and records the game if it just ended.
    fn note_end(&mut self) {
        let status = self.play.status();
        if status == Status::Playing {
            return;
        }
        self.auto = false;
        if self.finished.is_none() && !self.ended_before() {
            self.finished = Some(Finished {
                won: (status == Status::Won).then(|| self.play.elapsed()),
                per_second: self.play.score().and_then(|s| s.per_second),
                botted: self.play.botted(),
            });
            self.recorded = Some(self.play.index());
        }
    }

    /// Whether this game's end was already handed over.
    fn ended_before(&self) -> bool {
        self.recorded == Some(self.play.index())
    }

    /// Whether the bot's last move was a guess (the bot playing to the end then pauses, so that
    /// the guess can be seen).
    #[must_use]
    pub fn paused_on_guess(&self) -> bool {
        self.guessed.is_some()
    }

    /// Saves the view as `minesweeper-<seed>-<game>.mine` in the save directory.
    fn save(&mut self) {
        let setup = self.play.setup();
        let name = format!("minesweeper-{}-{}.mine", setup.seed, self.play.index());
        let path = self.save_dir.join(&name);
        self.message = match std::fs::write(&path, self.play.view().to_string()) {
            Ok(()) => format!("saved to {}", path.display()),
            Err(e) => format!("cannot write {}: {e}", path.display()),
        };
    }

    /// Writes the game so far as `minesweeper-<seed>-<game>.replay` in `save_dir`.
    fn save_replay(&mut self) {
        let Some(replay) = self.play.replay() else {
            self.message = "no replay before the first click".to_string();
            return;
        };
        let setup = self.play.setup();
        let name = format!("minesweeper-{}-{}.replay", setup.seed, self.play.index());
        let path = self.save_dir.join(&name);
        self.message = match std::fs::write(&path, replay.to_string()) {
            Ok(()) => format!("replay saved to {}", path.display()),
            Err(e) => format!("cannot write {}: {e}", path.display()),
        };
    }

    /// Recomputes the overlay's analysis if the overlay is on and the view changed.
    fn refresh_overlay(&mut self) {
        if !self.hint {
            return;
        }
        let view = self.play.view();
        if self.overlay.as_ref().is_some_and(|o| o.view == *view) {
            return;
        }
        self.overlay = Some(Overlay {
            view: view.clone(),
            analysis: self.play.analysis().map_err(|e| e.to_string()),
        });
    }
}

/// What the screen says before the first click: where it may go and what the rule promises.
fn start_message(play: &Play) -> String {
    if play.opened() {
        return String::new();
    }
    let promise = match play.setup().rule {
        FirstClick::Safe => "is never a mine",
        FirstClick::Opening => "opens an area",
    };
    format!("click anywhere to start: the first click {promise}")
}

/// A bot move in a few words: its events if there are at most three, else the counts of flags and
/// safe cells; a guess is always named with its probability.
fn summary(events: &[Event]) -> Vec<String> {
    if events.len() <= 3 {
        return events.iter().map(|&e| event_text(e)).collect();
    }
    let count = |f: fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
    let mut words = Vec::new();
    let flags = count(|e| matches!(e, Event::Flag(_)));
    let safe = count(|e| matches!(e, Event::Safe(_)));
    if flags > 0 {
        words.push(format!("{flags} flags"));
    }
    if safe > 0 {
        words.push(format!("{safe} safe cells"));
    }
    words.extend(
        events
            .iter()
            .filter(|e| matches!(e, Event::Guess(..)))
            .map(|&e| event_text(e)),
    );
    words
}

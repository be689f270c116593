//! The full-screen mode: the terminal loop around a [`State`] that [`Action`]s update and
//! [`draw`] shows.

mod draw;
mod keys;
mod state;

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, KeyCode};
use crossterm::execute;

pub use draw::{board_rect, cell_at, draw, heat};
pub use keys::{action, key_action};
pub use state::{Action, Finished, Overlay, State};

use super::replay::Replay;
use super::stats::Stats;
use super::{Clock, Play};

/// How often the screen is redrawn for the timer.
const FRAME: Duration = Duration::from_millis(200);

/// The pace of the bot playing to the end: one move per step.
const BOT_PACE: Duration = Duration::from_millis(250);

/// How long the bot playing to the end waits after a guess.
const GUESS_PAUSE: Duration = Duration::from_millis(1000);

/// Plays `play` full screen until `q`. Games that end are counted in the statistics at
/// `stats` (unless the bot moved in them).
///
/// # Errors
/// If the terminal cannot be set up or drawn on.
pub fn run(play: Play, stats: Option<PathBuf>) -> io::Result<()> {
    let mut terminal = ratatui::init();
    let _restore = Restore;
    execute!(io::stdout(), EnableMouseCapture)?;
    let mut state = State::new(play);
    let mut last_bot = Instant::now();
    while !state.quit {
        terminal.draw(|frame| draw(&state, frame))?;
        let pace = if state.paused_on_guess() {
            GUESS_PAUSE
        } else {
            BOT_PACE
        };
        let wait = if state.auto { pace } else { FRAME };
        if event::poll(wait)? {
            let area = terminal.get_frame().area();
            let setup = state.play.setup();
            if let Some(a) = action(&event::read()?, area, &setup) {
                state.apply(a);
            }
        }
        if state.auto && last_bot.elapsed() >= pace {
            last_bot = Instant::now();
            state.apply(Action::Tick);
        }
        if let Some(finished) = state.finished.take() {
            record(&mut state, finished, stats.as_deref());
        }
    }
    Ok(())
}

/// Plays `replay` back full screen: at the game's pace, `n` the next action at once (and stepping
/// from then on), `p` the game's pace again, `q` quit. The game is not counted in the statistics.
///
/// # Errors
/// If the terminal cannot be set up or drawn on.
pub fn play_back(replay: Replay) -> io::Result<()> {
    let mut terminal = ratatui::init();
    let _restore = Restore;
    let mut state = State::new(Play::from_replay(&replay));
    state.play.set_clock(Clock::frozen(Duration::ZERO));
    let actions = &replay.actions;
    let mut next = 0;
    // Where the game's time 0 is on the wall clock, while the playback keeps the game's pace.
    let mut zero = Some(Instant::now());
    let step = |state: &mut State, next: &mut usize| {
        let (time, m) = actions[*next];
        state.play.set_clock(Clock::frozen(time));
        state.apply(Action::Replayed(m));
        *next += 1;
    };
    while !state.quit {
        if state.message.is_empty() || next == 0 {
            state.message = format!(
                "replay: action {next} of {}; n next, p the game's pace, q quit",
                actions.len()
            );
        }
        terminal.draw(|frame| draw(&state, frame))?;
        if event::poll(FRAME)? {
            if let event::Event::Key(key) = event::read()? {
                match key.code {
                    KeyCode::Char('q') => state.quit = true,
                    KeyCode::Char('n') if next < actions.len() => {
                        zero = None;
                        step(&mut state, &mut next);
                    }
                    KeyCode::Char('p') if next < actions.len() => {
                        zero = Instant::now().checked_sub(actions[next].0);
                    }
                    _ => {}
                }
            }
        }
        while next < actions.len() && zero.is_some_and(|z| z.elapsed() >= actions[next].0) {
            step(&mut state, &mut next);
        }
        state.finished = None;
    }
    Ok(())
}

/// Counts a finished game in the statistics, and says so in the message.
fn record(state: &mut State, finished: Finished, path: Option<&std::path::Path>) {
    if finished.botted {
        state.message += "; not counted in the statistics: the bot played";
        return;
    }
    let Some(path) = path else {
        return;
    };
    let setup = state.play.setup();
    let board = setup.board_name();
    let rule = setup.rule_name();
    let won = finished.won.zip(finished.per_second);
    let saved = Stats::load(path).and_then(|mut stats| {
        let best = stats.record(&board, &rule, won);
        stats.save(path)?;
        Ok((best, stats.get(&board, &rule)))
    });
    match saved {
        Ok((best, r)) => {
            let best = if best && finished.won.is_some() {
                ", a best time"
            } else {
                ""
            };
            state.message = format!(
                "{}{best}; {board}: {} won of {}",
                state.message, r.wins, r.games
            );
        }
        Err(e) => state.message = format!("{}; statistics not kept: {e}", state.message),
    }
}

/// Gives the terminal back (raw mode off, main screen, no mouse capture) when dropped, on every
/// way out of [`run`]; ratatui's panic hook does the same on a panic.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

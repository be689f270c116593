//! The full-screen mode: the terminal loop around a [`State`] that [`Action`]s update and
//! [`draw`] shows.

mod draw;
mod events;
mod keys;
mod playback;
mod state;

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;

pub use draw::{board_rect, cell_at, draw, heat};
pub use events::action;
pub use keys::{bar, bindings, key_action, Binding, Key, Keys};
pub use playback::Playback;
pub use state::{Action, Finished, Mode, Overlay, State};

use super::replay::Replay;
use super::stats::Stats;
use super::Play;

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
            if let Some(a) = action(&event::read()?, area, &state) {
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
/// from then on), `p` the game's pace again, `q` quit (the keys of [`Mode::Replay`] and the
/// modes after it). The game is not counted in the statistics.
///
/// # Errors
/// If the terminal cannot be set up or drawn on.
pub fn play_back(replay: &Replay) -> io::Result<()> {
    let mut terminal = ratatui::init();
    let _restore = Restore;
    let mut state = State::replaying(replay);
    while !state.quit {
        state.catch_up(Instant::now());
        terminal.draw(|frame| draw(&state, frame))?;
        if event::poll(FRAME)? {
            let area = terminal.get_frame().area();
            if let Some(a) = action(&event::read()?, area, &state) {
                state.apply(a);
            }
        }
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
    let won = finished.won.map(|time| (time, finished.per_second));
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

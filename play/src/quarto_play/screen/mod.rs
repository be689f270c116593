//! The full-screen mode: the terminal loop around a [`State`] that [`Action`]s update and
//! [`draw`] shows.
//!
//! The computer's moves and the hint are computed by one [`Worker`] thread, the values of every
//! move (slow with 3 or 4 pieces placed) by another, so that neither waits for the other; the
//! loop polls the keyboard and the workers' answers, so `q`, `?` and the cursor keys work while
//! the computer thinks.

mod draw;
mod keys;
mod state;

use std::io;
use std::time::Duration;

use crossterm::event;
use ratatui::DefaultTerminal;

pub use draw::{draw, needed};
pub use keys::{action, key_action};
pub use state::{step_piece, symbol, Action, Message, Part, Request, Stage, State};

use super::book::Book;
use super::game::Game;
use super::players::Level;
use super::worker::{Task, Worker};

/// How long the loop waits for a key before it looks for the workers' answers.
const POLL: Duration = Duration::from_millis(40);

/// Plays in the terminal until `q`. The terminal is restored on every exit path (ratatui's
/// `init` also restores it on a panic).
///
/// # Errors
/// A terminal error.
pub fn run(players: [Level; 2], first: u8, seed: u64, book: &Book) -> io::Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, players, first, seed, book);
    ratatui::restore();
    result
}

/// The two worker threads: one for the computer's moves and the hint, one for the values.
struct Workers {
    thinker: Worker,
    annotator: Worker,
}

impl Workers {
    /// Carries out the state's requests.
    fn serve(&self, state: &mut State) {
        for request in state.take_requests() {
            match request {
                Request::Forget => {
                    self.thinker.invalidate();
                    self.annotator.invalidate();
                }
                Request::Think(task @ Task::Annotate, position) => {
                    self.annotator.ask(task, position);
                }
                Request::Think(task, position) => self.thinker.ask(task, position),
            }
        }
    }
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    players: [Level; 2],
    first: u8,
    seed: u64,
    book: &Book,
) -> io::Result<()> {
    let workers = Workers {
        thinker: Worker::start(book.clone(), seed),
        annotator: Worker::start(book.clone(), seed),
    };
    let mut state = State::new(Game::new(first), players);
    while !state.quit {
        workers.serve(&mut state);
        while let Some(answer) = workers
            .thinker
            .answer()
            .or_else(|| workers.annotator.answer())
        {
            state.apply(Action::Answer(answer));
            workers.serve(&mut state);
        }
        terminal.draw(|frame| draw(&state, frame))?;
        if event::poll(POLL)? {
            if let Some(a) = action(&event::read()?) {
                state.apply(a);
            }
        }
    }
    Ok(())
}

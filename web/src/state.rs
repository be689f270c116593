//! What the routes share: the games in play, the work bound, the Quarto book, and the limits.

use std::sync::Arc;
use std::time::Duration;

use cp_puzzles::quarto::Book;

use crate::games::{MinesGame, QuartoMatch};
use crate::store::Store;
use crate::work::Work;

/// The server's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most games of each kind kept at once.
    pub games: usize,
    /// How long a game is kept after its last request.
    pub ttl: Duration,
    /// The most solver jobs run at once.
    pub workers: usize,
    /// How long a request waits for a worker before it is told the server is busy.
    pub wait: Duration,
    /// The largest request body, in bytes.
    pub body: usize,
}

impl Default for Limits {
    /// 1000 games of each kind, kept an hour; one worker per core, waited for 10 s; bodies up to
    /// 1 MiB.
    fn default() -> Limits {
        Limits {
            games: 1000,
            ttl: Duration::from_secs(3600),
            workers: std::thread::available_parallelism().map_or(1, usize::from),
            wait: Duration::from_secs(10),
            body: 1 << 20,
        }
    }
}

/// What the routes share: the games in play, the work bound, and the Quarto book (decoded once).
pub struct State {
    pub mines: Store<MinesGame>,
    pub quarto: Store<QuartoMatch>,
    pub work: Work,
    pub book: Arc<Book>,
    pub limits: Limits,
}

impl State {
    /// Empty stores under `limits`, and the built-in Quarto book.
    #[must_use]
    pub fn new(limits: Limits) -> State {
        State {
            mines: Store::new(limits.games, limits.ttl),
            quarto: Store::new(limits.games, limits.ttl),
            work: Work::new(limits.workers, limits.wait),
            book: Arc::new(Book::embedded()),
            limits,
        }
    }
}

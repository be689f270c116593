//! The routes, the state they share, and the limits.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use cp_puzzles::quarto::Book;

use crate::mines::MinesGame;
use crate::quarto::QuartoMatch;
use crate::store::Store;
use crate::work::Work;
use crate::{assets, mines, quarto, solvers};

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

/// Every route of the app (see `docs/web.md` for the API).
pub fn router(state: Arc<State>) -> Router {
    let body = state.limits.body;
    Router::new()
        .route("/", get(assets::index))
        .route("/static/{name}", get(assets::file))
        .route("/api/mines/new", post(mines::new_game))
        .route("/api/mines/replay", post(mines::load_replay))
        .route("/api/mines/{id}", get(mines::show))
        .route("/api/mines/{id}/move", post(mines::make_move))
        .route("/api/mines/{id}/bot", post(mines::bot_move))
        .route("/api/mines/{id}/analysis", get(mines::analysis))
        .route("/api/mines/{id}/replay", get(mines::replay_text))
        .route("/api/mines/{id}/step", post(mines::replay_step))
        .route("/api/quarto/new", post(quarto::new_game))
        .route("/api/quarto/{id}", get(quarto::show))
        .route("/api/quarto/{id}/move", post(quarto::make_move))
        .route("/api/quarto/{id}/values", get(quarto::values))
        .route("/api/solve/minesweeper", post(solvers::minesweeper))
        .route("/api/solve/maxblack", post(solvers::maxblack))
        .route("/api/solve/quarto", post(solvers::quarto))
        .layer(DefaultBodyLimit::max(body))
        .with_state(state)
}

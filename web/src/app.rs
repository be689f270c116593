//! The routes (see `docs/web.md` for the API).

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use crate::state::State;
use crate::{assets, mines, quarto, solvers};

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

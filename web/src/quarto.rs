//! Quarto against the computer players (`quarto-play`'s random, easy, medium and perfect), with
//! every move's value (the lines of `quarto --values`) on demand.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Path, State as Extract};
use axum::Json;
use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{
    move_values_threaded, Book, Cell, Move, MoveValue, Outcome, Piece, Position,
};
use cp_puzzles_play::quarto_play::game::{Game, Outcome as End};
use cp_puzzles_play::quarto_play::players::{choose, Level};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::QuartoMatch;
use crate::state::State;
use crate::store::{GameId, Shared};

/// `POST /api/quarto/new`: which player you are (1 gives the first piece) and the computer's
/// level (`random`, `easy`, `medium` or `perfect`); the seed of the computer's random choices.
#[derive(Debug, Deserialize)]
pub struct NewMatch {
    pub you: u8,
    pub level: String,
    pub seed: Option<u64>,
}

/// `POST /api/quarto/{id}/move`: the cell to place the piece in hand on (0 to 15, row-major; none
/// at the start) and the piece to give (0 to 15; none when the placement ends the game).
#[derive(Debug, Deserialize)]
pub struct MoveRequest {
    pub place: Option<u8>,
    pub give: Option<u8>,
}

/// A position as the page draws it.
#[derive(Debug, Serialize)]
pub struct PositionView {
    /// The 16 cells, row-major: a piece 0 to 15, or null.
    pub board: Vec<Option<u8>>,
    /// The piece to place, null at the start.
    pub hand: Option<u8>,
    /// The pieces neither on the board nor in hand.
    pub free: Vec<u8>,
    /// The position in the solver's text format (`quarto` reads it).
    pub text: String,
}

/// A game as the page draws it.
#[derive(Debug, Serialize)]
pub struct MatchView {
    pub id: String,
    pub position: PositionView,
    pub you: u8,
    pub level: String,
    /// The player (1 or 2) to move, or who moved last once the game is over.
    pub to_move: u8,
    /// null while playing, else `1 wins`, `2 wins` or `draw`.
    pub result: Option<String>,
    /// The cells of the winning lines.
    pub winning: Vec<u8>,
    /// The moves so far, in `quarto`'s words.
    pub moves: Vec<String>,
}

/// One line of `quarto --values`.
#[derive(Debug, Serialize)]
pub struct ValueView {
    pub place: Option<u8>,
    pub give: Option<u8>,
    /// `win`, `draw` or `loss`, for the player to move.
    pub value: &'static str,
    /// The N of `win in N` or `loss in N`.
    pub distance: Option<u32>,
    /// The line as `quarto --values` prints it.
    pub text: String,
}

/// Every move's value, best first.
#[derive(Debug, Serialize)]
pub struct ValuesView {
    pub lines: Vec<ValueView>,
    /// The lines as `quarto --values` prints them.
    pub text: String,
    pub server_ms: f64,
}

/// The view of `position`.
#[must_use]
pub fn position_view(position: &Position) -> PositionView {
    let board: Vec<Option<u8>> = (0..16u8)
        .map(|i| position.board.get(Cell::from_index(i)).map(Piece::index))
        .collect();
    let hand = position.hand.map(Piece::index);
    let free = (0..16u8)
        .filter(|p| !board.contains(&Some(*p)) && hand != Some(*p))
        .collect();
    let mut text = String::new();
    for row in board.chunks(4) {
        let cells: Vec<String> = row
            .iter()
            .map(|c| c.map_or_else(|| ".".into(), |p| format!("{p:04b}")))
            .collect();
        text += &cells.join(" ");
        text.push('\n');
    }
    text += &hand.map_or_else(|| "-".into(), |p| format!("{p:04b}"));
    text.push('\n');
    PositionView {
        board,
        hand,
        free,
        text,
    }
}

fn view_of(id: &GameId, m: &QuartoMatch) -> MatchView {
    let g = &m.game;
    MatchView {
        id: id.as_str().to_string(),
        position: position_view(&g.position()),
        you: m.you,
        level: m.level.to_string(),
        to_move: g.to_move(),
        result: g.outcome().map(|o| match o {
            End::Win(p) => format!("{p} wins"),
            End::Draw => "draw".into(),
        }),
        winning: g.winning_cells().iter().map(|c| c.index()).collect(),
        moves: g.moves().iter().map(ToString::to_string).collect(),
    }
}

/// The computer's moves until it is the person's turn or the game is over.
fn reply(m: &mut QuartoMatch, book: &Book) {
    while m.game.outcome().is_none() && m.game.to_move() != m.you {
        let mv = choose(m.level, &m.game.position(), book, &mut m.rng);
        m.game.play(mv).expect("a computer player's move is legal");
    }
}

/// The lines of `quarto --values` for `position`, with the book, on `threads` threads.
#[must_use]
pub fn values_of(position: &Position, book: &Book, threads: usize) -> ValuesView {
    let start = Instant::now();
    let lines = move_values_threaded(position, book, threads);
    let server_ms = start.elapsed().as_secs_f64() * 1e3;
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    ValuesView {
        lines: lines.iter().map(value_view).collect(),
        text,
        server_ms,
    }
}

fn value_view(line: &MoveValue) -> ValueView {
    let (value, distance) = match line.outcome {
        Outcome::Win(n) => ("win", Some(n)),
        Outcome::Draw => ("draw", None),
        Outcome::Loss(n) => ("loss", Some(n)),
    };
    ValueView {
        place: line.mv.place.map(Cell::index),
        give: line.mv.give.map(Piece::index),
        value,
        distance,
        text: line.to_string(),
    }
}

fn find(state: &State, id: &str) -> Result<(GameId, Shared<QuartoMatch>), ApiError> {
    let id = GameId::parse(id).ok_or_else(ApiError::no_game)?;
    let game = state.quarto.get(&id).ok_or_else(ApiError::no_game)?;
    Ok((id, game))
}

fn lock(shared: &Shared<QuartoMatch>) -> std::sync::MutexGuard<'_, QuartoMatch> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `POST /api/quarto/new`: a new game; the computer moves first if it is player 1.
pub async fn new_game(
    Extract(state): Extract<Arc<State>>,
    Json(request): Json<NewMatch>,
) -> Result<Json<MatchView>, ApiError> {
    if !(1..=2).contains(&request.you) {
        return Err(ApiError::bad(format!(
            "expected you to be player 1 or 2, found {}",
            request.you
        )));
    }
    let level: Level = request.level.parse().map_err(ApiError::bad)?;
    if level == Level::Human {
        return Err(ApiError::bad(
            "expected the computer's level: random, easy, medium or perfect",
        ));
    }
    let seed = request.seed.unwrap_or_else(|| {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(1u8)
    });
    let m = QuartoMatch {
        game: Game::new(1),
        you: request.you,
        level,
        rng: Rng::new(seed),
    };
    let (id, shared) = state.quarto.insert(m);
    let book = Arc::clone(&state.book);
    state
        .work
        .run(move || {
            let mut m = lock(&shared);
            reply(&mut m, &book);
            Json(view_of(&id, &m))
        })
        .await
}

/// `GET /api/quarto/{id}`: the game as it stands.
pub async fn show(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Json<MatchView>, ApiError> {
    let (id, shared) = find(&state, &id)?;
    let m = lock(&shared);
    Ok(Json(view_of(&id, &m)))
}

/// `POST /api/quarto/{id}/move`: the person's move, then the computer's reply.
pub async fn make_move(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
    Json(request): Json<MoveRequest>,
) -> Result<Json<MatchView>, ApiError> {
    let (id, shared) = find(&state, &id)?;
    let cell = |i: u8| (i < 16).then(|| Cell::from_index(i));
    let place = match request.place {
        Some(i) => Some(
            cell(i)
                .ok_or_else(|| ApiError::bad(format!("expected a cell from 0 to 15, found {i}")))?,
        ),
        None => None,
    };
    let give =
        match request.give {
            Some(i) => Some(Piece::new(i).ok_or_else(|| {
                ApiError::bad(format!("expected a piece from 0 to 15, found {i}"))
            })?),
            None => None,
        };
    let mv = Move { place, give };
    let book = Arc::clone(&state.book);
    state
        .work
        .run(move || {
            let mut m = lock(&shared);
            if m.game.outcome().is_none() && m.game.to_move() != m.you {
                return Err(ApiError::conflict("it is the computer's turn"));
            }
            m.game.play(mv).map_err(ApiError::bad)?;
            reply(&mut m, &book);
            Ok(Json(view_of(&id, &m)))
        })
        .await?
}

/// `GET /api/quarto/{id}/values`: every move's value in the position, as `quarto --values`.
pub async fn values(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Json<ValuesView>, ApiError> {
    let (_, shared) = find(&state, &id)?;
    let position = {
        let m = lock(&shared);
        if m.game.outcome().is_some() {
            return Err(ApiError::conflict("the game is over: no move to value"));
        }
        m.game.position()
    };
    let book = Arc::clone(&state.book);
    let threads = state.limits.workers;
    state
        .work
        .run(move || Json(values_of(&position, &book, threads)))
        .await
}

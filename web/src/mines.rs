//! Minesweeper: games played through the API, the analyzer's overlay, the bot, and replays.
//!
//! The game is `minesweeper-play`'s [`Play`]: the layout is drawn by the first click (no-guess
//! if asked), and stays on the server until the game is over; the view sent before then holds
//! only what the player sees.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State as Extract};
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;
use cp_puzzles::minesweeper::bot::set_deadline;
use cp_puzzles::minesweeper::game::{Config, FirstClick, Level, Status};
use cp_puzzles::minesweeper::{Cell, Pos};
use cp_puzzles_play::minesweeper_play::replay::Replay;
use cp_puzzles_play::minesweeper_play::{event_text, Move, Play, Setup};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::{MinesGame, Playback};
use crate::state::State;
use crate::store::{GameId, Shared};

/// The largest board side played here (the analyzer's own limit is larger: such boards are for
/// the command line).
pub const MAX_SIDE: usize = 100;

/// How long one of the bot's moves may think before it gives up.
pub const BOT_DEADLINE: Duration = Duration::from_secs(5);

/// `POST /api/mines/new`: a level (`beginner`, `intermediate`, `expert`) or a custom size, the
/// first-click rule (`safe` or `opening`), no-guess or not, and optionally the seed.
#[derive(Debug, Deserialize)]
pub struct NewGame {
    pub level: Option<String>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    pub mines: Option<usize>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub no_guess: bool,
    pub seed: Option<u64>,
}

/// `POST /api/mines/{id}/move`: `reveal`, `flag` or `chord` at (x, y), from 0.
#[derive(Debug, Deserialize)]
pub struct MoveRequest {
    pub action: String,
    pub x: usize,
    pub y: usize,
}

/// A won game's score.
#[derive(Debug, Serialize)]
pub struct ScoreView {
    pub three_bv: usize,
    /// 3BV per second, only for a game won in a second or more (`null` otherwise).
    pub per_second: Option<f64>,
    pub efficiency: Option<f64>,
}

/// Where a replay's playback stands.
#[derive(Debug, Serialize)]
pub struct PlaybackView {
    pub played: usize,
    pub total: usize,
    /// The replay's time of the last action played, in milliseconds.
    pub time_ms: u64,
    /// The wait before the next action at the game's pace, if there is one.
    pub next_in_ms: Option<u64>,
}

/// A game as the page draws it.
///
/// `cells` has one letter per cell, row-major: `.` hidden, `F` flagged, `0` to `8` revealed;
/// once the game is over, also `*` an unflagged mine, `X` the mine that was hit, `!` a flag on
/// a safe cell. Before then no letter tells where a mine is.
#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    /// `beginner`, `intermediate`, `expert`, or `WxH/M`.
    pub board: String,
    pub rule: String,
    pub no_guess: bool,
    pub cells: String,
    /// `playing`, `won` or `lost`.
    pub status: &'static str,
    pub mines_left: i64,
    pub elapsed_ms: u64,
    pub clicks: u64,
    /// The layout's 3BV, once the game is over.
    pub three_bv: Option<usize>,
    pub score: Option<ScoreView>,
    pub botted: bool,
    /// What the last move did, in words (empty if nothing worth saying).
    pub said: String,
    /// The bot's moves of the last bot step, in words.
    pub events: Vec<String>,
    pub notice: Option<String>,
    pub playback: Option<PlaybackView>,
}

/// `GET /api/mines/{id}/analysis`: the exact analyzer on the player's view.
#[derive(Debug, Serialize)]
pub struct AnalysisView {
    /// Hidden cells safe in every arrangement, as `[x, y]`.
    pub safe: Vec<[usize; 2]>,
    /// Hidden unflagged cells that are a mine in every arrangement.
    pub mines: Vec<[usize; 2]>,
    /// The recommended click, `[x, y, p]`.
    pub best: Option<(usize, usize, f64)>,
    /// Every hidden unflagged cell's mine probability, `[x, y, p]`.
    pub cells: Vec<(usize, usize, f64)>,
    /// The analyzer's time on the server, in milliseconds.
    pub server_ms: f64,
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Playing => "playing",
        Status::Won => "won",
        Status::Lost => "lost",
    }
}

/// The seed of a game nobody asked to repeat.
fn fresh_seed() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u8) % 1_000_000_000
}

/// The setup a new-game request asks for, checked.
///
/// # Errors
/// An unknown level or rule, a custom size without all of width, height and mines, a side over
/// [`MAX_SIDE`], or too many mines for some first click.
pub fn setup_of(request: &NewGame) -> Result<Setup, String> {
    let config = match (request.width, request.height, request.mines) {
        (Some(w), Some(h), Some(m)) => {
            if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
                return Err(format!(
                    "expected a width and a height from 1 to {MAX_SIDE}, found {w} x {h}"
                ));
            }
            Config::new(w, h, m).map_err(|e| e.to_string())?
        }
        (None, None, None) => {
            let level = request.level.as_deref().unwrap_or("beginner");
            Config::level(level.parse::<Level>().map_err(|e| e.to_string())?)
        }
        _ => return Err("expected width, height and mines together, or a level".into()),
    };
    let rule = request
        .rule
        .as_deref()
        .unwrap_or("safe")
        .parse::<FirstClick>()
        .map_err(|e| e.to_string())?;
    let setup = Setup {
        config,
        rule,
        seed: request.seed.unwrap_or_else(fresh_seed),
        no_guess: request.no_guess,
    };
    setup.check().map_err(|e| e.to_string())?;
    Ok(setup)
}

/// The cells' letters (see [`GameView`]).
fn cells_of(play: &Play) -> String {
    let view = play.view();
    let over = play.status() != Status::Playing;
    let game = play.game().filter(|_| over);
    view.positions()
        .map(|p| {
            let mine = game.is_some_and(|g| g.layout().is_mine(p));
            match view.get(p) {
                Cell::Revealed(n) => char::from(b'0' + n),
                Cell::Flagged if game.is_some() && !mine => '!',
                Cell::Flagged => 'F',
                Cell::Hidden if play.hit() == Some(p) => 'X',
                Cell::Hidden if mine => '*',
                Cell::Hidden => '.',
            }
        })
        .collect()
}

/// The view of `game` under `id`, with what the last move said and the bot's events.
fn view_of(id: &GameId, game: &MinesGame, said: String, events: Vec<String>) -> GameView {
    let play = &game.play;
    let setup = play.setup();
    let c = setup.config;
    let over = play.status() != Status::Playing;
    let playback = game.playback.as_ref().map(|b| {
        let time = |i: usize| b.replay.actions.get(i).map(|&(t, _)| t);
        let now = b.next.checked_sub(1).and_then(time).unwrap_or_default();
        PlaybackView {
            played: b.next,
            total: b.replay.actions.len(),
            time_ms: millis(now),
            next_in_ms: time(b.next).map(|t| millis(t.saturating_sub(now))),
        }
    });
    GameView {
        id: id.as_str().to_string(),
        width: c.width(),
        height: c.height(),
        mines: c.mines(),
        board: setup.board_name(),
        rule: setup.rule.to_string(),
        no_guess: setup.no_guess,
        cells: cells_of(play),
        status: status_word(play.status()),
        mines_left: play.mines_left(),
        elapsed_ms: playback
            .as_ref()
            .map_or_else(|| millis(play.elapsed()), |b| b.time_ms),
        clicks: play.clicks(),
        three_bv: play.three_bv().filter(|_| over),
        score: play.score().map(|s| ScoreView {
            three_bv: s.three_bv,
            per_second: s.per_second,
            efficiency: s.efficiency,
        }),
        botted: play.botted(),
        said,
        events,
        notice: None,
        playback,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The game under the id in the path.
fn find(state: &State, id: &str) -> Result<(GameId, Shared<MinesGame>), ApiError> {
    let id = GameId::parse(id).ok_or_else(ApiError::no_game)?;
    let game = state.mines.get(&id).ok_or_else(ApiError::no_game)?;
    Ok((id, game))
}

/// Runs `job` on the game under `id` on a worker, and answers its view.
async fn with_game<F>(state: Arc<State>, id: String, job: F) -> Result<Json<GameView>, ApiError>
where
    F: FnOnce(&mut MinesGame) -> Result<(String, Vec<String>), ApiError> + Send + 'static,
{
    let (id, shared) = find(&state, &id)?;
    state
        .work
        .run(move || {
            let mut game = shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (said, events) = job(&mut game)?;
            let notice = game.play.take_notice();
            let mut view = view_of(&id, &game, said, events);
            view.notice = notice;
            Ok(Json(view))
        })
        .await?
}

/// `POST /api/mines/new`: a new game, before its first click.
pub async fn new_game(
    Extract(state): Extract<Arc<State>>,
    Json(request): Json<NewGame>,
) -> Result<Json<GameView>, ApiError> {
    let setup = setup_of(&request).map_err(ApiError::bad)?;
    let play = Play::new(setup).map_err(|e| ApiError::bad(e.to_string()))?;
    let game = MinesGame {
        play,
        playback: None,
    };
    let (id, shared) = state.mines.insert(game);
    let game = shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Json(view_of(&id, &game, String::new(), vec![])))
}

/// `GET /api/mines/{id}`: the game as it stands.
pub async fn show(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |_| Ok((String::new(), vec![]))).await
}

/// `POST /api/mines/{id}/move`: the player's move (the first reveal draws the layout).
pub async fn make_move(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
    Json(request): Json<MoveRequest>,
) -> Result<Json<GameView>, ApiError> {
    let p = Pos::new(request.x, request.y);
    let m = match request.action.as_str() {
        "reveal" => Move::Reveal(p),
        "flag" => Move::Flag(p),
        "chord" => Move::Chord(p),
        other => {
            return Err(ApiError::bad(format!(
                "expected the action reveal, flag or chord, found \"{other}\""
            )))
        }
    };
    with_game(state, id, move |game| {
        if game.playback.is_some() {
            return Err(ApiError::conflict("a replay is played back, not played"));
        }
        Ok((game.play.play(m).to_string(), vec![]))
    })
    .await
}

/// `POST /api/mines/{id}/bot`: one move of the bot (its first click, or one analysis and every
/// proved move, or one guess).
pub async fn bot_move(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |game| {
        if game.playback.is_some() {
            return Err(ApiError::conflict("a replay is played back, not played"));
        }
        let mut events = Vec::new();
        set_deadline(Some(Instant::now() + BOT_DEADLINE));
        let said = game.play.bot_step(&mut |e| events.push(event_text(e)));
        set_deadline(None);
        let said = said.map_err(|e| ApiError::conflict(e.to_string()))?;
        Ok((said.to_string(), events))
    })
    .await
}

/// `GET /api/mines/{id}/analysis`: every hidden cell's mine probability on the player's view.
pub async fn analysis(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Json<AnalysisView>, ApiError> {
    let (_, shared) = find(&state, &id)?;
    state
        .work
        .run(move || {
            let game = shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let start = Instant::now();
            let a = game
                .play
                .analysis()
                .map_err(|e| ApiError::conflict(e.to_string()))?;
            let server_ms = start.elapsed().as_secs_f64() * 1e3;
            let xy = |p: &Pos| [p.x, p.y];
            Ok(Json(AnalysisView {
                safe: a.safe.iter().map(xy).collect(),
                mines: a.mines.iter().map(xy).collect(),
                best: a.best.map(|(p, q)| (p.x, p.y, q)),
                cells: a
                    .probabilities
                    .iter()
                    .map(|&(p, q)| (p.x, p.y, q))
                    .collect(),
                server_ms,
            }))
        })
        .await?
}

/// `GET /api/mines/{id}/replay`: the game as a replay file (`minesweeper-play --replay` reads
/// it), once it is over: it holds the layout.
pub async fn replay_text(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let (_, shared) = find(&state, &id)?;
    let game = shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if game.play.status() == Status::Playing {
        return Err(ApiError::conflict(
            "the replay is given once the game is over: it shows where the mines are",
        ));
    }
    let replay = game
        .playback
        .as_ref()
        .map(|b| b.replay.clone())
        .or_else(|| game.play.replay())
        .ok_or_else(|| ApiError::conflict("the game has no move yet"))?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        replay.to_string(),
    ))
}

/// `POST /api/mines/replay`: a replay file's text, to play back with `step`.
pub async fn load_replay(
    Extract(state): Extract<Arc<State>>,
    text: String,
) -> Result<Json<GameView>, ApiError> {
    let replay = Replay::parse(&text).map_err(ApiError::bad)?;
    let c = replay.layout.config();
    if c.width() > MAX_SIDE || c.height() > MAX_SIDE {
        return Err(ApiError::bad(format!(
            "expected a board of at most {MAX_SIDE} x {MAX_SIDE} here, found {c}"
        )));
    }
    let game = MinesGame {
        play: Play::from_replay(&replay),
        playback: Some(Playback { replay, next: 0 }),
    };
    let (id, shared) = state.mines.insert(game);
    let game = shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Json(view_of(&id, &game, String::new(), vec![])))
}

/// `POST /api/mines/{id}/step`: plays back the replay's next action.
pub async fn replay_step(
    Extract(state): Extract<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |game| {
        let Some(back) = game.playback.as_mut() else {
            return Err(ApiError::conflict("this game is not a replay"));
        };
        let Some(&(_, m)) = back.replay.actions.get(back.next) else {
            return Err(ApiError::conflict("the replay is over"));
        };
        back.next += 1;
        Ok((game.play.play(m).to_string(), vec![]))
    })
    .await
}

//! The Minesweeper page in a real browser.

use std::time::Duration;

use serde_json::Value;

use crate::browser::{Browser, Server, ONE_AT_A_TIME};

const GAME: &str = "window.puzzles.mines.game";

/// Opens the Minesweeper page and waits for its first game.
async fn open() -> (Server, Browser) {
    let server = Server::start();
    let browser = Browser::start().await;
    browser
        .client
        .goto(&format!("{}#mines", server.url))
        .await
        .expect("the page loads");
    browser
        .wait(
            &format!("{GAME}.id"),
            Duration::from_secs(20),
            "the first game",
        )
        .await;
    (server, browser)
}

/// Starts a game of `setup` (a JavaScript statement that sets the form) and waits for it.
async fn new_game(b: &Browser, setup: &str, check: &str) {
    let before = b.js(&format!("return {GAME}.id;")).await;
    b.js(&format!("{setup}; return true;")).await;
    b.click("#mines-new").await;
    b.wait(
        &format!("{GAME}.id !== {before} && {check}"),
        Duration::from_secs(20),
        "the new game",
    )
    .await;
}

/// Clicks cell (x, y) and waits for the board drawn after it.
async fn click_cell(b: &Browser, x: u64, y: u64) {
    let rendered = b.js("return window.puzzles.mines.renders;").await;
    b.click(&format!(
        "#mines-board .mcell[data-x=\"{x}\"][data-y=\"{y}\"]"
    ))
    .await;
    b.wait(
        &format!("window.puzzles.mines.renders > {rendered}"),
        Duration::from_secs(20),
        "the board after a click",
    )
    .await;
}

/// Waits until the analysis drawn is that of the board shown (or the game is over).
async fn wait_overlay(b: &Browser) {
    b.wait(
        &format!(
            "{GAME}.status !== 'playing' || document.getElementById('mines-board').dataset.overlay \
             === String(window.puzzles.mines.renders)"
        ),
        Duration::from_secs(20),
        "the analysis of the board shown",
    )
    .await;
}

async fn status(b: &Browser) -> String {
    b.js(&format!("return {GAME}.status;"))
        .await
        .as_str()
        .expect("a status")
        .to_string()
}

async fn cells(b: &Browser) -> String {
    b.js(&format!("return {GAME}.cells;"))
        .await
        .as_str()
        .expect("the cells")
        .to_string()
}

fn pairs(v: &Value) -> Vec<(u64, u64)> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|p| {
            let n = |i: usize| {
                p[i].as_str()
                    .and_then(|s| s.parse().ok())
                    .expect("a number")
            };
            (n(0), n(1))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_beginner_game_is_won_by_clicking_the_cells_the_analysis_marks_safe() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    new_game(
        &b,
        "document.getElementById('mines-level').value = 'beginner'; \
         document.getElementById('mines-rule').value = 'opening'; \
         document.getElementById('mines-noguess').checked = true",
        &format!("{GAME}.no_guess && {GAME}.rule === 'opening' && {GAME}.board === 'beginner'"),
    )
    .await;
    // Before the first click, nothing on the page tells where a mine is.
    assert_eq!(cells(&b).await, ".".repeat(81));
    click_cell(&b, 4, 4).await;
    b.click("#mines-overlay").await;
    let mut clicks = 0;
    while status(&b).await == "playing" {
        wait_overlay(&b).await;
        if status(&b).await != "playing" {
            break;
        }
        let safe = pairs(
            &b.js(
                "return [...document.querySelectorAll('#mines-board .a-safe')]\
                   .map((c) => [c.dataset.x, c.dataset.y]);",
            )
            .await,
        );
        // Every hidden cell marked safe is hidden, and the analysis says so too.
        let (x, y) = *safe
            .first()
            .expect("a no-guess board has a safe cell until it is cleared");
        click_cell(&b, x, y).await;
        clicks += 1;
        assert!(clicks <= 81, "more clicks than cells");
    }
    assert_eq!(status(&b).await, "won");
    let score = b.text("#mines-score").await;
    assert!(score.starts_with("3BV "), "{score}");
    assert!(score.contains("efficiency"), "{score}");
    // A won game is in the statistics.
    b.wait(
        "document.querySelector('#mines-stats tbody tr td')?.textContent === 'beginner opening no-guess'",
        Duration::from_secs(5),
        "the statistics row",
    )
    .await;
    b.shots("mines-won").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_game_is_lost_on_the_cell_most_likely_a_mine_and_the_mines_are_shown() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    b.select("mines-level", "custom").await;
    new_game(
        &b,
        "document.getElementById('mines-width').value = 5; \
         document.getElementById('mines-height').value = 5; \
         document.getElementById('mines-count').value = 23; \
         document.getElementById('mines-rule').value = 'safe'; \
         document.getElementById('mines-noguess').checked = false",
        &format!("{GAME}.board === '5x5/23'"),
    )
    .await;
    click_cell(&b, 2, 2).await;
    b.click("#mines-overlay").await;
    for _ in 0..24 {
        wait_overlay(&b).await;
        if status(&b).await != "playing" {
            break;
        }
        let riskiest = b
            .js(
                "const cells = [...document.querySelectorAll('#mines-board .mcell[data-p]')]; \
                 cells.sort((a, b) => Number(b.dataset.p) - Number(a.dataset.p)); \
                 return [cells[0].dataset.x, cells[0].dataset.y];",
            )
            .await;
        let (x, y) = pairs(&Value::Array(vec![riskiest]))[0];
        click_cell(&b, x, y).await;
    }
    assert_eq!(status(&b).await, "lost");
    let shown = cells(&b).await;
    assert_eq!(shown.matches('X').count(), 1, "{shown}");
    assert_eq!(shown.matches('*').count(), 22, "{shown}");
    b.wait(
        "document.querySelector('#mines-stats tbody tr td')?.textContent === '5x5/23 safe'",
        Duration::from_secs(5),
        "the statistics row",
    )
    .await;
    // The statistics are folded away: their text is read from the document.
    let row = b
        .js("return [...document.querySelectorAll('#mines-stats tbody tr td')].map((c) => c.textContent);")
        .await;
    assert_eq!(
        row,
        serde_json::json!(["5x5/23 safe", "1", "0 (0%)", "", ""])
    );
    b.shots("mines-lost").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn the_bot_clears_a_no_guess_expert_board() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    new_game(
        &b,
        "document.getElementById('mines-level').value = 'expert'; \
         document.getElementById('mines-rule').value = 'opening'; \
         document.getElementById('mines-noguess').checked = true; \
         document.getElementById('mines-pace').value = '0'",
        &format!("{GAME}.board === 'expert' && {GAME}.no_guess"),
    )
    .await;
    b.click("#mines-watch").await;
    b.wait(
        &format!("{GAME}.status !== 'playing'"),
        Duration::from_secs(180),
        "the bot's game to end",
    )
    .await;
    assert_eq!(status(&b).await, "won");
    let said = b.text("#mines-said").await;
    assert!(
        !said.contains("guess"),
        "a no-guess board needs no guess: {said}"
    );
    b.shots("mines-bot-expert").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_saved_replay_plays_back_to_the_same_board() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    new_game(
        &b,
        "document.getElementById('mines-level').value = 'intermediate'; \
         document.getElementById('mines-rule').value = 'safe'; \
         document.getElementById('mines-noguess').checked = false; \
         document.getElementById('mines-pace').value = '0'",
        &format!("{GAME}.board === 'intermediate'"),
    )
    .await;
    b.click("#mines-watch").await;
    b.wait(
        &format!("{GAME}.status !== 'playing'"),
        Duration::from_secs(120),
        "the bot's game to end",
    )
    .await;
    let (end, end_status) = (cells(&b).await, status(&b).await);
    b.js("document.getElementById('mines-replays').open = true; return true;")
        .await;
    b.click("#mines-save").await;
    b.wait(
        "document.getElementById('replay-text').value.startsWith('minesweeper-play replay 1')",
        Duration::from_secs(10),
        "the replay's text",
    )
    .await;
    let text = b
        .js("return document.getElementById('replay-text').value;")
        .await;
    let text = text.as_str().expect("the replay");
    let replay = cp_puzzles_play::minesweeper_play::replay::Replay::parse(text)
        .expect("the saved replay is one minesweeper-play reads");
    b.select("replay-speed", "0").await;
    b.click("#replay-load").await;
    b.wait(
        &format!(
            "{GAME}.playback && {GAME}.playback.played === {GAME}.playback.total && {}",
            "window.puzzles.mines.playing === false"
        ),
        Duration::from_secs(60),
        "the replay played back",
    )
    .await;
    assert_eq!(
        b.js(&format!("return {GAME}.playback.total;")).await,
        Value::from(replay.actions.len())
    );
    assert_eq!(cells(&b).await, end);
    assert_eq!(status(&b).await, end_status);
    b.shots("mines-replay").await;
    b.close().await;
}

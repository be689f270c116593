//! The Quarto page in a real browser.

use std::time::Duration;

use cp_puzzles::quarto::{run_values_with_book_for, Book};
use serde_json::Value;

use crate::browser::{Browser, Server, ONE_AT_A_TIME};

const MATCH: &str = "window.puzzles.quarto.match";

async fn open() -> (Server, Browser) {
    let server = Server::start();
    let browser = Browser::start().await;
    browser
        .client
        .goto(&format!("{}#quarto", server.url))
        .await
        .expect("the page loads");
    browser
        .wait(
            &format!("{MATCH}?.id"),
            Duration::from_secs(20),
            "the first game",
        )
        .await;
    (server, browser)
}

/// Starts a game as player `you` against `level`.
async fn new_game(b: &Browser, you: u8, level: &str) {
    let before = b.js(&format!("return {MATCH}.id;")).await;
    b.select("quarto-you", &you.to_string()).await;
    b.select("quarto-level", level).await;
    b.click("#quarto-new").await;
    b.wait(
        &format!("{MATCH}.id !== {before} && !window.puzzles.quarto.busy"),
        Duration::from_secs(30),
        "the new game",
    )
    .await;
}

/// Waits until the game is over or it is the person's turn, the computer's reply shown.
async fn wait_turn(b: &Browser, moves_before: u64) {
    b.wait(
        &format!(
            "!window.puzzles.quarto.busy && {MATCH}.moves.length > {moves_before} && \
             ({MATCH}.result !== null || {MATCH}.to_move === {MATCH}.you)"
        ),
        Duration::from_secs(60),
        "the computer's reply",
    )
    .await;
}

async fn game(b: &Browser) -> Value {
    b.js(&format!("return {MATCH};")).await
}

/// A small seeded generator for the random player's choices.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// One move of a random player through the page: a random free cell, then a random piece.
async fn random_move(b: &Browser, rng: &mut Lcg) {
    let m = game(b).await;
    let n = m["moves"].as_array().expect("moves").len() as u64;
    let free: Vec<u64> = m["position"]["free"]
        .as_array()
        .expect("free pieces")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    if !m["position"]["hand"].is_null() {
        let empty: Vec<usize> = m["position"]["board"]
            .as_array()
            .expect("a board")
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_null())
            .map(|(i, _)| i)
            .collect();
        let cell = empty[rng.below(empty.len())];
        b.click(&format!("#quarto-board .qcell[data-cell=\"{cell}\"]"))
            .await;
        // A placement that ends the game is sent at once; else a piece is given.
        let pending = b.js("return window.puzzles.quarto.pending;").await;
        if pending.as_u64() != Some(cell as u64) {
            wait_turn(b, n).await;
            return;
        }
    }
    let piece = free[rng.below(free.len())];
    b.click(&format!("#quarto-free .qpiece[data-piece=\"{piece}\"]"))
        .await;
    wait_turn(b, n).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_random_player_loses_to_perfect() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    new_game(&b, 1, "perfect").await;
    let mut rng = Lcg(7);
    for _ in 0..16 {
        if !game(&b).await["result"].is_null() {
            break;
        }
        random_move(&b, &mut rng).await;
    }
    let m = game(&b).await;
    assert_eq!(m["result"], Value::from("2 wins"), "{m}");
    assert_eq!(b.text("#quarto-state").await, "you lose (perfect wins)");
    assert!(!m["winning"].as_array().expect("cells").is_empty());
    b.shots("quarto-lost").await;
    b.close().await;
}

/// The lines `quarto --values` prints for `position` (the binary's own code path).
fn cli_values(position: &str) -> String {
    let mut out = Vec::new();
    run_values_with_book_for(position.as_bytes(), &mut out, 1, Book::embedded_for)
        .expect("a position");
    String::from_utf8(out).expect("text")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn the_values_on_the_board_are_those_of_quarto_values() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    new_game(&b, 2, "random").await;
    let mut rng = Lcg(11);
    // Two moves of each side: 4 pieces placed, a piece in hand.
    for _ in 0..2 {
        random_move(&b, &mut rng).await;
    }
    let m = game(&b).await;
    assert!(m["result"].is_null(), "{m}");
    b.click("#quarto-values-toggle").await;
    b.wait(
        "window.puzzles.quarto.values && document.getElementById('quarto-board').dataset.values",
        Duration::from_secs(60),
        "the values",
    )
    .await;
    let position = b.text("#quarto-text").await + "\n";
    let expected = cli_values(&position);
    let shown = b.js("return window.puzzles.quarto.values.text;").await;
    assert_eq!(shown.as_str(), Some(expected.as_str()), "{position}");
    // Each empty cell shows the best line that places there: `W3`, `D` or `L2`.
    let labels = b
        .js(
            "return [...document.querySelectorAll('#quarto-board .qcell')]\
             .map((c) => c.querySelector('.val')?.textContent ?? null);",
        )
        .await;
    let mut best: Vec<Option<String>> = vec![None; 16];
    for line in expected.lines() {
        // `place R C give PPPP: ...`, or `place R C: win in 1` for a placement that ends the game.
        let words: Vec<&str> = line.split_whitespace().collect();
        let column = words[2].trim_end_matches(':');
        let cell = 4 * words[1].parse::<usize>().unwrap() + column.parse::<usize>().unwrap();
        let outcome = line.split(": ").nth(1).unwrap();
        let label = match outcome.split_whitespace().collect::<Vec<_>>()[..] {
            ["win", "in", n] => format!("W{n}"),
            ["loss", "in", n] => format!("L{n}"),
            _ => "D".to_string(),
        };
        best[cell].get_or_insert(label);
    }
    let labels: Vec<Option<String>> = labels
        .as_array()
        .expect("labels")
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect();
    assert_eq!(labels, best, "{position}");
    b.click("#quarto-hint").await;
    let first = expected.lines().next().expect("a move");
    assert_eq!(b.text("#quarto-said").await, format!("hint: {first}"));
    b.shots("quarto-values").await;
    b.close().await;
}

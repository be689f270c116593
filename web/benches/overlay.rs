//! The page's speed, measured in headless Chromium through the Performance API: the first
//! contentful paint of the page from a server just started, and the analysis overlay on expert
//! boards (30 x 16, 99 mines, first click safe), from the request to the frame that shows it,
//! with the analyzer's own time on the server. Prints medians; asserts nothing.
//!
//! `cargo bench -p puzzles-web --bench overlay` (needs Debian's chromium and chromium-driver).
//! `OVERLAY_GAMES=N` sets the number of games (default 5; seeds 1 to N).

#[path = "../tests/browser/mod.rs"]
mod browser;

use std::time::Duration;

use browser::{Browser, Server};
use serde_json::Value;

const GAME: &str = "window.puzzles.mines.game";

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    if values.is_empty() {
        return f64::NAN;
    }
    values[values.len() / 2]
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() as f64 - 1.0) * p).round() as usize]
}

async fn wait_overlay(b: &Browser) {
    b.wait(
        &format!(
            "{GAME}.status !== 'playing' || document.getElementById('mines-board').dataset.overlay \
             === String(window.puzzles.mines.renders)"
        ),
        Duration::from_secs(30),
        "the analysis",
    )
    .await;
}

async fn click(b: &Browser, x: &Value, y: &Value) {
    let rendered = b.js("return window.puzzles.mines.renders;").await;
    let (x, y) = (x.as_str().unwrap_or("0"), y.as_str().unwrap_or("0"));
    b.click(&format!(
        "#mines-board .mcell[data-x=\"{x}\"][data-y=\"{y}\"]"
    ))
    .await;
    b.wait(
        &format!("window.puzzles.mines.renders > {rendered}"),
        Duration::from_secs(30),
        "the board",
    )
    .await;
}

async fn run() {
    let games: u64 = std::env::var("OVERLAY_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(5);
    let server = Server::start();
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}?seed=1#mines", server.url))
        .await
        .expect("the page");
    b.wait(&format!("{GAME}?.id"), Duration::from_secs(30), "the page")
        .await;
    let paint = b
        .js("return performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;")
        .await;
    let bytes = b
        .js("return performance.getEntriesByType('resource').reduce((a, r) => a + r.decodedBodySize, \
             performance.getEntriesByType('navigation')[0].decodedBodySize);")
        .await;
    println!("first contentful paint: {paint} ms; page and its files: {bytes} bytes");
    b.js("document.getElementById('mines-level').value = 'expert'; \
          document.getElementById('mines-rule').value = 'safe'; return true;")
        .await;
    b.click("#mines-overlay").await;
    for _ in 0..games {
        let before = b.js(&format!("return {GAME}.id;")).await;
        b.click("#mines-new").await;
        b.wait(
            &format!("{GAME}.id !== {before} && {GAME}.board === 'expert'"),
            Duration::from_secs(30),
            "a new game",
        )
        .await;
        click(&b, &Value::from("15"), &Value::from("8")).await;
        // Each position of the game: the overlay, then a click on a safe cell (or the best one).
        for _ in 0..400 {
            wait_overlay(&b).await;
            let next = b
                .js("const s = document.querySelector('#mines-board .a-safe') ?? \
                     document.querySelector('#mines-board .a-best'); \
                     return s && window.puzzles.mines.game.status === 'playing' ? [s.dataset.x, s.dataset.y] : null;")
                .await;
            let Some(cell) = next.as_array() else { break };
            click(&b, &cell[0], &cell[1]).await;
        }
    }
    let times = b.js("return window.puzzles.mines.overlayMs;").await;
    let times = times.as_array().expect("the overlay times");
    let mut total: Vec<f64> = times.iter().filter_map(|t| t["ms"].as_f64()).collect();
    let mut server_ms: Vec<f64> = times.iter().filter_map(|t| t["server"].as_f64()).collect();
    let mut fetch_ms: Vec<f64> = times.iter().filter_map(|t| t["fetch"].as_f64()).collect();
    println!(
        "expert overlay, {} positions of {games} games (seeds 1 to {games}): click to frame median {:.1} ms, \
         90th percentile {:.1} ms, worst {:.1} ms; the request alone median {:.1} ms, the analyzer \
         on the server median {:.2} ms",
        total.len(),
        median(&mut total),
        percentile(&mut total, 0.9),
        percentile(&mut total, 1.0),
        median(&mut fetch_ms),
        median(&mut server_ms),
    );
    b.close().await;
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(run());
}

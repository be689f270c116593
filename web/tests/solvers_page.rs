//! The solvers' page in a real browser.

use std::time::Duration;

use cp_puzzles::quarto::{run_values_with_book_for, Book};

use crate::browser::{Browser, Server, ONE_AT_A_TIME};

async fn open() -> (Server, Browser) {
    let server = Server::start();
    let browser = Browser::start().await;
    browser
        .client
        .goto(&format!("{}#solvers", server.url))
        .await
        .expect("the page loads");
    browser
        .wait(
            "window.puzzles?.solvers",
            Duration::from_secs(20),
            "the page",
        )
        .await;
    (server, browser)
}

/// Solves `input` as the puzzle `kind` and waits for the drawing.
async fn solve(b: &Browser, kind: &str, input: &str) {
    b.select("solver-kind", kind).await;
    let text = serde_json::to_string(input).expect("a string");
    b.js(&format!(
        "document.getElementById('solver-input').value = {text}; return true;"
    ))
    .await;
    let before = b.js("return window.puzzles.solvers.renders;").await;
    b.click("#solver-run").await;
    b.wait(
        &format!("window.puzzles.solvers.renders > {before}"),
        Duration::from_secs(60),
        "the answer",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_maxblack_9x9_k4_optimum_is_drawn() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../testcases/maxblack/");
    let input = std::fs::read_to_string(format!("{root}01.in")).expect("the case");
    assert_eq!(input.trim(), "9 4");
    let expected = std::fs::read_to_string(format!("{root}01.out")).expect("the answer");
    solve(&b, "maxblack", &input).await;
    // The grids drawn, read back from the page's cells.
    let drawn = b
        .js("return [...document.querySelectorAll('.mbgrid')].map((g) => { \
               const cells = [...g.children].map((c) => c.classList.contains('b') ? '#' : '.'); \
               const rows = []; \
               for (let i = 0; i < cells.length; i += 9) rows.push(cells.slice(i, i + 9).join('')); \
               return rows.join('\\n'); });")
        .await;
    let drawn: Vec<String> = drawn
        .as_array()
        .expect("grids")
        .iter()
        .map(|g| g.as_str().expect("a grid").to_string())
        .collect();
    let mut parts = expected.split("\n\n");
    let head = parts.next().expect("the counts");
    let grids: Vec<String> = parts.map(|g| g.trim_end().to_string()).collect();
    assert_eq!(drawn, grids);
    let max = head.lines().next().expect("the maximum");
    let summary = b.text("#maxblack-summary").await;
    assert!(
        summary.contains(&format!("at most {max} black cells")),
        "{summary}"
    );
    b.shots("solver-maxblack").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_quarto_position_shows_the_lines_of_quarto_values() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    let position = "0000 . . 1010\n. 1111 . .\n. 0110 . .\n. . . 0101\n0011\n";
    solve(&b, "quarto", position).await;
    let mut out = Vec::new();
    run_values_with_book_for(position.as_bytes(), &mut out, 1, Book::embedded_for)
        .expect("a position");
    let expected = String::from_utf8(out).expect("text");
    let items = b
        .js("return [...document.querySelectorAll('#quarto-lines li')].map((l) => l.textContent);")
        .await;
    let items: Vec<&str> = items
        .as_array()
        .expect("lines")
        .iter()
        .map(|v| v.as_str().expect("a line"))
        .collect();
    assert_eq!(items, expected.lines().collect::<Vec<_>>());
    b.shots("solver-quarto").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: drives headless Chromium, needs chromium and chromium-driver"]
async fn a_minesweeper_board_is_drawn_with_its_probabilities() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_server, b) = open().await;
    solve(&b, "minesweeper", "3x3x1\nHHH\nH1H\nHHH\n").await;
    let labels = b
        .js("return [...document.querySelectorAll('#solver-drawing .mcell')].map((c) => c.dataset.p ?? c.textContent);")
        .await;
    let expected: Vec<&str> = vec![
        "0.125", "0.125", "0.125", "0.125", "1", "0.125", "0.125", "0.125", "0.125",
    ];
    let labels: Vec<&str> = labels
        .as_array()
        .expect("cells")
        .iter()
        .map(|v| v.as_str().expect("a label"))
        .collect();
    assert_eq!(labels, expected);
    // A board over the solver's limits gets the solver's error, not a computation.
    solve(&b, "minesweeper", "3x3x10\nHHH\nH1H\nHHH\n").await;
    let said = b.text("#solver-said").await;
    assert!(said.contains("line 1"), "{said}");
    b.shots("solver-minesweeper").await;
    b.close().await;
}

//! The tests of `puzzles-web`: the API over HTTP (`api`), and the pages in headless Chromium
//! (`mines_page`, `quarto_page`, `solvers_page`; in the slow tier, as they need Debian's
//! chromium and chromium-driver: `cargo test -p puzzles-web -- --ignored` runs them).

mod api;
mod browser;
mod mines_page;
mod quarto_page;
mod solvers_page;

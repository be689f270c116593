//! Fuzz target: `quarto`'s book reader (`--book FILE`, either form) on any bytes, and the answers
//! from a book so read (the checks are in `tests/fuzz_checks.rs`, shared with the corpus replay of
//! `cargo test`).
#![no_main]

#[path = "../../tests/fuzz_checks.rs"]
#[allow(dead_code)]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::quarto_book(data));

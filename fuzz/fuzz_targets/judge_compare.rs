//! Fuzz target: the judge's comparisons (exact, tokens, float) on random expected and got
//! outputs (the checks are in `judge/tests/fuzz_checks.rs`, shared with the corpus replay of
//! `cargo test`).
#![no_main]

#[path = "../../judge/tests/fuzz_checks.rs"]
#[allow(dead_code)]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::compare(data));

//! Replays every fuzzing corpus file and every crash found by fuzzing (`fuzz/corpus/<target>/`,
//! `fuzz/regressions/<target>/`) through the fuzz targets' checks, on stable.

use std::fs;
use std::path::Path;

use crate::fuzz_checks;

/// Runs `check` on every file of `fuzz/corpus/<target>` and `fuzz/regressions/<target>`; returns
/// how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a readable directory").path();
            let data = fs::read(&path).expect("a readable file");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{} fails its check", path.display());
            files += 1;
        }
    }
    files
}

#[test]
fn minimax_corpus() {
    assert!(replay("minimax", fuzz_checks::minimax) > 0);
}

#[test]
fn minesweeper_corpus() {
    assert!(replay("minesweeper", fuzz_checks::minesweeper) > 0);
}

#[test]
fn maxblack_corpus() {
    assert!(replay("maxblack", fuzz_checks::maxblack) > 0);
}

#[test]
fn quarto_corpus() {
    assert!(replay("quarto", fuzz_checks::quarto) > 0);
}

#[test]
fn quarto_book_corpus() {
    assert!(replay("quarto_book", fuzz_checks::quarto_book) > 0);
}

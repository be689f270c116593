//! The library's example that the docs run (`examples/`) works: it plays a few games and its
//! counts hold together.

use test_support::examples::{numbers, run_example};

#[test]
fn the_losses_example_bins_each_lost_game_once() {
    let report = run_example(
        "cp-puzzles",
        "minesweeper_losses",
        &["40", "beginner", "safe"],
    );
    let lines: Vec<&str> = report.lines().collect();
    let [lost, fatal, all] = lines[..] else {
        panic!("three lines expected:\n{report}");
    };
    let [lost, games] = numbers(lost)[..] else {
        panic!("{report}");
    };
    assert_eq!(games, 40, "{report}");
    assert!(lost > 0 && lost < games, "{report}");
    // The bins follow the label's "log10"; each lost game has one fatal guess, which is also
    // counted among all guesses.
    let (fatal, all) = (&numbers(fatal)[1..], &numbers(all)[1..]);
    assert_eq!(fatal.len(), 12, "{report}");
    assert_eq!(all.len(), 12, "{report}");
    assert_eq!(fatal.iter().sum::<u64>(), lost, "{report}");
    assert!(fatal.iter().zip(all).all(|(f, a)| f <= a), "{report}");
}

//! The examples that the experiment records run (`play/examples/`) work: each plays a few games
//! and its report holds together. Their figures take minutes in a release build, so the records
//! quote them; here they run small.

use test_support::examples::{numbers, run_example};

/// The line of `report` that starts with `prefix`.
fn line<'a>(report: &'a str, prefix: &str) -> &'a str {
    report
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}...` in:\n{report}"))
}

#[test]
fn the_sampled_layouts_example_measures_the_picks_that_differ() {
    let report = run_example(
        "cp-puzzles-play",
        "minesweeper_sampled",
        &[
            "--strategy",
            "regions",
            "--baseline",
            "lowest",
            "--games",
            "6",
            "--seed",
            "1",
            "--guesses",
            "2",
            "--layouts",
            "3",
            "--threads",
            "2",
        ],
    );
    let positions = numbers(line(&report, "guess positions"));
    let [guesses, differ, layouts] = positions[..] else {
        panic!("{report}");
    };
    assert_eq!(layouts, 3, "{report}");
    assert!(differ > 0 && differ <= guesses && guesses <= 12, "{report}");
    let won = numbers(line(&report, "play-outs won"));
    assert!(won.iter().all(|&w| w <= differ * layouts), "{report}");
    assert!(line(&report, "A's gain").contains("games in 6"), "{report}");
}

#[test]
fn the_second_click_example_counts_each_layout_once() {
    let report = run_example(
        "cp-puzzles-play",
        "minesweeper_second_click",
        &["0", "40", "1", "2,0", "29,0"],
    );
    let layouts = numbers(line(&report, "games whose corner shows 1"))[1];
    assert!(layouts > 0, "{report}");
    let wins: Vec<u64> = report
        .lines()
        .filter(|l| l.starts_with("second click"))
        .map(|l| numbers(l)[2])
        .collect();
    assert_eq!(wins.len(), 2, "{report}");
    assert!(wins.iter().all(|&w| w <= layouts), "{report}");
    // Every layout falls in exactly one pattern of wins, and each candidate's wins are the
    // layouts of the patterns it won.
    let patterns: Vec<(&str, u64)> = report
        .lines()
        .filter_map(|l| l.strip_prefix("won by "))
        .map(|l| {
            let (pattern, count) = l.rsplit_once(": ").expect("pattern: count");
            (pattern, count.parse().expect("a count"))
        })
        .collect();
    assert_eq!(
        patterns.iter().map(|p| p.1).sum::<u64>(),
        layouts,
        "{report}"
    );
    for (i, &w) in wins.iter().enumerate() {
        let from_patterns: u64 = patterns
            .iter()
            .filter(|(p, _)| p.trim_matches(['[', ']']).split(", ").nth(i) == Some("true"))
            .map(|p| p.1)
            .sum();
        assert_eq!(from_patterns, w, "{report}");
    }
}

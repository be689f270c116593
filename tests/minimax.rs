//! `minimax`: the solver against an independent reference, and its command line.

use cp_puzzles::minimax;
use predicates::prelude::*;
use proptest::prelude::*;

use crate::util::{self, bin};

/// A plain recursive alpha-beta over the whole leaf list (no streaming): the reference.
fn reference(leaves: &[i64], branching: usize, depth: usize) -> (i64, u64) {
    fn node(
        t: &Tree,
        level: usize,
        index: usize,
        mut alpha: i128,
        mut beta: i128,
        max: bool,
        nodes: &mut u64,
    ) -> i128 {
        *nodes += 1;
        if level == t.depth {
            return i128::from(t.leaves[index]);
        }
        let mut best = if max { i128::MIN } else { i128::MAX };
        for i in 0..t.branching {
            let v = node(
                t,
                level + 1,
                index * t.branching + i,
                alpha,
                beta,
                !max,
                nodes,
            );
            if max {
                best = best.max(v);
                if best >= beta {
                    break;
                }
                alpha = alpha.max(best);
            } else {
                best = best.min(v);
                if best <= alpha {
                    break;
                }
                beta = beta.min(best);
            }
        }
        best
    }
    struct Tree<'a> {
        leaves: &'a [i64],
        branching: usize,
        depth: usize,
    }
    let t = Tree {
        leaves,
        branching,
        depth,
    };
    let mut nodes = 0;
    let v = node(&t, 0, 0, i128::MIN, i128::MAX, true, &mut nodes);
    (v as i64, nodes)
}

/// Plain minimax with no pruning.
fn plain_minimax(leaves: &[i64], branching: usize, depth: usize, max: bool) -> i64 {
    if depth == 0 {
        return leaves[0];
    }
    let width = leaves.len() / branching;
    let values = leaves
        .chunks(width)
        .map(|c| plain_minimax(c, branching, depth - 1, !max));
    if max {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

fn input(depth: usize, branching: usize, leaves: &[i64]) -> String {
    let leaves: Vec<String> = leaves.iter().map(i64::to_string).collect();
    format!("{depth} {branching}\n{}\n", leaves.join(" "))
}

fn tree() -> impl Strategy<Value = (usize, usize, Vec<i64>)> {
    (1usize..=6, 1usize..=4)
        .prop_filter("at most 4096 leaves", |(d, b)| b.pow(*d as u32) <= 4096)
        .prop_flat_map(|(d, b)| {
            let leaf = prop_oneof![-3i64..=3, any::<i64>()];
            (
                Just(d),
                Just(b),
                prop::collection::vec(leaf, b.pow(d as u32)),
            )
        })
}

/// The library's answer to a valid input.
fn solve(text: &str) -> minimax::Outcome {
    minimax::solve(minimax::parse(text.as_bytes()).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn agrees_with_the_reference_and_with_plain_minimax((d, b, leaves) in tree()) {
        let got = solve(&input(d, b, &leaves));
        let (value, nodes) = reference(&leaves, b, d);
        prop_assert_eq!(got.value, value);
        prop_assert_eq!(got.nodes, u128::from(nodes));
        prop_assert_eq!(got.value, plain_minimax(&leaves, b, d, true));
    }

    #[test]
    fn line_breaks_anywhere_change_nothing((d, b, leaves) in tree(), seed in any::<u64>()) {
        let mut text = format!("{d}\n{b}");
        for (i, leaf) in leaves.iter().enumerate() {
            let sep = if (seed >> (i % 64)) & 1 == 1 { "\n" } else { " \t" };
            text.push_str(sep);
            text.push_str(&leaf.to_string());
        }
        let got = solve(&text);
        let (value, nodes) = reference(&leaves, b, d);
        prop_assert_eq!((got.value, got.nodes), (value, u128::from(nodes)));
    }
}

/// Every recorded `.out` agrees with the Rust reference (the files come from a Python one), and
/// the binary gives it.
#[test]
fn recorded_cases_agree_with_the_reference() {
    let cases = util::recorded_cases("minimax");
    for case in &cases {
        let mut tokens = case
            .input
            .split_whitespace()
            .map(|t| t.parse::<i64>().unwrap());
        let d = tokens.next().unwrap() as usize;
        let b = tokens.next().unwrap() as usize;
        let leaves: Vec<i64> = tokens.collect();
        let (value, nodes) = reference(&leaves, b, d);
        let got = format!("{value} {nodes}\n");
        assert_eq!(got, case.output, "{}", case.path.display());
    }
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    util::check_recorded_cases("minimax", "minimax");
}

#[test]
fn the_puzzle_examples() {
    for (stdin, stdout) in [
        ("1 4\n2 -1 3 0\n", "3 5\n"),
        ("2 2\n1 2 3 4\n", "3 7\n"),
        ("2 2\n1 2 0 4\n", "1 6\n"),
        ("14 1\n7\n", "7 15\n"),
        ("2 2\n1 2 0 4  \n\n", "1 6\n"),
    ] {
        bin("minimax")
            .write_stdin(stdin)
            .assert()
            .success()
            .stdout(stdout);
    }
}

#[test]
fn huge_headers_take_no_memory() {
    // A chain of depth u64::MAX has one leaf and 2^64 nodes.
    bin("minimax")
        .write_stdin(format!("{} 1\n-4\n", u64::MAX))
        .assert()
        .success()
        .stdout("-4 18446744073709551616\n");
    // 10^15 leaves, of which only a few are given: an error, at once.
    bin("minimax")
        .write_stdin("15 10\n1 2 3\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("expected 1000000000000000 leaves"));
}

#[test]
fn pruned_leaves_are_consumed_but_not_parsed() {
    // The second min node is cut after its first leaf 0 <= alpha 1: "junk" is never parsed.
    bin("minimax")
        .write_stdin("2 2\n1 2 0 junk\n")
        .assert()
        .success()
        .stdout("1 6\n");
}

#[test]
fn bad_input_names_the_place_and_exits_1() {
    let cases = [
        (
            "",
            "line 1, token 1: expected the depth D (an integer >= 1), found end of input",
        ),
        ("   \n", "expected the depth D"),
        (
            "x 2\n1 2\n",
            "line 1, token 1: expected the depth D (an integer >= 1), found \"x\"",
        ),
        ("2\n", "line 1, token 2: expected the branching factor B"),
        ("0 2\n", "token 1: expected the depth D"),
        ("2 0\n", "token 2: expected the branching factor B"),
        ("-1 2\n", "token 1: expected the depth D"),
        ("64 2\n", "2^64 leaves, more than a u64 can count"),
        ("99999999999999999999 2\n", "token 1: expected the depth D"),
        (
            "2 2\n1 2 3\n",
            "line 2: expected 4 leaves, found the end of the input after 3",
        ),
        // Tokens are counted within their line, not over the whole input.
        (
            "2 2\n1 2 q 4\n",
            "line 2, token 3: expected an integer leaf, found \"q\"",
        ),
        (
            "2 2\n1.5 2 3 4\n",
            "line 2, token 1: expected an integer leaf",
        ),
        (
            "1 2\n9223372036854775808 1\n",
            "line 2, token 1: expected a leaf within the i64 range",
        ),
        (
            "2 2\n1 2 3 4\n5\n",
            "line 3, token 1: expected the end of the input after the last leaf, found \"5\"",
        ),
        (
            "2 2\n1 2\n\n  3 x\n",
            "line 4, token 2: expected an integer leaf, found \"x\"",
        ),
        (
            "2\n\n",
            "line 1, token 2: expected the branching factor B (an integer >= 1), found end of input",
        ),
    ];
    for (stdin, message) in cases {
        bin("minimax")
            .write_stdin(stdin)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::starts_with("minimax: "))
            .stderr(predicate::str::contains(message))
            .stderr(predicate::str::contains("panicked").not())
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
}

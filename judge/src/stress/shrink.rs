//! Delta debugging of a failing input: drop lines, then tokens, then lower numbers, until no
//! single step keeps the failure or the budget is spent.
//!
//! The input is seen as lines of whitespace-separated tokens and rebuilt with one space between
//! tokens. A number is lowered towards 0 by bisection (then made positive); since inputs often
//! give a count before the data it counts, each lowered number is also tried together with the
//! tail of the input cut to a matching length (see [`tails`]).

use std::collections::HashSet;
use std::time::Instant;

/// How many candidates may be tested, and until when.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub tests: usize,
    pub until: Instant,
}

/// What shrinking found.
#[derive(Debug)]
pub struct Shrunk {
    /// The smallest failing input found (the input itself, rebuilt, if nothing smaller fails).
    pub input: String,
    /// Candidates tested (each one runs the validator, the reference and the program).
    pub tests: usize,
    /// Whether the budget ran out before no step was left to try.
    pub exhausted: bool,
}

/// A line of tokens.
type Line = Vec<String>;

/// Shrinks `input`, for which `fails` holds, to a smaller input for which it still holds.
///
/// # Errors
/// The first error `fails` returns (a setup error: a program that cannot be run).
pub fn shrink(
    input: &str,
    budget: Budget,
    fails: &mut dyn FnMut(&str) -> Result<bool, String>,
) -> Result<Shrunk, String> {
    let lines: Vec<Line> = input
        .lines()
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    let mut s = Shrinker {
        fails,
        budget,
        tried: HashSet::new(),
        tests: 0,
        best: lines,
        changes: 0,
    };
    let rebuilt = render(&s.best);
    // Whitespace is normalised: if that alone hides the failure, there is nothing to shrink.
    if rebuilt != input && !s.test(&rebuilt)? {
        return Ok(Shrunk {
            input: input.to_string(),
            tests: s.tests,
            exhausted: false,
        });
    }
    loop {
        let before = render(&s.best);
        s.lines()?;
        s.tokens()?;
        s.numbers()?;
        if s.exhausted() || render(&s.best) == before {
            break;
        }
    }
    Ok(Shrunk {
        input: render(&s.best),
        tests: s.tests,
        exhausted: s.exhausted(),
    })
}

struct Shrinker<'a> {
    fails: &'a mut dyn FnMut(&str) -> Result<bool, String>,
    budget: Budget,
    /// Candidates already tested: each is tested once.
    tried: HashSet<String>,
    tests: usize,
    /// The smallest failing input so far.
    best: Vec<Line>,
    /// How many times `best` has changed.
    changes: usize,
}

impl Shrinker<'_> {
    fn exhausted(&self) -> bool {
        self.tests >= self.budget.tests || Instant::now() >= self.budget.until
    }

    /// Whether `candidate` fails; false for one tested before or once the budget is spent.
    fn test(&mut self, candidate: &str) -> Result<bool, String> {
        if self.exhausted() || !self.tried.insert(candidate.to_string()) {
            return Ok(false);
        }
        self.tests += 1;
        (self.fails)(candidate)
    }

    /// Takes `lines` as the new best if they fail.
    fn try_lines(&mut self, lines: Vec<Line>) -> Result<bool, String> {
        let ok = self.test(&render(&lines))?;
        if ok {
            self.best = lines;
            self.changes += 1;
        }
        Ok(ok)
    }

    /// Drops whole lines.
    fn lines(&mut self) -> Result<(), String> {
        let items = self.best.clone();
        let kept = ddmin(items, &mut |ls: &[Line]| self.try_lines(ls.to_vec()))?;
        self.best = kept;
        Ok(())
    }

    /// Drops tokens anywhere; a line left without tokens goes too.
    fn tokens(&mut self) -> Result<(), String> {
        let items: Vec<(usize, String)> = self
            .best
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.iter().map(move |t| (i, t.clone())))
            .collect();
        ddmin(items, &mut |ts: &[(usize, String)]| {
            self.try_lines(regroup(ts))
        })?;
        Ok(())
    }

    /// Lowers each integer token in turn.
    fn numbers(&mut self) -> Result<(), String> {
        // The tokens are listed again only after a change (at most one per test).
        let mut tokens = flat(&self.best);
        let mut i = 0;
        while i < tokens.len() && !self.exhausted() {
            if let Ok(x) = tokens[i].1.parse::<i128>() {
                let changes = self.changes;
                self.lower(i, x)?;
                if self.changes != changes {
                    tokens = flat(&self.best);
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Lowers token `i`, now `x`: to 0, else by bisection towards 0, then to its absolute value.
    fn lower(&mut self, i: usize, x: i128) -> Result<(), String> {
        if x == 0 || self.with_value(i, x, 0)? {
            return Ok(());
        }
        // `hi` fails, `lo` (0 or a value tried) did not.
        let (mut lo, mut hi) = (0i128, x);
        while (hi - lo).abs() > 1 && !self.exhausted() {
            let mid = lo + (hi - lo) / 2;
            if self.with_value(i, hi, mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        if hi < 0 {
            self.with_value(i, hi, -hi)?;
        }
        Ok(())
    }

    /// Tries token `i` (now `x`) set to `v`, alone and then with each matching tail cut (the
    /// tokens after it, or after its line, cut to a length from [`tails`]).
    fn with_value(&mut self, i: usize, x: i128, v: i128) -> Result<bool, String> {
        let mut tokens = flat(&self.best);
        tokens[i].1 = v.to_string();
        if self.try_lines(regroup(&tokens))? {
            return Ok(true);
        }
        // The counted data may follow the number itself or the end of its line.
        let line_end = tokens.iter().rposition(|t| t.0 == tokens[i].0).unwrap_or(i) + 1;
        let mut bases = vec![i + 1, line_end];
        bases.dedup();
        for base in bases {
            for keep in tails(tokens.len() - base, x, v) {
                if self.try_lines(regroup(&tokens[..base + keep]))? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// The lengths, shorter than `r`, that the `r` tokens after a number lowered from `x` to `v`
/// may have if the number counts them: `r-(x-v)` (a count of items), `r*v/x`, `r*(v/x)^2`,
/// `r*(v/x)^3` (items of 1, 2 or 3 dimensions of that size) and `r^(v/x)` (an exponent, as a
/// tree's depth). Only exact values are kept, in that order, without repeats.
#[must_use]
pub fn tails(r: usize, x: i128, v: i128) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    if x <= 0 || v < 0 || v >= x {
        return out;
    }
    let r128 = r as i128;
    let mut push = |t: i128| {
        if let Ok(t) = usize::try_from(t) {
            if t < r && !out.contains(&t) {
                out.push(t);
            }
        }
    };
    push(r128 - (x - v));
    for k in 1..=3u32 {
        let (num, den) = (
            r128.saturating_mul(v.saturating_pow(k)),
            x.saturating_pow(k),
        );
        if den != 0 && num % den == 0 {
            push(num / den);
        }
    }
    // r^(v/x): exact when its x-th power is r^v.
    let t = (r as f64).powf(v as f64 / x as f64).round() as i128;
    let exact = u32::try_from(x)
        .ok()
        .zip(u32::try_from(v).ok())
        .is_some_and(|(x, v)| {
            t.checked_pow(x)
                .zip(r128.checked_pow(v))
                .is_some_and(|(a, b)| a == b)
        });
    if exact {
        push(t);
    }
    out
}

/// Delta debugging by complements: removes chunks of `items` (halves, then quarters, ...) as
/// long as `keep` accepts what is left; returns what is left.
fn ddmin<T: Clone>(
    mut items: Vec<T>,
    keep: &mut dyn FnMut(&[T]) -> Result<bool, String>,
) -> Result<Vec<T>, String> {
    let mut chunks = 2;
    while items.len() >= 2 || (items.len() == 1 && chunks <= 2) {
        let size = items.len().div_ceil(chunks).max(1);
        let mut removed = false;
        let mut start = 0;
        while start < items.len() {
            let end = (start + size).min(items.len());
            let rest: Vec<T> = [&items[..start], &items[end..]].concat();
            if keep(&rest)? {
                items = rest;
                removed = true;
            } else {
                start = end;
            }
        }
        if removed {
            chunks = (chunks - 1).max(2);
        } else if size == 1 {
            break;
        } else {
            chunks = (chunks * 2).min(items.len());
        }
    }
    Ok(items)
}

/// The tokens of `lines`, each with its line's index.
fn flat(lines: &[Line]) -> Vec<(usize, String)> {
    lines
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |t| (i, t.clone())))
        .collect()
}

/// Tokens with their line indices back into lines (lines that lost every token are gone).
fn regroup(tokens: &[(usize, String)]) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut last = None;
    for (line, token) in tokens {
        if last != Some(*line) {
            lines.push(Vec::new());
            last = Some(*line);
        }
        if let Some(l) = lines.last_mut() {
            l.push(token.clone());
        }
    }
    lines
}

/// Lines of tokens as text: one space between tokens, a newline after each line.
fn render(lines: &[Line]) -> String {
    lines.iter().map(|l| l.join(" ") + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn budget() -> Budget {
        Budget {
            tests: 10_000,
            until: Instant::now() + Duration::from_secs(60),
        }
    }

    fn run(input: &str, fails: impl Fn(&[i64]) -> bool) -> Shrunk {
        let mut f = |s: &str| -> Result<bool, String> {
            let v: Option<Vec<i64>> = s.split_whitespace().map(|t| t.parse().ok()).collect();
            Ok(v.is_some_and(|v| fails(&v)))
        };
        shrink(input, budget(), &mut f).expect("no setup error")
    }

    #[test]
    fn keeps_only_the_tokens_that_matter() {
        // Fails when some token is 7 and a later one is 3.
        let fails = |v: &[i64]| {
            v.iter()
                .position(|&x| x == 7)
                .is_some_and(|i| v[i..].contains(&3))
        };
        let s = run("1 2 7 4\n5 6\n3 9 9\n8\n", fails);
        assert_eq!(s.input, "7\n3\n");
        assert!(!s.exhausted);
    }

    #[test]
    fn lowers_numbers_to_the_smallest_that_fails() {
        let s = run("900 -1234\n", |v| v.iter().any(|&x| x >= 51));
        assert_eq!(s.input, "51\n");
        let s = run("5 -1234\n", |v| v.len() == 2 && v[1] <= -300);
        assert_eq!(s.input, "0 -300\n");
    }

    #[test]
    fn lowers_a_count_with_what_it_counts() {
        // `n` then exactly `n` values; fails when n >= 2 and two of them are equal.
        let fails = |v: &[i64]| {
            let n = v[0] as usize;
            v.len() == n + 1 && n >= 2 && (1..=n).any(|i| v[i + 1..].contains(&v[i]))
        };
        let s = run("6\n4 8 1 9 8 3\n", fails);
        assert_eq!(s.input, "2\n0 0\n");
        // A tree of depth D and branching B: B^D leaves; fails when D >= 2 and B >= 2.
        let tree = |v: &[i64]| {
            v.len() >= 2
                && v[0] >= 2
                && v[1] >= 2
                && v.len() == 2 + (v[1] as usize).pow(v[0] as u32)
        };
        let s = run(
            "3 3\n1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8 9\n",
            tree,
        );
        assert_eq!(s.input, "2 2\n0 0 0 0\n");
    }

    #[test]
    fn stops_at_the_budget() {
        let mut calls = 0;
        let mut f = |s: &str| -> Result<bool, String> {
            calls += 1;
            Ok(!s.trim().is_empty())
        };
        let b = Budget {
            tests: 3,
            until: Instant::now() + Duration::from_secs(60),
        };
        let s = shrink("1 2\n3 4\n5 6\n7 8\n", b, &mut f).expect("no error");
        assert_eq!((s.tests, calls), (3, 3));
        assert!(s.exhausted);
    }

    #[test]
    fn tails_match_counts_sizes_and_exponents() {
        assert_eq!(tails(6, 6, 2), vec![2]);
        assert_eq!(tails(27, 3, 2), vec![26, 18, 12, 8, 9]);
        assert_eq!(tails(10, 0, 0), Vec::<usize>::new());
    }
}

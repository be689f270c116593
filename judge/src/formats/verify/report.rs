//! The verify's table, written a row at a time, and the reports under it: the limit and how it
//! was found, the slowest accepted and the fastest time-limit runs, the sensitivity to the
//! limit, and each broken promise.

use std::time::Duration;

use crate::verdict::{CaseResult, Verdict};

use super::super::judging::RunLimits;
use super::super::problem::Problem;
use super::{at_limit, pypy3, Outcome, Ready};
use crate::out;

/// The table, written a row at a time: its columns' widths are fixed from the start.
pub(super) struct Table {
    /// The groups shown: those that hold cases.
    groups: Vec<usize>,
    names: Vec<String>,
    widths: Vec<usize>,
    scoring: bool,
}

/// The widest cell of a group's column: `TLE 100.00s`.
const CELL: usize = 11;

impl Table {
    pub(super) fn new(problem: &Problem, outcomes: &[Outcome]) -> Table {
        let groups: Vec<usize> = (0..problem.groups.len())
            .filter(|g| problem.cases.iter().any(|c| c.group == *g))
            .collect();
        let mut widths = vec![
            outcomes
                .iter()
                .map(|o| o.submission.name.chars().count())
                .chain([10])
                .max()
                .unwrap_or(10),
            outcomes
                .iter()
                .map(|o| o.submission.promise().chars().count())
                .chain([8])
                .max()
                .unwrap_or(8),
        ];
        widths.extend(
            groups
                .iter()
                .map(|&g| problem.groups[g].name.chars().count().max(CELL)),
        );
        widths.push(7);
        if problem.scoring {
            widths.push(13);
        }
        let names = groups
            .iter()
            .map(|&g| problem.groups[g].name.clone())
            .collect();
        Table {
            groups,
            names,
            widths,
            scoring: problem.scoring,
        }
    }

    pub(super) fn header(&self) -> String {
        let mut cells = vec!["submission".to_string(), "expected".to_string()];
        cells.extend(self.names.iter().cloned());
        cells.push("verdict".to_string());
        if self.scoring {
            cells.push("score".to_string());
        }
        cells.push("ok".to_string());
        self.line(&cells)
    }

    fn line(&self, cells: &[String]) -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(self.widths.iter().chain([&0]))
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        let mut text = padded.join("  ").trim_end().to_string();
        text.push('\n');
        text
    }

    pub(super) fn row(&self, problem: &Problem, o: &Outcome, best: f64) -> String {
        let mut cells = vec![o.submission.name.clone(), o.submission.promise()];
        for &g in &self.groups {
            cells.push(cell(problem, o, g));
        }
        cells.push(o.verdict());
        if self.scoring {
            cells.push(match &o.grades {
                Some(g) => format!("{}/{best}", g.total.score),
                None => "-".to_string(),
            });
        }
        cells.push(match (&o.ready, o.kept(problem, best)) {
            (Ready::Skipped(_), _) => "skipped".to_string(),
            (_, true) => "ok".to_string(),
            (_, false) => "FAILED".to_string(),
        });
        self.line(&cells)
    }
}

/// A group's cell: the group's grade (its grader's verdict) and its slowest run; `-` when none
/// of its cases was judged.
fn cell(problem: &Problem, o: &Outcome, group: usize) -> String {
    let Some(grades) = &o.grades else {
        return "-".to_string();
    };
    let mine: Vec<&CaseResult> = problem
        .cases
        .iter()
        .zip(&grades.cases)
        .filter(|(c, _)| c.group == group)
        .filter_map(|(_, r)| r.as_ref())
        .collect();
    let Some(graded) = &grades.groups[group] else {
        return "-".to_string();
    };
    let slowest = mine.iter().map(|r| r.time).fold(0.0, f64::max);
    format!("{} {slowest:.2}s", graded.verdict.name())
}

/// The time limit, how it was chosen, the margins to the slowest accepted run and the fastest
/// time-limit run, and the submissions whose verdict changes within the margin.
pub(super) fn limits_report(
    problem: &Problem,
    outcomes: &[Outcome],
    limits: RunLimits,
    how: &str,
    jobs: usize,
) -> String {
    let t = limits.time.as_secs_f64();
    let mut text = format!(
        "time limit {t} s ({how}); runs stopped at {} s (safety margin {})",
        limits.limits.time.as_secs_f64(),
        problem.time.margin
    );
    if jobs > 1 {
        text += &format!("; times taken with {jobs} runs in parallel (-j {jobs})");
    }
    if let Some(pypy) = pypy3() {
        text += &format!("; Python 3 run with {}", pypy.display());
    }
    text.push('\n');
    let graded = |o: &'_ Outcome| -> Vec<CaseResult> {
        o.grades
            .as_ref()
            .map(|g| g.cases.iter().flatten().cloned().collect())
            .unwrap_or_default()
    };
    let accepted = outcomes
        .iter()
        .filter(|o| o.submission.accepted())
        .flat_map(|o| graded(o).into_iter().map(move |c| (o, c)))
        .filter(|(_, c)| c.verdict == Verdict::Accepted)
        .max_by(|a, b| a.1.time.total_cmp(&b.1.time));
    if let Some((o, c)) = accepted {
        text += &format!(
            "slowest accepted run: {:.3} s ({}, {}), {:.1}x under the limit\n",
            c.time,
            o.submission.name,
            c.name,
            t / c.time.max(1e-9)
        );
    }
    // Each time-limit submission's slowest run; the fastest of those is the margin.
    let tle = outcomes
        .iter()
        .filter(|o| o.submission.time_limited())
        .filter_map(|o| {
            let slowest = graded(o)
                .into_iter()
                .max_by(|a, b| a.time.total_cmp(&b.time))?;
            Some((o, slowest))
        })
        .min_by(|a, b| a.1.time.total_cmp(&b.1.time));
    if let Some((o, c)) = tle {
        text += &format!(
            "fastest time-limit submission: its slowest run {:.3} s ({}, {}), {:.1}x the limit\n",
            c.time,
            o.submission.name,
            c.name,
            c.time / t
        );
        // A run stopped at the wall-time backstop (it slept, or found the machine busy) did not
        // end: its CPU time says nothing of the margin.
        let stopped = c.wall >= limits.limits.wall().as_secs_f64();
        if c.time < limits.limits.time.as_secs_f64() && !stopped {
            text += &format!(
                "warning: {} ends within the safety margin ({:.3} s < {} s)\n",
                o.submission.name,
                c.time,
                limits.limits.time.as_secs_f64()
            );
        }
    }
    text += &sensitivity(problem, outcomes, limits);
    text += &ranges(problem, outcomes);
    text
}

/// problemtools' "sensitive to time limit": a submission whose verdict at the limit differs from
/// its verdict at the limit divided or multiplied by the safety margin.
fn sensitivity(problem: &Problem, outcomes: &[Outcome], limits: RunLimits) -> String {
    let margin = problem.time.margin;
    if margin <= 1.0 {
        return String::new();
    }
    let low = limits.time.div_f64(margin);
    let high = limits.limits.time;
    let mut text = String::new();
    for o in outcomes {
        let Some(g) = &o.grades else { continue };
        if o.raw.iter().all(Option::is_none) {
            continue;
        }
        let at = g.total.verdict;
        let at_low = at_limit(problem, &o.raw, low).total.verdict;
        let at_high = at_limit(problem, &o.raw, high).total.verdict;
        if at_low != at || at_high != at {
            text += &format!(
                "warning: {} is sensitive to the time limit: {} at {} s, {} at {} s, {} at {} s\n",
                o.submission.name,
                at_low.name(),
                seconds(low),
                at.name(),
                seconds(limits.time),
                at_high.name(),
                seconds(high)
            );
        }
    }
    text
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    format!("{}", (s * 1000.0).round() / 1000.0)
}

/// Scoring problems: a group's score outside its `range`.
fn ranges(problem: &Problem, outcomes: &[Outcome]) -> String {
    if !problem.scoring {
        return String::new();
    }
    let mut text = String::new();
    for (i, group) in problem.groups.iter().enumerate() {
        let (lo, hi) = group.range;
        let outside = outcomes
            .iter()
            .filter_map(|o| Some((o, o.grades.as_ref()?.groups[i].as_ref()?)))
            .find(|(_, g)| g.score < lo || g.score > hi);
        if let Some((o, g)) = outside {
            let name = if group.name.is_empty() {
                "data"
            } else {
                &group.name
            };
            text += &format!(
                "warning: group {name} scored {} for {}, outside its range {lo} {hi}\n",
                g.score, o.submission.name
            );
        }
    }
    text
}

/// The failures and skips, and the last line; whether the run passes.
pub(super) fn verdicts_report(
    problem: &Problem,
    outcomes: &[Outcome],
    best: f64,
    strict: bool,
) -> bool {
    let mut text = String::new();
    let (mut kept, mut failed, mut skipped) = (0, 0, 0);
    for o in outcomes {
        let name = &o.submission.name;
        match &o.ready {
            Ready::Skipped(why) => {
                skipped += 1;
                text += &format!("skipped {name}: {why}\n");
            }
            Ready::Broken(why) => {
                failed += 1;
                text += &format!("FAILED {name}: does not build\n{}\n", indent(why));
            }
            Ready::Program(_) if o.kept(problem, best) => kept += 1,
            Ready::Program(_) => {
                failed += 1;
                text += &broken_promise(problem, o, best);
            }
        }
    }
    let pass = failed == 0 && (!strict || skipped == 0);
    text += &format!(
        "{kept} kept their promise, {failed} failed, {skipped} skipped{}\n",
        if strict && skipped > 0 {
            " (--strict: skips fail)"
        } else {
            ""
        }
    );
    out::stdout(&text);
    pass
}

fn broken_promise(problem: &Problem, o: &Outcome, best: f64) -> String {
    let name = &o.submission.name;
    let promised = o.submission.promise();
    let Some(g) = &o.grades else {
        return format!("FAILED {name}: promised {promised}, not judged\n");
    };
    let score = if problem.scoring {
        format!(" (score {}/{best})", g.total.score)
    } else {
        String::new()
    };
    if let Some(Some(why)) = o.broken(problem, best) {
        return format!(
            "FAILED {name}: promised {promised}, got {}{score}: {why}\n",
            g.total.verdict.name()
        );
    }
    let mut text = match o.deciding_case() {
        Some(c) => format!(
            "FAILED {name}: promised {promised}, got {}{score} on {}\n",
            g.total.verdict.name(),
            c.name
        ),
        None => format!(
            "FAILED {name}: promised {promised}, got {}{score}\n",
            g.total.verdict.name()
        ),
    };
    let detail = o
        .deciding_case()
        .and_then(|c| c.detail.clone())
        .or_else(|| g.total.detail.clone());
    if let Some(d) = detail {
        text += &indent(&d);
        text.push('\n');
    }
    text
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

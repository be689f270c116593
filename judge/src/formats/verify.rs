//! `judge verify PACKAGE`: every submission judged on every case, one table of submissions by
//! test group, and whether each got the verdict its folder (or Polygon tag) promises.

use std::path::Path;
use std::time::Duration;

use crate::cli::VerifyArgs;
use crate::compiler::BuildError;
use crate::out;
use crate::program::Program;
use crate::verdict::{CaseResult, Verdict};

use super::judging::{self, RunLimits};
use super::problem::Problem;
use super::submission::{Expected, Submission};

/// How long a calibration run (an accepted submission timed to compute the limit) may take.
const CALIBRATION_CAP: Duration = Duration::from_secs(20);

/// A submission ready to run, or why not.
enum Ready {
    Program(Program),
    /// The language does not run here.
    Skipped(String),
    /// It does not build.
    Broken(String),
}

/// What one submission got.
struct Outcome<'a> {
    submission: &'a Submission,
    ready: Ready,
    cases: Vec<CaseResult>,
}

impl Outcome<'_> {
    fn verdicts(&self) -> Vec<Verdict> {
        self.cases.iter().map(|c| c.verdict).collect()
    }

    /// The first failing case, or none.
    fn first_failure(&self) -> Option<&CaseResult> {
        self.cases.iter().find(|c| c.verdict != Verdict::Accepted)
    }

    fn verdict(&self) -> String {
        match &self.ready {
            Ready::Skipped(_) => "skipped".to_string(),
            Ready::Broken(_) => "CE".to_string(),
            Ready::Program(_) => self
                .first_failure()
                .map_or("AC", |c| c.verdict.name())
                .to_string(),
        }
    }

    fn kept(&self, problem: &Problem) -> bool {
        match &self.ready {
            Ready::Program(_) => self
                .submission
                .expected
                .kept(&self.verdicts(), score(problem, &self.cases)),
            Ready::Skipped(_) | Ready::Broken(_) => false,
        }
    }
}

/// Runs `judge verify`; whether every submission kept its promise.
///
/// # Errors
/// The package cannot be read, or a validator is broken.
pub fn command(args: &VerifyArgs) -> Result<bool, String> {
    let mut problem = super::read(&args.package)?;
    problem.time.timing = args.time.into();
    let submissions: Vec<&Submission> = problem
        .submissions
        .iter()
        .filter(|s| args.filter.as_deref().is_none_or(|f| s.name.contains(f)))
        .collect();
    if submissions.is_empty() {
        return Err(format!(
            "{}: no submission to verify{}",
            args.package.display(),
            if args.filter.is_some() {
                " (none matches --filter)"
            } else {
                " (expected submissions/<verdict>/...)"
            }
        ));
    }
    out::stdout(&format!(
        "{}: {}, {}, {} {}\n",
        args.package.display(),
        problem.format,
        problem.counts(),
        submissions.len(),
        out::plural(submissions.len() as u64, "submission", "submissions")
    ));
    let mut outcomes: Vec<Outcome> = submissions
        .iter()
        .map(|s| Outcome {
            submission: s,
            ready: ready(&s.path),
            cases: Vec::new(),
        })
        .collect();
    let jobs = usize::from(args.jobs);
    let (time, how) = time_limit(&problem, &mut outcomes, jobs)?;
    let limits = RunLimits::of(&problem, time);
    let todo: Vec<(usize, usize)> = outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| matches!(o.ready, Ready::Program(_)) && o.cases.is_empty())
        .flat_map(|(i, _)| (0..problem.cases.len()).map(move |c| (i, c)))
        .collect();
    let results = judging::all(jobs, todo.len(), |t| {
        let (s, c) = todo[t];
        match &outcomes[s].ready {
            Ready::Program(program) => judging::judge(&problem, program, &problem.cases[c], limits),
            Ready::Skipped(why) | Ready::Broken(why) => Err(why.clone()),
        }
    })?;
    for ((s, _), r) in todo.iter().zip(results) {
        outcomes[*s].cases.push(r);
    }
    let text = table(&problem, &outcomes);
    out::stdout(&text);
    out::stdout(&limits_report(&problem, &outcomes, limits, &how, jobs));
    Ok(verdicts_report(&problem, &outcomes, args.strict))
}

fn ready(path: &Path) -> Ready {
    match crate::source::build(path) {
        Ok(command) => Ready::Program(Program::Shell(command)),
        Err(BuildError::Unavailable(why)) => Ready::Skipped(why),
        Err(BuildError::Failed(why)) => Ready::Broken(why),
    }
}

/// The time limit and how it was found. When the package gives none, the accepted submissions
/// are run first (stopped after [`CALIBRATION_CAP`]) and their results kept in `outcomes`.
///
/// # Errors
/// A setup error while running them.
fn time_limit(
    problem: &Problem,
    outcomes: &mut [Outcome],
    jobs: usize,
) -> Result<(Duration, String), String> {
    if let Some(t) = problem.time.given {
        return Ok((t, problem.time.source.to_string()));
    }
    let (accepted, programs): (Vec<usize>, Vec<&Program>) = outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| o.submission.expected == Expected::Accepted)
        .filter_map(|(i, o)| match &o.ready {
            Ready::Program(p) => Some((i, p)),
            Ready::Skipped(_) | Ready::Broken(_) => None,
        })
        .unzip();
    let (time, how, runs) = calibrate(problem, &programs, jobs)?;
    for (i, cases) in accepted.into_iter().zip(runs) {
        outcomes[i].cases = cases;
    }
    Ok((time, how))
}

/// Runs `programs` (accepted submissions) on every case and computes the time limit from the
/// slowest accepted run, as problemtools does: `max(1, round(slowest * multiplier))` seconds.
/// Runs longer than the limit are then time limits.
///
/// # Errors
/// No accepted submission to time, or a setup error.
pub fn calibrate(
    problem: &Problem,
    programs: &[&Program],
    jobs: usize,
) -> Result<(Duration, String, Vec<Vec<CaseResult>>), String> {
    if programs.is_empty() {
        return Err(format!(
            "{}: no time limit given and no accepted submission to compute it from \
             (give limits.time_limit, or --time-limit)",
            problem.root.display()
        ));
    }
    let cap = RunLimits {
        time: CALIBRATION_CAP,
        limits: crate::run::Limits {
            time: CALIBRATION_CAP,
            timing: problem.time.timing,
            output: problem.output,
            memory: problem.memory,
        },
    };
    let n = problem.cases.len();
    let flat = judging::all(jobs, programs.len() * n, |t| {
        judging::judge(problem, programs[t / n], &problem.cases[t % n], cap)
    })?;
    let slowest = flat
        .iter()
        .filter(|c| c.verdict == Verdict::Accepted)
        .map(|c| c.time)
        .fold(0.0, f64::max);
    let exact = slowest * problem.time.multiplier;
    let seconds = (exact + 0.5).floor().max(1.0);
    let limit = Duration::from_secs_f64(seconds);
    let mut runs: Vec<Vec<CaseResult>> =
        flat.chunks(n.max(1)).map(<[CaseResult]>::to_vec).collect();
    for c in runs.iter_mut().flatten() {
        if c.time > seconds {
            c.verdict = Verdict::TimeLimit;
            c.detail = Some(format!(
                "ran {:.3} s, past the time limit of {seconds} s",
                c.time
            ));
        }
    }
    let how = format!(
        "the slowest accepted run {slowest:.3} s times {}, rounded, at least 1 s",
        problem.time.multiplier
    );
    Ok((limit, how, runs))
}

/// The score of a scoring problem's run, and the most it could be: per group, each accepted
/// case earns the group's score (or the validator's); `min` groups earn their full score only
/// when every case is accepted. Samples do not count.
#[must_use]
pub fn score(problem: &Problem, cases: &[CaseResult]) -> Option<(f64, f64)> {
    if !problem.scoring {
        return None;
    }
    let (mut got, mut max) = (0.0, 0.0);
    for (g, group) in problem.groups.iter().enumerate() {
        if !group.scored {
            continue;
        }
        let mine: Vec<(&super::Case, &CaseResult)> = problem
            .cases
            .iter()
            .zip(cases)
            .filter(|(c, _)| c.group == g)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let earned = mine.iter().map(|(_, r)| case_score(group, r));
        match group.aggregation {
            super::problem::Aggregation::Sum => {
                got += earned.sum::<f64>();
                max += group.accept_score * mine.len() as f64;
            }
            super::problem::Aggregation::Min => {
                got += earned.fold(f64::INFINITY, f64::min);
                max += group.accept_score;
            }
        }
    }
    Some((got, max))
}

fn case_score(group: &super::Group, r: &CaseResult) -> f64 {
    match r.verdict {
        Verdict::Accepted => r.score.unwrap_or(group.accept_score),
        _ => 0.0,
    }
}

/// The table: one row per submission, one column per group that has cases.
fn table(problem: &Problem, outcomes: &[Outcome]) -> String {
    let groups: Vec<usize> = (0..problem.groups.len())
        .filter(|g| problem.cases.iter().any(|c| c.group == *g))
        .collect();
    let mut header = vec!["submission".to_string(), "expected".to_string()];
    header.extend(groups.iter().map(|&g| problem.groups[g].name.clone()));
    header.push("verdict".to_string());
    if problem.scoring {
        header.push("score".to_string());
    }
    header.push("ok".to_string());
    let mut rows = vec![header];
    for o in outcomes {
        let mut row = vec![
            o.submission.name.clone(),
            o.submission.expected.name().to_string(),
        ];
        for &g in &groups {
            row.push(cell(problem, o, g));
        }
        row.push(o.verdict());
        if problem.scoring {
            row.push(
                match score(problem, &o.cases).filter(|_| !o.cases.is_empty()) {
                    Some((got, max)) => format!("{got}/{max}"),
                    None => "-".to_string(),
                },
            );
        }
        row.push(match (&o.ready, o.kept(problem)) {
            (Ready::Skipped(_), _) => "skipped".to_string(),
            (_, true) => "ok".to_string(),
            (_, false) => "FAILED".to_string(),
        });
        rows.push(row);
    }
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        text += cells.join("  ").trim_end();
        text.push('\n');
    }
    text
}

/// A group's cell: the first failing verdict of the group (else AC) and its slowest time.
fn cell(problem: &Problem, o: &Outcome, group: usize) -> String {
    let mine: Vec<&CaseResult> = problem
        .cases
        .iter()
        .zip(&o.cases)
        .filter(|(c, _)| c.group == group)
        .map(|(_, r)| r)
        .collect();
    if mine.is_empty() {
        return "-".to_string();
    }
    let verdict = mine
        .iter()
        .find(|r| r.verdict != Verdict::Accepted)
        .map_or("AC", |r| r.verdict.name());
    let slowest = mine.iter().map(|r| r.time).fold(0.0, f64::max);
    format!("{verdict} {slowest:.2}s")
}

/// The time limit, how it was chosen, and the margins to the slowest accepted run and the
/// fastest time-limit run.
fn limits_report(
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
    text.push('\n');
    let accepted = outcomes
        .iter()
        .filter(|o| o.submission.expected == Expected::Accepted)
        .flat_map(|o| o.cases.iter().map(move |c| (o, c)))
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
        .filter(|o| o.submission.expected == Expected::TimeLimit && !o.cases.is_empty())
        .filter_map(|o| {
            let slowest = o.cases.iter().max_by(|a, b| a.time.total_cmp(&b.time))?;
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
    text
}

/// The failures and skips, and the last line; whether the run passes.
fn verdicts_report(problem: &Problem, outcomes: &[Outcome], strict: bool) -> bool {
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
            Ready::Program(_) if o.kept(problem) => kept += 1,
            Ready::Program(_) => {
                failed += 1;
                let promised = o.submission.expected.name();
                match o.first_failure() {
                    Some(c) => {
                        text += &format!(
                            "FAILED {name}: promised {promised}, got {} on {}\n",
                            c.verdict.name(),
                            c.name
                        );
                        if let Some(d) = &c.detail {
                            text += &indent(d);
                            text.push('\n');
                        }
                    }
                    None => text += &format!("FAILED {name}: promised {promised}, got AC\n"),
                }
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

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

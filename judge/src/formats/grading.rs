//! Grading as problemtools runs it: the groups form a tree (ICPC's `data/`, then `sample` and
//! `secret`, then their folders); each group judges its items (cases and groups) in order,
//! stops at the first rejected one when its `on_reject` is `break`, and combines their verdicts
//! and scores with its grader: the default one (problemtools' `default_grader`, with its
//! `grader_flags`) or the package's own program from `graders/`.
//!
//! The default grader: the verdict is the worst of the items' (`worst_error`, the default, in
//! the order JE, RE, MLE, TLE, OLE, WA, PE, AC), the first that is not AC (`first_error`), or
//! AC (`always_accept`); `accept_if_any_accepted` makes it AC when one item is; the score is
//! the `sum` (default), `avg`, `min` or `max` of the items' scores; `ignore_sample` (top group
//! only) grades the last item alone. A case scores its group's `accept_score` when accepted (or
//! the validator's `score.txt`), else its `reject_score`. A judge error in an item makes the
//! group a judge error.

use std::path::Path;
use std::time::Duration;

use crate::program::Program;
use crate::shell::quote;
use crate::verdict::{CaseResult, Verdict};
use judge_process::{Exit, Limits};

use super::problem::{Built, Grading, Item, OnReject, Problem};

/// The grader flags the default grader knows.
pub const FLAGS: [&str; 10] = [
    "worst_error",
    "no_errors",
    "first_error",
    "always_accept",
    "accept_if_any_accepted",
    "ignore_sample",
    "sum",
    "avg",
    "min",
    "max",
];

/// How long a custom grader may take on one group.
const GRADER_TIME: Duration = Duration::from_secs(10);

/// A group's (or the submission's) verdict and score.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    pub verdict: Verdict,
    pub score: f64,
    /// Why a judge error (a grader that failed, or the item's own reason).
    pub detail: Option<String>,
}

/// One submission graded on the tree.
#[derive(Debug, Clone)]
pub struct Grades {
    /// Per case, in [`Problem::cases`] order: its result, or `None` when it was not judged (a
    /// group stopped before it).
    pub cases: Vec<Option<CaseResult>>,
    /// Per group: its grade, or `None` when none of its items was judged.
    pub groups: Vec<Option<Graded>>,
    /// The top group's grade: the submission's verdict and score.
    pub total: Graded,
}

/// Walks the tree in judging order, judging each case with `judge` (which returns `None` for a
/// case it has no result for: the case is then passed over), and grades every group.
pub fn walk(problem: &Problem, judge: &mut dyn FnMut(usize) -> Option<CaseResult>) -> Grades {
    let mut report = Grades {
        cases: vec![None; problem.cases.len()],
        groups: vec![None; problem.groups.len()],
        total: Graded {
            verdict: Verdict::Accepted,
            score: 0.0,
            detail: None,
        },
    };
    let total = group(problem, problem.top, judge, &mut report);
    report.total = total.unwrap_or(Graded {
        verdict: Verdict::Accepted,
        score: 0.0,
        detail: None,
    });
    report
}

/// The grades of `cases` (results in [`Problem::cases`] order, `None` for a case not run), the
/// groups' `on_reject` applied: a case after a group's stop is not counted.
#[must_use]
pub fn of(problem: &Problem, cases: &[Option<CaseResult>]) -> Grades {
    walk(problem, &mut |c| cases.get(c).cloned().flatten())
}

/// The most a submission can score: every case accepted.
#[must_use]
pub fn best(problem: &Problem) -> f64 {
    walk(problem, &mut |c| Some(accepted(problem, c)))
        .total
        .score
}

/// The cases in the order a walk takes them when every case is accepted.
#[must_use]
pub fn order(problem: &Problem) -> Vec<usize> {
    let mut order = Vec::new();
    walk(problem, &mut |c| {
        order.push(c);
        Some(accepted(problem, c))
    });
    order
}

/// Case `c` accepted, in no time.
#[must_use]
pub fn accepted(problem: &Problem, c: usize) -> CaseResult {
    CaseResult {
        name: problem.cases[c].label.clone(),
        verdict: Verdict::Accepted,
        time: 0.0,
        cpu: 0.0,
        wall: 0.0,
        memory: 0,
        exit_code: Some(0),
        detail: None,
        score: None,
        message: None,
    }
}

fn group(
    problem: &Problem,
    g: usize,
    judge: &mut dyn FnMut(usize) -> Option<CaseResult>,
    report: &mut Grades,
) -> Option<Graded> {
    let settings = &problem.groups[g];
    let mut results: Vec<Graded> = Vec::new();
    for item in &settings.items {
        let graded = match *item {
            Item::Case(c) => {
                let Some(r) = judge(c) else { continue };
                let score = if r.verdict == Verdict::Accepted {
                    r.score.unwrap_or(settings.accept_score)
                } else {
                    settings.reject_score
                };
                let graded = Graded {
                    verdict: r.verdict,
                    score,
                    detail: r
                        .detail
                        .clone()
                        .filter(|_| r.verdict == Verdict::JudgeError),
                };
                report.cases[c] = Some(r);
                graded
            }
            Item::Group(sub) => {
                let Some(mut graded) = group(problem, sub, judge, report) else {
                    continue;
                };
                if !problem.groups[sub].scored {
                    graded.score = 0.0;
                }
                graded
            }
        };
        let rejected = graded.verdict != Verdict::Accepted;
        results.push(graded);
        if rejected && settings.on_reject == OnReject::Break {
            break;
        }
    }
    if results.is_empty() {
        return None;
    }
    let graded = if let Some(je) = results.iter().find(|r| r.verdict == Verdict::JudgeError) {
        Graded {
            verdict: Verdict::JudgeError,
            score: 0.0,
            detail: je.detail.clone(),
        }
    } else {
        match (settings.grading, &problem.grader) {
            (Grading::Custom, Some(grader)) => {
                custom(grader, &problem.root, &settings.grader_flags, &results)
            }
            _ => default(&settings.grader_flags, &results),
        }
    };
    report.groups[g] = Some(graded.clone());
    Some(graded)
}

/// problemtools' default grader on `results` with `flags` (the last of each kind wins).
#[must_use]
pub fn default(flags: &[String], results: &[Graded]) -> Graded {
    let mut verdict_mode = "worst_error";
    let mut score_mode = "sum";
    let (mut ignore_sample, mut any_accepted) = (false, false);
    for f in flags {
        match f.as_str() {
            "worst_error" | "no_errors" | "first_error" | "always_accept" => verdict_mode = f,
            "sum" | "avg" | "min" | "max" => score_mode = f,
            "ignore_sample" => ignore_sample = true,
            "accept_if_any_accepted" => any_accepted = true,
            _ => {}
        }
    }
    let results = if ignore_sample && results.len() > 1 {
        &results[results.len() - 1..]
    } else {
        results
    };
    let verdicts = results.iter().map(|r| r.verdict);
    let verdict = if any_accepted && results.iter().any(|r| r.verdict == Verdict::Accepted) {
        Verdict::Accepted
    } else {
        match verdict_mode {
            "first_error" => verdicts
                .into_iter()
                .find(|v| *v != Verdict::Accepted)
                .unwrap_or(Verdict::Accepted),
            "always_accept" => Verdict::Accepted,
            _ => verdicts
                .min_by_key(|v| rank(*v))
                .unwrap_or(Verdict::Accepted),
        }
    };
    let scores = results.iter().map(|r| r.score);
    let score = match score_mode {
        "avg" if !results.is_empty() => scores.sum::<f64>() / results.len() as f64,
        "min" => scores.fold(f64::INFINITY, f64::min),
        "max" => scores.fold(f64::NEG_INFINITY, f64::max),
        _ => scores.sum(),
    };
    Graded {
        verdict,
        score: if score.is_finite() { score } else { 0.0 },
        detail: None,
    }
}

/// problemtools' order of errors, worst first.
fn rank(v: Verdict) -> u8 {
    match v {
        Verdict::JudgeError => 0,
        Verdict::RuntimeError => 1,
        Verdict::MemoryLimit => 2,
        Verdict::TimeLimit => 3,
        Verdict::OutputLimit => 4,
        Verdict::WrongAnswer | Verdict::NoAnswer => 5,
        Verdict::PresentationError => 6,
        Verdict::Accepted => 7,
    }
}

/// A verdict as a grader reads it: problemtools' `AC`, `WA`, `TLE`, `RTE`, `JE`.
fn grader_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => "AC",
        Verdict::TimeLimit => "TLE",
        Verdict::RuntimeError | Verdict::MemoryLimit => "RTE",
        Verdict::JudgeError => "JE",
        Verdict::WrongAnswer
        | Verdict::PresentationError
        | Verdict::OutputLimit
        | Verdict::NoAnswer => "WA",
    }
}

/// Runs the package's grader: one `VERDICT SCORE` line per item on its stdin, `flags` as its
/// arguments; it prints the group's `VERDICT SCORE` and exits 0. Anything else is a judge error
/// naming the grader.
fn custom(grader: &Built, root: &Path, flags: &[String], results: &[Graded]) -> Graded {
    match run_grader(grader, root, flags, results) {
        Ok(g) => g,
        Err(why) => Graded {
            verdict: Verdict::JudgeError,
            score: 0.0,
            detail: Some(format!("the grader {} {why}", grader.source.display())),
        },
    }
}

fn run_grader(
    grader: &Built,
    root: &Path,
    flags: &[String],
    results: &[Graded],
) -> Result<Graded, String> {
    let input: String = results
        .iter()
        .map(|r| format!("{} {}\n", grader_word(r.verdict), r.score))
        .collect();
    let mut command = grader.command.clone();
    for f in flags {
        command += " ";
        command += &quote(Path::new(f));
    }
    let program = Program::ShellIn(command, root.to_path_buf());
    let limits = Limits {
        time: GRADER_TIME,
        timing: judge_process::Timing::Wall,
        output: 1 << 16,
        memory: None,
        settling: None,
    };
    let o = judge_process::run(&program.command(), input.into_bytes(), limits)
        .map_err(|e| format!("cannot be run: {e}"))?;
    let stderr = String::from_utf8_lossy(&o.stderr_tail);
    let said = crate::bounded::last_lines(stderr.trim(), 5).replace('\n', "; ");
    if o.timed_out {
        return Err(format!("ran past {} s", GRADER_TIME.as_secs()));
    }
    match o.exit {
        Exit::Code(0) => {}
        Exit::Code(c) => return Err(format!("exited with {c}, not 0: {said}")),
        Exit::Signal(s) => return Err(format!("was killed by signal {s}: {said}")),
    }
    let text = String::from_utf8_lossy(&o.stdout);
    let words: Vec<&str> = text.split_whitespace().collect();
    let verdict = match words.first().copied() {
        Some("AC") => Verdict::Accepted,
        Some("WA") => Verdict::WrongAnswer,
        Some("TLE") => Verdict::TimeLimit,
        Some("RTE") => Verdict::RuntimeError,
        Some("JE") => Verdict::JudgeError,
        _ => return Err(format!("printed {:?}, not `VERDICT SCORE`", text.trim())),
    };
    match (words.get(1).map(|w| w.parse::<f64>()), words.len()) {
        (Some(Ok(score)), 2) if score.is_finite() => Ok(Graded {
            verdict,
            score,
            detail: (verdict == Verdict::JudgeError)
                .then(|| format!("the grader {} said JE", grader.source.display())),
        }),
        _ => Err(format!("printed {:?}, not `VERDICT SCORE`", text.trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(verdict: Verdict, score: f64) -> Graded {
        Graded {
            verdict,
            score,
            detail: None,
        }
    }

    fn flags(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_default_grader_follows_its_flags() {
        let items = [
            g(Verdict::Accepted, 10.0),
            g(Verdict::WrongAnswer, 0.0),
            g(Verdict::TimeLimit, 2.0),
        ];
        assert_eq!(default(&[], &items), g(Verdict::TimeLimit, 12.0));
        assert_eq!(
            default(&flags("first_error min"), &items),
            g(Verdict::WrongAnswer, 0.0)
        );
        assert_eq!(
            default(&flags("accept_if_any_accepted max"), &items),
            g(Verdict::Accepted, 10.0)
        );
        assert_eq!(
            default(&flags("always_accept avg"), &items),
            g(Verdict::Accepted, 4.0)
        );
        assert_eq!(
            default(&flags("ignore_sample"), &items[..2]),
            g(Verdict::WrongAnswer, 0.0)
        );
        assert_eq!(default(&[], &[]), g(Verdict::Accepted, 0.0));
    }
}

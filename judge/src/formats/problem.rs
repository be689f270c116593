//! The plan every reader produces: what the judging core needs, and nothing of the format.

use std::path::PathBuf;
use std::time::Duration;

use crate::suite::Settings;

use super::submission::Submission;

/// A problem read from its folder.
#[derive(Debug)]
pub struct Problem {
    /// How the folder was read, for the first line of the report:
    /// `ICPC problem package (legacy)`, `Polygon package`, ...
    pub format: String,
    /// The folder's name.
    pub name: String,
    pub root: PathBuf,
    /// Test groups in judging order (samples first); every case names one.
    pub groups: Vec<Group>,
    /// Cases in judging order.
    pub cases: Vec<Case>,
    pub comparison: Comparison,
    pub time: TimeLimit,
    /// Bytes of memory per run, when the problem sets a limit.
    pub memory: Option<u64>,
    /// Bytes of stdout per run.
    pub output: usize,
    /// Submissions with the verdicts they promise, in path order.
    pub submissions: Vec<Submission>,
    /// Input validators (ICPC `input_validators/`), each a built command.
    pub input_validators: Vec<Built>,
    /// A scoring problem: each group's score is reported.
    pub scoring: bool,
}

/// A group of cases: `sample`, `secret`, `secret/group1`, ...
#[derive(Debug, Clone, Default)]
pub struct Group {
    pub name: String,
    /// Score of an accepted case of the group (scoring problems), else 1.
    pub accept_score: f64,
    /// How the group's case scores combine.
    pub aggregation: Aggregation,
    /// Whether the group counts towards the score (samples do not by default).
    pub scored: bool,
    /// Arguments for input validators on the group's inputs.
    pub input_flags: Vec<String>,
}

/// How a group's case scores add up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Aggregation {
    #[default]
    Sum,
    /// The group scores its full score only when every case is accepted (2023-07 `min`).
    Min,
}

/// One case.
#[derive(Debug, Clone)]
pub struct Case {
    /// `sample/1`, `secret/group1/03`, ...: the group's name and the case's file stem.
    pub label: String,
    /// Index into [`Problem::groups`].
    pub group: usize,
    pub input: PathBuf,
    /// The answer (`.ans`, `.out`, Polygon's `NN.a`); may be missing for interactive problems.
    pub answer: PathBuf,
    /// Output validator flags for this case (the problem's and its group's).
    pub flags: Vec<String>,
    /// Our suites' `NN.exit`: the expected exit code, when the file exists.
    pub exit: Option<PathBuf>,
}

/// How the judge decides whether an output is right.
#[derive(Debug, Clone)]
pub enum Comparison {
    /// The ICPC default output validator, with flags per case.
    Default,
    /// Our suites' comparisons and interactors, from their `suite.toml` (or its defaults).
    Suite(Box<Settings>),
    /// A Kattis output validator: `VALIDATOR input answer feedback_dir [flags] < output`,
    /// 42 accepted, 43 wrong answer.
    Validator(Built),
    /// A testlib checker: `CHECKER input output answer`.
    Testlib(Built),
    /// An interactive problem: the program talks with this command; Kattis exit codes
    /// (`input answer feedback_dir [flags]`) or testlib's (`input output answer`).
    Interactor(Built, crate::suite::InteractorCodes),
}

/// A built program of the package (validator, checker, interactor): the shell command that runs
/// it and the file or folder it was built from.
#[derive(Debug, Clone)]
pub struct Built {
    pub command: String,
    pub source: PathBuf,
}

/// The time limit: given by the package (or `--time-limit`), else computed as problemtools
/// does: the slowest accepted run times `multiplier`, rounded to whole seconds (at least 1).
/// Runs are stopped at the limit times `margin`, so that a time-limit submission is seen to run
/// well past it.
#[derive(Debug, Clone, Copy)]
pub struct TimeLimit {
    pub given: Option<Duration>,
    /// Where a given limit comes from: `problem.yaml`, `suite.toml`, `the default`, ...
    pub source: &'static str,
    pub multiplier: f64,
    pub margin: f64,
    /// The clock the limit is on (CPU time unless the judge is told otherwise with `--time`).
    pub timing: crate::run::Timing,
}

impl Problem {
    /// `N cases in G groups`.
    #[must_use]
    pub fn counts(&self) -> String {
        let used = self
            .groups
            .iter()
            .enumerate()
            .filter(|(i, _)| self.cases.iter().any(|c| c.group == *i))
            .count();
        format!(
            "{} {} in {used} {}",
            self.cases.len(),
            crate::out::plural(self.cases.len() as u64, "case", "cases"),
            crate::out::plural(used as u64, "group", "groups")
        )
    }
}

//! The plan every reader produces: what the judging core needs, and nothing of the format.

use std::path::{Path, PathBuf};
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
    /// Input validators (ICPC `input_validators/`): their sources, built only by
    /// `judge validate`, which alone needs them.
    pub input_validators: Vec<PathBuf>,
    /// A scoring problem: each group's score is reported.
    pub scoring: bool,
    /// The group at the top of the tree of groups (ICPC's `data/`), graded last.
    pub top: usize,
    /// The package's custom grader (ICPC `graders/`), for groups graded `custom`.
    pub grader: Option<Built>,
    /// Whether a submission's address space is capped at the memory limit, as problemtools
    /// caps it (ICPC packages; see [`super::address_space`]).
    pub address_space: bool,
}

/// A group of cases: `sample`, `secret`, `secret/group1`, ...; the groups form a tree, each
/// holding cases and groups in judging order ([`Group::items`]).
#[derive(Debug, Clone, Default)]
pub struct Group {
    pub name: String,
    /// Score of an accepted case of the group (scoring problems), else 1.
    pub accept_score: f64,
    /// Score of a rejected case (ICPC `reject_score`, default 0).
    pub reject_score: f64,
    /// Whether the group's score counts in the group above it (2023-07 samples do not).
    pub scored: bool,
    /// Arguments for input validators on the group's inputs.
    pub input_flags: Vec<String>,
    /// 2023-07's flags for one input validator: its name (the file or folder's name without
    /// extension) and its flags, in place of [`Group::input_flags`].
    pub input_flags_by: Vec<(String, Vec<String>)>,
    /// The scores a group is expected to get (ICPC `range`): a score outside is warned of.
    pub range: (f64, f64),
    /// Whether the group stops at its first rejected item (ICPC `on_reject: break`).
    pub on_reject: OnReject,
    /// How the items' verdicts and scores combine into the group's.
    pub grading: Grading,
    /// The group's flags for its grader (ICPC `grader_flags`: `min`, `first_error`, ...).
    pub grader_flags: Vec<String>,
    /// The cases and groups inside, in judging order.
    pub items: Vec<Item>,
}

/// One entry of a group: a case or a group, by index into [`Problem::cases`] or
/// [`Problem::groups`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Case(usize),
    Group(usize),
}

/// What a group does after a rejected item.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OnReject {
    /// It judges the items after it (ICPC `on_reject: continue`).
    #[default]
    Continue,
    /// It stops: the items after it are not judged (ICPC `on_reject: break`, the default).
    Break,
}

/// Which grader combines a group's results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Grading {
    /// The judge's own, as problemtools' default grader (see [`super::grading`]).
    #[default]
    Default,
    /// The package's grader program ([`Problem::grader`]).
    Custom,
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
    /// The package's validator, checker or interactor does not build: each case is a judge
    /// error with this message (which names it).
    Broken(String),
}

/// A built program of the package (validator, checker, interactor): the shell command that runs
/// it and the file or folder it was built from.
#[derive(Debug, Clone)]
pub struct Built {
    pub command: String,
    pub source: PathBuf,
}

/// The time limit: given by the package (or `--time-limit`), else computed as problemtools
/// does: the slowest accepted run times `multiplier`, rounded up to a multiple of `resolution`
/// (at least one).
/// Runs are stopped at the limit times `margin`, so that a time-limit submission is seen to run
/// well past it.
#[derive(Debug, Clone, Copy)]
pub struct TimeLimit {
    pub given: Option<Duration>,
    /// Where a given limit comes from: `problem.yaml`, `suite.toml`, `the default`, ...
    pub source: &'static str,
    pub multiplier: f64,
    /// The step a computed limit is rounded up to, in seconds (`limits.time_resolution`).
    pub resolution: f64,
    pub margin: f64,
    /// The clock the limit is on (CPU time unless the judge is told otherwise with `--time`).
    pub timing: crate::run::Timing,
}

/// Makes `groups` a tree of one level: each group holds its cases in order, under a new top
/// group that holds them all and is returned. Every group judges all its items and is graded by
/// its first failure, as formats without group settings are (Polygon, plain folders).
pub fn flat_tree(groups: &mut Vec<Group>, cases: &[Case]) -> usize {
    let first_error = vec!["first_error".to_string()];
    for (g, group) in groups.iter_mut().enumerate() {
        group.items = (0..cases.len())
            .filter(|c| cases[*c].group == g)
            .map(Item::Case)
            .collect();
        group.grader_flags.clone_from(&first_error);
    }
    groups.push(Group {
        name: String::new(),
        accept_score: 1.0,
        scored: true,
        grader_flags: first_error,
        items: (0..groups.len()).map(Item::Group).collect(),
        ..Group::default()
    });
    groups.len() - 1
}

impl Problem {
    /// The cap on a submission's address space, in bytes: the memory limit, for the formats
    /// that cap it ([`Problem::address_space`]).
    #[must_use]
    pub fn address_cap(&self) -> Option<u64> {
        self.memory.filter(|_| self.address_space)
    }

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

/// The bounds of a time limit read from a package: 1 ms to 10^6 s (a limit below a millisecond
/// would make every run too slow; above, it is no limit and overflows a clock).
const TIME_RANGE: (f64, f64) = (1e-3, 1e6);

/// The bounds of a memory limit in bytes: 1 MiB to 1 TiB.
const MEMORY_RANGE: (f64, f64) = (1_048_576.0, 1_099_511_627_776.0);

/// The bounds of a score: 0 to 10^9.
const SCORE_RANGE: (f64, f64) = (0.0, 1e9);

/// A time limit of `seconds`, read from `file` at `key`.
///
/// # Errors
/// Not finite or outside 1 ms to 10^6 s: the message names the file, the key and the value.
pub fn time_limit(seconds: f64, file: &Path, key: &str) -> Result<Duration, String> {
    within(
        seconds,
        TIME_RANGE,
        file,
        key,
        "a time limit from 0.001 to 1000000 seconds",
    )
    .map(Duration::from_secs_f64)
}

/// A time limit of `ms` milliseconds (Polygon's unit), read from `file` at `key`.
///
/// # Errors
/// Not finite or outside 1 ms to 10^6 s: the message names the file, the key and the value.
pub fn time_limit_ms(ms: f64, file: &Path, key: &str) -> Result<Duration, String> {
    let range = (TIME_RANGE.0 * 1e3, TIME_RANGE.1 * 1e3);
    let what = "a time limit from 1 to 1000000000 milliseconds";
    within(ms, range, file, key, what).map(|ms| Duration::from_secs_f64(ms / 1e3))
}

/// A memory limit of `bytes`, read from `file` at `key`.
///
/// # Errors
/// Not finite or outside 1 MiB to 1 TiB: the message names the file, the key and the value.
pub fn memory_limit(bytes: f64, file: &Path, key: &str) -> Result<u64, String> {
    let what = "a memory limit from 1 MiB to 1 TiB";
    within(bytes, MEMORY_RANGE, file, key, what).map(|b| b as u64)
}

/// A score, read from `file` at `key`.
///
/// # Errors
/// Not finite or outside 0 to 10^9: the message names the file, the key and the value.
pub fn score(value: f64, file: &Path, key: &str) -> Result<f64, String> {
    within(
        value,
        SCORE_RANGE,
        file,
        key,
        "a score from 0 to 1000000000",
    )
}

fn within(
    v: f64,
    (low, high): (f64, f64),
    file: &Path,
    key: &str,
    what: &str,
) -> Result<f64, String> {
    if v.is_finite() && (low..=high).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{}: {key} must be {what}, found {}",
            file.display(),
            number_text(v)
        ))
    }
}

/// `v` as a message shows it: very large and very small numbers in exponent form (`1e22`).
pub fn number_text(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-4..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_files_are_checked_for_range_and_finiteness() {
        let file = Path::new("p/problem.xml");
        let t = time_limit(2.0, file, "<time-limit>").expect("2 s");
        assert_eq!(t, Duration::from_secs(2));
        for bad in [1e19, 1e305, 1e-303, 0.0, -1.0, f64::NAN, f64::INFINITY] {
            let e = time_limit(bad, file, "<time-limit>").expect_err("refused");
            assert!(
                e.starts_with("p/problem.xml: <time-limit> must be a time limit"),
                "{e}"
            );
        }
        assert!(time_limit_ms(1e22, file, "<time-limit>")
            .expect_err("refused")
            .ends_with("1 to 1000000000 milliseconds, found 1e22"));
        let e = time_limit(1e-300, file, "limits.time_limit").expect_err("refused");
        assert!(e.ends_with("found 1e-300"), "{e}");
        assert_eq!(
            time_limit_ms(1500.0, file, "t"),
            Ok(Duration::from_millis(1500))
        );
        assert_eq!(memory_limit(268435456.0, file, "m"), Ok(268435456));
        for bad in [1e308, 1e-300, 1000.0, f64::NAN] {
            assert!(memory_limit(bad, file, "m").is_err(), "{bad}");
        }
        assert_eq!(score(0.5, file, "s"), Ok(0.5));
        assert!(score(1e300, file, "s").is_err());
        assert!(score(-1.0, file, "s").is_err());
    }
}

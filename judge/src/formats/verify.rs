//! `judge verify PACKAGE`: every submission judged on the package's cases, as problemtools
//! judges it (each group in order, stopping where its `on_reject` says, graded by its grader),
//! one table of submissions by test group printed row by row as each submission is done, and
//! whether each got the verdict its folder (or Polygon tag) promises.
//!
//! No single run stops the verify: a validator, checker, interactor or grader that fails is a
//! judge error (JE) of that submission on that case, and a submission that does not build is a
//! compilation error (CE); the table goes on.

use std::io::IsTerminal as _;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::cli::VerifyArgs;
use crate::compiler::BuildError;
use crate::out;
use crate::program::Program;
use crate::verdict::{CaseResult, Verdict};

use super::ahead::Ahead;
use super::grading::{self, Grades};
use super::judging::{self, Judged, RunLimits};
use super::problem::Problem;
use super::promises;
use super::submission::Submission;

mod report;
mod shared;

use report::{limits_report, verdicts_report, Table};
use shared::Shared;

/// How long a calibration run (an accepted submission timed to compute the limit) may take.
const CALIBRATION_CAP: Duration = Duration::from_secs(20);

/// A submission ready to run, or why not.
#[derive(Clone)]
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
    /// Per case: the run as it ended, before the time limit is applied (`None`: not run).
    raw: Vec<Option<Judged>>,
    /// The grades at the time limit.
    grades: Option<Grades>,
    /// An accepted submission's calibration runs, made as soon as it was built (while the
    /// others built), before the time limit is known.
    timed: Option<Vec<Option<Judged>>>,
}

impl Outcome<'_> {
    fn verdict(&self) -> String {
        match (&self.ready, &self.grades) {
            (Ready::Skipped(_), _) => "skipped".to_string(),
            (Ready::Broken(_), _) => "CE".to_string(),
            (Ready::Program(_), Some(g)) => g.total.verdict.name().to_string(),
            (Ready::Program(_), None) => "-".to_string(),
        }
    }

    fn kept(&self, problem: &Problem, best: f64) -> bool {
        self.broken(problem, best).is_none()
    }

    /// Whether the promise is broken: `Some(None)` its folder's (or tag's), `Some(Some(why))`
    /// one of `submissions.yaml`'s; `None` when kept.
    fn broken(&self, problem: &Problem, best: f64) -> Option<Option<String>> {
        let (Ready::Program(_), Some(g)) = (&self.ready, &self.grades) else {
            return Some(None);
        };
        let verdicts: Vec<Verdict> = g.cases.iter().flatten().map(|c| c.verdict).collect();
        let score = problem.scoring.then_some((g.total.score, best));
        if !self
            .submission
            .expected
            .kept(g.total.verdict, &verdicts, score)
        {
            return Some(None);
        }
        promises::broken(&self.submission.rules, problem, g).map(Some)
    }

    /// The case that gave the submission its verdict: the first with that verdict, else the
    /// first that failed.
    fn deciding_case(&self) -> Option<&CaseResult> {
        let g = self.grades.as_ref()?;
        let cases = || g.cases.iter().flatten();
        cases()
            .find(|c| c.verdict == g.total.verdict && c.verdict != Verdict::Accepted)
            .or_else(|| cases().find(|c| c.verdict != Verdict::Accepted))
    }
}

/// Runs `judge verify`; whether every submission kept its promise.
///
/// # Errors
/// The package cannot be read, or no time limit can be found.
pub fn command(args: &VerifyArgs) -> Result<bool, String> {
    // The submissions build on the other cores while the package is read (its validator built).
    let prebuild = super::prebuild::start(&args.package, args.filter.as_deref());
    let read = super::read(&args.package);
    prebuild.stop_taking();
    let mut problem = read?;
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
    super::validate::warn_unavailable(&problem);
    let jobs = args
        .jobs
        .map_or_else(|| default_jobs(args.time), usize::from);
    let progress = Progress::new();
    // On the CPU clock, the submissions run as they are built (the accepted ones timed first,
    // to compute the limit); on the wall clock, nothing runs beside a timed run.
    let known = match args.time_limit {
        Some(t) => Some(crate::suite::seconds(t).map_err(|e| format!("--time-limit {e}"))?),
        None => problem.time.given,
    };
    let shared = Shared::new(submissions.len(), jobs > 1 && runs_early(&problem));
    std::thread::scope(|scope| {
        let run_threads = if runs_early(&problem) {
            jobs.min(submissions.len())
        } else {
            0
        };
        for _ in 0..run_threads {
            scope.spawn(|| shared.run_early(&problem, &submissions, &progress));
        }
        let judged = judge_all(
            args,
            &problem,
            &submissions,
            jobs,
            &progress,
            known,
            &shared,
        );
        // Whatever happened, the run threads take nothing more.
        shared.queue.drop_the_rest();
        judged
    })
}

/// Whether the submissions run as they are built (see [`super::early`]): on the CPU clock, where
/// a run's time is its own whatever runs beside it; on the wall clock nothing runs beside a
/// timed run.
fn runs_early(problem: &Problem) -> bool {
    problem.time.timing == crate::run::Timing::Cpu
}

/// The phases of a verify: every submission built (and, on the CPU clock, run as it is built,
/// see [`super::early`]), the limit found, then every submission judged, its row printed in
/// the table's order as soon as it and those above it are done.
fn judge_all(
    args: &VerifyArgs,
    problem: &Problem,
    submissions: &[&Submission],
    jobs: usize,
    progress: &Progress,
    known: Option<Duration>,
    shared: &Shared,
) -> Result<bool, String> {
    let mut outcomes = build_all(submissions, problem, jobs, progress, known, shared)?;
    let (time, how) = time_limit(
        problem,
        &mut outcomes,
        args.time_limit,
        jobs,
        progress,
        shared,
    )?;
    shared.set_limit(problem, time);
    shared.queue.drop_the_rest();
    let limits = RunLimits::of(problem, time);
    let best = grading::best(problem);
    let table = Table::new(problem, &outcomes);
    out::stdout(&table.header());
    let order = judging_order(&outcomes, jobs, |i| shared.slots.started(i));
    let slots: Vec<Mutex<Option<Outcome>>> =
        outcomes.into_iter().map(|o| Mutex::new(Some(o))).collect();
    let mut rows = Rows::new(slots.len());
    let work = |k: usize| -> Result<Outcome, String> {
        let i = order[k];
        let mut o = take(&slots[i]);
        if o.grades.is_none() {
            if let Ready::Program(program) = &o.ready {
                let early = shared.slots.take(i);
                let made = early.map(|e| e.reusable(limits)).unwrap_or_default();
                let _running = shared.queue.running();
                o.raw = run(
                    problem,
                    program,
                    limits,
                    progress,
                    &o.submission.name,
                    &made,
                    shared.ahead(o.submission),
                );
                o.grades = Some(at_limit(problem, &o.raw, time));
            }
        }
        Ok(o)
    };
    crate::pool::in_order(jobs, slots.len(), work, |k, o| {
        for o in rows.arrived(order[k], o) {
            progress.clear();
            out::stdout(&table.row(problem, o, best));
        }
        std::ops::ControlFlow::Continue(())
    })?;
    let done = rows.all();
    progress.clear();
    out::stdout(&limits_report(problem, &done, limits, &how, jobs));
    Ok(verdicts_report(problem, &done, best, args.strict))
}

/// Submissions judged at once without `-j`: as many as the machine has cores when the runs are
/// timed on the CPU clock (a run's CPU time is its own, whatever runs beside it), one on the
/// wall clock.
fn default_jobs(clock: crate::cli::Clock) -> usize {
    match clock {
        crate::cli::Clock::Cpu => {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        }
        crate::cli::Clock::Wall => 1,
    }
}

/// The order in which the submissions are judged: first those judged early (`early`: their
/// judging goes on, or needs little more), then the table's with one job; with more, the
/// submissions that promise a time limit first (each waits out the limit on a case or more),
/// then the others in the table's order, so that the longest runs do not come last with the
/// other workers idle. Only the order of the work changes: each submission is judged alone on
/// its cases as with one job, and the rows are printed in the table's order.
fn judging_order(outcomes: &[Outcome], jobs: usize, early: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..outcomes.len()).collect();
    order.sort_by_key(|&i| {
        let o = &outcomes[i];
        let pending = o.grades.is_none() && matches!(o.ready, Ready::Program(_));
        (
            !early(i),
            jobs == 1 || !(pending && o.submission.time_limited()),
        )
    });
    order
}

/// The outcomes as they arrive in any order, handed out in the table's order.
struct Rows<'a> {
    slots: Vec<Option<Outcome<'a>>>,
    /// The first row not yet handed out.
    next: usize,
}

impl<'a> Rows<'a> {
    fn new(n: usize) -> Rows<'a> {
        Rows {
            slots: (0..n).map(|_| None).collect(),
            next: 0,
        }
    }

    /// Keeps `o`, the outcome of row `i`; the rows now ready to print, in order.
    fn arrived(&mut self, i: usize, o: Outcome<'a>) -> Vec<&Outcome<'a>> {
        self.slots[i] = Some(o);
        let from = self.next;
        while self.slots.get(self.next).is_some_and(Option::is_some) {
            self.next += 1;
        }
        self.slots[from..self.next].iter().flatten().collect()
    }

    /// Every outcome, in the table's order.
    fn all(self) -> Vec<Outcome<'a>> {
        self.slots.into_iter().flatten().collect()
    }
}

fn take<'a>(slot: &Mutex<Option<Outcome<'a>>>) -> Outcome<'a> {
    slot.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
        .expect("each submission is judged once")
}

/// Builds every submission, at least `jobs` at once (as many as the machine has cores). On the
/// CPU clock (a run's CPU time is its own, whatever runs beside it), each is queued for the run
/// threads as soon as it is built (see [`Shared::run_early`]): the accepted submissions to time
/// on the cases (stopped after [`CALIBRATION_CAP`]) when the limit is to be computed, the others
/// to judge early. Returns once every submission is built and every accepted one timed.
fn build_all<'a>(
    submissions: &[&'a Submission],
    problem: &Problem,
    jobs: usize,
    progress: &Progress,
    known: Option<Duration>,
    shared: &Shared,
) -> Result<Vec<Outcome<'a>>, String> {
    let n = submissions.len();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let early_runs = runs_early(problem);
    let calibrate = early_runs && known.is_none();
    if let Some(time) = known {
        shared.set_limit(problem, time);
    }
    // Those that promise a time limit build first (their waits are the longest, and are judged
    // early whatever the limit), then the accepted ones to time, then the rest.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        let s = submissions[i];
        (
            !(early_runs && s.time_limited()),
            !(calibrate && s.accepted()),
        )
    });
    if calibrate {
        *shared
            .to_time
            .lock()
            .unwrap_or_else(PoisonError::into_inner) =
            submissions.iter().filter(|s| s.accepted()).count();
    }
    let built = Mutex::new(0usize);
    judging::all(jobs.max(cores), n, |k| {
        let i = order[k];
        let s = submissions[i];
        let building = shared.queue.building();
        let ready = ready(&s.path, s.entrypoint.as_deref(), problem.address_cap());
        drop(building);
        let runs = matches!(ready, Ready::Program(_));
        let _ = shared.readies[i].set(ready);
        match (runs, calibrate && s.accepted()) {
            (true, true) => shared.queue.time(i),
            (false, true) => shared.timed_one(problem),
            (true, false) if early_runs => shared.queue.judge(i, s.time_limited()),
            _ => {}
        }
        let mut count = built.lock().unwrap_or_else(PoisonError::into_inner);
        *count += 1;
        progress.say(&format!("built {count} of {n} submissions"));
        Ok(())
    })?;
    shared.wait_timed();
    Ok(shared
        .readies
        .iter()
        .zip(&shared.timed)
        .zip(submissions)
        .map(|((ready, timed), submission)| Outcome {
            submission,
            ready: ready.get().cloned().expect("each submission is built once"),
            raw: vec![None; problem.cases.len()],
            grades: None,
            timed: timed.lock().unwrap_or_else(PoisonError::into_inner).take(),
        })
        .collect())
}

fn ready(path: &Path, entry: Option<&str>, cap: Option<u64>) -> Ready {
    if path.is_dir() && !any_known_source(path) {
        return Ready::Skipped(format!(
            "{}: a folder with no source file of a language the judge knows",
            path.display()
        ));
    }
    match build(path, entry, cap) {
        Ok(program) => Ready::Program(program),
        Err(BuildError::Unavailable(why)) => Ready::Skipped(why),
        Err(BuildError::Failed(why)) => Ready::Broken(why),
    }
}

/// A submission built to run: a Python 3 file with `pypy3` where it is on `PATH` (as
/// problemtools runs it), any other source as the judge builds it (a folder from its main file
/// `entry` when given); its address space capped at `cap` bytes where
/// [`super::address_space`] says.
///
/// # Errors
/// As [`crate::source::build_from`].
pub fn build(path: &Path, entry: Option<&str>, cap: Option<u64>) -> Result<Program, BuildError> {
    uncapped(path, entry).map(|program| super::address_space::capped(program, path, cap))
}

fn uncapped(path: &Path, entry: Option<&str>) -> Result<Program, BuildError> {
    if let Some(pypy) = pypy3().filter(|_| {
        path.is_file()
            && crate::source::Language::of(path) == Some(crate::source::Language::Python3)
    }) {
        let file = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        return Ok(Program::Shell(format!(
            "{} {}",
            crate::shell::quote(&pypy),
            crate::shell::quote(&file)
        )));
    }
    crate::source::build_from(path, entry).map(Program::Shell)
}

/// `pypy3` on `PATH`, if it is there.
#[must_use]
pub fn pypy3() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("pypy3"))
        .find(|p| p.is_file())
}

/// Whether the folder `dir` holds a `build` or `run` script or a source file of a known
/// language.
fn any_known_source(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return true;
    };
    entries.flatten().any(|e| {
        let path = e.path();
        let name = e.file_name();
        name == "build" || name == "run" || crate::source::Language::of(&path).is_some()
    })
}

/// Judges `program` on the tree of groups, in order, each group stopping where its `on_reject`
/// says; the runs as they ended (a run the judge could not decide is a judge error). A case
/// whose run is in `made` (runs that stand under `limits`) is not run again; with `ahead`,
/// cases may run ahead of the walk on a free core (see [`super::ahead`]).
fn run(
    problem: &Problem,
    program: &Program,
    limits: RunLimits,
    progress: &Progress,
    name: &str,
    made: &[Option<Judged>],
    ahead: Option<Ahead>,
) -> Vec<Option<Judged>> {
    let judge = |c: usize, limits: RunLimits| {
        let case = &problem.cases[c];
        judging::judge_raw(problem, program, case, limits).unwrap_or_else(|e| Judged {
            result: judging::judge_error(case, &format!("{}: {e}", case.label)),
            rejected_first: false,
        })
    };
    let mut count = 0;
    super::ahead::walk(problem, limits, made, ahead, &judge, &mut |c, judged| {
        let r = judged.at_limit(limits.time);
        count += 1;
        progress.say(&format!(
            "{name}: {count} of {} cases, {} on {}",
            problem.cases.len(),
            r.verdict.name(),
            problem.cases[c].label
        ));
        r
    })
}

/// The grades of the runs `raw` at the time limit `limit`.
fn at_limit(problem: &Problem, raw: &[Option<Judged>], limit: Duration) -> Grades {
    let cases: Vec<Option<CaseResult>> = raw
        .iter()
        .map(|r| r.as_ref().map(|r| r.at_limit(limit)))
        .collect();
    grading::of(problem, &cases)
}

/// The time limit and how it was found: `--time-limit`, the package's, or computed from the
/// accepted submissions, run first (stopped after [`CALIBRATION_CAP`]; those [`build_all`]
/// timed already are not run again) with their runs kept in `outcomes`. A computed limit is kept in the cache for `judge PATH`, and taken from there
/// when no accepted submission is verified (`--filter`).
///
/// # Errors
/// No limit given and no accepted submission to compute it from.
fn time_limit(
    problem: &Problem,
    outcomes: &mut [Outcome],
    given: Option<f64>,
    jobs: usize,
    progress: &Progress,
    shared: &Shared,
) -> Result<(Duration, String), String> {
    if let Some(t) = given {
        let t = crate::suite::seconds(t).map_err(|e| format!("--time-limit {e}"))?;
        return Ok((t, "--time-limit".to_string()));
    }
    if let Some(t) = problem.time.given {
        return Ok((t, problem.time.source.to_string()));
    }
    let accepted: Vec<usize> = (0..outcomes.len())
        .filter(|&i| outcomes[i].submission.accepted())
        .filter(|&i| matches!(outcomes[i].ready, Ready::Program(_)))
        .collect();
    if accepted.is_empty() {
        // `--filter` left the accepted submissions out: the limit computed earlier, if any.
        return super::time_limit::cached(problem)
            .ok_or_else(|| no_limit(problem, "--time-limit S"));
    }
    let cap = calibration_limits(problem);
    // Those timed while the others built, and the rest now.
    let done: Vec<Option<Vec<Option<Judged>>>> =
        accepted.iter().map(|&i| outcomes[i].timed.take()).collect();
    let runs = judging::all(jobs, accepted.len(), |k| {
        if let Some(raw) = &done[k] {
            return Ok(raw.clone());
        }
        let o = &outcomes[accepted[k]];
        let Ready::Program(program) = &o.ready else {
            return Ok(Vec::new());
        };
        let _running = shared.queue.running();
        Ok(run(
            problem,
            program,
            cap,
            progress,
            &o.submission.name,
            &[],
            shared.ahead(o.submission),
        ))
    })?;
    let slowest = super::time_limit::slowest(runs.iter().flatten().flatten().map(|j| &j.result));
    let (limit, how) = super::time_limit::computed(problem, slowest);
    super::time_limit::keep(problem, limit, &how);
    for (i, raw) in accepted.into_iter().zip(runs) {
        outcomes[i].grades = Some(at_limit(problem, &raw, limit));
        outcomes[i].raw = raw;
    }
    Ok((limit, how))
}

/// The limits of a calibration run: stopped after [`CALIBRATION_CAP`].
fn calibration_limits(problem: &Problem) -> RunLimits {
    RunLimits {
        time: CALIBRATION_CAP,
        limits: crate::run::Limits {
            time: CALIBRATION_CAP,
            timing: problem.time.timing,
            output: problem.output,
            memory: problem.memory,
            settling: None,
        },
    }
}

/// The error of a package with no time limit and no accepted submission; `option` is the
/// command's option that gives one.
#[must_use]
pub fn no_limit(problem: &Problem, option: &str) -> String {
    format!(
        "{}: no time limit given and no accepted submission to compute it from \
         (give limits.time_limit in problem.yaml, or {option})",
        problem.root.display()
    )
}

/// Runs `programs` (accepted submissions) on every case and computes the time limit from the
/// slowest accepted run, as problemtools does: `slowest * multiplier` rounded up to the time
/// resolution (at least one step).
///
/// # Errors
/// No accepted submission to time.
pub fn calibrate(
    problem: &Problem,
    programs: &[&Program],
    jobs: usize,
) -> Result<(Duration, String), String> {
    if programs.is_empty() {
        return Err(no_limit(problem, "--time-limit S"));
    }
    let progress = Progress::new();
    let cap = calibration_limits(problem);
    let runs = judging::all(jobs, programs.len(), |k| {
        Ok(run(
            problem,
            programs[k],
            cap,
            &progress,
            "calibrating",
            &[],
            None,
        ))
    })?;
    progress.clear();
    let slowest = super::time_limit::slowest(runs.iter().flatten().flatten().map(|j| &j.result));
    Ok(super::time_limit::computed(problem, slowest))
}

/// A line of progress on stderr, rewritten in place, when stderr is a terminal.
pub struct Progress {
    on: bool,
}

impl Progress {
    #[must_use]
    pub fn new() -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
        }
    }

    /// Shows `text` in place of the last line of progress.
    pub fn say(&self, text: &str) {
        if self.on {
            let text: String = text.chars().take(100).collect();
            out::stderr(&format!("\r\x1b[K{text}"));
        }
    }

    /// Clears the line of progress.
    pub fn clear(&self) {
        if self.on {
            out::stderr("\r\x1b[K");
        }
    }
}

impl Default for Progress {
    fn default() -> Progress {
        Progress::new()
    }
}

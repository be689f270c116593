//! `judge PATH [--cmd SOL]`: one program judged on a problem folder, the format read named on
//! the first line, then the usual report (one line per case, a summary, JSON or JUnit).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::cli::{Format, JudgeArgs};
use crate::program::Program;
use crate::report::Human;
use crate::verdict::SuiteReport;
use crate::verdict::{CaseResult, Verdict};

use super::judging::{self, RunLimits};
use super::problem::{Comparison, Problem};

/// Whether the command-line word `arg` names a problem folder rather than a suite under
/// `testcases`: a path (with a `/`, or `.`), or a folder here that is not a suite's name.
#[must_use]
pub fn is_folder(arg: &str, testcases: &Path) -> bool {
    arg.contains('/')
        || arg == "."
        || arg == ".."
        || (!testcases.join(arg).is_dir() && Path::new(arg).is_dir())
}

/// Judges each folder of `args.suites` in turn; whether every case passed.
///
/// # Errors
/// A folder that cannot be read, no program to judge, a setup error while judging.
pub fn judge(args: &JudgeArgs) -> Result<bool, String> {
    if let Some(path) = &args.junit {
        crate::out::writable("--junit", path)?;
    }
    let mut problems: Vec<Problem> = args
        .suites
        .iter()
        .map(|p| super::read(Path::new(p)))
        .collect::<Result<_, _>>()?;
    for problem in &mut problems {
        problem.time.timing = args.time.into();
        super::validate::warn_unavailable(problem);
    }
    let programs: Vec<Program> = problems
        .iter_mut()
        .map(|p| program_for(p, args))
        .collect::<Result<_, _>>()?;
    let human_wanted = args.format == Format::Human;
    let mut suites = Vec::new();
    for ((path, problem), program) in args.suites.iter().zip(&problems).zip(&programs) {
        let (time, how) = time_limit(problem, args)?;
        if human_wanted {
            crate::out::stdout(&format!(
                "{path}: {}, {}, time limit {} s ({how})\n",
                problem.format,
                problem.counts(),
                time.as_secs_f64()
            ));
        }
        let memory = match args.memory_limit {
            Some(m) => Some(crate::cli::mebibytes(m)?),
            None => problem.memory,
        };
        let mut limits = RunLimits::of(problem, time);
        limits.limits.memory = memory;
        // A source file or folder given to --cmd runs as the package's submissions run.
        let program = match &args.cmd {
            Some(cmd) if problem.address_space && is_source(cmd) => {
                super::address_space::capped(program.clone(), Path::new(cmd.trim()), memory)
            }
            _ => program.clone(),
        };
        suites.push(run(problem, &program, limits, args)?);
    }
    let passed = suites.iter().map(|s| s.passed).sum();
    let failed = suites.iter().map(|s| s.failed).sum();
    let total: usize = suites.iter().map(|s| s.cases.len()).sum();
    let human = Human::new(args.color, human_wanted, total);
    human.finish(passed, failed);
    let whole = crate::machine::Session {
        passed,
        failed,
        jobs: usize::from(args.jobs),
        suites: &suites,
    };
    if args.format == Format::Json {
        crate::out::stdout(&crate::machine::json(&whole));
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, crate::machine::junit(&whole))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(failed == 0)
}

/// Whether `--cmd` names a source file or a folder of sources (which the judge builds), not a
/// shell command.
fn is_source(cmd: &str) -> bool {
    let path = Path::new(cmd.trim());
    path.is_dir() || (path.is_file() && crate::source::Language::of(path).is_some())
}

/// `--cmd`, or for our suites their own binary. A suite's checker or interactor that names one
/// of our binaries is built too.
fn program_for(problem: &mut Problem, args: &JudgeArgs) -> Result<Program, String> {
    let name = problem.name.clone();
    if let Comparison::Suite(settings) = &mut problem.comparison {
        let own = crate::own::Own::find()?;
        let wanted = settings.program.clone().unwrap_or(name);
        let names = match (&args.cmd, own.is_ours(&wanted)) {
            (None, true) => vec![wanted],
            _ => Vec::new(),
        };
        let mut commands: Vec<&mut String> =
            [settings.checker.as_mut(), settings.interactor.as_mut()]
                .into_iter()
                .flatten()
                .collect();
        let mut paths = crate::own::resolve(&own, &mut commands, &names)?;
        if let (None, Some(path)) = (&args.cmd, paths.pop()) {
            return Ok(Program::Exec(path));
        }
    }
    if let Some(cmd) = &args.cmd {
        return Program::shell(cmd);
    }
    Err(format!(
        "{}: name the program to judge with --cmd SOL (a command or a source file){}",
        problem.root.display(),
        if problem.submissions.is_empty() {
            String::new()
        } else {
            format!(
                "; `judge verify {}` judges the package's own submissions",
                problem.root.display()
            )
        }
    ))
}

/// `--time-limit`, the package's, or one computed from its accepted submissions.
fn time_limit(problem: &Problem, args: &JudgeArgs) -> Result<(Duration, String), String> {
    if let Some(t) = args.time_limit {
        let t = crate::suite::seconds(t).map_err(|e| format!("--time-limit {e}"))?;
        return Ok((t, "--time-limit".to_string()));
    }
    if let Some(t) = problem.time.given {
        return Ok((t, problem.time.source.to_string()));
    }
    if !args.recalibrate {
        if let Some(kept) = super::time_limit::cached(problem) {
            return Ok(kept);
        }
    }
    let accepted: Vec<Program> = problem
        .submissions
        .iter()
        .filter(|s| s.accepted())
        .filter_map(|s| {
            super::verify::build(&s.path, s.entrypoint.as_deref(), problem.address_cap()).ok()
        })
        .collect();
    let refs: Vec<&Program> = accepted.iter().collect();
    let (t, how) = super::verify::calibrate(problem, &refs, usize::from(args.jobs))?;
    super::time_limit::keep(problem, t, &how);
    Ok((t, how))
}

/// Runs the cases of `problem` that `--filter` keeps, printing each as it comes.
fn run(
    problem: &Problem,
    program: &Program,
    limits: RunLimits,
    args: &JudgeArgs,
) -> Result<SuiteReport, String> {
    let cases: Vec<&super::Case> = problem
        .cases
        .iter()
        .filter(|c| args.filter.as_deref().is_none_or(|f| c.label.contains(f)))
        .collect();
    if cases.is_empty() {
        return Err(format!(
            "{}: no case{}",
            problem.root.display(),
            if args.filter.is_some() {
                " matches --filter"
            } else {
                ""
            }
        ));
    }
    let human = Human::new(args.color, args.format == Format::Human, cases.len());
    let jobs = usize::from(args.jobs);
    let start = Instant::now();
    let mut results: Vec<CaseResult> = Vec::with_capacity(cases.len());
    let judge = |i: usize| judging::judge(problem, program, cases[i], limits);
    crate::pool::in_order(jobs, cases.len(), judge, |_, r| {
        human.case(&r);
        results.push(r);
        std::ops::ControlFlow::Continue(())
    })?;
    let passed = results
        .iter()
        .filter(|c| c.verdict == Verdict::Accepted)
        .count();
    let score = problem.scoring.then(|| {
        let all: Vec<Option<CaseResult>> = problem
            .cases
            .iter()
            .map(|c| results.iter().find(|r| r.name == c.label).cloned())
            .collect();
        (
            super::grading::of(problem, &all).total.score,
            super::grading::best(problem),
        )
    });
    let report = SuiteReport {
        name: problem.name.clone(),
        passed,
        failed: results.len() - passed,
        time: start.elapsed().as_secs_f64(),
        // The report's own `score S/N` line counts one point per case: said below instead.
        score: None,
        cases: results,
    };
    human.suite(&report, jobs);
    let Some((got, max)) = score else {
        return Ok(report);
    };
    if args.format == Format::Human {
        crate::out::stdout(&format!("{}: score {got} of {max}\n", problem.name));
    }
    Ok(SuiteReport {
        score: Some(got),
        ..report
    })
}

//! A judging session, `judge [SUITE...]`: which suites and cases, with which program, and running
//! them (one at a time, or `-j N` at once), handing each result to the report in case order.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::case::{self, Judging};
use crate::cli::{self, Format, JudgeArgs};
use crate::program::Program;
use crate::run::Limits;
use crate::suite::{self, Case, Settings};
use crate::verdict::{CaseResult, SuiteReport, Verdict, OUTPUT_CAP};
use crate::{formats, machine, out, report};

/// One suite, ready to run.
pub struct Plan {
    pub name: String,
    pub dir: PathBuf,
    pub settings: Settings,
    pub program: Program,
    pub cases: Vec<Case>,
    pub limits: Limits,
}

/// `judge [SUITE...]`: judges every planned suite (or problem folder), reports on stdout (and in
/// `--junit`), returns whether all passed.
///
/// # Errors
/// A usage or setup error, as one line.
pub fn command(args: &JudgeArgs) -> Result<bool, String> {
    let folders = args
        .suites
        .iter()
        .filter(|s| formats::folder::is_folder(s, &args.testcases))
        .count();
    if folders > 0 {
        if folders < args.suites.len() {
            return Err("judge problem folders and suites by name in separate runs".to_string());
        }
        return formats::folder::judge(args);
    }
    if let Some(path) = &args.junit {
        out::writable("--junit", path)?;
    }
    let plans = plan(args)?;
    let total = plans.iter().map(|p| p.cases.len()).sum();
    let jobs = usize::from(args.jobs);
    let human = report::Human::new(args.color, args.format == Format::Human, total);
    let memory_limit = args.memory_limit.map(cli::mebibytes).transpose()?;
    let mut suites = Vec::new();
    for plan in &plans {
        let s = run_suite(plan, jobs, memory_limit, &mut |r| human.case(r))?;
        human.suite(&s, jobs);
        suites.push(s);
    }
    let passed = suites.iter().map(|s| s.passed).sum();
    let failed = suites.iter().map(|s| s.failed).sum();
    human.finish(passed, failed);
    let whole = machine::Session {
        passed,
        failed,
        jobs,
        suites: &suites,
    };
    if args.format == Format::Json {
        out::stdout(&machine::json(&whole));
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, machine::junit(&whole))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(failed == 0)
}

/// Reads the suites and settings that `args` ask for and finds the programs, before running
/// anything, so that every setup error comes first.
///
/// # Errors
/// An unknown suite, a bad `suite.toml`, a bad limit, a program that cannot be found or built.
pub fn plan(args: &JudgeArgs) -> Result<Vec<Plan>, String> {
    // The expected outputs are out of sight of the programs judged.
    judge_process::keep_hidden(&args.testcases);
    let names = if args.suites.is_empty() {
        suite::all(&args.testcases)?
    } else {
        args.suites.clone()
    };
    let time_limit = args
        .time_limit
        .map(|t| suite::seconds(t).map_err(|e| format!("--time-limit {e}")))
        .transpose()?;
    let mut plans = Vec::new();
    for name in &names {
        let cases = suite::cases(&args.testcases, name, args.filter.as_deref())?;
        let dir = args.testcases.join(name);
        let settings = Settings::load(&dir)?;
        let time = time_limit.unwrap_or(Duration::from_secs_f64(settings.time_limit));
        plans.push((name.clone(), dir, settings, cases, time));
    }
    if let Some(filter) = &args.filter {
        if plans.iter().all(|p| p.3.is_empty()) {
            return Err(suite::no_match(&args.testcases, &names, filter)?);
        }
    }
    let own = crate::own::Own::find()?;
    let names: Vec<String> = match &args.cmd {
        Some(_) => Vec::new(),
        None => plans
            .iter()
            .map(|p| p.2.program.clone().unwrap_or_else(|| p.0.clone()))
            .collect(),
    };
    let mut commands: Vec<&mut String> = plans
        .iter_mut()
        .flat_map(|p| [p.2.checker.as_mut(), p.2.interactor.as_mut()])
        .flatten()
        .collect();
    let paths = crate::own::resolve(&own, &mut commands, &names)?;
    let programs = match &args.cmd {
        Some(c) => vec![Program::shell(c)?; plans.len()],
        None => paths.into_iter().map(Program::Exec).collect(),
    };
    Ok(plans
        .into_iter()
        .zip(programs)
        .map(|((name, dir, settings, cases, time), program)| Plan {
            name,
            dir,
            settings,
            program,
            cases,
            limits: Limits {
                time,
                timing: args.time.into(),
                output: OUTPUT_CAP,
                memory: None,
                settling: None,
            },
        })
        .collect())
}

/// Runs every case of `plan` with `jobs` workers; `seen` gets each result in case order.
///
/// # Errors
/// The first setup error met; the other workers stop taking cases.
pub fn run_suite(
    plan: &Plan,
    jobs: usize,
    memory_limit: Option<u64>,
    seen: &mut dyn FnMut(&CaseResult),
) -> Result<SuiteReport, String> {
    let judging = Judging {
        program: &plan.program,
        settings: &plan.settings,
        dir: &plan.dir,
        limits: Limits {
            memory: memory_limit,
            ..plan.limits
        },
    };
    let start = Instant::now();
    let cases = in_parallel(&judging, &plan.cases, jobs, seen)?;
    let passed = cases
        .iter()
        .filter(|c| c.verdict == Verdict::Accepted)
        .count();
    Ok(SuiteReport {
        name: plan.name.clone(),
        passed,
        failed: cases.len() - passed,
        time: start.elapsed().as_secs_f64(),
        score: cases.iter().filter_map(|c| c.score).reduce(|a, b| a + b),
        cases,
    })
}

fn in_parallel(
    judging: &Judging,
    cases: &[Case],
    jobs: usize,
    seen: &mut dyn FnMut(&CaseResult),
) -> Result<Vec<CaseResult>, String> {
    let mut done = Vec::with_capacity(cases.len());
    let judge = |i: usize| case::judge(judging, &cases[i]);
    crate::pool::in_order(jobs, cases.len(), judge, |_, r| {
        seen(&r);
        done.push(r);
        ControlFlow::Continue(())
    })?;
    Ok(done)
}

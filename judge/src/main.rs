//! `judge`: runs every solver, or any program, on the recorded test cases, and reports a verdict,
//! the wall time and the peak memory of each case. `judge record` writes missing answers from a
//! reference program; `judge stress` runs a generator until the program fails, and shrinks the
//! failing input; `judge bundle` writes one std-only source file for an online judge.
//!
//! Exit codes: 0 every case AC (or the command succeeded), 1 a case failed, 2 a usage or setup
//! error.

use judge::{bundle, cli, formats, machine, out, record, report, session, stress};

use std::process::ExitCode;

use cli::{Command, Format, JudgeArgs};

fn main() -> ExitCode {
    if let Some(code) = judge_process::helper_main() {
        return code;
    }
    if let Err(e) = judge_process::on_termination() {
        out::stderr(&format!("judge: {e}\n"));
        return ExitCode::from(2);
    }
    judge_process::adopt_orphans();
    let result = run(std::env::args_os());
    if let Some(e) = out::write_error() {
        out::stderr(&format!("judge: cannot write the output: {e}\n"));
        return ExitCode::from(2);
    }
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            out::stderr(&format!("judge: {e}\n"));
            ExitCode::from(2)
        }
    }
}

/// Does what `args` ask for; returns whether everything passed.
///
/// # Errors
/// A usage or setup error, as one line.
fn run<I, T>(args: I) -> Result<bool, String>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    match cli::parse(args)? {
        Command::Help(text) => {
            out::stdout(&text);
            Ok(true)
        }
        Command::Judge(args) => judge(&args),
        Command::Record(args) => record::record(&args),
        Command::Bundle(args) => bundle::command(&args),
        Command::Stress(args) => stress::command(&args),
        Command::Verify(args) => formats::verify::command(&args),
        Command::Validate(args) => formats::validate::command(&args),
        Command::Package(args) => formats::package::command(&args),
    }
}

/// Judges every planned suite, reports on stdout (and in `--junit`), returns whether all passed.
fn judge(args: &JudgeArgs) -> Result<bool, String> {
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
    let plans = session::plan(args)?;
    let total = plans.iter().map(|p| p.cases.len()).sum();
    let jobs = usize::from(args.jobs);
    let human = report::Human::new(args.color, args.format == Format::Human, total);
    let memory_limit = args.memory_limit.map(mebibytes).transpose()?;
    let mut suites = Vec::new();
    for plan in &plans {
        let s = session::run_suite(plan, jobs, memory_limit, &mut |r| human.case(r))?;
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

/// `--memory-limit` in bytes.
fn mebibytes(m: f64) -> Result<u64, String> {
    if m.is_finite() && m > 0.0 && m < 1e12 {
        Ok((m * 1048576.0) as u64)
    } else {
        Err(format!(
            "--memory-limit must be a positive number of MiB, found {m}"
        ))
    }
}

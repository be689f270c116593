//! `judge`: runs every solver, or any program, on the recorded test cases, and reports a verdict,
//! the wall time and the peak memory of each case.

mod compare;
mod run;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use serde::Deserialize;

use compare::Mode;

/// Judges programs on `testcases/<suite>/NN.in` and `NN.out`.
#[derive(Parser, Debug)]
#[command(name = "judge")]
struct Args {
    /// Suites to judge (all under the test-case folder by default).
    suites: Vec<String>,
    /// Judge this shell command instead of our own binary for each suite.
    #[arg(long)]
    cmd: Option<String>,
    /// Judge only cases whose name (`suite/NN`) contains this pattern.
    #[arg(long)]
    filter: Option<String>,
    /// Time limit per case in seconds, overriding the suite's.
    #[arg(long)]
    time_limit: Option<f64>,
    /// Memory limit per case in MiB.
    #[arg(long)]
    memory_limit: Option<f64>,
    /// The folder that holds the suites.
    #[arg(long, default_value = "testcases")]
    testcases: PathBuf,
}

/// Settings from `testcases/<suite>/suite.toml`.
#[derive(Deserialize, Debug)]
#[serde(default, deny_unknown_fields)]
struct Suite {
    compare: Mode,
    /// Seconds.
    time_limit: f64,
    tolerance: f64,
}

impl Default for Suite {
    fn default() -> Self {
        Suite {
            compare: Mode::Exact,
            time_limit: 2.0,
            tolerance: 1e-6,
        }
    }
}

const OUTPUT_CAP: usize = 64 << 20;

fn main() -> ExitCode {
    match run(std::env::args_os()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("judge: {e}");
            ExitCode::from(2)
        }
    }
}

/// Judges what `args` ask for; returns whether every case passed.
fn run<I, T>(args: I) -> Result<bool, String>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args = Args::try_parse_from(args).map_err(|e| {
        if e.use_stderr() {
            e.to_string()
                .trim_end()
                .trim_start_matches("error: ")
                .to_string()
        } else {
            print!("{e}");
            std::process::exit(0)
        }
    })?;
    let root = &args.testcases;
    let suites = if args.suites.is_empty() {
        let mut v: Vec<String> = std::fs::read_dir(root)
            .map_err(|e| format!("{}: {e}", root.display()))?
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    } else {
        args.suites.clone()
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    for name in &suites {
        let dir = root.join(name);
        if !dir.is_dir() {
            return Err(format!("no suite named {name:?} in {}", root.display()));
        }
        let suite = load_suite(&dir)?;
        let command = match &args.cmd {
            Some(c) => c.clone(),
            None => own_binary(name)?,
        };
        let limits = run::Limits {
            time: Duration::from_secs_f64(args.time_limit.unwrap_or(suite.time_limit)),
            output: OUTPUT_CAP,
        };
        let (mut sp, mut sf) = (0, 0);
        for case in cases(&dir)? {
            let label = format!("{name}/{case}");
            if args
                .filter
                .as_ref()
                .is_some_and(|f| !label.contains(f.as_str()))
            {
                continue;
            }
            let (verdict, outcome, detail) =
                judge_case(&dir, &case, &command, &suite, &args, limits)?;
            let (ms, mb) = outcome.as_ref().map_or((0.0, 0.0), |o| {
                (o.wall.as_secs_f64() * 1e3, o.max_rss as f64 / 1e6)
            });
            println!("{verdict:<3} [{ms:>6.1} ms {mb:>5.1} MB] {label}");
            if let Some(d) = detail {
                for l in d.lines() {
                    println!("    {l}");
                }
            }
            if verdict == "AC" {
                sp += 1;
            } else {
                sf += 1;
            }
        }
        println!("{name}: {sp} passed, {sf} failed");
        passed += sp;
        failed += sf;
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

type Judged = (&'static str, Option<run::Outcome>, Option<String>);

fn judge_case(
    dir: &Path,
    case: &str,
    command: &str,
    suite: &Suite,
    args: &Args,
    limits: run::Limits,
) -> Result<Judged, String> {
    let input_path = dir.join(format!("{case}.in"));
    let input = std::fs::read(&input_path).map_err(|e| format!("{}: {e}", input_path.display()))?;
    let expected = std::fs::read_to_string(dir.join(format!("{case}.out"))).ok();
    let o = run::run(command, input, limits).map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let (verdict, detail) = if o.timed_out {
        ("TLE", None)
    } else if o.output_exceeded {
        (
            "OLE",
            Some(format!("stdout went past {} MiB", OUTPUT_CAP >> 20)),
        )
    } else if args
        .memory_limit
        .is_some_and(|m| o.max_rss as f64 > m * 1024.0 * 1024.0)
    {
        ("MLE", None)
    } else if o.code != Some(0) {
        let how = match (o.code, o.signal) {
            (Some(c), _) => format!("exit code {c}"),
            (_, Some(s)) => format!("killed by signal {s}"),
            _ => "abnormal exit".to_string(),
        };
        let tail = String::from_utf8_lossy(&o.stderr_tail);
        let tail: Vec<&str> = tail.lines().collect();
        let tail = tail[tail.len().saturating_sub(10)..].join("\n");
        (
            "RE",
            Some(if tail.is_empty() {
                how
            } else {
                format!("{how}\n{tail}")
            }),
        )
    } else if let Some(expected) = expected {
        let got = String::from_utf8_lossy(&o.stdout);
        match compare::compare(suite.compare, suite.tolerance, &expected, &got) {
            None => ("AC", None),
            Some(d) => ("WA", Some(d)),
        }
    } else {
        ("NO-ANSWER", Some(format!("{case}.out is missing")))
    };
    Ok((verdict, Some(o), detail))
}

fn load_suite(dir: &Path) -> Result<Suite, String> {
    let path = dir.join("suite.toml");
    match std::fs::read_to_string(&path) {
        Ok(text) => toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(_) => Ok(Suite::default()),
    }
}

/// Case names (`NN` for `NN.in`) in `dir`, sorted.
fn cases(dir: &Path) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".in")
                .map(String::from)
        })
        .collect();
    v.sort();
    Ok(v)
}

/// Our release binary for `suite`, next to the judge; built with cargo if missing.
fn own_binary(suite: &str) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the judge itself: {e}"))?;
    let path = exe.with_file_name(suite);
    if !path.exists() {
        let status = std::process::Command::new("cargo")
            .args(["build", "--release", "--bin", suite])
            .status()
            .map_err(|e| format!("cannot run cargo to build {suite}: {e}"))?;
        if !status.success() || !path.exists() {
            return Err(format!(
                "cannot build the {suite} binary; use --cmd to judge another program"
            ));
        }
    }
    Ok(format!(
        "'{}'",
        path.display().to_string().replace('\'', "'\\''")
    ))
}

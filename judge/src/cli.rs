//! The command line, through clap's derive: `judge [SUITES...]`, `judge record SUITE`,
//! `judge stress`, `judge bundle PUZZLE`, `judge verify PACKAGE`, `judge validate PACKAGE`,
//! `judge package SUITE -o DIR`.
//!
//! A suite that shares a subcommand's name is judged with `judge -- NAME` (everything after `--`
//! is a suite or a problem folder).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::compare::Mode;

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Judge(JudgeArgs),
    Record(RecordArgs),
    Bundle(BundleArgs),
    Stress(StressArgs),
    Verify(VerifyArgs),
    Validate(ValidateArgs),
    Package(PackageArgs),
    /// `--help` or `--version`: the text to print on stdout, then exit 0.
    Help(String),
}

/// The whole command line: a subcommand, or the judging options.
#[derive(Parser, Debug)]
#[command(
    name = "judge",
    version,
    about = "Judges programs on test cases: our suites under testcases/, or a problem folder \
             (ICPC/Kattis package, Polygon package, plain folder of NAME.in and NAME.ans)",
    args_conflicts_with_subcommands = true,
    after_help = "A suite named like a subcommand is judged with `judge -- NAME`."
)]
struct Cli {
    #[command(subcommand)]
    sub: Option<Sub>,
    /// Let the programs reach the network (by default each runs in a box with a loopback
    /// interface of its own)
    #[arg(long, global = true)]
    allow_network: bool,
    /// Run every program without the sandbox (needed to judge a package's own code where the
    /// kernel refuses the sandbox's namespaces)
    #[arg(long, global = true)]
    no_sandbox: bool,
    #[command(flatten)]
    judge: JudgeArgs,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Write the missing .out files of a suite from a reference program.
    Record(RecordArgs),
    /// Run a generator seed after seed until the program fails, then shrink the input.
    Stress(StressArgs),
    /// Write one std-only source file of a solver for online judges.
    Bundle(BundleArgs),
    /// Judge every submission of a problem package and check it gets the verdict it promises.
    Verify(VerifyArgs),
    /// Run every input of a problem package through its input validators.
    Validate(ValidateArgs),
    /// Write one of our suites as an ICPC problem package.
    Package(PackageArgs),
}

/// Judges programs on `testcases/<suite>/NN.in` and `NN.out`, or on a problem folder.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// Suites to judge (all under the test-case folder by default), or problem folders (a path
    /// to an ICPC/Kattis package, a Polygon package, or a folder of NAME.in with NAME.ans or
    /// NAME.out).
    pub suites: Vec<String>,
    /// Judge this shell command instead of our own binary for each suite.
    #[arg(long)]
    pub cmd: Option<String>,
    /// Judge only cases whose name (`suite/NN`) contains this pattern.
    #[arg(long)]
    pub filter: Option<String>,
    /// Time limit per case in seconds, overriding the suite's.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// The clock of the time limit and of the times reported: `cpu`, the user and system time
    /// of the program and of every process it starts (a program that sleeps or waits is stopped
    /// at twice the limit of wall time, at least the limit plus 1 s), or `wall`, the time from
    /// start to end.
    #[arg(long, value_enum, value_name = "CLOCK", default_value_t = Clock::Cpu)]
    pub time: Clock,
    /// Memory limit per case in MiB.
    #[arg(long)]
    pub memory_limit: Option<f64>,
    /// A problem package whose time limit is computed from its accepted submissions: compute it
    /// again instead of taking the one kept from an earlier run.
    #[arg(long)]
    pub recalibrate: bool,
    /// The folder that holds the suites.
    #[arg(long, default_value = "testcases")]
    pub testcases: PathBuf,
    /// Cases run at once; above 1 the times are taken in parallel and the summary says so.
    #[arg(short = 'j', long = "jobs", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: u16,
    /// The report's format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write a JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Colour the human report: by default only when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

/// The report's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One aligned line per case, a summary per suite, and `N passed, M failed`.
    Human,
    /// One JSON document at the end.
    Json,
}

/// The clock of the time limits (`--time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Clock {
    /// CPU time, user and system, of the program and every process it starts.
    Cpu,
    /// Wall time, from start to end.
    Wall,
}

impl From<Clock> for crate::run::Timing {
    fn from(clock: Clock) -> Self {
        match clock {
            Clock::Cpu => crate::run::Timing::Cpu,
            Clock::Wall => crate::run::Timing::Wall,
        }
    }
}

/// When to colour the human report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// Writes the missing `.out` files of a suite from a reference program.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// The suite to complete.
    pub suite: String,
    /// The reference program, a shell command.
    #[arg(long)]
    pub cmd: String,
    /// Overwrite existing `.out` (and `.exit`) files too.
    #[arg(long)]
    pub force: bool,
    /// A reference that exits with a code other than 0 records it in `NN.exit` (an input the
    /// solver must reject) instead of failing the case.
    #[arg(long)]
    pub expect_exit: bool,
    /// Record only cases whose name (`suite/NN`) contains this pattern.
    #[arg(long)]
    pub filter: Option<String>,
    /// Time limit per case in seconds, overriding the suite's.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// The clock of the time limit and of the times reported: `cpu`, the user and system time
    /// of the program and of every process it starts (a program that sleeps or waits is stopped
    /// at twice the limit of wall time, at least the limit plus 1 s), or `wall`, the time from
    /// start to end.
    #[arg(long, value_enum, value_name = "CLOCK", default_value_t = Clock::Cpu)]
    pub time: Clock,
    /// The folder that holds the suites.
    #[arg(long, default_value = "testcases")]
    pub testcases: PathBuf,
}

/// Runs a generator seed after seed until the program fails, then shrinks the failing input.
#[derive(Args, Debug)]
pub struct StressArgs {
    /// The generator, a shell command run as `GEN SEED`; its stdout is the input.
    #[arg(long = "gen", value_name = "GEN")]
    pub gen: String,
    /// The program under test, a shell command.
    #[arg(long)]
    pub cmd: String,
    /// The reference, a slow but sure program: the program must give the same answer.
    #[arg(long = "ref", value_name = "REF")]
    pub reference: Option<String>,
    /// A validator: the input on stdin, which is valid when it exits with --validator-accepts.
    #[arg(long)]
    pub validator: Option<String>,
    /// The validator's exit code for a valid input (42 for Kattis's validators).
    #[arg(long, default_value_t = 0)]
    pub validator_accepts: u8,
    /// Compare as this suite does (its comparison, checker and time limit).
    #[arg(long)]
    pub suite: Option<String>,
    /// The comparison when no suite is named.
    #[arg(long, value_enum, default_value_t = Mode::Exact, conflicts_with = "suite")]
    pub compare: Mode,
    /// Absolute or relative tolerance for --compare float.
    #[arg(long, default_value_t = 1e-6, conflicts_with = "suite")]
    pub tolerance: f64,
    /// How many seeds to try.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The program's time limit per case in seconds (the suite's, else 2).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// The clock of the time limit and of the times reported: `cpu`, the user and system time
    /// of the program and of every process it starts (a program that sleeps or waits is stopped
    /// at twice the limit of wall time, at least the limit plus 1 s), or `wall`, the time from
    /// start to end.
    #[arg(long, value_enum, value_name = "CLOCK", default_value_t = Clock::Cpu)]
    pub time: Clock,
    /// Rounds run at once.
    #[arg(short = 'j', long = "jobs", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: u16,
    /// At most this many candidate inputs are tested while shrinking.
    #[arg(long, default_value_t = 2000)]
    pub shrink_tests: usize,
    /// Shrinking stops after this many seconds, keeping the smallest input so far.
    #[arg(long, default_value_t = 60.0)]
    pub shrink_time: f64,
    /// Save the minimal case as this suite's next `NN.in` and `NN.out`.
    #[arg(long, value_name = "SUITE")]
    pub save: Option<String>,
    /// The folder that holds the suites.
    #[arg(long, default_value = "testcases")]
    pub testcases: PathBuf,
}

/// Writes one self-contained, std-only Rust file for a solver.
#[derive(Args, Debug)]
pub struct BundleArgs {
    /// The puzzle: its module is `src/PUZZLE`, its main `bin/PUZZLE.rs`.
    pub puzzle: String,
    /// Bundle the binary bin/NAME.rs (with the puzzle's module) instead of bin/PUZZLE.rs.
    #[arg(long, value_name = "NAME")]
    pub bin: Option<String>,
    /// The size limit in bytes: doc comments, then also indentation (outside string literals),
    /// are left out if the bundle would exceed it, and a bundle still over it is an error
    /// (exit 1). Default 65536 (Codeforces); CodinGame takes 100000.
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<usize>,
    /// Write the bundle here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The package's root folder.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
}

/// Judges every submission of a problem package against the verdict it promises.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The problem folder (ICPC/Kattis or Polygon package).
    pub package: PathBuf,
    /// Submissions judged at once; above 1 the times are taken in parallel. Default: the
    /// machine's cores with the CPU clock (each run's CPU time is its own), 1 with `--time
    /// wall`.
    #[arg(short = 'j', long = "jobs", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// A submission in a language this machine cannot build or run fails the run instead of
    /// being skipped.
    #[arg(long)]
    pub strict: bool,
    /// Judge only submissions whose path (below `submissions/`) contains this pattern.
    #[arg(long)]
    pub filter: Option<String>,
    /// The clock of the time limit and of the times reported: `cpu`, the user and system time
    /// of the program and of every process it starts (a program that sleeps or waits is stopped
    /// at twice the limit of wall time, at least the limit plus 1 s), or `wall`, the time from
    /// start to end.
    #[arg(long, value_enum, value_name = "CLOCK", default_value_t = Clock::Cpu)]
    pub time: Clock,
    /// Time limit per case in seconds, in place of the package's or the one computed from its
    /// accepted submissions.
    #[arg(long)]
    pub time_limit: Option<f64>,
}

/// Runs every input of a problem package through its input validators.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The problem folder (ICPC/Kattis package).
    pub package: PathBuf,
}

/// Writes one of our suites as an ICPC problem package (2023-07 format).
#[derive(Args, Debug)]
pub struct PackageArgs {
    /// The suite under the test-case folder.
    pub suite: String,
    /// The package's folder, created (it must not exist, or be empty).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The folder that holds the suites.
    #[arg(long, default_value = "testcases")]
    pub testcases: PathBuf,
}

/// Parses the whole command line, program name first.
///
/// # Errors
/// A usage error, as one line.
pub fn parse<I, T>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => return Ok(Command::Help(e.to_string())),
        Err(e) => return Err(one_line(&e)),
    };
    judge_process::allow_network(cli.allow_network);
    if cli.no_sandbox {
        judge_process::turn_off_sandbox();
    }
    Ok(match cli.sub {
        None => Command::Judge(cli.judge),
        Some(Sub::Record(a)) => Command::Record(a),
        Some(Sub::Stress(a)) => Command::Stress(a),
        Some(Sub::Bundle(a)) => Command::Bundle(a),
        Some(Sub::Verify(a)) => Command::Verify(a),
        Some(Sub::Validate(a)) => Command::Validate(a),
        Some(Sub::Package(a)) => Command::Package(a),
    })
}

/// Clap's message up to its usage block, lines joined.
fn one_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .map(str::trim)
        .collect();
    message.join(" ").trim_start_matches("error: ").to_string()
}

/// `--memory-limit` in bytes.
///
/// # Errors
/// Not a positive number of MiB below a million TiB.
pub fn mebibytes(m: f64) -> Result<u64, String> {
    if m.is_finite() && m > 0.0 && m < 1e12 {
        Ok((m * 1048576.0) as u64)
    } else {
        Err(format!(
            "--memory-limit must be a positive number of MiB, found {m}"
        ))
    }
}

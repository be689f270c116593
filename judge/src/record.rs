//! `judge record SUITE --cmd 'REFERENCE'`: writes the missing `.out` files of a suite from a
//! reference program. An existing `.out` is kept unless `--force`.
//!
//! A reference that exits with a code other than 0 fails the case, its stderr shown, unless
//! `--expect-exit`: then the code goes to `NN.exit` next to its stdout in `NN.out` (an input the
//! solver must reject). A reference that times out, floods its output or dies of a signal
//! records nothing for that case.

use std::time::Duration;

use crate::cli::RecordArgs;
use crate::out;
use crate::program::Program;
use crate::run::{self, Exit, Limits};
use crate::suite::{self, Case, Settings};
use crate::verdict::OUTPUT_CAP;

/// What happened to one case.
enum Recorded {
    Wrote,
    Kept,
    Failed(String),
}

/// Records what `args` ask for; returns whether the reference answered every case it ran on.
///
/// # Errors
/// Setup errors: an unknown suite, a bad `suite.toml`, a missing program, a file that cannot be
/// read or written.
pub fn record(args: &RecordArgs) -> Result<bool, String> {
    let cases = suite::cases(&args.testcases, &args.suite, args.filter.as_deref())?;
    if let (Some(filter), true) = (&args.filter, cases.is_empty()) {
        return Err(suite::no_match(
            &args.testcases,
            std::slice::from_ref(&args.suite),
            filter,
        )?);
    }
    let settings = Settings::load(&args.testcases.join(&args.suite))?;
    settings.not_interactive(&args.suite, "judge record")?;
    let time = match args.time_limit {
        Some(t) => suite::seconds(t).map_err(|e| format!("--time-limit {e}"))?,
        None => Duration::from_secs_f64(settings.time_limit),
    };
    let program = Program::shell(&args.cmd)?;
    let limits = Limits {
        time,
        timing: args.time.into(),
        output: OUTPUT_CAP,
        memory: None,
        settling: None,
    };
    let (mut wrote, mut kept, mut failed) = (0, 0, 0);
    for case in &cases {
        match one(case, &program, limits, args)? {
            Recorded::Wrote => {
                wrote += 1;
                out::stdout(&format!("wrote {}\n", case.label));
            }
            Recorded::Kept => kept += 1,
            Recorded::Failed(why) => {
                failed += 1;
                let mut lines = why.lines();
                let mut text = format!("FAILED {}: {}\n", case.label, lines.next().unwrap_or(""));
                for l in lines {
                    text += &format!("    {l}\n");
                }
                out::stdout(&text);
            }
        }
    }
    let hint = if kept > 0 && !args.force {
        " (--force to overwrite)"
    } else {
        ""
    };
    out::stdout(&format!(
        "{wrote} written, {kept} kept{hint}, {failed} failed\n"
    ));
    Ok(failed == 0)
}

fn one(
    case: &Case,
    program: &Program,
    limits: Limits,
    args: &RecordArgs,
) -> Result<Recorded, String> {
    if case.output.exists() && !args.force {
        return Ok(Recorded::Kept);
    }
    let input = crate::regular::read_named(&case.input, crate::regular::CASE_MAX)?;
    let o = run::run(program, input, limits)?;
    let failed = |why: String| Ok(Recorded::Failed(with_stderr(why, &o.stderr_tail)));
    let code = match o.exit {
        _ if o.timed_out => return failed("timed out".into()),
        _ if o.output_exceeded => {
            return failed(format!("stdout went past {} MiB", OUTPUT_CAP >> 20))
        }
        Exit::Signal(s) => return failed(format!("killed by signal {s}")),
        Exit::Code(c) if c != 0 && !args.expect_exit => {
            return failed(format!(
                "the reference exited with code {c} (--expect-exit records it as the expected \
                 exit code)"
            ))
        }
        Exit::Code(c) => c,
    };
    out::write_file(&case.output, &o.stdout)?;
    if code != 0 {
        out::write_file(&case.exit, format!("{code}\n").as_bytes())?;
    } else if case.exit.exists() {
        std::fs::remove_file(&case.exit).map_err(|e| format!("{}: {e}", case.exit.display()))?;
    }
    Ok(Recorded::Wrote)
}

/// The last lines of stderr.
const STDERR_LINES: usize = 10;

/// `why`, then the last lines of `stderr`.
fn with_stderr(why: String, stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    let tail = &lines[lines.len().saturating_sub(STDERR_LINES)..];
    std::iter::once(why.as_str())
        .chain(tail.iter().copied())
        .collect::<Vec<_>>()
        .join("\n")
}

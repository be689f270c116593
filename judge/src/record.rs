//! `judge record SUITE --cmd 'REFERENCE'`: writes the missing `.out` files of a suite from a
//! reference program. An existing `.out` is kept unless `--force`.
//!
//! A reference that exits with a code other than 0 records that code in `NN.exit` next to its
//! stdout in `NN.out` (an input the solver must reject). A reference that times out, floods its
//! output or dies of a signal records nothing for that case.

use std::path::Path;
use std::time::Duration;

use crate::cli::RecordArgs;
use crate::out;
use crate::program::Program;
use crate::run::{self, Exit, Limits};
use crate::session::OUTPUT_CAP;
use crate::suite::{self, Case, Settings};

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
    let settings = Settings::load(&args.testcases.join(&args.suite))?;
    let time = match args.time_limit {
        Some(t) => suite::seconds(t).map_err(|e| format!("--time-limit {e}"))?,
        None => Duration::from_secs_f64(settings.time_limit),
    };
    let program = Program::shell(&args.cmd)?;
    let limits = Limits {
        time,
        output: OUTPUT_CAP,
        memory: None,
    };
    let (mut wrote, mut kept, mut failed) = (0, 0, 0);
    for case in &cases {
        match one(case, &program, limits, args.force)? {
            Recorded::Wrote => {
                wrote += 1;
                out::stdout(&format!("wrote {}\n", case.label));
            }
            Recorded::Kept => kept += 1,
            Recorded::Failed(why) => {
                failed += 1;
                out::stdout(&format!("FAILED {}: {why}\n", case.label));
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

fn one(case: &Case, program: &Program, limits: Limits, force: bool) -> Result<Recorded, String> {
    if case.output.exists() && !force {
        return Ok(Recorded::Kept);
    }
    let input = std::fs::read(&case.input).map_err(|e| format!("{}: {e}", case.input.display()))?;
    let o = run::run(program, input, limits)
        .map_err(|e| format!("cannot run {:?}: {e}", program.describe()))?;
    let code = match o.exit {
        _ if o.timed_out => return Ok(Recorded::Failed("timed out".into())),
        _ if o.output_exceeded => {
            return Ok(Recorded::Failed(format!(
                "stdout went past {} MiB",
                OUTPUT_CAP >> 20
            )))
        }
        Exit::Signal(s) => return Ok(Recorded::Failed(format!("killed by signal {s}"))),
        Exit::Code(c) => c,
    };
    write(&case.output, &o.stdout)?;
    if code != 0 {
        write(&case.exit, format!("{code}\n").as_bytes())?;
    } else if case.exit.exists() {
        std::fs::remove_file(&case.exit).map_err(|e| format!("{}: {e}", case.exit.display()))?;
    }
    Ok(Recorded::Wrote)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

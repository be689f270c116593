//! `judge validate PACKAGE`: every input through every input validator, run as
//! `VALIDATOR [flags] < input` with its group's `input_validator_flags`; exit 42 means valid,
//! 43 invalid, anything else is a broken validator.

use std::path::Path;
use std::time::Duration;

use crate::cli::ValidateArgs;
use crate::out;
use crate::program::Program;
use crate::shell::quote;
use judge_process::{Exit, Limits};

use super::problem::Built;

const VALIDATOR_TIME: Duration = Duration::from_secs(60);

/// Runs `judge validate`; whether every input is valid.
///
/// # Errors
/// The package cannot be read, has no input validator, or a validator is broken.
pub fn command(args: &ValidateArgs) -> Result<bool, String> {
    let problem = super::read(&args.package)?;
    if problem.input_validators.is_empty() {
        return Err(format!(
            "{}: no input validator (expected input_validators/)",
            args.package.display()
        ));
    }
    out::stdout(&format!(
        "{}: {}, {}, {} input {}\n",
        args.package.display(),
        problem.format,
        problem.counts(),
        problem.input_validators.len(),
        out::plural(
            problem.input_validators.len() as u64,
            "validator",
            "validators"
        )
    ));
    let mut invalid = 0;
    for case in &problem.cases {
        let flags = &problem.groups[case.group].input_flags;
        for v in &problem.input_validators {
            if let Some(why) = check(v, &problem.root, &case.input, flags)? {
                invalid += 1;
                out::stdout(&format!(
                    "INVALID {} ({}): {why}\n",
                    case.label,
                    v.source.display()
                ));
            }
        }
    }
    let runs = problem.cases.len() * problem.input_validators.len();
    out::stdout(&format!("{} valid, {invalid} invalid\n", runs - invalid));
    Ok(invalid == 0)
}

/// `None` if `validator` accepts `input`, else its message.
///
/// # Errors
/// It cannot run, times out, or exits with neither 42 nor 43.
pub fn check(
    validator: &Built,
    root: &Path,
    input: &Path,
    flags: &[String],
) -> Result<Option<String>, String> {
    let mut command = validator.command.clone();
    for f in flags {
        command += " ";
        command += &quote(Path::new(f));
    }
    let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let limits = Limits {
        time: VALIDATOR_TIME,
        timing: judge_process::Timing::Wall,
        output: 1 << 20,
        memory: None,
    };
    let program = Program::ShellIn(command, root.to_path_buf());
    let o = judge_process::run(&program.command(), bytes, limits).map_err(|e| {
        format!(
            "cannot run the input validator {}: {e}",
            validator.source.display()
        )
    })?;
    let said = || {
        let mut t = String::from_utf8_lossy(&o.stdout).into_owned();
        t += &String::from_utf8_lossy(&o.stderr_tail);
        t.trim().replace('\n', "; ")
    };
    match o.exit {
        _ if o.timed_out => Err(format!(
            "the input validator {} ran past {} s on {}",
            validator.source.display(),
            VALIDATOR_TIME.as_secs(),
            input.display()
        )),
        Exit::Code(42) => Ok(None),
        Exit::Code(43) => Ok(Some(said())),
        Exit::Code(c) => Err(format!(
            "the input validator {} exited with {c} on {}, neither 42 (valid) nor 43 (invalid): {}",
            validator.source.display(),
            input.display(),
            said()
        )),
        Exit::Signal(s) => Err(format!(
            "the input validator {} was killed by signal {s} on {}",
            validator.source.display(),
            input.display()
        )),
    }
}

//! Runs one [`Program`] on one input under the measuring helper (see [`judge_process`]): the
//! judge's side of [`judge_process::run`], with the program's own command line.

use crate::program::Program;

pub use judge_process::{Exit, Limits, Outcome, Settling, Timing};

/// Runs `program` with `input` on stdin, within `limits`.
///
/// # Errors
/// The program cannot be started or waited for: the message names it.
pub fn run(program: &Program, input: Vec<u8>, limits: Limits) -> Result<Outcome, String> {
    judge_process::run(&program.command(), input, limits)
        .map_err(|e| format!("cannot run {:?}: {e}", program.describe()))
}

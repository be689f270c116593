//! Whether the box can be built here, asked once of a helper running `true` (see
//! [`super::sandbox`]).

use super::sandbox;

/// Whether programs run in a box here.
///
/// # Errors
/// Why they would not: the box turned off, or the kernel's refusal, with what to do.
pub fn check() -> Result<(), String> {
    if sandbox::unavailable().is_none() {
        let limits = super::Limits {
            time: std::time::Duration::from_secs(10),
            timing: super::Timing::Wall,
            output: 1024,
            memory: None,
            settling: None,
        };
        let probe = super::run(&std::process::Command::new("true"), Vec::new(), limits);
        probe.map_err(|e| format!("cannot start a program: {e}"))?;
    }
    match sandbox::unavailable() {
        None => Ok(()),
        Some(errno) => Err(sandbox::why(errno)),
    }
}

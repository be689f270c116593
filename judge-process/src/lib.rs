//! How the judge runs processes: every program, checker, validator, generator and interactor
//! starts under a measuring helper (forked by a small copy of the judge's own executable) that times it (CPU
//! time and wall time), measures its own peak memory and ends everything it started; compilers
//! and build scripts run in a process group of their own. On Ctrl-Z (SIGTSTP) the judge stops all of them, then
//! itself, and the time spent stopped counts for no one. This crate holds every `unsafe` system
//! call of the judge (in `sys`, `ns` and `zygote::sys`, each with its SAFETY note); its public interface is the few items
//! below.
//!
//! The executable that uses it must call [`helper_main`] first thing in `main` (a run re-executes
//! it as the helper), then [`on_termination`] and [`adopt_orphans`] before it starts a thread.
//!
//! Inside:
//! - `launch`: a helper started through the zygote, with its program's pipes;
//! - `spawn`: the judge's side: start a program (or a program and its interactor) under a
//!   helper, wait within limits, stop;
//! - `run`: one program on one input, its pipes fed and drained on threads;
//! - `helper`: the helper's side: fork, watch the ends on one clock, clean up, report;
//! - `report`: the lines the helper writes to the judge;
//! - `group`: a compiler in a process group of its own;
//! - `registry`: the helpers, groups and temporary folders running, ended when the judge is
//!   stopped, paused with it on Ctrl-Z;
//! - `clock`: the judge's clock of running time, which stands still while the judge is paused;
//! - `tree`: the processes below a process, from `/proc`, and killing them safely;
//! - `limits`: the programs' limit of processes;
//! - `sandbox`: the box each process runs in; `network`: the one network namespace of a judge
//!   run's boxes; `probe`: whether a box can be built here;
//! - `zygote`: the small process that forks the helpers; `ahead`: the helpers it forks ahead of
//!   their runs, their boxes built while the run before goes on; `own`: the judge's own
//!   executable;
//! - `sys`, `ns` and `zygote::sys`: the system calls (`ns`: those of the box; `zygote::sys`:
//!   passing descriptors, forking a sibling), the only `unsafe` code of the judge.

mod ahead;
mod clock;
mod group;
mod helper;
mod launch;
mod limits;
mod network;
mod ns;
mod own;
mod probe;
mod registry;
mod report;
mod run;
mod sandbox;
mod spawn;
mod sys;
mod tree;
mod visible;
mod zygote;

pub use group::{run_in_group, GroupRun};
pub use probe::check as sandbox_check;
pub use registry::{adopt_orphans, on_termination, Lent, Scratch, Shown};
pub use run::{
    await_threads, drain_stderr, outcome, run, spawn_stderr_reader, spawn_thread, Outcome, Stderr,
};
pub use sandbox::turn_off as turn_off_sandbox;
pub use spawn::{
    Ended, Exit, Interactor, InteractorPipes, Limits, Settling, Started, Timing, INTERACTOR_GRACE,
};
pub use visible::{allow_network, keep_hidden};

/// Makes the child of `cmd` start with no signal blocked: for a command the judge starts on its
/// own (`cargo build`), so that it takes the terminal's Ctrl-C and Ctrl-Z like any program, though
/// the judge blocks those signals in its threads for its signal thread.
pub fn unblock_signals_on_exec(cmd: &mut std::process::Command) {
    sys::unblock_signals_on_exec(cmd);
}

/// Drops the helpers started ahead for runs that did not come (see `ahead`), and waits for them,
/// for the helpers of ended cases and for the zygote to exit: call it once the judge's work is
/// done, before it exits.
pub fn finish() {
    ahead::discard_all();
    registry::reap_all_ending();
    zygote::end();
}

/// Runs the measuring helper if this process was started as one (its first argument is the
/// helper's mark), and returns its exit code; `None` in any other process, which goes on.
#[must_use]
pub fn helper_main() -> Option<std::process::ExitCode> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match args.get(1).and_then(|a| a.to_str()) {
        Some(helper::HELPER) => Some(helper::helper(&args[2..])),
        Some(network::HOLDER) => Some(network::hold()),
        Some(zygote::ZYGOTE) => Some(zygote::zygote(&args[2..])),
        _ => None,
    }
}

//! How the judge runs processes: every program, checker, validator, generator and interactor
//! starts under a measuring helper (a fresh copy of the judge) that times it, measures its own
//! peak memory and ends everything it started.
//!
//! - [`spawn`]: the judge's side: start a program (or a program and its interactor) under a
//!   helper, wait within limits, stop;
//! - [`helper`]: the helper's side: fork, watch the ends on one clock, clean up, report;
//! - [`report`]: the lines the helper writes to the judge;
//! - [`registry`]: the helpers and temporary folders running, ended when the judge is stopped;
//! - [`tree`]: the processes below a process, from `/proc`, and killing them safely;
//! - [`limits`]: the programs' limit of processes;
//! - [`sandbox`]: the namespaces the processes run in;
//! - [`sys`]: the system calls, the only `unsafe` code of the judge.

pub mod helper;
pub mod limits;
pub mod registry;
pub mod report;
pub mod sandbox;
pub mod spawn;
pub mod sys;
pub mod tree;

pub use registry::Scratch;
pub use spawn::{Ended, Exit, Interactor, InteractorPipes, Limits, Started};

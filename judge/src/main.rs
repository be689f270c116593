//! `judge`: runs every solver, or any program, on the recorded test cases, and reports a verdict,
//! the wall time and the peak memory of each case. `judge record` writes missing answers from a
//! reference program; `judge stress` runs a generator until the program fails, and shrinks the
//! failing input; `judge bundle` writes one std-only source file for an online judge.
//!
//! Exit codes: 0 every case AC (or the command succeeded), 1 a case failed, 2 a usage or setup
//! error.

fn main() -> std::process::ExitCode {
    judge::main()
}

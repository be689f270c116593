//! Problem folders in the ecosystem's formats, each read into one [`Problem`]: the cases in
//! order with their groups, how an output is judged, the limits, and the submissions with the
//! verdicts they promise. One judging core ([`judging`]) runs every format.
//!
//! The readers: [`icpc`] (ICPC/Kattis problem packages, legacy and 2023-07), [`polygon`]
//! (Polygon packages), [`plain`] (our suites, and folders of `NAME.in` with `NAME.ans` or
//! `NAME.out`). [`read`] picks the reader from what the folder holds.

pub mod address_space;
pub mod ahead;
pub mod default_validator;
pub mod early;
pub mod expectations;
pub mod files;
pub mod folder;
pub mod grading;
pub mod icpc;
pub mod judging;
pub mod package;
pub mod plain;
pub mod polygon;
pub mod prebuild;
pub mod problem;
pub mod promises;
pub mod submission;
pub mod time_limit;
pub mod validate;
pub mod validator;
pub mod verify;
pub mod yaml;

use std::path::Path;

pub use problem::{Case, Problem};

/// A package's own code (its submissions, validators, scripts) runs only in the sandbox, unless
/// `--no-sandbox` says otherwise.
///
/// # Errors
/// The sandbox cannot be set up here: why, and what to do.
fn boxed_or_refused(root: &Path) -> Result<(), String> {
    match judge_process::sandbox_check() {
        Err(why) if !why.contains("turned off") => Err(format!(
            "{}: a package's programs run only in the sandbox, and {why}; or give --no-sandbox \
             to run them as this user, unboxed",
            root.display()
        )),
        _ => Ok(()),
    }
}

/// Reads the problem folder `root`, detected by what it holds: `problem.xml` (Polygon),
/// `problem.yaml` or `data/` (ICPC), `suite.toml` (our suite), `NAME.in` files (a plain folder).
///
/// # Errors
/// The folder is none of these, or its reader finds it broken; the message names the file.
pub fn read(root: &Path) -> Result<Problem, String> {
    if !root.is_dir() {
        return Err(format!("{}: no such folder", root.display()));
    }
    // Its answers, and all else in it, are out of sight of the programs it runs.
    judge_process::keep_hidden(root);
    if root.join("problem.xml").is_file() {
        boxed_or_refused(root)?;
        return polygon::read(root);
    }
    if root.join("problem.yaml").is_file() || root.join("data").is_dir() {
        boxed_or_refused(root)?;
        return icpc::read(root);
    }
    if root.join("suite.toml").is_file() || files::any_input(root)? {
        return plain::read(root);
    }
    Err(format!(
        "{}: not a problem folder (no problem.yaml, problem.xml, suite.toml or NAME.in)",
        root.display()
    ))
}

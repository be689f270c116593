//! The judge: runs any program on recorded test cases and reports verdicts, time and memory;
//! records answers; stress-tests; bundles a solver into one file; reads problem packages. Its
//! binary (`src/main.rs`) calls [`main`]; the fuzz targets (`fuzz/`) and the differential tests
//! call the few functions of [`fuzzing`]. Every other module is private, so that the compiler
//! sees what is unused. How one case is judged, module by module: `docs/judge.md`.

mod bounded;
mod build_cache;
mod bundle;
mod case;
mod checker;
mod cli;
mod compare;
mod compiler;
mod diff;
mod formats;
mod interact;
mod lossy;
mod machine;
mod manifest;
mod out;
mod own;
mod pool;
mod program;
mod record;
mod regular;
mod report;
mod run;
mod session;
mod shell;
mod source;
mod stress;
mod suite;
mod terminal;
mod transcript;
mod verdict;

use std::process::ExitCode;

use cli::Command;

/// What the fuzz targets (`fuzz/`) and the differential tests call directly: the comparisons,
/// the `suite.toml` and `NN.exit` readers, the bundler's module resolution, and the default
/// output validator of problem packages.
pub mod fuzzing {
    pub use crate::bundle::module_tree;
    pub use crate::compare::{compare_bytes, Mode};
    pub use crate::formats::default_validator::{check as default_validator, Flags};
    pub use crate::suite::{exit_code, Settings};
}

/// The `judge` program: its command line to its exit code (0 every case AC or the command
/// succeeded, 1 a case failed, 2 a usage or setup error). Also the measuring helper, when the
/// judge re-executes itself as one (see [`judge_process`]).
#[must_use]
pub fn main() -> ExitCode {
    if let Some(code) = judge_process::helper_main() {
        return code;
    }
    if let Err(e) = judge_process::on_termination() {
        out::stderr(&format!("judge: {e}\n"));
        return ExitCode::from(2);
    }
    judge_process::adopt_orphans();
    let result = run(std::env::args_os());
    judge_process::finish();
    if let Some(e) = out::write_error() {
        out::stderr(&format!("judge: cannot write the output: {e}\n"));
        return ExitCode::from(2);
    }
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            out::stderr(&format!("judge: {e}\n"));
            ExitCode::from(2)
        }
    }
}

/// Does what `args` ask for; returns whether everything passed.
///
/// # Errors
/// A usage or setup error, as one line.
fn run<I, T>(args: I) -> Result<bool, String>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    match cli::parse(args)? {
        Command::Help(text) => {
            out::stdout(&text);
            Ok(true)
        }
        Command::Judge(args) => session::command(&args),
        Command::Record(args) => record::record(&args),
        Command::Bundle(args) => bundle::command(&args),
        Command::Stress(args) => stress::command(&args),
        Command::Verify(args) => formats::verify::command(&args),
        Command::Validate(args) => formats::validate::command(&args),
        Command::Package(args) => formats::package::command(&args),
    }
}

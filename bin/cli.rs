//! The command line shared by the solver binaries (standard library only; `judge bundle` inlines
//! it into each solver's bundle).
//!
//! A solver's main describes itself in a [`Program`] and hands it its arguments and its `run`:
//!
//! ```ignore
//! mod cli;
//!
//! const PROGRAM: cli::Program = cli::Program {
//!     name: "minimax",
//!     usage: "minimax < input",
//!     help: "...the input and output formats...",
//!     options: "",
//! };
//!
//! fn main() -> std::process::ExitCode {
//!     PROGRAM.main(cli::args(), cp_puzzles::minimax::run)
//! }
//! ```
//!
//! A solver with flags of its own parses them in [`Program::args`], then calls [`Program::solve`]:
//!
//! ```ignore
//! let mut options = Options::default();
//! if let Err(code) = PROGRAM.args(cli::args(), |arg| flag(&mut options, arg)) {
//!     return code;
//! }
//! PROGRAM.solve(|input, output| cp_puzzles::maxblack::run(input, output, &options))
//! ```
//!
//! What every solver then does:
//! - `--help`/`-h` prints the usage and [`Program::help`] on stdout, `--version`/`-V` prints
//!   `<name> <version>`; both exit 0 without reading stdin (1 if stdout fails, other than by a
//!   broken pipe);
//! - an unknown argument prints `<name>: unexpected argument "--x"` and the usage line on stderr,
//!   exit 2;
//! - if stdin is a terminal, one line on stderr says that the input is read from stdin;
//! - an error whose `source()` chain holds a broken pipe (the reader of stdout went away) ends
//!   quietly with exit 0; any other error prints `<name>: <error>` on stderr, exit 1.

// Each binary uses the part it needs ([`Program::main`], or [`Program::args`] and
// [`Program::solve`]).
#![allow(dead_code)]

use std::error::Error;
use std::io::{self, BufWriter, IsTerminal, StdinLock, StdoutLock, Write};
use std::process::ExitCode;

/// The version of every solver: the package's.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Exit code of a usage error (an unknown argument).
const USAGE_ERROR: u8 = 2;
/// Exit code of a rejected input or a failed read or write.
const FAILURE: u8 = 1;

/// A solver binary, as its command line shows it.
pub struct Program {
    /// The program's name, which prefixes its error messages.
    pub name: &'static str,
    /// The usage line without `usage: `, e.g. `maxblack [--count-only] [--progress] < input`.
    pub usage: &'static str,
    /// The body of `--help`: the input and output formats in a few lines, each ending with a
    /// newline.
    pub help: &'static str,
    /// The program's own flags, one `  --flag  what it does` line each (each ending with a
    /// newline), or `""`. `--help`, `--version` and the exit codes are listed after them.
    pub options: &'static str,
}

/// What the command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Read the input and solve it.
    Solve,
    /// Print the help and exit.
    Help,
    /// Print the version and exit.
    Version,
}

/// The program's arguments, without its name. An argument that is not UTF-8 comes lossily
/// converted (and so is refused as unknown), where `std::env::args` would panic.
pub fn args() -> impl Iterator<Item = String> {
    std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
}

/// Reads the arguments (without the program's name): `--help`/`-h` or `--version`/`-V` stop at
/// once; any other argument goes to `flag`, which returns whether it knows it.
///
/// # Errors
/// The first argument that is neither `--help`, `--version` nor known to `flag`.
pub fn parse<I, S>(args: I, mut flag: impl FnMut(&str) -> bool) -> Result<Action, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    for arg in args {
        match arg.as_ref() {
            "--help" | "-h" => return Ok(Action::Help),
            "--version" | "-V" => return Ok(Action::Version),
            other if flag(other) => {}
            other => return Err(other.to_string()),
        }
    }
    Ok(Action::Solve)
}

/// Whether `error`, or an error in its `source()` chain, is an I/O error of kind `BrokenPipe`.
pub fn is_broken_pipe(error: &(dyn Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::BrokenPipe {
                return true;
            }
        }
        current = e.source();
    }
    false
}

impl Program {
    /// The whole main of a solver without flags of its own: [`Program::args`], then
    /// [`Program::solve`] with `run`. Returns the exit code.
    pub fn main<I, E>(
        &self,
        args: I,
        run: impl FnOnce(StdinLock<'static>, BufWriter<StdoutLock<'static>>) -> Result<(), E>,
    ) -> ExitCode
    where
        I: IntoIterator<Item = String>,
        E: Error + 'static,
    {
        match self.args(args, |_| false) {
            Ok(()) => self.solve(run),
            Err(code) => code,
        }
    }

    /// Handles the command line: `Ok(())` if the program should go on and solve; otherwise it
    /// has printed the help, the version or a usage error, and `Err` holds the exit code (0 or
    /// 2). `flag` sees every other argument and returns whether it knows it.
    pub fn args<I>(&self, args: I, flag: impl FnMut(&str) -> bool) -> Result<(), ExitCode>
    where
        I: IntoIterator<Item = String>,
    {
        match parse(args, flag) {
            Ok(Action::Solve) => Ok(()),
            Ok(Action::Help) => Err(self.print(&self.help_text())),
            Ok(Action::Version) => Err(self.print(&format!("{} {VERSION}\n", self.name))),
            Err(unexpected) => {
                self.note(&format!(
                    "unexpected argument {unexpected:?}\nusage: {}",
                    self.usage
                ));
                Err(ExitCode::from(USAGE_ERROR))
            }
        }
    }

    /// Reports a usage error found after [`Program::args`] (a flag's missing value): the
    /// message and the usage line on stderr; returns exit code 2.
    pub fn usage_error(&self, message: &str) -> ExitCode {
        self.setup_error(&format!("{message}\nusage: {}", self.usage))
    }

    /// Reports a setup error (a file a flag names cannot be used): `<name>: <message>` on
    /// stderr; returns exit code 2.
    pub fn setup_error(&self, message: &str) -> ExitCode {
        self.note(message);
        ExitCode::from(USAGE_ERROR)
    }

    /// Writes `text` on stdout: exit 0, also if the reader went away; exit 1 on another error.
    fn print(&self, text: &str) -> ExitCode {
        let mut stdout = io::stdout().lock();
        match stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
            Err(e) => {
                self.note(&format!("cannot write the output: {e}"));
                ExitCode::from(FAILURE)
            }
        }
    }

    /// Writes `<name>: <message>` on stderr. If stderr is gone too, there is no one left to
    /// tell, so a failure is ignored (where `eprintln!` would panic).
    fn note(&self, message: &str) {
        let _ = writeln!(io::stderr(), "{}: {message}", self.name);
    }

    /// Runs `run` on the locked stdin and a buffered stdout (after a notice on stderr if stdin is
    /// a terminal) and turns its result into the exit code: 0 on success or on a broken pipe, 1
    /// after printing `<name>: <error>` on stderr otherwise.
    pub fn solve<E: Error + 'static>(
        &self,
        run: impl FnOnce(StdinLock<'static>, BufWriter<StdoutLock<'static>>) -> Result<(), E>,
    ) -> ExitCode {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            self.note(&format!(
                "reading the input from stdin; end it with Ctrl-D (see {} --help)",
                self.name
            ));
        }
        match run(stdin.lock(), BufWriter::new(io::stdout().lock())) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
            Err(e) => {
                self.note(&e.to_string());
                ExitCode::from(FAILURE)
            }
        }
    }

    /// The text `--help` prints.
    pub fn help_text(&self) -> String {
        format!(
            "usage: {}\n\n{}\nOptions:\n{}  -h, --help     print this help and exit\n  \
             -V, --version  print the version and exit\n\nExit status: 0 solved, 1 bad input \
             (or a failed read or write), 2 bad arguments\n",
            self.usage, self.help, self.options
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_flags(_: &str) -> bool {
        false
    }

    #[test]
    fn no_argument_solves() {
        assert_eq!(parse([] as [&str; 0], no_flags), Ok(Action::Solve));
    }

    #[test]
    fn help_and_version_win_wherever_they_stand() {
        assert_eq!(parse(["--help"], no_flags), Ok(Action::Help));
        assert_eq!(parse(["-h"], no_flags), Ok(Action::Help));
        assert_eq!(parse(["--version"], no_flags), Ok(Action::Version));
        assert_eq!(parse(["-V", "--help"], no_flags), Ok(Action::Version));
        assert_eq!(
            parse(["--count-only", "-h"], |f| f == "--count-only"),
            Ok(Action::Help)
        );
    }

    #[test]
    fn unknown_arguments_are_errors() {
        assert_eq!(parse(["--x"], no_flags), Err("--x".to_string()));
        assert_eq!(
            parse(["input.txt", "--help"], no_flags),
            Err("input.txt".to_string())
        );
    }

    #[test]
    fn known_flags_go_to_the_callback_in_order() {
        let mut seen = Vec::new();
        let action = parse(["--a", "--b", "--a"], |f| {
            seen.push(f.to_string());
            f != "--c"
        });
        assert_eq!(action, Ok(Action::Solve));
        assert_eq!(seen, ["--a", "--b", "--a"]);
    }

    #[derive(Debug)]
    struct Wrapper(io::Error);

    impl std::fmt::Display for Wrapper {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot write the output: {}", self.0)
        }
    }

    impl Error for Wrapper {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_broken_pipe_is_found_through_source() {
        let pipe = || io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(is_broken_pipe(&pipe()));
        assert!(is_broken_pipe(&Wrapper(pipe())));
        assert!(!is_broken_pipe(&Wrapper(io::Error::from(
            io::ErrorKind::WriteZero
        ))));
    }

    #[test]
    fn help_names_the_usage_and_the_exit_codes() {
        let program = Program {
            name: "p",
            usage: "p < input",
            help: "Input: x.\n",
            options: "  --fast         go fast\n",
        };
        let help = program.help_text();
        assert!(help.starts_with("usage: p < input\n\nInput: x.\n"));
        assert!(help.contains("Options:\n  --fast         go fast\n  -h, --help"));
        assert!(help.contains("--version"));
        assert!(help.contains("2 bad arguments"));
    }
}

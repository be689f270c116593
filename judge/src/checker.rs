//! The `checker` comparison: an external command `CHECKER input output expected`, run from the
//! suite's folder, decides; exit status 0 means AC, and other codes are read as testlib's
//! (1 WA, 2 PE, 3 the checker failed, 7 points) or, for plain scripts, all as WA.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::program::Program;
use crate::suite::CheckerCodes;
use crate::verdict::Verdict;
use judge_process::Scratch;
use judge_process::{Exit, Limits};

/// A checker's rejection: the verdict, and its exit code and what it said.
pub struct Rejection {
    pub verdict: Verdict,
    pub message: String,
}

/// How long a checker may run.
const CHECKER_TIME: Duration = Duration::from_secs(30);

/// How many bytes a checker may write on stdout.
const CHECKER_OUTPUT: usize = 1 << 20;

/// Runs `checker` on one case; `None` if it accepts `got`, else why not.
///
/// # Errors
/// The checker cannot be started, is missing (exit 126 or 127 from the shell), times out, is
/// killed by a signal (also as the shell's exit code 128+N, 129 to 192), writes more than 1 MiB,
/// or (testlib's code 3) says it failed: the suite is broken, not the
/// program under judgement.
pub fn check(
    checker: &str,
    codes: CheckerCodes,
    dir: &Path,
    input: &Path,
    got: &[u8],
    expected: &Path,
) -> Result<Option<Rejection>, String> {
    let got_file = TempFile::write(got)?;
    let command = format!(
        "{checker} {} {} {}",
        crate::shell::quote(&absolute(input)),
        crate::shell::quote(&got_file.path),
        crate::shell::quote(&absolute(expected))
    );
    let program = Program::ShellIn(command, dir.to_path_buf());
    let limits = Limits {
        time: CHECKER_TIME,
        timing: judge_process::Timing::Wall,
        output: CHECKER_OUTPUT,
        memory: None,
        settling: None,
    };
    let o = judge_process::run(&program.command(), Vec::new(), limits)
        .map_err(|e| format!("cannot run the checker {checker:?}: {e}"))?;
    let said = || {
        let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
        text += &String::from_utf8_lossy(&o.stderr_tail);
        text.trim_end().to_string()
    };
    match o.exit {
        _ if o.timed_out => Err(format!("the checker {checker:?} timed out")),
        _ if o.output_exceeded => Err(format!(
            "the checker {checker:?} wrote more than {} MiB (a broken checker)",
            CHECKER_OUTPUT >> 20
        )),
        Exit::Code(c @ 129..=192) => Err(format!(
            "the checker {checker:?} was killed by signal {} (exit {c} from the shell)",
            c - 128
        )),
        Exit::Code(0) => Ok(None),
        Exit::Code(c @ (126 | 127)) => Err(format!(
            "the checker {checker:?} could not be run (exit {c}): {}",
            said()
        )),
        Exit::Code(3) if codes == CheckerCodes::Testlib => Err(format!(
            "the checker {checker:?} failed (exit 3): {}",
            said()
        )),
        Exit::Code(c) => {
            let (verdict, what) = match (codes, c) {
                (CheckerCodes::Testlib, 2) => (Verdict::PresentationError, "presentation error"),
                (CheckerCodes::Testlib, 7) => (Verdict::WrongAnswer, "partial points"),
                _ => (Verdict::WrongAnswer, "wrong answer"),
            };
            let message = format!("checker exit code {c} ({what})\n{}", said());
            Ok(Some(Rejection {
                verdict,
                message: message.trim_end().to_string(),
            }))
        }
        Exit::Signal(s) => Err(format!("the checker {checker:?} was killed by signal {s}")),
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The program's output for the checker: `output` in a private temporary folder (see
/// [`Scratch`]), both removed on drop. A program cannot predict the path or plant a symlink
/// there.
struct TempFile {
    _dir: Scratch,
    path: PathBuf,
}

impl TempFile {
    fn write(bytes: &[u8]) -> Result<TempFile, String> {
        let dir = Scratch::new("judge-")?;
        let path = dir.path().join("output");
        std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(TempFile { _dir: dir, path })
    }
}

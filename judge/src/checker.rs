//! The `checker` comparison: an external command `CHECKER input output expected`, run from the
//! suite's folder, decides; exit status 0 means AC.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::program::Program;
use crate::run::{self, Exit, Limits};

/// How long a checker may run.
const CHECKER_TIME: Duration = Duration::from_secs(30);

/// Runs `checker` on one case; `None` if it accepts `got`, else what it said.
///
/// # Errors
/// The checker cannot be started, is missing (exit 126 or 127 from the shell), times out or is
/// killed by a signal: the suite is broken, not the program under judgement.
pub fn check(
    checker: &str,
    dir: &Path,
    input: &Path,
    got: &[u8],
    expected: &Path,
) -> Result<Option<String>, String> {
    let got_file = TempFile::write(got)?;
    let command = format!(
        "{checker} {} {} {}",
        quote(&absolute(input)),
        quote(&got_file.0),
        quote(&absolute(expected))
    );
    let program = Program::ShellIn(command, dir.to_path_buf());
    let limits = Limits {
        time: CHECKER_TIME,
        output: 1 << 20,
        memory: None,
    };
    let o = run::run(&program, Vec::new(), limits)
        .map_err(|e| format!("cannot run the checker {checker:?}: {e}"))?;
    let said = || {
        let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
        text += &String::from_utf8_lossy(&o.stderr_tail);
        text.trim_end().to_string()
    };
    match o.exit {
        _ if o.timed_out => Err(format!("the checker {checker:?} timed out")),
        Exit::Code(0) => Ok(None),
        Exit::Code(c @ (126 | 127)) => Err(format!(
            "the checker {checker:?} could not be run (exit {c}): {}",
            said()
        )),
        Exit::Code(c) => Ok(Some(format!("checker exit code {c}\n{}", said()))),
        Exit::Signal(s) => Err(format!("the checker {checker:?} was killed by signal {s}")),
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `p` quoted for `sh`.
fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// A file in the temporary folder, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn write(bytes: &[u8]) -> Result<TempFile, String> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("judge-{}-{n}.out", std::process::id()));
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(TempFile(path))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

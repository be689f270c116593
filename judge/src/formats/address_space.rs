//! The memory limit as problemtools applies it to a package's programs: besides the judge's own
//! watch on the resident memory of the run (a run past the limit is stopped, MLE), the program's
//! address space is capped at the limit (`RLIMIT_AS`, set by `ulimit -v` in the shell that
//! starts it), so that an allocation past the limit fails at once, as it does under
//! `verifyproblem` (a run-time error, where the program does not catch it), instead of running
//! until it has touched the memory.
//!
//! As problemtools, for the languages it caps and that live under the cap: C, C++, Rust and
//! Python (CPython and PyPy). Not for Java and Kotlin (the JVM reserves more address space than
//! it uses and does not start under a cap near its heap; problemtools leaves them uncapped
//! too, and gives the JVM `-Xmx` instead), nor for a folder with `build` and `run` scripts
//! (uncapped by problemtools as well), nor for JavaScript: problemtools caps it, but V8 reserves
//! more than 512 MiB of address space as it starts, so that under problemtools every Node
//! program aborts at start with a limit of 512 MiB; the judge does not copy that.

use std::path::Path;

use crate::program::Program;
use crate::source::Language;

/// Whether the program in `path` (a source file or a folder of sources) runs with its address
/// space capped.
#[must_use]
pub fn applies(path: &Path) -> bool {
    if path.is_dir() && (path.join("build").is_file() || path.join("run").is_file()) {
        return false;
    }
    let language = if path.is_dir() {
        std::fs::read_dir(path).ok().and_then(|entries| {
            entries
                .flatten()
                .find_map(|e| Language::of(&e.path()).filter(|_| e.path().is_file()))
        })
    } else {
        Language::of(path)
    };
    matches!(
        language,
        Some(Language::C | Language::Cpp | Language::Rust | Language::Python3 | Language::Python2)
    )
}

/// `program`, built from `path`, run as problemtools runs a package's submission, when the
/// package caps the address space at `memory` bytes (`None`: left as it is): with the shell
/// that starts it giving way to it (`exec`), so that no shell between the judge and the
/// program holds the program's pipes open after the program closes them (an interactor then
/// sees the end of the program's output when the program closes it, as under problemtools,
/// which starts programs without a shell); and with the cap where [`applies`] says (a cap past
/// what the kernel allows leaves the run uncapped).
#[must_use]
pub fn capped(program: Program, path: &Path, memory: Option<u64>) -> Program {
    let (Program::Shell(command), Some(bytes)) = (&program, memory) else {
        return program;
    };
    let command = exec(command);
    if applies(path) {
        // `ulimit -v` counts KiB.
        Program::Shell(format!("ulimit -v {} 2>/dev/null; {command}", bytes / 1024))
    } else {
        Program::Shell(command)
    }
}

/// `command` (a simple command, or `cd DIR && COMMAND` for a folder's `run` script) with its
/// last command run by `exec`.
fn exec(command: &str) -> String {
    if command.starts_with("exec ") || command.contains("&& exec ") {
        return command.to_string();
    }
    match command.rsplit_once(" && ") {
        Some((head, last)) => format!("{head} && exec {last}"),
        None => format!("exec {command}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(path: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/packages")
            .join(path)
    }

    #[test]
    fn native_code_and_python_are_capped_the_jvm_and_scripts_not() {
        assert!(applies(&fixture(
            "average/submissions/run_time_error/hog.c"
        )));
        assert!(applies(&fixture("average/submissions/accepted/average.py")));
        assert!(!applies(&fixture(
            "maximum/submissions/accepted/Maximum.java"
        )));
        assert!(!applies(Path::new("sol.js")));
        assert!(!applies(Path::new("sol.kt")));
        let capped = capped(
            Program::Shell("./sol".into()),
            Path::new("sol.cpp"),
            Some(512 << 20),
        );
        assert!(
            matches!(&capped, Program::Shell(c) if c == "ulimit -v 524288 2>/dev/null; exec ./sol"),
            "{capped:?}"
        );
        let free = super::capped(Program::Shell("./sol".into()), Path::new("sol.cpp"), None);
        assert!(
            matches!(&free, Program::Shell(c) if c == "./sol"),
            "{free:?}"
        );
    }
}

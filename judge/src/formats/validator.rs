//! Kattis output validators: run as `VALIDATOR input answer feedback_dir/ [flags] < output` from
//! the package's folder; exit 42 accepts, 43 rejects (with `judgemessage.txt` as the message),
//! any other end is an error of the package. `score.txt` gives a scoring problem's case score.

use std::path::Path;
use std::time::Duration;

use crate::program::Program;
use crate::shell::quote;
use judge_process::Scratch;
use judge_process::{Exit, Limits};

use super::problem::Built;

/// How long a validator may take on one case.
const VALIDATOR_TIME: Duration = Duration::from_secs(60);

/// Lines of the judge message shown with a wrong answer.
const MESSAGE_LINES: usize = 10;

/// What the validator said about one output.
pub struct Said {
    /// `None` accepted, else the judge message.
    pub rejection: Option<String>,
    /// The number in `score.txt`, when the validator wrote one.
    pub score: Option<f64>,
    /// What it wrote to `judgemessage.txt` when it accepted (as much as
    /// [`crate::bounded::message`] reads), if anything.
    pub message: Option<String>,
}

/// Runs `validator` on the output `got` of a case.
///
/// # Errors
/// The validator cannot be started, times out, is killed, or exits with neither 42 nor 43; the
/// message names its source and quotes what it said.
pub fn check(
    validator: &Built,
    root: &Path,
    input: &Path,
    answer: &Path,
    flags: &[String],
    got: &[u8],
) -> Result<Said, String> {
    let scratch = Scratch::new("judge-")?;
    let feedback = scratch.path().join("feedback");
    std::fs::create_dir(&feedback).map_err(|e| format!("{}: {e}", feedback.display()))?;
    let mut command = format!(
        "{} {} {} {}/",
        validator.command,
        quote(&absolute(input)),
        quote(&absolute(answer)),
        quote(&feedback)
    );
    for flag in flags {
        command += " ";
        command += &quote(Path::new(flag));
    }
    let program = Program::ShellIn(command, root.to_path_buf());
    let limits = Limits {
        time: VALIDATOR_TIME,
        timing: judge_process::Timing::Wall,
        output: 1 << 20,
        memory: None,
        settling: None,
    };
    let o = judge_process::run(&program.command(), got.to_vec(), limits).map_err(|e| {
        format!(
            "cannot run the validator {}: {e}",
            validator.source.display()
        )
    })?;
    let message = {
        let mut text = crate::bounded::message(&feedback.join("judgemessage.txt"));
        if text.trim().is_empty() {
            text = String::from_utf8_lossy(&o.stderr_tail).into_owned();
        }
        crate::bounded::last_lines(&text, MESSAGE_LINES)
    };
    // A failing validator: the first lines of judgeerror.txt, then of judgemessage.txt (else
    // of its stderr), where problemtools writes why it failed.
    let broken = |how: String| {
        let mut said = Vec::new();
        for file in ["judgeerror.txt", "judgemessage.txt"] {
            let text = crate::bounded::message(&feedback.join(file));
            if !text.trim().is_empty() {
                said.push(format!("{file}: {}", first_lines(&text)));
            }
        }
        let stderr = String::from_utf8_lossy(&o.stderr_tail);
        if said.is_empty() && !stderr.trim().is_empty() {
            said.push(format!("stderr: {}", first_lines(&stderr)));
        }
        let sep = if said.is_empty() { "" } else { ": " };
        Err(format!(
            "the output validator {} {how}{sep}{}",
            validator.source.display(),
            said.join("; ")
        ))
    };
    if o.timed_out {
        return broken(format!("ran past {} s", VALIDATOR_TIME.as_secs()));
    }
    match o.exit {
        Exit::Code(42) => Ok(Said {
            rejection: None,
            score: score(&feedback, validator)?,
            message: {
                let text = crate::bounded::message(&feedback.join("judgemessage.txt"));
                (!text.trim().is_empty()).then_some(text)
            },
        }),
        Exit::Code(43) => Ok(Said {
            rejection: Some(if message.is_empty() {
                "the output validator rejected the output".to_string()
            } else {
                message.clone()
            }),
            score: None,
            message: None,
        }),
        Exit::Code(c) => broken(format!(
            "exited with {c}, neither 42 (accept) nor 43 (reject)"
        )),
        Exit::Signal(s) => broken(format!("was killed by signal {s}")),
    }
}

/// The first [`MESSAGE_LINES`] lines of `text`, joined with `; `.
fn first_lines(text: &str) -> String {
    text.trim()
        .lines()
        .take(MESSAGE_LINES)
        .collect::<Vec<_>>()
        .join("; ")
}

fn score(feedback: &Path, validator: &Built) -> Result<Option<f64>, String> {
    let text = read_lossy(&feedback.join("score.txt"));
    if text.trim().is_empty() {
        return Ok(None);
    }
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(format!(
            "the output validator {} wrote score.txt {:?}, not a number",
            validator.source.display(),
            text.trim()
        )),
    }
}

/// The start of the file at `path` (a score), as text.
fn read_lossy(path: &Path) -> String {
    String::from_utf8_lossy(&crate::bounded::head(path, crate::bounded::HEAD)).into_owned()
}

fn absolute(p: &Path) -> std::path::PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

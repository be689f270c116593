//! Interactive cases: the program and an interactor run together, each one's stdout relayed to
//! the other's stdin by the judge, which keeps the last lines exchanged. The program is measured
//! and limited as in ordinary suites; the interactor's exit code (testlib's or Kattis's
//! convention) gives the verdict, and its output file or feedback folder a score.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use judge_process::{self as process, Exit, Interactor, InteractorPipes, Limits, Outcome};
use judge_process::{Started, Stderr, INTERACTOR_GRACE};

use crate::program::Program;
use crate::shell::quote;
use crate::suite::{Case, InteractorCodes};
use crate::transcript::{Side, Transcript, LINE_CHARS, TRANSCRIPT_LINES};
use crate::verdict::{self, CaseResult, Verdict};

/// Lines of the interactor's message shown with a failure.
const MESSAGE_LINES: usize = 10;

/// What the interactor decided.
struct Decision {
    /// `None` for AC, else the verdict and the interactor's message.
    rejection: Option<(Verdict, String)>,
    score: Option<f64>,
}

/// Everything fixed for a suite's interactive cases.
pub struct Conversation<'a> {
    /// The program under judgement.
    pub program: &'a Program,
    /// The suite's folder, where the interactor runs.
    pub dir: &'a Path,
    /// The program's limits.
    pub limits: Limits,
    /// The interactor's command, before the arguments the judge appends.
    pub command: &'a str,
    /// How the interactor's exit codes and files read.
    pub codes: InteractorCodes,
}

/// Runs and judges one interactive case.
///
/// # Errors
/// Setup errors: a file cannot be read or written, a process cannot be started, the interactor
/// failed (testlib's code 3, an unexpected Kattis code, a signal, a hang past its limit).
pub fn judge(j: &Conversation, case: &Case) -> Result<CaseResult, String> {
    judge_first(j, case).map(|(result, _)| result)
}

/// [`judge`], and whether the case's verdict is the interactor's rejection, given before the
/// program ended: a verdict that stands however long the program then ran (problemtools: a
/// wrong answer found first is not a time limit).
///
/// # Errors
/// As [`judge`].
pub fn judge_first(j: &Conversation, case: &Case) -> Result<(CaseResult, bool), String> {
    let expected_exit = case.expected_exit()?;
    let scratch = judge_process::Scratch::new("judge-")?;
    let (interactor, codes) = (j.command, j.codes);
    let command = format!("{interactor} {}", arguments(codes, case, scratch.path())?);
    let (o, exited, transcript) = converse(j, &command, interactor)?;
    let decision = match exited.exit {
        Some(exit) => match decide(interactor, codes, exit, &exited.stderr, scratch.path()) {
            Ok(decision) => decision,
            // An interactor that failed once the program went past a limit or failed: the
            // program is judged on its own end. Only a failure on a program that ended
            // normally is the judge's error.
            Err(_)
                if verdict::over_limit(&j.limits, &o).is_some()
                    || verdict::wrong_exit(&o, expected_exit).is_some() =>
            {
                Decision {
                    rejection: None,
                    score: None,
                }
            }
            Err(e) => return Err(e),
        },
        // The program killed the helper that watched both, or went past a limit while the
        // interactor ran on: it is judged on its own end.
        None => Decision {
            rejection: None,
            score: None,
        },
    };
    let first = match codes {
        InteractorCodes::Testlib => Ended::Interactor(exited.first),
        InteractorCodes::Kattis => Ended::Program(!exited.first),
    };
    let rejecting = decision.rejection.as_ref().map(|(v, _)| *v);
    let (verdict, detail) = verdict_of(j, &o, expected_exit, first, decision.rejection);
    let detail = detail.map(|d| format!("{d}\n{}", transcript.render()));
    let rejected_first = matches!(first, Ended::Interactor(true) | Ended::Program(false))
        && rejecting == Some(verdict);
    let mut result = verdict::result(&case.label, verdict, detail, &o);
    result.score = decision.score.filter(|_| verdict == Verdict::Accepted);
    Ok((result, rejected_first))
}

/// The interactor's arguments, quoted: `input output [answer]` (testlib) or
/// `input answer feedback_dir` (Kattis), all absolute, inside `scratch`.
fn arguments(codes: InteractorCodes, case: &Case, scratch: &Path) -> Result<String, String> {
    let input = quote(&absolute(&case.input));
    let answer = case.output.exists().then(|| quote(&absolute(&case.output)));
    Ok(match codes {
        InteractorCodes::Testlib => {
            let output = quote(&scratch.join("output"));
            match answer {
                Some(answer) => format!("{input} {output} {answer}"),
                None => format!("{input} {output}"),
            }
        }
        InteractorCodes::Kattis => {
            let feedback = scratch.join("feedback");
            std::fs::create_dir(&feedback).map_err(|e| format!("{}: {e}", feedback.display()))?;
            let answer = answer.unwrap_or_else(|| "/dev/null".to_string());
            format!("{input} {answer} {}/", quote(&feedback))
        }
    })
}

fn absolute(p: &Path) -> std::path::PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// How the interactor ended: its exit, the tail of its stderr, and whether it ended before the
/// program did (as the measuring helper saw them end, on its one clock); `None` if its end is
/// unknown (the program killed the helper that watched them).
struct Exited {
    exit: Option<Exit>,
    stderr: Vec<u8>,
    first: bool,
}

/// Starts the interactor `command` (from the suite's folder) and the program together under one
/// measuring helper, relays between them until both have ended (the helper ends everything
/// they started).
fn converse(
    j: &Conversation,
    command: &str,
    interactor: &str,
) -> Result<(Outcome, Exited, Arc<Transcript>), String> {
    let (mut started, pipes) = Started::converse(&j.program.command(), j.dir, command)
        .map_err(|e| format!("cannot run {:?}: {e}", j.program.describe()))?;
    // A rejection decides the case: the program is stopped at once (as problemtools does), not
    // left to run on to its limit.
    started.stop_on_rejection(match j.codes {
        InteractorCodes::Testlib => |exit| read_exit(InteractorCodes::Testlib, exit).rejects(),
        InteractorCodes::Kattis => |exit| read_exit(InteractorCodes::Kattis, exit).rejects(),
    });
    let transcript = Arc::new(Transcript::default());
    let exceeded = Arc::new(AtomicBool::new(false));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let wiring = Wiring {
        transcript: Arc::clone(&transcript),
        output: (j.limits.output, Arc::clone(&exceeded)),
        done: done_tx,
    };
    let (program_stderr, referee_stderr) = match wiring.connect(&mut started, pipes) {
        Ok(stderrs) => stderrs,
        Err(e) => {
            started.stop();
            return Err(format!("cannot run {:?}: {e}", j.program.describe()));
        }
    };
    let ended = started.wait(j.limits, &exceeded);
    process::await_threads(&done_rx, 4);
    let ended = ended.map_err(|e| format!("cannot wait for {:?}: {e}", j.program.describe()))?;
    let (exit, first) = match ended.interactor {
        Some(Interactor::Exited { exit, first }) => (Some(exit), first),
        Some(Interactor::Hung) => {
            return Err(format!(
                "the interactor {interactor:?} did not end within {} s of the program",
                INTERACTOR_GRACE.as_secs()
            ))
        }
        Some(Interactor::NoFork(errno)) => {
            let e = std::io::Error::from_raw_os_error(errno);
            return Err(format!("cannot run the interactor {interactor:?}: {e}"));
        }
        Some(Interactor::Unknown) | None => (None, false),
    };
    let o = process::outcome(&ended, Vec::new(), &program_stderr);
    let stderr = std::mem::take(&mut *referee_stderr.lock().unwrap_or_else(|e| e.into_inner()));
    let exited = Exited {
        exit,
        stderr,
        first,
    };
    Ok((o, exited, transcript))
}

/// What the threads of a conversation share.
struct Wiring {
    transcript: Arc<Transcript>,
    /// Bytes the program may send, and the flag set past them.
    output: (usize, Arc<AtomicBool>),
    /// Signalled by each pipe thread at its end.
    done: mpsc::Sender<()>,
}

impl Wiring {
    /// Starts the relays both ways and the stderr drains; the program's and the interactor's
    /// stderr tails.
    ///
    /// # Errors
    /// A thread cannot be started.
    fn connect(
        self,
        started: &mut Started,
        referee: InteractorPipes,
    ) -> std::io::Result<(Stderr, Stderr)> {
        let to_program = started.child.stdin.take().expect("stdin is piped");
        let from_program = started.child.stdout.take().expect("stdout is piped");
        let relay_to_program = Relay {
            side: Side::Interactor,
            transcript: Arc::clone(&self.transcript),
            cap: None,
            done: self.done.clone(),
        };
        relay_to_program.spawn(referee.stdout, to_program)?;
        let relay_to_referee = Relay {
            side: Side::Program,
            transcript: self.transcript,
            cap: Some(self.output),
            done: self.done.clone(),
        };
        relay_to_referee.spawn(from_program, referee.stdin)?;
        let program_stderr = process::drain_stderr(started, self.done.clone())?;
        let referee_stderr = Arc::new(Mutex::new(Vec::new()));
        process::spawn_stderr_reader(referee.stderr, Arc::clone(&referee_stderr), self.done)?;
        Ok((program_stderr, referee_stderr))
    }
}

/// One direction of the conversation: copies one process's stdout to the other's stdin, keeps
/// its lines in the transcript, and closes the stdin at the end so that the reader sees EOF.
struct Relay {
    side: Side,
    transcript: Arc<Transcript>,
    /// Bytes allowed through, and the flag set when they are exceeded.
    cap: Option<(usize, Arc<AtomicBool>)>,
    done: mpsc::Sender<()>,
}

impl Relay {
    fn spawn(
        self,
        mut from: impl Read + Send + 'static,
        to: impl Write + Send + 'static,
    ) -> std::io::Result<()> {
        process::spawn_thread("relay", move || {
            let mut to = Some(to);
            let mut line = Vec::new();
            let mut total = 0usize;
            let mut buf = vec![0u8; 64 * 1024];
            while let Ok(n) = from.read(&mut buf) {
                if n == 0 {
                    break;
                }
                total += n;
                if let Some((cap, exceeded)) = &self.cap {
                    if total > *cap {
                        exceeded.store(true, Ordering::SeqCst);
                        break;
                    }
                }
                // Kept before it is passed on, so that a reply, which the reader can only write
                // after reading it, always comes later in the transcript.
                self.keep_lines(&mut line, &buf[..n]);
                // A reader that is gone no longer gets anything; the writer is still drained.
                if to.as_mut().is_some_and(|w| w.write_all(&buf[..n]).is_err()) {
                    to = None;
                }
            }
            if !line.is_empty() {
                self.transcript.push(self.side, &line);
            }
            drop(to);
            let _ = self.done.send(());
        })
    }

    /// Adds the complete lines of `line` + `bytes` to the transcript, keeping the rest in `line`.
    /// Only the last lines of a chunk can stay in the transcript, so a flood costs little.
    fn keep_lines(&self, line: &mut Vec<u8>, bytes: &[u8]) {
        let pieces: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
        let skip = pieces.len().saturating_sub(TRANSCRIPT_LINES + 1);
        if skip > 0 {
            // The partial line was completed by a piece that is skipped.
            line.clear();
        }
        for chunk in &pieces[skip..] {
            if line.len() < 4 * LINE_CHARS {
                line.extend_from_slice(chunk);
            }
            if chunk.ends_with(b"\n") {
                self.transcript.push(self.side, line);
                line.clear();
            }
        }
    }
}

/// Who ended first, and how the verdicts are ordered: testlib's convention lets the
/// interactor's verdict stand over a program's crash (`Interactor(true)`: the interactor
/// ended first); Kattis's judges a program that ended first on its own exit before the
/// interactor's verdict (`Program(true)`), as problemtools does.
#[derive(Clone, Copy)]
enum Ended {
    Interactor(bool),
    Program(bool),
}

/// The interactor's decision from its exit code, its message and its score.
///
/// # Errors
/// The interactor failed: testlib's code 3, a Kattis code other than 42 and 43, a shell that
/// could not run it (126, 127), a signal, or a malformed score.
fn decide(
    interactor: &str,
    codes: InteractorCodes,
    exit: Exit,
    stderr: &[u8],
    scratch: &Path,
) -> Result<Decision, String> {
    let feedback = scratch.join("feedback");
    let mut said = String::new();
    if codes == InteractorCodes::Kattis {
        for file in ["judgeerror.txt", "judgemessage.txt"] {
            said += &crate::bounded::message(&feedback.join(file));
            said.push('\n');
        }
    }
    said += &String::from_utf8_lossy(stderr);
    let said = crate::bounded::last_lines(&said, MESSAGE_LINES);
    let failed = |how: String| {
        let sep = if said.is_empty() { "" } else { ": " };
        let said = said.replace('\n', "; ");
        Err(format!("the interactor {interactor:?} {how}{sep}{said}"))
    };
    let rejection = match read_exit(codes, exit) {
        ExitSays::Accepted => None,
        ExitSays::Rejected(code, v, what) => {
            let message = format!("interactor exit code {code} ({what})\n{said}");
            Some((v, message.trim_end().to_string()))
        }
        ExitSays::Failed(how) => return failed(how),
    };
    let score = match codes {
        InteractorCodes::Testlib => score_line(&read_or_empty(&scratch.join("output"))),
        InteractorCodes::Kattis => score_file(&read_or_empty(&feedback.join("score.txt"))),
    }
    .map_err(|e| format!("the interactor {interactor:?} wrote {e}"))?;
    Ok(Decision { rejection, score })
}

/// What an interactor's exit says under its convention.
enum ExitSays {
    Accepted,
    /// The exit code, the verdict, and its name.
    Rejected(i32, Verdict, &'static str),
    /// The interactor failed: how.
    Failed(String),
}

impl ExitSays {
    fn rejects(&self) -> bool {
        matches!(self, ExitSays::Rejected(..))
    }
}

/// Reads `exit` under `codes`: testlib's 0 accepts, 2 is a presentation error, 3 a failure, any
/// other code a wrong answer; Kattis's 42 accepts, 43 rejects, any other code is a failure; a
/// signal, a shell's 126 or 127 (not run) or 129 to 192 (a signal) is a failure under both.
fn read_exit(codes: InteractorCodes, exit: Exit) -> ExitSays {
    let code = match exit {
        Exit::Signal(s) => return ExitSays::Failed(format!("was killed by signal {s}")),
        Exit::Code(c @ (126 | 127)) => {
            return ExitSays::Failed(format!("could not be run (exit {c})"))
        }
        // The shell that ran it reports a signal as 128 + its number.
        Exit::Code(c @ 129..=192) => {
            return ExitSays::Failed(format!("was killed by signal {}", c - 128))
        }
        Exit::Code(c) => c,
    };
    match (codes, code) {
        (InteractorCodes::Testlib, 0) | (InteractorCodes::Kattis, 42) => ExitSays::Accepted,
        (InteractorCodes::Testlib, 3) => ExitSays::Failed("failed (exit 3)".to_string()),
        (InteractorCodes::Testlib, 2) => {
            ExitSays::Rejected(code, Verdict::PresentationError, "presentation error")
        }
        (InteractorCodes::Testlib, _) | (InteractorCodes::Kattis, 43) => {
            ExitSays::Rejected(code, Verdict::WrongAnswer, "wrong answer")
        }
        (InteractorCodes::Kattis, c) => ExitSays::Failed(format!(
            "exited with {c}, neither 42 (accept) nor 43 (reject)"
        )),
    }
}

fn read_or_empty(path: &Path) -> Vec<u8> {
    crate::bounded::head(path, crate::bounded::HEAD)
}

/// The score of a testlib output file: its first line if that is `score X`.
///
/// # Errors
/// The first line is `score` followed by something other than one finite number.
fn score_line(output: &[u8]) -> Result<Option<f64>, String> {
    let text = String::from_utf8_lossy(output);
    let first = text.lines().next().unwrap_or("");
    let mut words = first.split_whitespace();
    if words.next() != Some("score") {
        return Ok(None);
    }
    match (words.next().map(str::parse::<f64>), words.next()) {
        (Some(Ok(x)), None) if x.is_finite() => Ok(Some(x)),
        _ => Err(format!("a malformed score line {first:?}")),
    }
}

/// The score in a Kattis `score.txt`, if there is one.
///
/// # Errors
/// The file holds something other than one finite number.
fn score_file(text: &[u8]) -> Result<Option<f64>, String> {
    let text = String::from_utf8_lossy(text);
    if text.trim().is_empty() {
        return Ok(None);
    }
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Some(x)),
        _ => Err(format!("a malformed score.txt {:?}", text.trim())),
    }
}

/// The case's verdict: whoever ended first decides. An interactor that rejected before the
/// program ended gives its verdict; else a limit the program went past comes first, then the
/// interactor's rejection, then the program's exit code.
fn verdict_of(
    j: &Conversation,
    o: &Outcome,
    expected_exit: i32,
    ended: Ended,
    rejection: Option<(Verdict, String)>,
) -> (Verdict, Option<String>) {
    let over = verdict::over_limit(&j.limits, o);
    let first = match ended {
        Ended::Interactor(true) => rejection.or(over),
        Ended::Interactor(false) => over.or(rejection),
        // Kattis: a program that ended first, and badly, is judged on its own end.
        Ended::Program(true) => over
            .or_else(|| verdict::wrong_exit(o, expected_exit))
            .or(rejection),
        Ended::Program(false) => rejection.or(over),
    };
    if let Some((v, d)) = first {
        return (v, Some(d));
    }
    match verdict::wrong_exit(o, expected_exit) {
        Some((v, d)) => (v, Some(d)),
        None => (Verdict::Accepted, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_lines_and_files_are_read_or_refused() {
        assert_eq!(score_line(b"score 0.5\nwon\n"), Ok(Some(0.5)));
        assert_eq!(score_line(b"won in 3 turns\n"), Ok(None));
        assert_eq!(score_line(b""), Ok(None));
        assert!(score_line(b"score many\n").is_err());
        assert!(score_line(b"score 1 2\n").is_err());
        assert_eq!(score_file(b"3\n"), Ok(Some(3.0)));
        assert_eq!(score_file(b""), Ok(None));
        assert!(score_file(b"NaN").is_err());
    }
}

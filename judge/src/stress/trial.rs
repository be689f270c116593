//! One stress input put to the test: the validator and the reference must accept it, then the
//! program is judged on it with the suite's comparison against the reference's answer.

use std::path::PathBuf;
use std::time::Duration;

use crate::case::{self, Judging};
use crate::out;
use crate::program::Program;
use crate::run::{self, Exit, Limits, Outcome};
use crate::suite::{Case, Settings};
use crate::verdict::{Verdict, OUTPUT_CAP};

/// How long the generator, the validator and the reference may each run on one input.
pub const HELPER_TIME: Duration = Duration::from_secs(10);

/// Everything fixed for a stress run.
pub struct Setup {
    pub program: Program,
    pub reference: Option<Program>,
    pub validator: Option<Program>,
    /// The validator's exit code for a valid input (0, or 42 for Kattis's validators).
    pub valid_code: i32,
    pub settings: Settings,
    /// Where a checker runs: the suite's folder.
    pub dir: PathBuf,
    /// The program's limits.
    pub limits: Limits,
}

/// What one input gave.
#[derive(Debug)]
pub enum Check {
    /// The validator or the reference rejected it: why.
    Invalid(String),
    Passed,
    Failed(Failure),
}

/// How the program failed on an input.
#[derive(Debug, Clone)]
pub struct Failure {
    pub verdict: Verdict,
    pub detail: Option<String>,
    /// The reference's answer, if there is a reference.
    pub expected: Option<Vec<u8>>,
    pub got: Vec<u8>,
}

/// A place to put one input and its answer for the comparison (a checker reads files).
pub struct Trial<'a> {
    setup: &'a Setup,
    work: judge_process::Scratch,
}

impl<'a> Trial<'a> {
    /// # Errors
    /// The temporary folder cannot be made.
    pub fn new(setup: &'a Setup) -> Result<Trial<'a>, String> {
        let work = judge_process::Scratch::new("judge-stress-")?;
        Ok(Trial { setup, work })
    }

    /// Tests `input`.
    ///
    /// # Errors
    /// A program cannot be started, a temporary file cannot be written, the checker is broken.
    pub fn check(&self, input: &[u8]) -> Result<Check, String> {
        let s = self.setup;
        if let Some(v) = &s.validator {
            let o = helper(v, input)?;
            if o.timed_out || o.exit != Exit::Code(s.valid_code) {
                return Ok(Check::Invalid(format!("the validator {}", said(&o))));
            }
        }
        let expected = match &s.reference {
            Some(r) => {
                let o = helper(r, input)?;
                if o.timed_out || o.output_exceeded || o.exit != Exit::Code(0) {
                    return Ok(Check::Invalid(format!("the reference {}", said(&o))));
                }
                Some(o.stdout)
            }
            None => None,
        };
        let case = self.case(input, expected.as_deref())?;
        let o = run::run(&s.program, input.to_vec(), s.limits)?;
        let judging = Judging {
            program: &s.program,
            settings: &s.settings,
            dir: &s.dir,
            limits: s.limits,
        };
        let (verdict, detail) = case::decide(&judging, &case, &o, 0)?;
        Ok(match verdict {
            // Without a reference there is no answer to compare with: only crashes and limits count.
            Verdict::Accepted | Verdict::NoAnswer => Check::Passed,
            verdict => Check::Failed(Failure {
                verdict,
                detail,
                expected,
                got: o.stdout,
            }),
        })
    }

    /// Writes the input, and the answer if any, as a case of the work folder.
    fn case(&self, input: &[u8], expected: Option<&[u8]>) -> Result<Case, String> {
        let dir = self.work.path();
        let case = Case {
            label: "stress".into(),
            input: dir.join("case.in"),
            output: dir.join("case.out"),
            exit: dir.join("case.exit"),
        };
        out::write_file(&case.input, input)?;
        // A checker is run without a reference too, with an empty answer.
        let checker = self.setup.settings.checker.is_some();
        match expected {
            Some(e) => out::write_file(&case.output, e)?,
            None if checker => out::write_file(&case.output, b"")?,
            None => {}
        }
        Ok(case)
    }
}

/// Runs a helper program (generator, validator, reference) on `input`.
///
/// # Errors
/// The program cannot be started.
pub fn helper(p: &Program, input: &[u8]) -> Result<Outcome, String> {
    let limits = Limits {
        time: HELPER_TIME,
        timing: judge_process::Timing::Wall,
        output: OUTPUT_CAP,
        memory: None,
        settling: None,
    };
    run::run(p, input.to_vec(), limits)
}

/// `timed out` or `exited with code 1`, with the last line of its stderr.
pub fn said(o: &Outcome) -> String {
    let how = match o.exit {
        _ if o.timed_out => format!("timed out after {} s", HELPER_TIME.as_secs()),
        _ if o.output_exceeded => format!("wrote more than {} MiB", OUTPUT_CAP >> 20),
        Exit::Code(c) => format!("exited with code {c}"),
        Exit::Signal(s) => format!("was killed by signal {s}"),
    };
    let stderr = String::from_utf8_lossy(&o.stderr_tail);
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(l) => format!("{how}: {}", l.trim()),
        None => how,
    }
}

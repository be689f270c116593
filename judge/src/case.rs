//! One case of a suite judged: the program run on its input (or in a conversation with the
//! suite's interactor, see [`crate::interact`]), then the verdict from the limits, the exit code,
//! and the comparison of its output with the expected one (or the suite's checker's, see
//! [`crate::checker`]).

use std::path::Path;

use crate::checker;
use crate::compare::{self, Mode};
use crate::interact::{self, Conversation};
use crate::program::Program;
use crate::run::{self, Limits, Outcome};
use crate::suite::{Case, Settings};
use crate::verdict::{self, CaseResult, Verdict};

/// Everything fixed for a suite's cases.
pub struct Judging<'a> {
    pub program: &'a Program,
    pub settings: &'a Settings,
    pub dir: &'a Path,
    pub limits: Limits,
}

/// Runs and judges one case.
///
/// # Errors
/// Setup errors only: a file of the suite cannot be read, the program cannot be spawned, the
/// checker is broken.
pub fn judge(j: &Judging, case: &Case) -> Result<CaseResult, String> {
    // Before any program runs: an interactor given a named pipe would wait for a writer.
    crate::regular::check(&case.input)
        .map_err(|e| format!("{}: {}", case.input.display(), crate::regular::plain(&e)))?;
    if let Some(command) = &j.settings.interactor {
        let conversation = Conversation {
            program: j.program,
            dir: j.dir,
            limits: j.limits,
            command,
            codes: j.settings.interactor_codes,
        };
        return interact::judge(&conversation, case);
    }
    let input = crate::regular::read_named(&case.input, crate::regular::CASE_MAX)?;
    let expected_exit = case.expected_exit()?;
    let o = run::run(j.program, input, j.limits)?;
    let (verdict, detail) = decide(j, case, &o, expected_exit)?;
    Ok(verdict::result(&case.label, verdict, detail, &o))
}

/// The verdict and its detail for a run `o` of case `case`, whose expected exit code is
/// `expected_exit`.
///
/// # Errors
/// The checker is broken.
pub fn decide(
    j: &Judging,
    case: &Case,
    o: &Outcome,
    expected_exit: i32,
) -> Result<(Verdict, Option<String>), String> {
    if let Some((v, d)) =
        verdict::over_limit(&j.limits, o).or_else(|| verdict::wrong_exit(o, expected_exit))
    {
        return Ok((v, Some(d)));
    }
    let Some(expected) = crate::suite::read_optional(&case.output)? else {
        let file = case
            .output
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        return Ok((Verdict::NoAnswer, Some(format!("{file} is missing"))));
    };
    if let (Mode::Checker, Some(cmd)) = (j.settings.compare, &j.settings.checker) {
        let codes = j.settings.checker_codes;
        let said = checker::check(cmd, codes, j.dir, &case.input, &o.stdout, &case.output)?;
        return Ok(said.map_or((Verdict::Accepted, None), |r| (r.verdict, Some(r.message))));
    }
    let difference = compare::compare_bytes(
        j.settings.compare,
        j.settings.tolerance,
        &expected,
        &o.stdout,
    );
    Ok(match difference {
        None => (Verdict::Accepted, None),
        Some(d) => (Verdict::WrongAnswer, Some(d)),
    })
}

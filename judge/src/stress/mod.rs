//! `judge stress`: runs a generator on seed after seed until the program fails on an input (a
//! wrong answer against the reference, a crash, a time limit, a checker's rejection), shrinks that
//! input to a minimal one that fails the same way, and can save it as a suite's next case.

mod rounds;
mod save;
mod shrink;
mod trial;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::cli::StressArgs;
use crate::out;
use crate::program::Program;
use crate::run::Limits;
use crate::suite::{self, Settings};
use crate::verdict::OUTPUT_CAP;
use trial::{Check, Failure, Setup, Trial};

/// Runs what `args` ask for; returns whether no failure was found.
///
/// # Errors
/// A usage or setup error: a bad option, a program that cannot be run, a generator that fails, a
/// folder that cannot be written.
pub fn command(args: &StressArgs) -> Result<bool, String> {
    let shrink_time = suite::seconds(args.shrink_time).map_err(|e| format!("--shrink-time {e}"))?;
    let setup = setup(args)?;
    let saving = args
        .save
        .as_ref()
        .map(|s| save::Target::new(&args.testcases, s))
        .transpose()?;
    let generator = Program::shell(&args.gen)?;
    let Some(found) = rounds::find(
        &setup,
        &generator.describe(),
        args.seed,
        args.count,
        args.jobs,
    )?
    else {
        return Ok(true);
    };
    out::stdout(&format!(
        "seed {}: {} ({} tokens)\n",
        found.seed,
        found.failure.verdict.name(),
        tokens(&found.input)
    ));
    let trial = Trial::new(&setup)?;
    let start = Instant::now();
    let budget = shrink::Budget {
        tests: args.shrink_tests,
        until: start + shrink_time,
    };
    let wanted = found.failure.verdict;
    let mut fails = |candidate: &str| -> Result<bool, String> {
        Ok(matches!(trial.check(candidate.as_bytes())?, Check::Failed(f) if f.verdict == wanted))
    };
    let text = String::from_utf8_lossy(&found.input).into_owned();
    let shrunk = shrink::shrink(&text, budget, &mut fails)?;
    let Check::Failed(failure) = trial.check(shrunk.input.as_bytes())? else {
        return Err("the minimal input no longer fails: is the program deterministic?".into());
    };
    report(&found.input, &shrunk, &failure, start.elapsed());
    if let Some(target) = saving {
        let written = target.write(shrunk.input.as_bytes(), failure.expected.as_deref())?;
        out::stdout(&written);
    }
    Ok(false)
}

/// The programs, comparison and limits that `args` ask for, checked before anything runs.
fn setup(args: &StressArgs) -> Result<Setup, String> {
    let (settings, dir) = match &args.suite {
        Some(name) => {
            let dir = args.testcases.join(name);
            if !dir.is_dir() {
                suite::cases(&args.testcases, name, None)?;
            }
            let mut settings = Settings::load(&dir)?;
            settings.not_interactive(name, "judge stress")?;
            if let Some(checker) = settings.checker.as_mut() {
                crate::own::resolve(&crate::own::Own::find()?, &mut [checker], &[])?;
            }
            (settings, dir)
        }
        None => {
            let settings = Settings {
                compare: args.compare,
                tolerance: suite::tolerance(args.tolerance)
                    .map_err(|e| format!("--tolerance {e}"))?,
                ..Settings::default()
            };
            (settings, PathBuf::from("."))
        }
    };
    let time = match args.time_limit {
        Some(t) => suite::seconds(t).map_err(|e| format!("--time-limit {e}"))?,
        None => Duration::from_secs_f64(settings.time_limit),
    };
    Ok(Setup {
        program: Program::shell(&args.cmd)?,
        reference: args.reference.as_deref().map(Program::shell).transpose()?,
        validator: args.validator.as_deref().map(Program::shell).transpose()?,
        valid_code: i32::from(args.validator_accepts),
        settings,
        dir,
        limits: Limits {
            time,
            timing: args.time.into(),
            output: OUTPUT_CAP,
            memory: None,
            settling: None,
        },
    })
}

/// Prints the minimal input, the expected and the actual output, and what shrinking cost.
fn report(original: &[u8], shrunk: &shrink::Shrunk, f: &Failure, took: Duration) {
    let mut text = format!(
        "shrunk from {} to {} tokens in {} tests ({:.1} s){}\n",
        tokens(original),
        tokens(shrunk.input.as_bytes()),
        shrunk.tests,
        took.as_secs_f64(),
        if shrunk.exhausted {
            "; the budget ran out, a smaller input may still fail"
        } else {
            ""
        }
    );
    text += &block("input", shrunk.input.as_bytes());
    if let Some(e) = &f.expected {
        text += &block("expected (the reference)", e);
    }
    text += &block("got", &f.got);
    text += &format!("verdict: {}\n", f.verdict.name());
    for l in f.detail.iter().flat_map(|d| d.lines()) {
        text += &format!("    {l}\n");
    }
    out::stdout(&text);
}

/// Lines of a block shown in the report; the rest is counted.
const BLOCK_LINES: usize = 50;

/// Characters shown of a line of a block; a longer line is cut and ends with ` …`.
const BLOCK_CHARS: usize = 200;

/// `title:` then the text indented, or `(empty)`: at most [`BLOCK_LINES`] lines of at most
/// [`BLOCK_CHARS`] characters, read in place (an output of 64 MiB is neither copied nor shown
/// whole).
fn block(title: &str, bytes: &[u8]) -> String {
    let mut s = format!("{title}:\n");
    if crate::lossy::trim_end(bytes)
        .iter()
        .all(u8::is_ascii_whitespace)
    {
        s += "    (empty)\n";
    }
    let mut lines = crate::lossy::raw_lines(bytes);
    for l in lines.by_ref().take(BLOCK_LINES) {
        // A \r of a \r\n goes, as `str::lines` drops it.
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        let head = &l[..l.len().min(4 * BLOCK_CHARS + 4)];
        let text = String::from_utf8_lossy(head);
        match text.char_indices().nth(BLOCK_CHARS) {
            Some((i, _)) => s += &format!("    {} …\n", &text[..i]),
            None => s += &format!("    {text}\n"),
        }
    }
    let more = lines.count();
    if more > 0 {
        s += &format!(
            "    … {more} more {} (--save keeps them all)\n",
            out::plural(more as u64, "line", "lines")
        );
    }
    s
}

fn tokens(input: &[u8]) -> usize {
    crate::lossy::tokens(input).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_shows_a_bounded_head() {
        assert_eq!(block("got", b"1\r\n2\n"), "got:\n    1\n    2\n");
        assert_eq!(block("got", b" \n"), "got:\n    (empty)\n     \n");
        let many: Vec<u8> = (0..120)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let shown = block("got", &many);
        assert!(shown.ends_with("    49\n    … 70 more lines (--save keeps them all)\n"));
        let long = vec![0xffu8; 10_000_000];
        let shown = block("got", &long);
        assert_eq!(shown.chars().count(), "got:\n    ".len() + BLOCK_CHARS + 3);
    }
}

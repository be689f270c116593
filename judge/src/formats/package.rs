//! `judge package SUITE -o DIR`: one of our suites written as an ICPC problem package (2023-07
//! format): `problem.yaml` with the suite's time limit, the first case in `data/sample` and the
//! others in `data/secret`, the suite's comparison as the default validator's flags, and our
//! solver, bundled into one std-only Rust file, as the accepted submission.

use std::fmt::Write as _;
use std::path::Path;

use crate::cli::PackageArgs;
use crate::compare::Mode;
use crate::out;
use crate::suite::{self, Settings};

/// Writes the package; whether it was written whole.
///
/// # Errors
/// The suite does not exist or judges in a way the format cannot say (a checker, an
/// interactor), a case has no answer, `DIR` exists and is not empty, or a file cannot be
/// written.
pub fn command(args: &PackageArgs) -> Result<bool, String> {
    let cases = suite::cases(&args.testcases, &args.suite, None)?;
    let dir = args.testcases.join(&args.suite);
    let settings = Settings::load(&dir)?;
    let flags = flags(&settings, &dir)?;
    let manifest = crate::manifest::find().ok_or_else(|| {
        "judge package bundles our solver: run it inside the repository".to_string()
    })?;
    let root = manifest.parent().unwrap_or(Path::new("."));
    let puzzle = settings
        .program
        .clone()
        .unwrap_or_else(|| args.suite.clone());
    if !root.join("bin").join(format!("{puzzle}.rs")).is_file() {
        return Err(format!(
            "suite {:?} judges {puzzle:?}, which is not one of our solvers to bundle",
            args.suite
        ));
    }
    empty_folder(&args.output)?;
    let mut kept = Vec::new();
    for case in &cases {
        if case.expected_exit()? != 0 {
            out::stderr(&format!(
                "judge: warning: {} expects exit code {}, which the format cannot say; left out\n",
                case.label,
                case.expected_exit()?
            ));
            continue;
        }
        if !case.output.is_file() {
            return Err(format!(
                "{}: missing (the answer of {})",
                case.output.display(),
                case.input.display()
            ));
        }
        kept.push(case);
    }
    let out_dir = &args.output;
    for (i, case) in kept.iter().enumerate() {
        let group = if i == 0 { "sample" } else { "secret" };
        let stem = case.input.file_stem().unwrap_or_default().to_string_lossy();
        let to = out_dir.join("data").join(group);
        mkdir(&to)?;
        copy(&case.input, &to.join(format!("{stem}.in")))?;
        copy(&case.output, &to.join(format!("{stem}.ans")))?;
    }
    write(
        &out_dir.join("problem.yaml"),
        &problem_yaml(&args.suite, &settings),
    )?;
    if !flags.is_empty() {
        write(
            &out_dir.join("data/testdata.yaml"),
            &format!("output_validator_flags: {flags}\n"),
        )?;
    }
    let (text, _) = crate::bundle::bundle(root, &puzzle)?;
    let accepted = out_dir.join("submissions/accepted");
    mkdir(&accepted)?;
    write(&accepted.join(format!("{puzzle}.rs")), &text)?;
    out::stdout(&format!(
        "{}: ICPC problem package (2023-07) of suite {}, {} cases ({} left out), accepted submission {puzzle}.rs ({} bytes)\n",
        out_dir.display(),
        args.suite,
        kept.len(),
        cases.len() - kept.len(),
        text.len()
    ));
    Ok(true)
}

/// The default validator's flags for the suite's comparison.
fn flags(settings: &Settings, dir: &Path) -> Result<String, String> {
    let refused = settings.interactor.is_some() || settings.compare == Mode::Checker;
    if refused {
        return Err(format!(
            "{}: the suite judges with a checker or an interactor of ours, which judge package \
             does not write as a validator; it writes suites compared exact, by tokens or as floats",
            dir.join("suite.toml").display()
        ));
    }
    // The default validator compares tokens: a line break or a space more is accepted.
    Ok(match settings.compare {
        Mode::Float => format!("float_tolerance {:e}", settings.tolerance),
        Mode::Exact | Mode::Tokens | Mode::Checker => "case_sensitive".to_string(),
    })
}

fn problem_yaml(suite: &str, settings: &Settings) -> String {
    let mut y = String::new();
    let _ = writeln!(y, "problem_format_version: 2023-07-draft");
    let _ = writeln!(y, "name: {suite}");
    let _ = writeln!(y, "type: pass-fail");
    let _ = writeln!(y, "source: cp-puzzles testcases/{suite}");
    let _ = writeln!(y, "limits:");
    let _ = writeln!(y, "  time_limit: {}", settings.time_limit);
    y
}

fn empty_folder(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if entries.next().is_some() {
            return Err(format!("{}: exists and is not empty", dir.display()));
        }
    }
    mkdir(dir)
}

fn mkdir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", from.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

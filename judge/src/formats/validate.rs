//! `judge validate PACKAGE`: every input through every input validator, run as
//! `VALIDATOR [flags] < input` with its group's `input_validator_flags`; exit 42 means valid,
//! 43 invalid, anything else is a broken validator. A checktestdata script (`NAME.ctd`) is run
//! by `checktestdata` (DOMjudge's) or `pyctd` (the Python reimplementation, PyPI
//! `checktestdata`), whichever is on `PATH`, as `TOOL SCRIPT < input`: 0 valid, 1 invalid. A
//! VIVA script (`NAME.viva`) is run by `viva` or `viva.sh` on `PATH`, else by the `viva.jar`
//! that PyPI's `problemtools` and `bapctools` ship, found beside their `verifyproblem` or `bt`
//! on `PATH` and run with `java -jar`, as `VIVA SCRIPT INPUT`: 0 valid, 1 invalid.

use std::path::Path;
use std::time::Duration;

use crate::cli::ValidateArgs;
use crate::out;
use crate::program::Program;
use crate::shell::quote;
use judge_process::{Exit, Limits};

use super::problem::{Built, Group};

const VALIDATOR_TIME: Duration = Duration::from_secs(60);

/// The programs that run a checktestdata script, in the order they are looked for.
const CHECKTESTDATA: [&str; 2] = ["checktestdata", "pyctd"];

/// How an input validator says valid and invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codes {
    /// 42 valid, 43 invalid.
    Kattis,
    /// checktestdata's 0 valid, 1 invalid.
    Checktestdata,
    /// VIVA's 0 valid, 1 invalid; the input is named as its last argument (and on stdin).
    Viva,
}

/// An input validator built, with its name (its file's name without extension, as 2023-07's
/// per-validator flags name it).
pub struct Validator {
    pub built: Built,
    pub name: String,
    pub codes: Codes,
}

/// Builds the input validator `source` (a checktestdata script is run by the first of
/// [`CHECKTESTDATA`] found on `PATH`).
///
/// # Errors
/// It does not build, or its language (checktestdata's included) is not available here.
pub fn build(source: &Path, root: &Path) -> Result<Validator, String> {
    let name = source
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if source.extension().is_some_and(|e| e == "ctd") {
        let tool = checktestdata().ok_or_else(|| {
            format!(
                "{}: a checktestdata script, and neither checktestdata nor pyctd (pip install \
                 checktestdata) is on PATH",
                source.display()
            )
        })?;
        let script = std::path::absolute(source).unwrap_or_else(|_| source.to_path_buf());
        return Ok(Validator {
            built: Built {
                command: format!("{} {}", quote(&tool), quote(&script)),
                source: source.to_path_buf(),
            },
            name,
            codes: Codes::Checktestdata,
        });
    }
    if source.extension().is_some_and(|e| e == "viva") {
        let tool = viva().ok_or_else(|| format!("{}: {NO_VIVA}", source.display()))?;
        let script = std::path::absolute(source).unwrap_or_else(|_| source.to_path_buf());
        return Ok(Validator {
            built: Built {
                command: format!("{tool} {}", quote(&script)),
                source: source.to_path_buf(),
            },
            name,
            codes: Codes::Viva,
        });
    }
    Ok(Validator {
        built: super::icpc::build(source, root)?,
        name,
        codes: Codes::Kattis,
    })
}

/// The path of the first of [`CHECKTESTDATA`] on `PATH`.
fn checktestdata() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    CHECKTESTDATA.iter().find_map(|tool| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(tool))
            .find(|p| p.is_file())
    })
}

/// Why a VIVA script cannot be run here.
const NO_VIVA: &str = "a VIVA script, and no VIVA here (viva or viva.sh on PATH, or java and \
                       the viva.jar of problemtools or BAPCtools, pip install problemtools, \
                       beside their verifyproblem or bt on PATH)";

/// The command that runs VIVA: `viva` or `viva.sh` on `PATH`, else `java -jar` with the
/// `viva.jar` installed with problemtools or BAPCtools (in the Python installation of their
/// `verifyproblem` or `bt` on `PATH`), when `java` is on `PATH`.
fn viva() -> Option<String> {
    let path = std::env::var_os("PATH")?;
    let on_path = |tool: &str| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(tool))
            .find(|p| p.is_file())
    };
    if let Some(tool) = on_path("viva").or_else(|| on_path("viva.sh")) {
        return Some(quote(&tool));
    }
    on_path("java")?;
    let shipped = [
        ("verifyproblem", "problemtools/support/viva.jar"),
        ("bt", "bapctools/resources/third_party/viva/viva.jar"),
    ];
    shipped.iter().find_map(|(tool, jar)| {
        let bin = on_path(tool)?;
        let bin = bin.canonicalize().unwrap_or(bin);
        let jar = python_packages(bin.parent()?.parent()?)
            .into_iter()
            .map(|dir| dir.join(jar))
            .find(|p| p.is_file())?;
        Some(format!("java -jar {}", quote(&jar)))
    })
}

/// The folders of Python packages under the installation prefix `prefix` (a virtual
/// environment, `~/.local`, `/usr`): `lib/python3.*/site-packages` and
/// `lib/python3/dist-packages`.
fn python_packages(prefix: &Path) -> Vec<std::path::PathBuf> {
    let lib = prefix.join("lib");
    let Ok(entries) = std::fs::read_dir(&lib) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with("python") {
            found.push(e.path().join("site-packages"));
            found.push(e.path().join("dist-packages"));
        }
    }
    found.sort();
    found
}

/// Warns, for a command that does not need them (`judge verify`, `judge PATH`), of the input
/// validators that cannot be run here: a checktestdata script without its tool, a VIVA script
/// without VIVA, a file of no language the judge knows.
pub fn warn_unavailable(problem: &super::Problem) {
    for source in &problem.input_validators {
        let ext = source.extension().and_then(|e| e.to_str()).unwrap_or("");
        let why = match ext {
            "ctd" if checktestdata().is_none() => {
                "a checktestdata script, and neither checktestdata nor pyctd is on PATH"
            }
            "ctd" => continue,
            "viva" if viva().is_none() => NO_VIVA,
            "viva" => continue,
            _ if source.is_file() && crate::source::Language::of(source).is_none() => {
                "not a source file of a language the judge knows"
            }
            _ => continue,
        };
        crate::out::stderr(&format!(
            "judge: warning: {}: {why}; judge validate cannot run it (not needed here)\n",
            source.display()
        ));
    }
}

/// The flags of `group` for the validator `name`.
fn flags_for<'a>(group: &'a Group, name: &str) -> &'a [String] {
    if group.input_flags_by.is_empty() {
        return &group.input_flags;
    }
    group
        .input_flags_by
        .iter()
        .find(|(n, _)| n == name)
        .map_or(&[], |(_, f)| f.as_slice())
}

/// Runs `judge validate`; whether every input is valid.
///
/// # Errors
/// The package cannot be read, has no input validator, or a validator is broken.
pub fn command(args: &ValidateArgs) -> Result<bool, String> {
    let problem = super::read(&args.package)?;
    if problem.input_validators.is_empty() {
        return Err(format!(
            "{}: no input validator (expected input_validators/)",
            args.package.display()
        ));
    }
    out::stdout(&format!(
        "{}: {}, {}, {} input {}\n",
        args.package.display(),
        problem.format,
        problem.counts(),
        problem.input_validators.len(),
        out::plural(
            problem.input_validators.len() as u64,
            "validator",
            "validators"
        )
    ));
    let validators: Vec<Validator> = problem
        .input_validators
        .iter()
        .map(|s| build(s, &problem.root))
        .collect::<Result<_, _>>()?;
    let mut invalid = 0;
    for case in &problem.cases {
        for v in &validators {
            let flags = flags_for(&problem.groups[case.group], &v.name);
            if let Some(why) = check(v, &problem.root, &case.input, flags)? {
                invalid += 1;
                out::stdout(&format!(
                    "INVALID {} ({}): {why}\n",
                    case.label,
                    v.built.source.display()
                ));
            }
        }
    }
    let runs = problem.cases.len() * problem.input_validators.len();
    out::stdout(&format!("{} valid, {invalid} invalid\n", runs - invalid));
    Ok(invalid == 0)
}

/// `None` if `validator` accepts `input`, else its message.
///
/// # Errors
/// It cannot run, times out, or exits with neither 42 nor 43.
pub fn check(
    v: &Validator,
    root: &Path,
    input: &Path,
    flags: &[String],
) -> Result<Option<String>, String> {
    let validator = &v.built;
    let mut command = validator.command.clone();
    if v.codes == Codes::Kattis {
        for f in flags {
            command += " ";
            command += &quote(Path::new(f));
        }
    }
    if v.codes == Codes::Viva {
        // VIVA reads the file it is given, not its stdin.
        let input = std::path::absolute(input).unwrap_or_else(|_| input.to_path_buf());
        command += " ";
        command += &quote(&input);
    }
    let (valid, invalid) = match v.codes {
        Codes::Kattis => (42, 43),
        Codes::Checktestdata | Codes::Viva => (0, 1),
    };
    let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let limits = Limits {
        time: VALIDATOR_TIME,
        timing: judge_process::Timing::Wall,
        output: 1 << 20,
        memory: None,
        settling: None,
    };
    let program = Program::ShellIn(command, root.to_path_buf());
    let o = judge_process::run(&program.command(), bytes, limits).map_err(|e| {
        format!(
            "cannot run the input validator {}: {e}",
            validator.source.display()
        )
    })?;
    let said = || {
        let mut t = String::from_utf8_lossy(&o.stdout).into_owned();
        t += &String::from_utf8_lossy(&o.stderr_tail);
        t.trim().replace('\n', "; ")
    };
    match o.exit {
        _ if o.timed_out => Err(format!(
            "the input validator {} ran past {} s on {}",
            validator.source.display(),
            VALIDATOR_TIME.as_secs(),
            input.display()
        )),
        Exit::Code(c) if c == valid => Ok(None),
        Exit::Code(c) if c == invalid => Ok(Some(said())),
        Exit::Code(c) => Err(format!(
            "the input validator {} exited with {c} on {}, neither {valid} (valid) nor {invalid} (invalid): {}",
            validator.source.display(),
            input.display(),
            said()
        )),
        Exit::Signal(s) => Err(format!(
            "the input validator {} was killed by signal {s} on {}",
            validator.source.display(),
            input.display()
        )),
    }
}

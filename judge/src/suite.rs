//! A suite on disk: `testcases/<suite>/NN.in`, `NN.out`, an optional `NN.exit`, and the settings
//! in an optional `suite.toml`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::compare::Mode;

/// Settings from `testcases/<suite>/suite.toml`; every key is optional.
#[derive(Deserialize, Debug, Clone)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    pub compare: Mode,
    /// Seconds per case.
    pub time_limit: f64,
    /// Absolute or relative, for `compare = "float"`.
    pub tolerance: f64,
    /// For `compare = "checker"`: a shell command run from the suite's folder as
    /// `CHECKER input output expected`; exit status 0 means AC (see `checker_codes`). A first
    /// word that names one of our binaries (`minesweeper-referee`) is that binary, built first.
    pub checker: Option<String>,
    /// How the checker's exit code is read.
    pub checker_codes: CheckerCodes,
    /// An interactive suite: a shell command run from the suite's folder as
    /// `INTERACTOR input output [answer]` (testlib) or `INTERACTOR input answer feedback_dir`
    /// (Kattis), talking with the program through its stdin and stdout. A first word that names
    /// one of our binaries is that binary, built first.
    pub interactor: Option<String>,
    /// How the interactor's exit code is read.
    pub interactor_codes: InteractorCodes,
    /// Our own binary that this suite judges when no `--cmd` is given (by default the binary
    /// named after the suite).
    pub program: Option<String>,
}

/// How an interactor's exit code is read.
#[derive(Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum InteractorCodes {
    /// testlib's: 0 AC, 1 WA, 2 PE, 3 the interactor failed (a setup error), any other code WA;
    /// a line `score X` at the start of its output file is the case's score.
    #[default]
    Testlib,
    /// Kattis problemtools': 42 AC, 43 WA, any other code a setup error; `judgemessage.txt` and
    /// `score.txt` in the feedback folder.
    Kattis,
}

/// How a checker's exit code is read.
#[derive(Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CheckerCodes {
    /// testlib's: 0 AC, 1 WA, 2 PE, 3 the checker failed (a setup error), 7 points (not AC);
    /// any other code is WA.
    #[default]
    Testlib,
    /// A plain script's: 0 AC, anything else WA.
    Any,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            compare: Mode::Exact,
            time_limit: 2.0,
            tolerance: 1e-6,
            checker: None,
            checker_codes: CheckerCodes::Testlib,
            interactor: None,
            interactor_codes: InteractorCodes::Testlib,
            program: None,
        }
    }
}

impl Settings {
    /// Reads `dir/suite.toml`, or the defaults when there is none.
    ///
    /// # Errors
    /// The file is not valid TOML, has an unknown key, or is inconsistent.
    pub fn load(dir: &Path) -> Result<Settings, String> {
        let path = dir.join("suite.toml");
        match read_optional(&path)? {
            Some(bytes) => Settings::parse(&bytes, &path),
            None => Ok(Settings::default()),
        }
    }

    /// Reads the bytes of `path`, a `suite.toml`.
    ///
    /// # Errors
    /// Not UTF-8, not valid TOML, an unknown key, or inconsistent settings; the message names
    /// `path`.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Settings, String> {
        let text = utf8(bytes, path)?;
        let settings: Settings = toml::from_str(text).map_err(|e| {
            let msg = e.message().to_string();
            format!("{}: {msg}", path.display())
        })?;
        if settings.compare == Mode::Checker && settings.checker.is_none() {
            return Err(format!(
                "{}: compare = \"checker\" needs checker = \"COMMAND\"",
                path.display()
            ));
        }
        if settings.interactor.is_some() && settings.compare != Mode::Exact {
            return Err(format!(
                "{}: an interactive suite takes no compare (its interactor judges)",
                path.display()
            ));
        }
        seconds(settings.time_limit).map_err(|e| format!("{}: time_limit {e}", path.display()))?;
        tolerance(settings.tolerance).map_err(|e| format!("{}: tolerance {e}", path.display()))?;
        Ok(settings)
    }
}

impl Settings {
    /// Refuses an interactive suite `name` for `what` (`judge record`, `judge stress`), which
    /// need answers on stdout.
    ///
    /// # Errors
    /// The suite has an interactor.
    pub fn not_interactive(&self, name: &str, what: &str) -> Result<(), String> {
        match self.interactor {
            Some(_) => Err(format!(
                "suite {name:?} is interactive (its interactor judges): {what} does not apply"
            )),
            None => Ok(()),
        }
    }
}

/// The bytes of `path`, or `None` when there is no such file.
///
/// # Errors
/// The file exists but cannot be read (a folder, no permission), is not a regular file (a
/// named pipe, a device) or is larger than [`crate::regular::CASE_MAX`]: the message names it.
pub fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match crate::regular::read(path, crate::regular::CASE_MAX) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: cannot be read: {}", path.display(), plain(&e))),
    }
}

/// `bytes`, the contents of `path`, as text.
///
/// # Errors
/// Not UTF-8: the message names `path` and the first bad byte.
fn utf8<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, String> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        format!("{}: not UTF-8 text (byte {at})", path.display())
    })
}

/// An I/O error's message without Rust's ` (os error N)` suffix.
fn plain(e: &std::io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_owned()
}

/// A tolerance for `compare = "float"`: finite and not negative.
///
/// # Errors
/// Negative, NaN or infinite.
pub fn tolerance(t: f64) -> Result<f64, String> {
    if t.is_finite() && t >= 0.0 {
        Ok(t)
    } else {
        Err(format!("must be a finite number at least 0, found {t}"))
    }
}

/// A positive, finite number of seconds.
///
/// # Errors
/// Zero, negative, NaN or infinite.
pub fn seconds(s: f64) -> Result<Duration, String> {
    if s.is_finite() && s > 0.0 && s < 1e9 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!("must be a positive number of seconds, found {s}"))
    }
}

/// One case of a suite.
#[derive(Debug, Clone)]
pub struct Case {
    /// `suite/NN`.
    pub label: String,
    pub input: PathBuf,
    pub output: PathBuf,
    /// `NN.exit`, which holds the expected exit code when it exists (0 otherwise).
    pub exit: PathBuf,
}

impl Case {
    /// The expected exit code: the number in `NN.exit`, else 0.
    ///
    /// # Errors
    /// `NN.exit` exists but does not hold an integer from 0 to 255.
    pub fn expected_exit(&self) -> Result<i32, String> {
        match read_optional(&self.exit)? {
            Some(bytes) => exit_code(&bytes, &self.exit),
            None => Ok(0),
        }
    }
}

/// The exit code in `bytes`, the contents of the `NN.exit` file `path`.
///
/// # Errors
/// Not UTF-8, or not an integer from 0 to 255 (surrounding whitespace aside).
pub fn exit_code(bytes: &[u8], path: &Path) -> Result<i32, String> {
    let text = utf8(bytes, path)?.trim();
    text.parse::<u8>().map(i32::from).map_err(|_| {
        format!(
            "{}: expected an exit code from 0 to 255, found {text:?}",
            path.display()
        )
    })
}

/// The suites under `root`, sorted by name.
///
/// # Errors
/// `root` cannot be read.
pub fn all(root: &Path) -> Result<Vec<String>, String> {
    if !root.is_dir() {
        return Err(no_folder(root));
    }
    let mut v: Vec<String> = std::fs::read_dir(root)
        .map_err(|e| format!("{}: {e}", root.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    Ok(v)
}

/// The error for a missing test-case folder: where it was looked for, and how to name another.
fn no_folder(root: &Path) -> String {
    let full = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    format!(
        "no test-case folder at {}: run the judge from the project's root, or name the folder \
         with --testcases DIR",
        full.display()
    )
}

/// The usage error for a `--filter` that matches no case of `suites`: it lists their cases.
///
/// # Errors
/// A suite cannot be read.
pub fn no_match(root: &Path, suites: &[String], filter: &str) -> Result<String, String> {
    let mut listed = Vec::new();
    for name in suites {
        let labels: Vec<String> = cases(root, name, None)?
            .into_iter()
            .map(|c| c.label)
            .collect();
        listed.push(match labels.as_slice() {
            [] => format!("{name} (no case)"),
            [a] => a.clone(),
            [a, b] => format!("{a}, {b}"),
            [a, .., b] => format!("{a} to {b} ({} cases)", labels.len()),
        });
    }
    Ok(format!(
        "--filter {filter:?} matches no case; the cases are {}",
        listed.join(", ")
    ))
}

/// The cases of suite `name` whose label contains `filter`, sorted by name.
///
/// # Errors
/// The suite does not exist or cannot be read.
pub fn cases(root: &Path, name: &str, filter: Option<&str>) -> Result<Vec<Case>, String> {
    let dir = root.join(name);
    if !dir.is_dir() {
        let there = all(root)?;
        return Err(format!(
            "no suite named {name:?} in {}; the suites are {}",
            root.display(),
            if there.is_empty() {
                "none".to_string()
            } else {
                there.join(", ")
            }
        ));
    }
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let file = e.file_name();
            file.to_str()?.strip_suffix(".in").map(String::from)
        })
        .collect();
    stems.sort();
    Ok(stems
        .into_iter()
        .map(|stem| Case {
            label: format!("{name}/{stem}"),
            input: dir.join(format!("{stem}.in")),
            output: dir.join(format!("{stem}.out")),
            exit: dir.join(format!("{stem}.exit")),
        })
        .filter(|c| filter.is_none_or(|f| c.label.contains(f)))
        .collect())
}

//! ICPC/Kattis problem packages, legacy and 2023-07: `problem.yaml`, `data/sample` then
//! `data/secret` (groups nested, entries sorted by name as problemtools sorts them), `.in` with
//! `.ans`, `testdata.yaml` inherited down the folders, `input_validators/`,
//! `output_validators/` (legacy) or `output_validator/` (2023-07), `submissions/<verdict>/`.

use std::path::{Path, PathBuf};

use crate::suite::InteractorCodes;

use super::files;
use super::problem::{Aggregation, Built, Case, Comparison, Group, Problem, TimeLimit};
use super::yaml::Doc;

/// The format versions read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    Legacy,
    V2023,
}

/// Reads the package in `root`.
///
/// # Errors
/// A file that is not YAML, a missing answer, a validator that does not build, a link out of the
/// package, a case name with spaces: the message names the file.
pub fn read(root: &Path) -> Result<Problem, String> {
    let yaml_path = root.join("problem.yaml");
    let config = Doc::optional(&yaml_path)?.unwrap_or_else(|| Doc::empty(&yaml_path));
    let version = match config.string(&["problem_format_version"])?.as_deref() {
        None | Some("legacy") | Some("legacy-icpc") => Version::Legacy,
        Some(v) if v.starts_with("2023-07") => Version::V2023,
        Some(v) => {
            return Err(format!(
            "{}: problem_format_version {v:?} is not one the judge reads (legacy, 2023-07-draft)",
            yaml_path.display()
        ))
        }
    };
    let kind = Kind::of(&config, version)?;
    let mut warnings = Vec::new();
    let base = Settings::root(&config)?;
    let mut groups = Vec::new();
    let mut cases = Vec::new();
    let data = root.join("data");
    if !data.is_dir() {
        return Err(format!("{}: no such folder", data.display()));
    }
    let mut walk = Walk {
        root,
        interactive: kind.interactive,
        groups: &mut groups,
        cases: &mut cases,
    };
    for top in ["sample", "secret"] {
        let dir = data.join(top);
        if dir.is_dir() {
            let settings = base.below(&dir)?;
            walk.group(&dir, top, &settings)?;
        }
    }
    if cases.is_empty() {
        return Err(format!(
            "{}: no case (expected NAME.in files under data/sample and data/secret)",
            data.display()
        ));
    }
    let comparison = comparison(root, &config, version, &kind)?;
    let submissions = super::submission::icpc(root, &mut warnings)?;
    let input_validators = input_validators(root)?;
    let name = root
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| root.display().to_string());
    let (time, memory, output) = limits(root, &config, version)?;
    for w in warnings {
        crate::out::stderr(&format!("judge: warning: {w}\n"));
    }
    Ok(Problem {
        format: format!(
            "ICPC problem package ({}{})",
            match version {
                Version::Legacy => "legacy",
                Version::V2023 => "2023-07",
            },
            kind.describe()
        ),
        name,
        root: root.to_path_buf(),
        groups,
        cases,
        comparison,
        time,
        memory,
        output,
        submissions,
        input_validators,
        scoring: kind.scoring,
    })
}

/// The problem's type.
struct Kind {
    interactive: bool,
    scoring: bool,
    custom: bool,
}

impl Kind {
    fn of(config: &Doc, version: Version) -> Result<Kind, String> {
        match version {
            Version::Legacy => {
                let validation = config.words(&["validation"])?;
                let custom = validation.first().is_some_and(|w| w == "custom");
                let scoring = config.string(&["type"])?.as_deref() == Some("scoring")
                    || validation.iter().any(|w| w == "score");
                Ok(Kind {
                    interactive: custom && validation.iter().any(|w| w == "interactive"),
                    scoring,
                    custom,
                })
            }
            Version::V2023 => {
                let types = config.words(&["type"])?;
                for t in &types {
                    if !["pass-fail", "scoring", "interactive", "multi-pass"].contains(&t.as_str())
                    {
                        return Err(format!("{}: unknown type {t:?}", config.path.display()));
                    }
                    if t == "multi-pass" {
                        return Err(format!(
                            "{}: multi-pass problems are not supported",
                            config.path.display()
                        ));
                    }
                }
                let interactive = types.iter().any(|t| t == "interactive");
                Ok(Kind {
                    interactive,
                    scoring: types.iter().any(|t| t == "scoring"),
                    custom: interactive,
                })
            }
        }
    }

    fn describe(&self) -> &'static str {
        match (self.interactive, self.scoring) {
            (true, true) => ", interactive, scoring",
            (true, false) => ", interactive",
            (false, true) => ", scoring",
            (false, false) => "",
        }
    }
}

/// What `testdata.yaml` files set, inherited from the folder above.
#[derive(Clone, Debug, Default)]
struct Settings {
    output_flags: Vec<String>,
    input_flags: Vec<String>,
    accept_score: Option<f64>,
    aggregation: Aggregation,
}

impl Settings {
    /// The problem's own flags (legacy `validator_flags`) and `data/testdata.yaml`.
    fn root(config: &Doc) -> Result<Settings, String> {
        let s = Settings {
            output_flags: config.words(&["validator_flags"])?,
            ..Settings::default()
        };
        s.below(&config.path.with_file_name("data"))
    }

    /// These settings with `dir/testdata.yaml` read over them.
    fn below(&self, dir: &Path) -> Result<Settings, String> {
        let Some(doc) = Doc::optional(&dir.join("testdata.yaml"))? else {
            return Ok(self.clone());
        };
        let mut s = self.clone();
        if doc.get(&["output_validator_flags"]).is_some() {
            s.output_flags = self.output_flags.clone();
            s.output_flags
                .extend(doc.words(&["output_validator_flags"])?);
        }
        if doc.get(&["input_validator_flags"]).is_some() {
            s.input_flags = doc.words(&["input_validator_flags"])?;
        }
        for keys in [&["accept_score"][..], &["scoring", "score"]] {
            if let Some(score) = doc.number(keys)? {
                let score = super::problem::score(score, &doc.path, &keys.join("."))?;
                s.accept_score = Some(score);
            }
        }
        let flags = doc.words(&["grader_flags"])?;
        let aggregation = doc.string(&["scoring", "aggregation"])?;
        if flags.iter().any(|f| f == "min") || aggregation.as_deref() == Some("min") {
            s.aggregation = Aggregation::Min;
        } else if flags.iter().any(|f| f == "sum") || aggregation.as_deref() == Some("sum") {
            s.aggregation = Aggregation::Sum;
        }
        Ok(s)
    }
}

/// Walks `data/`: each folder with cases is a group.
struct Walk<'a> {
    root: &'a Path,
    /// An interactive sample may have a `.interaction` file and no `.ans`.
    interactive: bool,
    groups: &'a mut Vec<Group>,
    cases: &'a mut Vec<Case>,
}

impl Walk<'_> {
    fn group(&mut self, dir: &Path, name: &str, settings: &Settings) -> Result<(), String> {
        let index = self.groups.len();
        self.groups.push(Group {
            name: name.to_string(),
            accept_score: settings.accept_score.unwrap_or(1.0),
            aggregation: settings.aggregation,
            scored: name != "sample",
            input_flags: settings.input_flags.clone(),
        });
        let stems = files::stems(dir, ".in")?;
        let subdirs = files::entries(dir, true)?;
        // Cases and subgroups interleaved by name, as problemtools lists them.
        let mut items: Vec<(String, bool)> = stems
            .into_iter()
            .map(|s| (s, false))
            .chain(subdirs.into_iter().map(|d| (d, true)))
            .collect();
        items.sort_by_key(sort_key);
        for (item, is_dir) in items {
            if is_dir {
                let sub = dir.join(&item);
                files::inside(&sub, self.root)?;
                let below = settings.below(&sub)?;
                self.group(&sub, &format!("{name}/{item}"), &below)?;
            } else {
                let input = files::inside(&dir.join(format!("{item}.in")), self.root)?;
                let transcript = dir.join(format!("{item}.interaction"));
                let answer = if self.interactive
                    && transcript.is_file()
                    && !dir.join(format!("{item}.ans")).exists()
                {
                    // No answer: the interactor is given /dev/null.
                    dir.join(format!("{item}.ans"))
                } else {
                    files::answer(dir, &item, &[".ans"], self.root)?
                };
                self.cases.push(Case {
                    label: format!("{name}/{item}"),
                    group: index,
                    input,
                    answer,
                    flags: settings.output_flags.clone(),
                    exit: None,
                });
            }
        }
        Ok(())
    }
}

/// A case `NAME` sorts as `NAME.in`, a folder as its name.
fn sort_key((name, is_dir): &(String, bool)) -> String {
    if *is_dir {
        name.clone()
    } else {
        format!("{name}.in")
    }
}

fn comparison(
    root: &Path,
    config: &Doc,
    version: Version,
    kind: &Kind,
) -> Result<Comparison, String> {
    let folder = match version {
        Version::Legacy => root.join("output_validators"),
        Version::V2023 => root.join("output_validator"),
    };
    let custom = kind.custom || (version == Version::V2023 && folder.is_dir());
    if !custom {
        return Ok(Comparison::Default);
    }
    let source = validator_source(&folder, version).map_err(|e| {
        let why = if kind.interactive {
            "an interactive problem"
        } else {
            "custom validation"
        };
        format!("{e} ({} asks for {why})", config.path.display())
    })?;
    let built = build(&source, root)?;
    Ok(if kind.interactive {
        Comparison::Interactor(built, InteractorCodes::Kattis)
    } else {
        Comparison::Validator(built)
    })
}

/// The validator's source: 2023-07's folder itself; in legacy, the one entry of
/// `output_validators/` (or the folder, when it holds several files).
fn validator_source(folder: &Path, version: Version) -> Result<PathBuf, String> {
    if !folder.is_dir() {
        return Err(format!("{}: no such folder", folder.display()));
    }
    if version == Version::V2023 {
        return Ok(folder.to_path_buf());
    }
    let mut entries = files::entries(folder, true)?;
    entries.extend(files::entries(folder, false)?);
    match entries.as_slice() {
        [] => Err(format!("{}: empty, no validator", folder.display())),
        [one] => Ok(folder.join(one)),
        _ => Ok(folder.to_path_buf()),
    }
}

/// Builds a validator of the package.
///
/// # Errors
/// Out of the package, an unknown language, or a build that fails (with the compiler's output).
pub fn build(source: &Path, root: &Path) -> Result<Built, String> {
    files::inside(source, root)?;
    let command = crate::source::build(source).map_err(|e| {
        format!(
            "{}: the validator cannot be built: {}",
            source.display(),
            e.message()
        )
    })?;
    Ok(Built {
        command,
        source: source.to_path_buf(),
    })
}

fn input_validators(root: &Path) -> Result<Vec<Built>, String> {
    let dir = root.join("input_validators");
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut entries = files::entries(&dir, true)?;
    entries.extend(files::entries(&dir, false)?);
    entries.sort();
    entries.iter().map(|e| build(&dir.join(e), root)).collect()
}

/// The time limit, memory and output limits in bytes.
fn limits(
    root: &Path,
    config: &Doc,
    version: Version,
) -> Result<(TimeLimit, Option<u64>, usize), String> {
    let mib = |keys: &[&str], default: f64| -> Result<f64, String> {
        let v = config.number(keys)?.unwrap_or(default);
        if (1e-3..1e7).contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "{}: {} must be a number of MiB from 0.001 to 10000000, found {}",
                config.path.display(),
                keys.join("."),
                super::problem::number_text(v)
            ))
        }
    };
    let (memory_default, multiplier, margin) = match version {
        Version::Legacy => (
            1024.0,
            factor(config, &["limits", "time_multiplier"], 5.0)?,
            factor(config, &["limits", "time_safety_margin"], 2.0)?,
        ),
        Version::V2023 => (
            2048.0,
            factor(
                config,
                &["limits", "time_multipliers", "ac_to_time_limit"],
                2.0,
            )?,
            factor(
                config,
                &["limits", "time_multipliers", "time_limit_to_tle"],
                1.5,
            )?,
        ),
    };
    let memory = super::problem::memory_limit(
        mib(&["limits", "memory"], memory_default)? * 1048576.0,
        &config.path,
        "limits.memory (MiB)",
    )?;
    let output = (mib(&["limits", "output"], 8.0)? * 1048576.0) as usize;
    let (given, source) = match config.number(&["limits", "time_limit"])? {
        Some(t) => {
            let t = super::problem::time_limit(t, &config.path, "limits.time_limit")?;
            (Some(t), "problem.yaml")
        }
        None => (timelimit_file(root)?, ".timelimit"),
    };
    let time = TimeLimit {
        given,
        source,
        multiplier,
        margin,
        timing: crate::run::Timing::Cpu,
    };
    Ok((time, Some(memory), output))
}

/// A time multiplier or safety margin at `keys`, `default` when absent: from 1 to 1000.
fn factor(config: &Doc, keys: &[&str], default: f64) -> Result<f64, String> {
    let v = config.number(keys)?.unwrap_or(default);
    if (1.0..=1e3).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{}: {} must be a number from 1 to 1000, found {}",
            config.path.display(),
            keys.join("."),
            super::problem::number_text(v)
        ))
    }
}

/// The `.timelimit` file that Kattis and DOMjudge write beside `problem.yaml`.
fn timelimit_file(root: &Path) -> Result<Option<std::time::Duration>, String> {
    let path = root.join(".timelimit");
    if !path.exists() {
        return Ok(None);
    }
    let text = files::text(&path)?;
    let seconds = text
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("{}: expected a number of seconds", path.display()))?;
    super::problem::time_limit(seconds, &path, "the time limit").map(Some)
}

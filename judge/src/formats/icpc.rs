//! ICPC/Kattis problem packages, legacy and 2023-07: `problem.yaml`, `data/sample` then
//! `data/secret` (groups nested, entries sorted by name as problemtools sorts them), `.in` with
//! `.ans`, `testdata.yaml` inherited down the folders, `input_validators/`,
//! `output_validators/` (legacy) or `output_validator/` (2023-07), `submissions/<verdict>/`.

use std::path::{Path, PathBuf};

use crate::suite::InteractorCodes;

use super::files;
use yaml_rust2::Yaml;

use super::problem::{Built, Case, Comparison, Grading, Group, Item, OnReject, Problem, TimeLimit};
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
    let (version, label) = match config.string(&["problem_format_version"])?.as_deref() {
        None | Some("legacy") | Some("legacy-icpc") => (Version::Legacy, "legacy"),
        Some(v) if v.starts_with("2023-07") => (Version::V2023, "2023-07"),
        // 2025-09 is read as 2023-07, with test_group.yaml for testdata.yaml.
        Some(v) if v.starts_with("2025-09") => (Version::V2023, "2025-09"),
        Some(v) => {
            return Err(format!(
            "{}: problem_format_version {v:?} is not one the judge reads (legacy, 2023-07-draft, 2025-09)",
            yaml_path.display()
        ))
        }
    };
    let kind = Kind::of(&config, version)?;
    let mut warnings = Vec::new();
    let base = Settings::root(&config, &kind, version, &mut warnings)?;
    let mut groups = Vec::new();
    let mut cases = Vec::new();
    let data = root.join("data");
    if !data.is_dir() {
        return Err(format!("{}: no such folder", data.display()));
    }
    let mut walk = Walk {
        root,
        interactive: kind.interactive,
        samples_scored: version == Version::Legacy,
        groups: &mut groups,
        cases: &mut cases,
        warnings: &mut warnings,
    };
    let top = walk.group(&data, "", &base, Some(&["sample", "secret"]))?;
    if cases.is_empty() {
        return Err(format!(
            "{}: no case (expected NAME.in files under data/sample and data/secret)",
            data.display()
        ));
    }
    let comparison = comparison(root, &config, version, &kind)?;
    let case_names: Vec<&str> = cases.iter().map(|c| c.label.as_str()).collect();
    let group_names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
    let tests = super::expectations::Tests {
        cases: &case_names,
        groups: &group_names,
        scoring: kind.scoring,
    };
    let listed = super::expectations::File::read(root, tests, &mut warnings)?;
    let submissions = super::submission::icpc(root, listed.as_ref(), &mut warnings)?;
    if let Some(listed) = &listed {
        let names: Vec<&str> = submissions.iter().map(|s| s.name.as_str()).collect();
        listed.unmatched(&names, &mut warnings);
    }
    let input_validators = input_validators(root)?;
    let grader = grader(root, &groups)?;
    expectations(root, &mut warnings);
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
        format: format!("ICPC problem package ({}{})", label, kind.describe()),
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
        top,
        grader,
        address_space: true,
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

/// The keys of `testdata.yaml` read (BAPCtools writes `*_validator_args` for the spec's
/// `*_validator_flags`; both are read), and those known and without effect here.
const KEYS: [&str; 12] = [
    "on_reject",
    "grading",
    "grader_flags",
    "accept_score",
    "reject_score",
    "range",
    "input_validator_flags",
    "output_validator_flags",
    "input_validator_args",
    "output_validator_args",
    "scoring",
    "full_feedback",
];

/// Keys of `testdata.yaml` the judge does not implement: refused, naming the key.
const REFUSED: [&str; 2] = ["static_validation", "require_pass"];

/// What `testdata.yaml` files set, inherited from the folder above (a key given in a folder
/// replaces the one above).
#[derive(Clone, Debug)]
struct Settings {
    /// The problem's own output validator flags (legacy `validator_flags`), before each
    /// group's.
    problem_flags: Vec<String>,
    output_flags: Vec<String>,
    input_flags: Vec<String>,
    /// 2023-07's per-validator input flags: a validator's name and its flags.
    input_flags_by: Vec<(String, Vec<String>)>,
    accept_score: f64,
    reject_score: f64,
    range: (f64, f64),
    on_reject: OnReject,
    grading: Grading,
    grader_flags: Vec<String>,
}

impl Settings {
    /// The defaults (problemtools' `testdata.yaml`), the problem's own flags (legacy
    /// `validator_flags`) and its legacy `grading` keys, then `data/testdata.yaml`.
    fn root(
        config: &Doc,
        kind: &Kind,
        version: Version,
        warnings: &mut Vec<String>,
    ) -> Result<Settings, String> {
        let mut s = Settings {
            problem_flags: config.words(&["validator_flags"])?,
            output_flags: Vec::new(),
            input_flags: Vec::new(),
            input_flags_by: Vec::new(),
            accept_score: 1.0,
            reject_score: 0.0,
            range: (f64::NEG_INFINITY, f64::INFINITY),
            // 2023-07 has no on_reject: a scoring problem judges every group.
            on_reject: if version == Version::V2023 && kind.scoring {
                OnReject::Continue
            } else {
                OnReject::Break
            },
            grading: Grading::Default,
            grader_flags: Vec::new(),
        };
        match config.string(&["grading", "on_reject"])?.as_deref() {
            None => {}
            Some("first_error") => s.on_reject = OnReject::Break,
            Some("grade") => s.on_reject = OnReject::Continue,
            Some(other) => {
                return Err(format!(
                    "{}: grading.on_reject {other:?} must be first_error or grade",
                    config.path.display()
                ))
            }
        }
        if let Some(v) = config.number(&["grading", "accept_score"])? {
            s.accept_score = v;
        }
        if let Some(v) = config.number(&["grading", "reject_score"])? {
            s.reject_score = v;
        }
        if let Some(text) = config.string(&["grading", "range"])? {
            s.range = range(&text, config, "grading.range")?;
        }
        s.below(&config.path.with_file_name("data"), warnings)
    }

    /// These settings with `dir/testdata.yaml` read over them.
    fn below(&self, dir: &Path, warnings: &mut Vec<String>) -> Result<Settings, String> {
        let doc = match Doc::optional(&dir.join("testdata.yaml"))? {
            Some(doc) => doc,
            None => match Doc::optional(&dir.join("test_group.yaml"))? {
                Some(doc) => doc,
                None => return Ok(self.clone()),
            },
        };
        keys(&doc, warnings)?;
        let mut s = self.clone();
        for key in ["output_validator_flags", "output_validator_args"] {
            if doc.get(&[key]).is_some() {
                s.output_flags = doc.words(&[key])?;
            }
        }
        for key in ["input_validator_flags", "input_validator_args"] {
            match doc.get(&[key]) {
                None => {}
                Some(Yaml::Hash(map)) => {
                    s.input_flags = Vec::new();
                    s.input_flags_by = per_validator(map, &doc, key)?;
                }
                Some(_) => {
                    s.input_flags = doc.words(&[key])?;
                    s.input_flags_by = Vec::new();
                }
            }
        }
        for keys in [&["accept_score"][..], &["scoring", "score"]] {
            if let Some(score) = doc.number(keys)? {
                s.accept_score = super::problem::score(score, &doc.path, &keys.join("."))?;
            }
        }
        if let Some(score) = doc.number(&["reject_score"])? {
            s.reject_score = super::problem::score(score, &doc.path, "reject_score")?;
        }
        if let Some(text) = doc.string(&["range"])? {
            s.range = range(&text, &doc, "range")?;
        }
        match doc.string(&["on_reject"])?.as_deref() {
            None => {}
            Some("break") => s.on_reject = OnReject::Break,
            Some("continue") => s.on_reject = OnReject::Continue,
            Some(other) => {
                return Err(format!(
                    "{}: on_reject {other:?} must be break or continue",
                    doc.path.display()
                ))
            }
        }
        match doc.string(&["grading"])?.as_deref() {
            None => {}
            Some("default") => s.grading = Grading::Default,
            Some("custom") => s.grading = Grading::Custom,
            Some(other) => {
                return Err(format!(
                    "{}: grading {other:?} must be default or custom",
                    doc.path.display()
                ))
            }
        }
        if doc.get(&["grader_flags"]).is_some() {
            s.grader_flags = doc.words(&["grader_flags"])?;
            if s.grading == Grading::Default {
                for f in &s.grader_flags {
                    if !super::grading::FLAGS.contains(&f.as_str()) {
                        warnings.push(format!(
                            "{}: grader flag {f:?} is not one the default grader knows; ignored",
                            doc.path.display()
                        ));
                    }
                }
            }
        }
        match doc.string(&["scoring", "aggregation"])?.as_deref() {
            None => {}
            Some(a @ ("sum" | "min")) => {
                s.grader_flags
                    .retain(|f| !["sum", "min", "max", "avg"].contains(&f.as_str()));
                s.grader_flags.push(a.to_string());
            }
            Some(other) => {
                return Err(format!(
                    "{}: scoring.aggregation {other:?} must be sum or min",
                    doc.path.display()
                ))
            }
        }
        Ok(s)
    }
}

/// Refuses the keys of `doc` the judge does not implement, and warns of those it does not know.
fn keys(doc: &Doc, warnings: &mut Vec<String>) -> Result<(), String> {
    let Yaml::Hash(map) = &doc.root else {
        return Ok(());
    };
    for key in map.keys() {
        let name = match key {
            Yaml::String(s) => s.clone(),
            other => format!("{other:?}"),
        };
        if REFUSED.contains(&name.as_str()) {
            return Err(format!(
                "{}: {name} is not supported by the judge",
                doc.path.display()
            ));
        }
        if !KEYS.contains(&name.as_str()) {
            warnings.push(format!(
                "{}: unknown key {name:?}; ignored",
                doc.path.display()
            ));
        }
    }
    Ok(())
}

/// 2023-07's mapping of an input validator's name to its flags.
fn per_validator(
    map: &yaml_rust2::yaml::Hash,
    doc: &Doc,
    key: &str,
) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut found = Vec::new();
    for (name, value) in map {
        let (Yaml::String(name), Some(flags)) = (name, flag_words(value)) else {
            return Err(format!(
                "{}: {key} must map each validator's name to a text or a list of words",
                doc.path.display()
            ));
        };
        found.push((name.clone(), flags));
    }
    Ok(found)
}

fn flag_words(value: &Yaml) -> Option<Vec<String>> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.split_whitespace().map(String::from).collect()),
        Yaml::Integer(i) => Some(vec![i.to_string()]),
        Yaml::Null => Some(Vec::new()),
        Yaml::Array(items) => items
            .iter()
            .map(|i| match i {
                Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
                Yaml::Integer(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// A score range `LOW HIGH` (`-inf`, `inf` and `+inf` allowed).
fn range(text: &str, doc: &Doc, key: &str) -> Result<(f64, f64), String> {
    let bound = |w: &str| match w {
        "-inf" => Some(f64::NEG_INFINITY),
        "inf" | "+inf" => Some(f64::INFINITY),
        w => w.parse::<f64>().ok().filter(|v| v.is_finite()),
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [lo, hi] => match (bound(lo), bound(hi)) {
            (Some(lo), Some(hi)) if lo <= hi => Ok((lo, hi)),
            _ => Err(format!(
                "{}: {key} {text:?} must be two numbers, the least first",
                doc.path.display()
            )),
        },
        _ => Err(format!(
            "{}: {key} {text:?} must be two numbers, the least first",
            doc.path.display()
        )),
    }
}

/// Walks `data/`: each folder is a group, holding its cases and folders.
struct Walk<'a> {
    root: &'a Path,
    /// An interactive sample may have a `.interaction` file and no `.ans`.
    interactive: bool,
    /// 2023-07: samples do not count in the score.
    samples_scored: bool,
    groups: &'a mut Vec<Group>,
    cases: &'a mut Vec<Case>,
    warnings: &'a mut Vec<String>,
}

impl Walk<'_> {
    /// Adds the group `name` in `dir` (with its cases and folders) and returns its index; `tops`
    /// are the only folders read in `data/` (the top group).
    fn group(
        &mut self,
        dir: &Path,
        name: &str,
        settings: &Settings,
        tops: Option<&[&str]>,
    ) -> Result<usize, String> {
        let index = self.groups.len();
        self.groups.push(Group {
            name: name.to_string(),
            accept_score: settings.accept_score,
            reject_score: settings.reject_score,
            scored: name != "sample" || self.samples_scored,
            input_flags: settings.input_flags.clone(),
            input_flags_by: settings.input_flags_by.clone(),
            on_reject: settings.on_reject,
            grading: settings.grading,
            grader_flags: settings.grader_flags.clone(),
            range: settings.range,
            items: Vec::new(),
        });
        let mut items = Vec::new();
        if let Some(tops) = tops {
            for top in tops {
                let sub = dir.join(top);
                if sub.is_dir() {
                    let below = settings.below(&sub, self.warnings)?;
                    items.push(Item::Group(self.group(&sub, top, &below, None)?));
                }
            }
            self.groups[index].items = items;
            return Ok(index);
        }
        let stems = files::stems(dir, ".in")?;
        let subdirs = files::entries(dir, true)?;
        // Cases and subgroups interleaved by name, as problemtools lists them.
        let mut entries: Vec<(String, bool)> = stems
            .into_iter()
            .map(|s| (s, false))
            .chain(subdirs.into_iter().map(|d| (d, true)))
            .collect();
        entries.sort_by_key(sort_key);
        for (item, is_dir) in entries {
            if is_dir {
                let sub = dir.join(&item);
                files::inside(&sub, self.root)?;
                let below = settings.below(&sub, self.warnings)?;
                let g = self.group(&sub, &format!("{name}/{item}"), &below, None)?;
                items.push(Item::Group(g));
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
                let mut flags = settings.problem_flags.clone();
                flags.extend(settings.output_flags.iter().cloned());
                items.push(Item::Case(self.cases.len()));
                self.cases.push(Case {
                    label: format!("{name}/{item}"),
                    group: index,
                    input,
                    answer,
                    flags,
                    exit: None,
                });
            }
        }
        self.groups[index].items = items;
        Ok(index)
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
    let built = match build(&source, root) {
        Ok(built) => built,
        Err(e) => return Ok(Comparison::Broken(e)),
    };
    Ok(if kind.interactive {
        Comparison::Interactor(built, InteractorCodes::Kattis)
    } else {
        Comparison::Validator(built)
    })
}

/// The validator's source: 2023-07's folder itself (or the one folder in it, when it holds
/// nothing else); in legacy, the one entry of `output_validators/` (or the folder, when it
/// holds several files).
fn validator_source(folder: &Path, version: Version) -> Result<PathBuf, String> {
    if !folder.is_dir() {
        return Err(format!("{}: no such folder", folder.display()));
    }
    if version == Version::V2023 {
        // problemtools' own examples keep it one folder further down.
        let files = files::entries(folder, false)?;
        if let ([], [one]) = (files.as_slice(), files::entries(folder, true)?.as_slice()) {
            return Ok(folder.join(one));
        }
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

/// The sources of the input validators (`input_validators/`, legacy also
/// `input_format_validators/`): each file or folder.
fn input_validators(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for name in ["input_validators", "input_format_validators"] {
        let dir = root.join(name);
        if !dir.is_dir() {
            continue;
        }
        let mut entries = files::entries(&dir, true)?;
        entries.extend(files::entries(&dir, false)?);
        entries.sort();
        for e in entries {
            found.push(files::inside(&dir.join(e), root)?);
        }
    }
    Ok(found)
}

/// The custom grader (`graders/`, one program), built when a group is graded `custom`.
///
/// # Errors
/// A group asks for custom grading and there is no grader, or it does not build.
fn grader(root: &Path, groups: &[Group]) -> Result<Option<Built>, String> {
    if !groups.iter().any(|g| g.grading == Grading::Custom) {
        return Ok(None);
    }
    let dir = root.join("graders");
    let source = validator_source(&dir, Version::Legacy)
        .map_err(|e| format!("{e} (a testdata.yaml asks for grading: custom)"))?;
    let built = files::inside(&source, root).and_then(|_| {
        crate::source::build(&source).map_err(|e| {
            format!(
                "{}: the grader cannot be built: {}",
                source.display(),
                e.message()
            )
        })
    })?;
    Ok(Some(Built {
        command: built,
        source,
    }))
}

/// `submissions/expectations.yaml`, the name a proposal gave what the format calls
/// `submissions/submissions.yaml`, is not read: a warning says so.
fn expectations(root: &Path, warnings: &mut Vec<String>) {
    let path = root.join("submissions/expectations.yaml");
    if path.is_file() {
        warnings.push(format!(
            "{}: not read: the format's expectations are in submissions/submissions.yaml",
            path.display()
        ));
    }
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
        None => match timelimit_file(root)? {
            Some(t) => (Some(t), ".timelimit"),
            None => (domjudge_ini(root)?, "domjudge-problem.ini"),
        },
    };
    // problemtools reads it in every version (the legacy format has no such key: 1 s).
    let resolution = match config.number(&["limits", "time_resolution"])? {
        Some(r) if r.is_finite() && (1e-3..=60.0).contains(&r) => r,
        Some(r) => {
            return Err(format!(
                "{}: limits.time_resolution must be a number of seconds from 0.001 to 60, found {}",
                config.path.display(),
                super::problem::number_text(r)
            ))
        }
        None => 1.0,
    };
    let time = TimeLimit {
        given,
        source,
        multiplier,
        resolution,
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

/// The `timelimit` of DOMjudge's `domjudge-problem.ini` (`timelimit = '5'`), if there is one.
fn domjudge_ini(root: &Path) -> Result<Option<std::time::Duration>, String> {
    let path = root.join("domjudge-problem.ini");
    if !path.is_file() {
        return Ok(None);
    }
    let text = files::text(&path)?;
    for (n, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() != "timelimit" {
            continue;
        }
        let value = value.trim().trim_matches(|c| c == '\'' || c == '"');
        let seconds = value.parse::<f64>().map_err(|_| {
            format!(
                "{}:{}: timelimit {value:?} is not a number of seconds",
                path.display(),
                n + 1
            )
        })?;
        return super::problem::time_limit(seconds, &path, "timelimit").map(Some);
    }
    Ok(None)
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

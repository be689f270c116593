//! `submissions/submissions.yaml` (the 2023-07 draft's and 2025-09's expectations): each key a
//! glob of submissions (`accepted`, `wa/odd.py`, `ac.{py,cpp}`), each value the promises of the
//! submissions it matches: `permitted` (every case's verdict is one of these), `required` (some
//! case's verdict is one of these), `score` (a number or an inclusive range, for scoring
//! problems), `message` (a text some case's validator message holds); each also under a key
//! that is a glob of test groups and cases (`secret/group1`, `secret/*-hard`), applying to the
//! cases it matches (a group's score, for `score`).
//!
//! As BAPCtools reads it: a glob's `*` matches within one name (never `/`), `{a,b}` is either
//! (the parts trimmed), a trailing `/` is dropped, and a glob matches a path when it matches the
//! path or one of its parent folders. The format's default folders keep their promises
//! (`accepted: {permitted: [AC]}`, ...); a key that names one of them exactly replaces the keys
//! it gives of that default; every other matching key adds its promises. The verdicts are the
//! format's four: a wrong answer (testlib's presentation error and an output past the limit
//! included), a time limit, a run-time error (a run past the memory limit included), and
//! accepted. A case not judged (its group stopped before it) could have given any verdict: it
//! breaks no `permitted`, and a `required` or `message` with such a case in its range holds.
//!
//! `entrypoint` names the main file of a folder. `use_for_time_limit` and `language` are named
//! in a warning and not read; `authors` and `model_solution` are read as what they are (they
//! change no verdict).

use std::path::Path;

use yaml_rust2::Yaml;

use crate::verdict::Verdict;

/// The most alternatives one glob's braces may expand to.
const MAX_ALTERNATIVES: usize = 4096;

/// One of the format's four verdicts of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Ac,
    Wa,
    Tle,
    Rte,
}

impl Class {
    const ALL: [Class; 4] = [Class::Ac, Class::Wa, Class::Tle, Class::Rte];

    fn bit(self) -> u8 {
        match self {
            Class::Ac => 1,
            Class::Wa => 2,
            Class::Tle => 4,
            Class::Rte => 8,
        }
    }

    /// `AC`, `WA`, `TLE`, `RTE`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Class::Ac => "AC",
            Class::Wa => "WA",
            Class::Tle => "TLE",
            Class::Rte => "RTE",
        }
    }

    /// The format's verdict of a case the judge gave `v`; `None` for a judge error (and the
    /// verdicts of our suites alone), which keeps no promise.
    #[must_use]
    pub fn of(v: Verdict) -> Option<Class> {
        match v {
            Verdict::Accepted => Some(Class::Ac),
            Verdict::WrongAnswer | Verdict::PresentationError | Verdict::OutputLimit => {
                Some(Class::Wa)
            }
            Verdict::TimeLimit => Some(Class::Tle),
            Verdict::RuntimeError | Verdict::MemoryLimit => Some(Class::Rte),
            Verdict::NoAnswer | Verdict::JudgeError => None,
        }
    }
}

/// A set of [`Class`]es.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdicts(u8);

impl Verdicts {
    pub const ALL: Verdicts = Verdicts(15);
    pub const NONE: Verdicts = Verdicts(0);

    /// This set with `c`.
    #[must_use]
    pub fn with(self, c: Class) -> Verdicts {
        Verdicts(self.0 | c.bit())
    }

    #[must_use]
    pub fn of(classes: &[Class]) -> Verdicts {
        Verdicts(classes.iter().fold(0, |s, c| s | c.bit()))
    }

    #[must_use]
    pub fn contains(self, c: Class) -> bool {
        self.0 & c.bit() != 0
    }

    #[must_use]
    pub fn and(self, other: Verdicts) -> Verdicts {
        Verdicts(self.0 & other.0)
    }

    /// `AC,WA`, in the format's order.
    #[must_use]
    pub fn names(self) -> String {
        Class::ALL
            .iter()
            .filter(|c| self.contains(**c))
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A glob of the format: `*` within a name, `{a,b}` either; matches a path or a parent of it.
#[derive(Clone, Debug)]
pub struct Glob {
    pub text: String,
    /// Each brace choice made: patterns with `*` alone.
    alternatives: Vec<String>,
}

impl Glob {
    /// Reads `raw`.
    ///
    /// # Errors
    /// Unbalanced braces, nested braces, or more than [`MAX_ALTERNATIVES`] choices.
    pub fn parse(raw: &str) -> Result<Glob, String> {
        let trimmed = raw.strip_suffix('/').unwrap_or(raw);
        let mut alternatives = vec![String::new()];
        let mut rest = trimmed;
        while let Some(open) = rest.find(['{', '}']) {
            if rest.as_bytes()[open] == b'}' {
                return Err(format!("glob {raw:?}: a '}}' without its '{{'"));
            }
            let head = &rest[..open];
            let after = &rest[open + 1..];
            let close = after
                .find(['{', '}'])
                .filter(|&i| after.as_bytes()[i] == b'}')
                .ok_or_else(|| {
                    format!("glob {raw:?}: a '{{' without its '}}', or braces nested")
                })?;
            let choices: Vec<&str> = after[..close].split(',').map(str::trim).collect();
            if alternatives.len().saturating_mul(choices.len()) > MAX_ALTERNATIVES {
                return Err(format!(
                    "glob {raw:?}: its braces make more than {MAX_ALTERNATIVES} patterns"
                ));
            }
            alternatives = alternatives
                .iter()
                .flat_map(|a| choices.iter().map(move |c| format!("{a}{head}{c}")))
                .collect();
            rest = &after[close + 1..];
        }
        for a in &mut alternatives {
            a.push_str(rest);
        }
        Ok(Glob {
            text: raw.to_string(),
            alternatives,
        })
    }

    /// Whether the glob matches `path` itself.
    #[must_use]
    pub fn matches_exactly(&self, path: &str) -> bool {
        self.alternatives.iter().any(|a| wildcard(a, path))
    }

    /// Whether the glob matches `path` or one of its parent folders.
    #[must_use]
    pub fn matches(&self, path: &str) -> bool {
        path.match_indices('/')
            .map(|(i, _)| &path[..i])
            .chain([path])
            .any(|p| self.matches_exactly(p))
    }
}

/// Whether `pattern` (with `*` for any run of characters other than `/`) matches all of `text`.
fn wildcard(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    // The classic greedy matcher with one backtrack point: linear in practice, quadratic at
    // worst, never exponential.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i] == t[j] {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star.filter(|&(_, sj)| t[sj] != b'/') {
            star = Some((si, sj + 1));
            i = si + 1;
            j = sj + 1;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

/// One set of promises: of every case, or of the cases (and groups) a glob matches.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Where it is written: `wa/odd.py`, `wa/odd.py: secret/*1`.
    pub source: String,
    /// The cases it applies to (`None`: all).
    pub cases: Option<Glob>,
    pub permitted: Verdicts,
    pub required: Verdicts,
    /// The score, or its inclusive range (scoring problems).
    pub score: Option<(f64, f64)>,
    pub message: Option<String>,
}

/// The promises of the format's default folders: (permitted, required).
#[must_use]
pub fn default_of(folder: &str) -> Option<(Verdicts, Verdicts)> {
    use Class::{Ac, Rte, Tle, Wa};
    let v = Verdicts::of;
    Some(match folder {
        "accepted" => (v(&[Ac]), Verdicts::ALL),
        "rejected" => (Verdicts::ALL, v(&[Rte, Tle, Wa])),
        "wrong_answer" => (v(&[Ac, Wa]), v(&[Wa])),
        "time_limit_exceeded" => (v(&[Ac, Tle]), v(&[Tle])),
        "run_time_error" => (v(&[Ac, Rte]), v(&[Rte])),
        "brute_force" => (v(&[Ac, Rte, Tle]), v(&[Rte, Tle])),
        _ => return None,
    })
}

/// One top-level key of the file.
struct Entry {
    glob: Glob,
    /// Its promises: those of every case first (the keys given directly), then one per glob
    /// of cases.
    rules: Vec<Rule>,
    /// Which of `permitted` and `required` its case-wide promises give.
    gives: (bool, bool),
    /// The main file of the folders it matches (`entrypoint`).
    entrypoint: Option<String>,
}

/// The file, read.
pub struct File {
    entries: Vec<Entry>,
    path: std::path::PathBuf,
}

/// What the globs of cases are checked against: the package's cases and groups, and whether
/// it is a scoring problem.
#[derive(Clone, Copy)]
pub struct Tests<'a> {
    /// The cases' names (`secret/group1/03`).
    pub cases: &'a [&'a str],
    /// The groups' names (`secret/group1`).
    pub groups: &'a [&'a str],
    pub scoring: bool,
}

/// What a submission promises by the file.
pub struct Promises {
    /// Some key matches it.
    pub matched: bool,
    /// The folder's default replaced by a key naming the folder exactly.
    pub replaced: bool,
    pub rules: Vec<Rule>,
    /// Its main file, if a key names one (the first in name order, if several do, as
    /// BAPCtools picks it).
    pub entrypoint: Option<String>,
}

/// The keys a set of promises may hold, besides globs of cases.
const KEYS: [&str; 9] = [
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
    "language",
    "entrypoint",
    "authors",
    "model_solution",
];

impl File {
    /// Reads `submissions/submissions.yaml` of the package in `root`, if it is there, its globs
    /// of cases checked against the package's `cases` and `groups`; what it holds that is not
    /// read, or matches nothing, is named in `warnings`.
    ///
    /// # Errors
    /// Not YAML, a value of the wrong kind, a verdict other than `AC`, `WA`, `TLE`, `RTE`, a
    /// glob that cannot be read.
    pub fn read(
        root: &Path,
        problem: Tests<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<Option<File>, String> {
        let path = root.join("submissions/submissions.yaml");
        let Some(doc) = super::yaml::Doc::optional(&path)? else {
            return Ok(None);
        };
        let at = path.display().to_string();
        let Yaml::Hash(top) = &doc.root else {
            return Ok(Some(File {
                entries: Vec::new(),
                path,
            }));
        };
        let mut entries = Vec::new();
        for (key, value) in top {
            let Some(name) = key.as_str() else {
                return Err(format!("{at}: a key that is not text: {key:?}"));
            };
            let glob = Glob::parse(name).map_err(|e| format!("{at}: {e}"))?;
            let Yaml::Hash(map) = value else {
                if value.is_null() {
                    continue;
                }
                return Err(format!("{at}: {name} must be a mapping of keys"));
            };
            let mut rules = Vec::new();
            let root_rule = rule(&at, name, None, map, problem, warnings)?;
            let gives = (
                map.contains_key(&Yaml::from_str("permitted")),
                map.contains_key(&Yaml::from_str("required")),
            );
            // A key of metadata alone (`entrypoint`, `authors`) promises nothing.
            let promises_nothing = root_rule.permitted == Verdicts::ALL
                && root_rule.required == Verdicts::ALL
                && root_rule.score.is_none()
                && root_rule.message.is_none();
            if !promises_nothing {
                rules.push(root_rule);
            }
            let entrypoint = match map.get(&Yaml::from_str("entrypoint")) {
                None | Some(Yaml::Null) => None,
                Some(Yaml::String(e)) => Some(e.clone()),
                Some(_) => return Err(format!("{at}: {name}: entrypoint must be text")),
            };
            for (k, v) in map {
                let Some(k) = k.as_str() else {
                    return Err(format!("{at}: {name}: a key that is not text: {k:?}"));
                };
                if KEYS.contains(&k) {
                    continue;
                }
                let cases = Glob::parse(k).map_err(|e| format!("{at}: {name}: {e}"))?;
                let matched = problem.cases.iter().any(|c| cases.matches(c))
                    || problem.groups.iter().any(|g| cases.matches_exactly(g));
                if !matched {
                    warnings.push(format!(
                        "{at}: {name}: {k} is neither a promise this file can hold nor a glob \
                         matching a test case or group; not read"
                    ));
                    continue;
                }
                let Yaml::Hash(inner) = v else {
                    return Err(format!("{at}: {name}: {k} must be a mapping of keys"));
                };
                rules.push(rule(&at, name, Some(cases), inner, problem, warnings)?);
            }
            entries.push(Entry {
                glob,
                rules,
                gives,
                entrypoint,
            });
        }
        Ok(Some(File { entries, path }))
    }

    /// Names in `warnings` each key that matches none of the submissions named `names`.
    pub fn unmatched(&self, names: &[&str], warnings: &mut Vec<String>) {
        for e in &self.entries {
            if !names.iter().any(|n| e.glob.matches(n)) {
                warnings.push(format!(
                    "{}: {} matches no submission",
                    self.path.display(),
                    e.glob.text
                ));
            }
        }
    }

    /// Whether some key matches the submission named `name` (`accepted/sol.py`).
    #[must_use]
    pub fn covers(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.glob.matches(name))
    }

    /// The promises of the submission named `name` (`folder/...`): the folder's default (when
    /// `folder` is one of the format's), with the keys a key naming the folder exactly gives in
    /// its place, then every other key that matches.
    #[must_use]
    pub fn promises(&self, folder: &str, name: &str) -> Promises {
        let mut rules = Vec::new();
        let mut replaced = false;
        let mut entrypoint: Option<String> = None;
        let mut matched = false;
        for e in self.entries.iter().filter(|e| e.glob.matches(name)) {
            matched = true;
            if let Some(entry) = &e.entrypoint {
                if entrypoint.as_ref().is_none_or(|had| entry < had) {
                    entrypoint = Some(entry.clone());
                }
            }
            let exact = e.glob.alternatives.len() == 1
                && e.glob.alternatives[0] == folder
                && default_of(folder).is_some();
            let mut mine = e.rules.clone();
            if exact {
                // The default's keys not given stay.
                let (permitted, required) =
                    default_of(folder).unwrap_or((Verdicts::ALL, Verdicts::ALL));
                if let Some(r) = mine.first_mut() {
                    if !e.gives.0 {
                        r.permitted = permitted;
                    }
                    if !e.gives.1 {
                        r.required = required;
                    }
                }
                replaced = true;
            }
            rules.extend(mine);
        }
        Promises {
            matched,
            replaced,
            rules,
            entrypoint,
        }
    }
}

/// One set of promises from the mapping `map`, at `name` (and the glob of cases `cases`).
fn rule(
    at: &str,
    name: &str,
    cases: Option<Glob>,
    map: &yaml_rust2::yaml::Hash,
    problem: Tests<'_>,
    warnings: &mut Vec<String>,
) -> Result<Rule, String> {
    let source = match &cases {
        None => name.to_string(),
        Some(c) => format!("{name}: {}", c.text),
    };
    let get = |k: &str| map.get(&Yaml::from_str(k)).filter(|v| !v.is_null());
    let verdicts = |k: &str| -> Result<Option<Verdicts>, String> {
        let Some(v) = get(k) else { return Ok(None) };
        let items: Vec<&Yaml> = match v {
            Yaml::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        let mut set = Verdicts(0);
        for item in items {
            let class = match item.as_str() {
                Some("AC") => Class::Ac,
                Some("WA") => Class::Wa,
                Some("TLE") => Class::Tle,
                Some("RTE") => Class::Rte,
                _ => {
                    let said = match item {
                        Yaml::String(t) | Yaml::Real(t) => t.clone(),
                        Yaml::Integer(i) => i.to_string(),
                        Yaml::Boolean(b) => b.to_string(),
                        _ => "a list or mapping".to_string(),
                    };
                    return Err(format!(
                        "{at}: {source}: {k} holds {said}, not one of AC, WA, TLE, RTE"
                    ));
                }
            };
            set = Verdicts(set.0 | class.bit());
        }
        Ok(Some(set))
    };
    let permitted = verdicts("permitted")?.unwrap_or(Verdicts::ALL);
    let required = verdicts("required")?.unwrap_or(Verdicts::ALL);
    if required.and(permitted) == Verdicts(0) {
        warnings.push(format!(
            "{at}: {source}: no verdict is both permitted ({}) and required ({})",
            permitted.names(),
            required.names()
        ));
    }
    let number = |y: &Yaml| match y {
        Yaml::Integer(i) => Some(*i as f64),
        Yaml::Real(s) => s.parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    };
    let score = match get("score") {
        None => None,
        Some(Yaml::Array(pair)) if pair.len() == 2 => match (number(&pair[0]), number(&pair[1])) {
            (Some(lo), Some(hi)) if lo <= hi => Some((lo, hi)),
            _ => {
                return Err(format!(
                    "{at}: {source}: score must be a number or a list of two numbers, low then high"
                ))
            }
        },
        Some(y) => match number(y) {
            Some(s) => Some((s, s)),
            None => {
                return Err(format!(
                    "{at}: {source}: score must be a number or a list of two numbers, low then high"
                ))
            }
        },
    };
    let score = score.filter(|_| {
        if !problem.scoring {
            warnings.push(format!(
                "{at}: {source}: score is for scoring problems; not checked"
            ));
        }
        problem.scoring
    });
    let message = match get("message") {
        None => None,
        Some(Yaml::String(s)) => Some(s.clone()),
        Some(_) => return Err(format!("{at}: {source}: message must be text")),
    };
    for key in ["use_for_time_limit", "language"] {
        if get(key).is_some() {
            warnings.push(format!(
                "{at}: {source}: {key} is not read ({})",
                match key {
                    "use_for_time_limit" =>
                        "the time limit is computed from the submissions that promise AC alone",
                    _ => "the language is found from the files' names",
                }
            ));
        }
    }
    if cases.is_some() {
        for key in ["language", "entrypoint", "authors", "model_solution"] {
            if get(key).is_some() {
                warnings.push(format!(
                    "{at}: {source}: {key} belongs to a submission, not to test cases; not read"
                ));
            }
        }
    }
    Ok(Rule {
        source,
        cases,
        permitted,
        required,
        score,
        message,
    })
}

/// The verdicts every promise of `rules` that applies to all cases permits (the table's
/// `expected` column), and whether some promise applies to a part of the cases only.
#[must_use]
pub fn summary(rules: &[Rule]) -> (Verdicts, bool) {
    let all = rules
        .iter()
        .filter(|r| r.cases.is_none())
        .fold(Verdicts::ALL, |s, r| s.and(r.permitted));
    (all, rules.iter().any(|r| r.cases.is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_names_and_their_parents() {
        let g = Glob::parse("wa/ac*").unwrap();
        assert!(g.matches("wa/ac.py"));
        assert!(!g.matches("wa/wa.py"));
        assert!(!g.matches("xwa/ac.py"));
        let g = Glob::parse("accepted/").unwrap();
        assert!(g.matches("accepted/sol.py"));
        assert!(!g.matches("accepted_not/sol.py"));
        let g = Glob::parse("*/nested_wa.py").unwrap();
        assert!(
            !g.matches("match/nested/nested_wa.py"),
            "* does not match /"
        );
        assert!(g.matches("match/nested_wa.py"));
        let g = Glob::parse("ac.{py, cpp}").unwrap();
        assert!(g.matches("ac.py") && g.matches("ac.cpp") && !g.matches("ac.c"));
        let g = Glob::parse("secret/*{,0,1}{0,2}").unwrap();
        assert!(g.matches("secret/10") && g.matches("secret/2") && !g.matches("secret/13"));
        assert!(Glob::parse("a{b").is_err());
        assert!(Glob::parse("a}b").is_err());
        assert!(Glob::parse("a{{b}}").is_err());
        let bomb = "{a,b,c,d,e,f,g,h}".repeat(5);
        assert!(Glob::parse(&bomb).unwrap_err().contains("more than 4096"));
    }

    #[test]
    fn wildcards_never_cross_a_slash() {
        assert!(wildcard("*", "abc"));
        assert!(!wildcard("*", "a/c"));
        assert!(wildcard("a*c*e", "abcde"));
        assert!(!wildcard("a*c", "a/c"));
        assert!(wildcard("*-easy", "x-easy"));
        assert!(!wildcard("*-easy", "x-easyy"));
        assert!(wildcard("", ""));
    }
}

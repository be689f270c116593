//! Submissions of a package and the verdicts they promise: ICPC's folders under `submissions/`,
//! Polygon's solution tags.

use std::path::{Path, PathBuf};

use crate::verdict::Verdict;

use super::expectations::{self, Class, Rule, Verdicts};

/// One submission: a source file or a folder of sources.
#[derive(Debug, Clone)]
pub struct Submission {
    /// Its path below `submissions/` (ICPC) or the package (Polygon): `accepted/sol.py`.
    pub name: String,
    pub path: PathBuf,
    /// Its folder's (or tag's) promise, or [`Expected::Listed`].
    pub expected: Expected,
    /// The promises `submissions/submissions.yaml` adds (ICPC), each to keep as well.
    pub rules: Vec<Rule>,
    /// The main file of a folder, as `submissions.yaml`'s `entrypoint` names it.
    pub entrypoint: Option<String>,
}

impl Submission {
    /// What it promises, for the table: its folder's promise (`AC`, `WA`, ...), or the verdicts
    /// that `submissions.yaml` permits on every case (`AC,WA`, or `any`); with `+` when
    /// `submissions.yaml` adds promises to its folder's, or promises of a part of the cases.
    #[must_use]
    pub fn promise(&self) -> String {
        let (all, partial) = expectations::summary(&self.rules);
        match self.expected {
            Expected::Listed => {
                let all = if all == Verdicts::ALL {
                    "any".to_string()
                } else {
                    all.names()
                };
                format!("{all}{}", if partial { "+" } else { "" })
            }
            e if self.rules.is_empty() => e.name().to_string(),
            e => format!("{}+", e.name()),
        }
    }

    /// Whether it promises to be accepted on every case: its folder says so, or
    /// `submissions.yaml` permits nothing else (the submissions a computed time limit comes
    /// from).
    #[must_use]
    pub fn accepted(&self) -> bool {
        match self.expected {
            Expected::Accepted => true,
            Expected::Listed => expectations::summary(&self.rules).0 == Verdicts::of(&[Class::Ac]),
            _ => false,
        }
    }

    /// Whether it promises a time limit: its folder says so, or `submissions.yaml` requires a
    /// time limit of some case and permits nothing but it and AC.
    #[must_use]
    pub fn time_limited(&self) -> bool {
        match self.expected {
            Expected::TimeLimit => true,
            Expected::Listed => {
                let tle = Verdicts::of(&[Class::Tle]);
                let root = || self.rules.iter().filter(|r| r.cases.is_none());
                root().any(|r| r.required == tle)
                    && expectations::summary(&self.rules).0
                        == Verdicts::of(&[Class::Ac, Class::Tle])
            }
            _ => false,
        }
    }
}

/// What a submission promises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// Every case accepted (ICPC `accepted`, Polygon `main` and `accepted`).
    Accepted,
    /// The first failing case is a wrong answer (Polygon's presentation error counts as one).
    WrongAnswer,
    TimeLimit,
    /// A run-time error, or a run past the memory limit (which problemtools reports as one).
    RunTimeError,
    /// Memory limit, or a run-time error (the way a capped allocation usually ends).
    MemoryLimit,
    /// Scoring problems: some cases accepted and some not.
    PartiallyAccepted,
    /// Any verdict but accepted (2023-07 `rejected`, Polygon `rejected`).
    Rejected,
    /// Not accepted, and every failure a time limit or a run-time error (2023-07 `brute_force`).
    BruteForce,
    /// Polygon's `time-limit-exceeded-or-accepted`.
    TimeLimitOrAccepted,
    /// Polygon's `time-limit-exceeded-or-memory-limit-exceeded`.
    TimeOrMemoryLimit,
    /// As `submissions/submissions.yaml` says, in place of its folder ([`Submission::rules`]).
    Listed,
}

impl Expected {
    /// The promise of an ICPC folder under `submissions/`.
    #[must_use]
    pub fn from_folder(name: &str) -> Option<Expected> {
        Some(match name {
            "accepted" => Expected::Accepted,
            "wrong_answer" => Expected::WrongAnswer,
            "time_limit_exceeded" => Expected::TimeLimit,
            "run_time_error" => Expected::RunTimeError,
            "memory_limit_exceeded" => Expected::MemoryLimit,
            "partially_accepted" => Expected::PartiallyAccepted,
            "rejected" => Expected::Rejected,
            "brute_force" => Expected::BruteForce,
            _ => return None,
        })
    }

    /// The promise of a Polygon solution tag.
    #[must_use]
    pub fn from_polygon_tag(tag: &str) -> Option<Expected> {
        Some(match tag {
            "main" | "accepted" => Expected::Accepted,
            "wrong-answer" | "presentation-error" => Expected::WrongAnswer,
            "time-limit-exceeded" => Expected::TimeLimit,
            "memory-limit-exceeded" => Expected::MemoryLimit,
            "failed" => Expected::RunTimeError,
            "rejected" => Expected::Rejected,
            "time-limit-exceeded-or-accepted" => Expected::TimeLimitOrAccepted,
            "time-limit-exceeded-or-memory-limit-exceeded" => Expected::TimeOrMemoryLimit,
            _ => return None,
        })
    }

    /// Short name for the table.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Expected::Accepted => "AC",
            Expected::WrongAnswer => "WA",
            Expected::TimeLimit => "TLE",
            Expected::RunTimeError => "RE",
            Expected::MemoryLimit => "MLE",
            Expected::PartiallyAccepted => "partial",
            Expected::Rejected => "rejected",
            Expected::BruteForce => "brute force",
            Expected::TimeLimitOrAccepted => "TLE or AC",
            Expected::TimeOrMemoryLimit => "TLE or MLE",
            Expected::Listed => "listed",
        }
    }

    /// Whether a submission graded `verdict` (the verdict of the package's top group), whose
    /// judged cases got `verdicts` (in case order; `score` its score and the most it could be,
    /// for scoring problems), keeps this promise. A judge error keeps none.
    #[must_use]
    pub fn kept(self, verdict: Verdict, verdicts: &[Verdict], score: Option<(f64, f64)>) -> bool {
        if verdict == Verdict::JudgeError {
            return false;
        }
        let first = (verdict != Verdict::Accepted).then_some(verdict);
        let failures = || verdicts.iter().filter(|v| **v != Verdict::Accepted);
        match self {
            Expected::Accepted => first.is_none() && score.is_none_or(|(got, max)| got >= max),
            Expected::WrongAnswer => first.is_some_and(is_wrong_answer),
            Expected::TimeLimit => first == Some(Verdict::TimeLimit),
            // problemtools reports a run past the memory limit as a run-time error.
            Expected::RunTimeError => {
                matches!(first, Some(Verdict::RuntimeError | Verdict::MemoryLimit))
            }
            Expected::MemoryLimit => {
                matches!(first, Some(Verdict::MemoryLimit | Verdict::RuntimeError))
            }
            Expected::PartiallyAccepted => match score {
                Some((got, max)) => got > 0.0 && got < max,
                None => failures().next().is_some() && verdicts.contains(&Verdict::Accepted),
            },
            Expected::Rejected => first.is_some(),
            Expected::BruteForce => {
                failures().next().is_some()
                    && failures().all(|v| matches!(v, Verdict::TimeLimit | Verdict::RuntimeError))
            }
            Expected::TimeLimitOrAccepted => first.is_none_or(|v| v == Verdict::TimeLimit),
            Expected::TimeOrMemoryLimit => {
                matches!(first, Some(Verdict::TimeLimit | Verdict::MemoryLimit))
            }
            // The rules decide.
            Expected::Listed => true,
        }
    }
}

/// Wrong answers as the formats count them: a testlib presentation error and an output past the
/// limit are wrong answers too.
fn is_wrong_answer(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::WrongAnswer | Verdict::PresentationError | Verdict::OutputLimit
    )
}

/// The submissions under an ICPC package's `submissions/`: each file or folder inside a verdict
/// folder the format knows, or that a key of `submissions.yaml` (`listed`) matches, with the
/// promises `listed` makes of it; other folders are named in `warnings`.
///
/// # Errors
/// A folder cannot be read.
pub fn icpc(
    root: &Path,
    listed: Option<&expectations::File>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Submission>, String> {
    let dir = root.join("submissions");
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for folder in super::files::entries(&dir, true)? {
        let known = Expected::from_folder(&folder);
        let inner = dir.join(&folder);
        let mut names = super::files::entries(&inner, false)?;
        names.extend(super::files::entries(&inner, true)?);
        names.sort();
        let covered = |name: &str| listed.is_some_and(|l| l.covers(&format!("{folder}/{name}")));
        if known.is_none() && !names.iter().any(|n| covered(n)) {
            warnings.push(format!(
                "{}: not a verdict folder the format knows{}; its submissions are not judged",
                dir.join(&folder).display(),
                if listed.is_some() {
                    ", nor matched by submissions.yaml"
                } else {
                    ""
                }
            ));
            continue;
        }
        for name in names {
            let path = inner.join(&name);
            super::files::inside(&path, root)?;
            if path.is_file() && crate::source::Language::of(&path).is_none() {
                warnings.push(format!(
                    "{}: not a source file of a known language; not judged",
                    path.display()
                ));
                continue;
            }
            let full = format!("{folder}/{name}");
            let promises = listed.map(|l| l.promises(&folder, &full));
            let entrypoint = promises.as_ref().and_then(|p| p.entrypoint.clone());
            let (expected, rules) = match (known, promises) {
                (Some(e), None) => (e, Vec::new()),
                (Some(e), Some(p)) if !p.replaced => (e, p.rules),
                (_, Some(p)) if p.matched => (Expected::Listed, p.rules),
                _ => {
                    warnings.push(format!(
                        "{}: in a folder the format does not know, and matched by no key of \
                         submissions.yaml; not judged",
                        path.display()
                    ));
                    continue;
                }
            };
            found.push(Submission {
                name: full,
                path,
                expected,
                rules,
                entrypoint,
            });
        }
    }
    Ok(found)
}

//! Whether a submission kept the promises of `submissions/submissions.yaml`
//! ([`super::expectations`]), from its graded cases and groups.

use crate::verdict::{CaseResult, Verdict};

use super::expectations::{Class, Rule, Verdicts};
use super::grading::Grades;
use super::problem::Problem;

/// The first promise of `rules` that the submission, graded `grades` on `problem`, breaks:
/// what it promised and what it got.
#[must_use]
pub fn broken(rules: &[Rule], problem: &Problem, grades: &Grades) -> Option<String> {
    rules.iter().find_map(|r| broken_rule(r, problem, grades))
}

fn broken_rule(rule: &Rule, problem: &Problem, grades: &Grades) -> Option<String> {
    let in_range = |label: &str| rule.cases.as_ref().is_none_or(|g| g.matches(label));
    let mine: Vec<Option<&CaseResult>> = problem
        .cases
        .iter()
        .zip(&grades.cases)
        .filter(|(c, _)| in_range(&c.label))
        .map(|(_, r)| r.as_ref())
        .collect();
    let range = match &rule.cases {
        None => String::new(),
        Some(g) => format!(" of {}", g.text),
    };
    for r in mine.iter().flatten() {
        match Class::of(r.verdict) {
            None => return Some(format!("{} on {}", r.verdict.name(), r.name)),
            Some(c) if !rule.permitted.contains(c) => {
                return Some(format!(
                    "{} on {}, which `{}` does not permit (permitted: {})",
                    c.name(),
                    r.name,
                    rule.source,
                    rule.permitted.names()
                ))
            }
            Some(_) => {}
        }
    }
    let unjudged = mine.iter().any(Option::is_none);
    let got = || {
        let mut seen = Verdicts::NONE;
        for r in mine.iter().flatten() {
            if let Some(c) = Class::of(r.verdict) {
                seen = seen.with(c);
            }
        }
        seen.names()
    };
    let has_required = mine
        .iter()
        .flatten()
        .any(|r| Class::of(r.verdict).is_some_and(|c| rule.required.contains(c)));
    if !unjudged && !has_required {
        return Some(format!(
            "no case{range} got one of {} (required by `{}`); got {}",
            rule.required.names(),
            rule.source,
            if mine.is_empty() {
                "no case".to_string()
            } else {
                got()
            }
        ));
    }
    if let Some(m) = &rule.message {
        let said = mine.iter().flatten().any(|r| {
            r.message.as_deref().is_some_and(|t| t.contains(m.as_str()))
                || (r.verdict != Verdict::Accepted
                    && r.detail.as_deref().is_some_and(|t| t.contains(m.as_str())))
        });
        if !unjudged && !said {
            return Some(format!(
                "no validator message{range} holds {m:?} (required by `{}`)",
                rule.source
            ));
        }
    }
    broken_score(rule, problem, grades)
}

/// The score promised by `rule` (of the submission, or of the groups its glob names) that the
/// grades do not keep.
fn broken_score(rule: &Rule, problem: &Problem, grades: &Grades) -> Option<String> {
    let (lo, hi) = rule.score?;
    let within = |s: f64| s >= lo - 1e-9 * lo.abs().max(1.0) && s <= hi + 1e-9 * hi.abs().max(1.0);
    let wanted = if lo == hi {
        format!("{lo}")
    } else {
        format!("from {lo} to {hi}")
    };
    match &rule.cases {
        None => (!within(grades.total.score)).then(|| {
            format!(
                "score {}, where `{}` promises {wanted}",
                grades.total.score, rule.source
            )
        }),
        Some(glob) => problem
            .groups
            .iter()
            .zip(&grades.groups)
            .filter(|(g, _)| glob.matches_exactly(&g.name))
            .find_map(|(g, graded)| {
                let s = graded.as_ref()?.score;
                (!within(s)).then(|| {
                    format!(
                        "score {s} on {}, where `{}` promises {wanted}",
                        g.name, rule.source
                    )
                })
            }),
    }
}

//! Polygon packages (Codeforces): `problem.xml` gives the time and memory limits, the tests
//! (`tests/NN` with answers `tests/NN.a`, from the testset's path patterns), their groups, the
//! checker (a testlib checker compiled against the package's own `testlib.h`, or one of
//! testlib's standard checkers by name) and the interactor, and the solutions with their tags.

use std::path::{Path, PathBuf};

use crate::suite::InteractorCodes;

use super::files;
use super::problem::{Built, Case, Comparison, Group, Problem, TimeLimit};
use super::submission::{Expected, Submission};

/// Reads the package in `root`.
///
/// # Errors
/// `problem.xml` is not XML or lacks what is needed; a test or answer is missing; the checker
/// does not build; a path leads out of the package.
pub fn read(root: &Path) -> Result<Problem, String> {
    let path = root.join("problem.xml");
    let text = files::text(&path)?;
    let doc = roxmltree::Document::parse(&text)
        .map_err(|e| format!("{}: not XML: {e}", path.display()))?;
    let at = |what: &str| format!("{}: {what}", path.display());
    let problem = doc.root_element();
    let testset = problem
        .descendants()
        .find(|n| n.has_tag_name("testset") && n.attribute("name") == Some("tests"))
        .or_else(|| problem.descendants().find(|n| n.has_tag_name("testset")))
        .ok_or_else(|| at("no <testset>"))?;
    let child_text = |name: &str| {
        testset
            .children()
            .find(|n| n.has_tag_name(name))
            .and_then(|n| n.text())
            .map(str::trim)
    };
    let number = |name: &str| -> Result<f64, String> {
        let t = child_text(name).ok_or_else(|| at(&format!("no <{name}> in the testset")))?;
        t.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| at(&format!("<{name}> must be a positive number, found {t:?}")))
    };
    // Milliseconds and bytes, checked for range: 1e22 ms would overflow a clock.
    let time = super::problem::time_limit_ms(number("time-limit")?, &path, "<time-limit>")?;
    let memory = super::problem::memory_limit(number("memory-limit")?, &path, "<memory-limit>")?;
    let input_pattern = child_text("input-path-pattern").unwrap_or("tests/%02d");
    let answer_pattern = child_text("answer-path-pattern").unwrap_or("tests/%02d.a");
    let tests: Vec<roxmltree::Node> = testset
        .descendants()
        .filter(|n| n.has_tag_name("test"))
        .collect();
    if tests.is_empty() {
        return Err(at("no <test> in the testset"));
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut cases = Vec::new();
    for (i, test) in tests.iter().enumerate() {
        let n = i + 1;
        let group_name = match (test.attribute("group"), test.attribute("sample")) {
            (Some(g), _) => format!("group {g}"),
            (None, Some("true")) => "samples".to_string(),
            (None, _) => "tests".to_string(),
        };
        let group = match groups.iter().position(|g| g.name == group_name) {
            Some(g) => g,
            None => {
                groups.push(Group {
                    name: group_name,
                    accept_score: 1.0,
                    scored: true,
                    ..Group::default()
                });
                groups.len() - 1
            }
        };
        let input = root.join(printf(input_pattern, n, &path)?);
        let answer = root.join(printf(answer_pattern, n, &path)?);
        for file in [&input, &answer] {
            if !file.exists() {
                return Err(format!(
                    "{}: missing (test {n} of problem.xml; a Polygon package with its tests \
                     generated holds every test and answer)",
                    file.display()
                ));
            }
            files::case_file(file, root)?;
        }
        cases.push(Case {
            label: format!("{n:02}"),
            group,
            input,
            answer,
            flags: Vec::new(),
            exit: None,
        });
    }
    let assets = problem.children().find(|n| n.has_tag_name("assets"));
    let (comparison, flags) = comparison(root, assets, &path)?;
    for case in &mut cases {
        case.flags.clone_from(&flags);
    }
    let submissions = solutions(root, assets, &path)?;
    let name = problem
        .attribute("short-name")
        .map(String::from)
        .unwrap_or_else(|| root.display().to_string());
    let top = super::problem::flat_tree(&mut groups, &cases);
    Ok(Problem {
        format: format!(
            "Polygon package{}",
            if matches!(comparison, Comparison::Interactor(..)) {
                ", interactive"
            } else {
                ""
            }
        ),
        name,
        root: root.to_path_buf(),
        groups,
        cases,
        comparison,
        time: TimeLimit {
            given: Some(time),
            source: "problem.xml",
            multiplier: 1.0,
            resolution: 1.0,
            margin: 1.0,
            timing: crate::run::Timing::Cpu,
        },
        memory: Some(memory),
        output: crate::verdict::OUTPUT_CAP,
        submissions,
        input_validators: Vec::new(),
        scoring: false,
        top,
        grader: None,
        address_space: false,
    })
}

/// `pattern` (`tests/%02d`) with `n` in place of its one `%d`, `%0Nd` or `%Nd`.
fn printf(pattern: &str, n: usize, path: &Path) -> Result<String, String> {
    let Some(start) = pattern.find('%') else {
        return Err(format!(
            "{}: path pattern {pattern:?} has no %d",
            path.display()
        ));
    };
    let rest = &pattern[start + 1..];
    let Some(d) = rest.find('d') else {
        return Err(format!(
            "{}: path pattern {pattern:?} has no %d",
            path.display()
        ));
    };
    let spec = &rest[..d];
    let width: usize = spec.trim_start_matches('0').parse().unwrap_or(0);
    let number = if spec.starts_with('0') {
        format!("{n:0width$}")
    } else {
        format!("{n:width$}")
    };
    Ok(format!("{}{number}{}", &pattern[..start], &rest[d + 1..]))
}

/// The checker or interactor: built from its `<source path>`, or a standard checker by name
/// (with the default validator's flags that stand for it).
fn comparison(
    root: &Path,
    assets: Option<roxmltree::Node>,
    path: &Path,
) -> Result<(Comparison, Vec<String>), String> {
    let source_of = |tag: &str| {
        assets
            .and_then(|a| a.children().find(|n| n.has_tag_name(tag)))
            .map(|n| {
                let src = n
                    .children()
                    .find(|c| c.has_tag_name("source"))
                    .and_then(|s| s.attribute("path"));
                (n, src)
            })
    };
    if let Some((_, source)) = source_of("interactor") {
        let source = source
            .ok_or_else(|| format!("{}: <interactor> has no <source path>", path.display()))?;
        let built = build(root, source)?;
        return Ok((
            Comparison::Interactor(built, InteractorCodes::Testlib),
            Vec::new(),
        ));
    }
    match source_of("checker") {
        Some((_, Some(source))) => Ok((Comparison::Testlib(build(root, source)?), Vec::new())),
        Some((checker, None)) => standard(checker.attribute("name").unwrap_or(""), path),
        None => Err(format!("{}: no <checker> in <assets>", path.display())),
    }
}

fn build(root: &Path, source: &str) -> Result<Built, String> {
    let path: PathBuf = root.join(source);
    if !path.exists() {
        return Err(format!(
            "{}: missing (named in problem.xml)",
            path.display()
        ));
    }
    super::icpc::build(&path, root)
}

/// A standard testlib checker named without its source, as the default validator with flags:
/// the token checkers case-sensitive, `rcmpN` with a tolerance of 1e-N (absolute or relative).
fn standard(name: &str, path: &Path) -> Result<(Comparison, Vec<String>), String> {
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let flags = match name.trim_start_matches("std::").trim_end_matches(".cpp") {
        "wcmp" | "ncmp" | "lcmp" | "fcmp" | "hcmp" | "icmp" | "uncmp" => words("case_sensitive"),
        "rcmp4" => words("float_tolerance 1e-4"),
        "rcmp6" | "dcmp" => words("float_tolerance 1e-6"),
        "rcmp9" => words("float_tolerance 1e-9"),
        other => {
            return Err(format!(
                "{}: the standard checker {other:?} comes without its source; the judge knows \
                 wcmp, ncmp, lcmp, fcmp, hcmp, icmp, uncmp, rcmp4, rcmp6, rcmp9 and dcmp by name \
                 (or put its source in files/ and name it in <checker><source path>)",
                path.display()
            ))
        }
    };
    Ok((Comparison::Default, flags))
}

/// The solutions and their tags.
fn solutions(
    root: &Path,
    assets: Option<roxmltree::Node>,
    path: &Path,
) -> Result<Vec<Submission>, String> {
    let Some(list) = assets.and_then(|a| a.children().find(|n| n.has_tag_name("solutions"))) else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for solution in list.children().filter(|n| n.has_tag_name("solution")) {
        let tag = solution.attribute("tag").unwrap_or("");
        let source = solution
            .children()
            .find(|n| n.has_tag_name("source"))
            .and_then(|s| s.attribute("path"))
            .ok_or_else(|| format!("{}: a <solution> without <source path>", path.display()))?;
        let expected = Expected::from_polygon_tag(tag).ok_or_else(|| {
            format!(
                "{}: unknown solution tag {tag:?} on {source}",
                path.display()
            )
        })?;
        let file = root.join(source);
        if !file.exists() {
            return Err(format!(
                "{}: missing (named in problem.xml)",
                file.display()
            ));
        }
        files::inside(&file, root)?;
        found.push(Submission {
            name: source.to_string(),
            path: file,
            expected,
            rules: Vec::new(),
            entrypoint: None,
        });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_patterns() {
        let p = Path::new("problem.xml");
        assert_eq!(printf("tests/%02d", 7, p).unwrap(), "tests/07");
        assert_eq!(printf("tests/%02d.a", 12, p).unwrap(), "tests/12.a");
        assert_eq!(printf("tests/%d", 3, p).unwrap(), "tests/3");
        assert!(printf("tests/x", 3, p).is_err());
    }
}

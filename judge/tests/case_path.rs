//! The path of a judged case that `docs/judge.md` ("How a case is judged") writes down: every
//! function its table names is defined in the module it names, and the counts it quotes are the
//! table's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One row of the table: the module, and the function's path (`module::Type::name`).
struct Step {
    module: String,
    function: String,
    climbs: bool,
}

/// The rows of the table under `## How a case is judged`.
fn steps(page: &str) -> Vec<Step> {
    let section = page
        .split("\n## How a case is judged\n")
        .nth(1)
        .expect("docs/judge.md has a section \"How a case is judged\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with("| ") && l.as_bytes().get(2).is_some_and(u8::is_ascii_digit))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = |c: &str| c.trim_matches('`').to_owned();
            Step {
                module: code(cells[2]),
                function: code(cells[3]),
                climbs: cells[4].contains("climb"),
            }
        })
        .collect()
}

/// The source files of `module`: `judge/src/MODULE.rs` (or `MODULE/`), or the whole crate
/// `judge-process`.
fn sources(root: &Path, module: &str) -> Vec<PathBuf> {
    let folder = if module == "judge-process" {
        root.join("judge-process/src")
    } else {
        let file = root.join(format!("judge/src/{module}.rs"));
        if file.is_file() {
            return vec![file];
        }
        root.join(format!("judge/src/{module}"))
    };
    let entries = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("no module {module} ({}: {e})", folder.display()));
    entries
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect()
}

#[test]
fn the_documented_path_of_a_case_matches_the_code() {
    let root = crate::util::workspace();
    let page = std::fs::read_to_string(root.join("docs/judge.md")).expect("docs/judge.md");
    let steps = steps(&page);
    assert!(steps.len() >= 10, "the table has {} rows", steps.len());
    for step in &steps {
        let name = step.function.rsplit("::").next().expect("a name");
        let defined = sources(&root, &step.module).iter().any(|file| {
            let text = std::fs::read_to_string(file).expect("a source file");
            text.contains(&format!("fn {name}(")) || text.contains(&format!("fn {name}<"))
        });
        assert!(
            defined,
            "docs/judge.md names {} in {}, which defines no fn {name}",
            step.function, step.module
        );
    }
    let modules: BTreeSet<&str> = steps.iter().map(|s| s.module.as_str()).collect();
    let climbs = steps.iter().filter(|s| s.climbs).count();
    let counts = format!(
        "{} stays in {} modules, {climbs} climbs back up",
        steps.len(),
        modules.len()
    );
    assert!(
        page.contains(&counts),
        "docs/judge.md should say {counts:?}"
    );
}

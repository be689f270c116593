//! Our suites (`NN.in`, `NN.out`, `NN.exit`, `suite.toml`) and plain folders of samples
//! (`NAME.in` with `NAME.out` or `NAME.ans`, as online-judge-tools writes them): one group, our
//! comparisons (by default lines compared with line ends and trailing spaces ignored).

use std::path::Path;

use crate::suite::Settings;
use crate::verdict::OUTPUT_CAP;

use super::files;
use super::problem::{Case, Comparison, Group, Problem, TimeLimit};

/// Reads the folder `root`.
///
/// # Errors
/// A bad `suite.toml`; in a plain folder, an input without an answer; a case name with spaces;
/// a link out of the folder.
pub fn read(root: &Path) -> Result<Problem, String> {
    let suite = root.join("suite.toml").is_file();
    let settings = Settings::load(root)?;
    let name = root
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| root.display().to_string());
    let mut cases = Vec::new();
    for stem in files::stems(root, ".in")? {
        let input = files::inside(&root.join(format!("{stem}.in")), root)?;
        let answer = if suite {
            // Our suites: a missing answer is judged NO-ANSWER, for `judge record` to write.
            let ans = root.join(format!("{stem}.ans"));
            let out = root.join(format!("{stem}.out"));
            if ans.exists() {
                files::case_file(&ans, root)?
            } else {
                if out.exists() {
                    files::regular(&out)?;
                }
                out
            }
        } else {
            files::answer(root, &stem, &[".out", ".ans"], root)?
        };
        cases.push(Case {
            label: format!("{name}/{stem}"),
            group: 0,
            input,
            answer,
            flags: Vec::new(),
            exit: Some(root.join(format!("{stem}.exit"))),
        });
    }
    let mut groups = vec![Group {
        name: name.clone(),
        accept_score: 1.0,
        scored: true,
        ..Group::default()
    }];
    let top = super::problem::flat_tree(&mut groups, &cases);
    Ok(Problem {
        format: if suite {
            "suite (suite.toml)".to_string()
        } else {
            "plain folder (NAME.in with NAME.out or NAME.ans)".to_string()
        },
        groups,
        name,
        root: root.to_path_buf(),
        cases,
        time: TimeLimit {
            given: Some(std::time::Duration::from_secs_f64(settings.time_limit)),
            source: if suite { "suite.toml" } else { "the default" },
            multiplier: 1.0,
            resolution: 1.0,
            margin: 1.0,
            timing: crate::run::Timing::Cpu,
        },
        comparison: Comparison::Suite(Box::new(settings)),
        memory: None,
        output: OUTPUT_CAP,
        submissions: Vec::new(),
        input_validators: Vec::new(),
        scoring: false,
        top,
        grader: None,
        address_space: false,
    })
}

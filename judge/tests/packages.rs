//! Problem folders in the ecosystem's formats (`tests/fixtures/packages/`): `judge verify` on
//! each fixture, whose submissions cover every verdict; `judge PATH --cmd`; broken packages.

use std::path::{Path, PathBuf};

use predicates::prelude::*;
use test_support::{require_tool, tool_path};

use crate::util;

pub(crate) fn fixture(name: &str) -> PathBuf {
    util::package().join("tests/fixtures/packages").join(name)
}

pub(crate) fn judge() -> assert_cmd::Command {
    util::bin("judge")
}

/// Fails, naming the tool, unless the language of each of `package`'s programs (its `.py`, `.c`,
/// `.cpp` and `.java` files) builds and runs here: `judge verify` skips a submission whose
/// language is missing, and a row that says `skipped` does not say why.
pub(crate) fn require_languages(package: &Path) {
    let mut tools = std::collections::BTreeSet::new();
    let mut folders = vec![package.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a fixture").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let tool = match path.extension().and_then(|e| e.to_str()) {
                Some("py") => "python3",
                Some("c") => "gcc",
                Some("cpp") => "g++",
                Some("java") => "javac",
                _ => continue,
            };
            tools.insert(tool);
        }
    }
    for tool in tools {
        require_tool(tool);
    }
}

/// `judge verify` on a fixture: exit 0, the format on the first line, every row `ok`.
pub(crate) fn verifies(name: &str, format: &str, rows: &[(&str, &str)]) {
    require_languages(&fixture(name));
    let assert = judge()
        .args(["verify", "-j", "2"])
        .arg(fixture(name))
        .assert()
        .code(0);
    let out = crate::stdout_of(&assert);
    let first = out.lines().next().unwrap_or_default();
    assert!(first.contains(format), "first line {first:?}");
    for (submission, verdict) in rows {
        let row = out
            .lines()
            .find(|l| l.starts_with(submission))
            .unwrap_or_else(|| panic!("no row for {submission} in\n{out}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells.last(), Some(&"ok"), "{row}");
        assert!(
            cells.contains(verdict),
            "{submission}: {verdict} not in {row}"
        );
    }
    assert!(
        out.contains(&format!("{} kept their promise, 0 failed", rows.len())),
        "{out}"
    );
}

#[test]
fn a_legacy_package_with_a_computed_time_limit_and_every_verdict() {
    verifies(
        "average",
        "ICPC problem package (legacy)",
        &[
            ("accepted/average.c", "AC"),
            ("accepted/average.py", "AC"),
            ("run_time_error/crash.py", "RE"),
            ("run_time_error/hog.c", "RE"),
            ("time_limit_exceeded/slow.py", "TLE"),
            ("wrong_answer/floor.py", "WA"),
        ],
    );
}

#[test]
fn a_2023_07_scoring_package_with_groups() {
    require_languages(&fixture("maximum"));
    let assert = judge()
        .args(["verify", "-j", "2"])
        .arg(fixture("maximum"))
        .assert()
        .code(0);
    let out = crate::stdout_of(&assert);
    assert!(out.starts_with(&format!(
        "{}: ICPC problem package (2023-07, scoring), 5 cases in 3 groups",
        fixture("maximum").display()
    )));
    for (row, score) in [
        ("accepted/Maximum.java", "100/100"),
        ("accepted/maximum.py", "100/100"),
        ("partially_accepted/small.py", "30/100"),
        ("wrong_answer/first.py", "30/100"),
        ("rejected/crash.py", "0/100"),
    ] {
        let line = out.lines().find(|l| l.starts_with(row)).expect(row);
        assert!(line.contains(score) && line.ends_with("ok"), "{line}");
    }
}

#[test]
fn an_interactive_package_with_a_kattis_interactor() {
    verifies(
        "guess",
        "ICPC problem package (2023-07, interactive)",
        &[
            ("accepted/bisect.cpp", "AC"),
            ("accepted/bisect.py", "AC"),
            ("run_time_error/crash.py", "RE"),
            ("time_limit_exceeded/silent.py", "TLE"),
            ("wrong_answer/linear.py", "WA"),
        ],
    );
}

#[test]
fn a_custom_output_validator_built_from_c() {
    verifies(
        "split",
        "ICPC problem package (legacy)",
        &[
            ("accepted/half.py", "AC"),
            ("accepted/ones.c", "AC"),
            ("wrong_answer/zero.py", "WA"),
        ],
    );
}

#[test]
fn judging_one_program_names_the_format_and_shows_the_judge_message() {
    let zero = fixture("split/submissions/wrong_answer/zero.py");
    judge()
        .arg(fixture("split"))
        .arg("--cmd")
        .arg(&zero)
        .assert()
        .code(1)
        .stdout(predicate::str::is_match("^[^\n]*split: ICPC problem package \\(legacy\\), 3 cases in 2 groups, time limit [0-9]+ s \\(the slowest accepted run").unwrap())
        .stdout(predicate::str::contains("WA  [").and(predicate::str::contains("    a and b must be positive\n")));
    judge()
        .arg(fixture("samples"))
        .args(["--cmd", "awk '{print $1+$2}'"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "plain folder (NAME.in with NAME.out or NAME.ans), 2 cases",
        ))
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
}

#[test]
fn a_package_without_a_program_asks_for_one() {
    judge().arg(fixture("split")).assert().code(2).stderr(
        predicate::str::contains("--cmd SOL").and(predicate::str::contains("judge verify")),
    );
}

#[test]
fn input_validators_accept_every_input() {
    judge()
        .arg("validate")
        .arg(fixture("average"))
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("4 valid, 0 invalid\n"));
}

/// A copy of a fixture in a temporary folder, to break.
pub(crate) fn copy(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    copy_tree(&fixture(name), &tmp.path().join(name));
    tmp
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for e in std::fs::read_dir(from).expect("a fixture").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("a copy");
        }
    }
}

#[test]
fn a_broken_promise_fails_verify_and_says_which() {
    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::rename(
        root.join("submissions/wrong_answer/zero.py"),
        root.join("submissions/accepted/zero.py"),
    )
    .expect("a move");
    std::fs::create_dir(root.join("submissions/too_slow")).expect("a folder");
    judge()
        .arg("verify")
        .arg(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("FAILED accepted/zero.py: promised AC, got WA on sample/1\n    a and b must be positive"))
        .stdout(predicate::str::contains("2 kept their promise, 1 failed, 0 skipped"))
        .stderr(predicate::str::contains("too_slow: not a verdict folder"));
}

/// A folder of links to the tools the `split` fixture needs (sh, python3, gcc and its
/// assembler and linker), and to nothing else: on this `PATH` Kotlin is missing.
fn bare_path() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    require_tool("python3");
    let python = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    let python = PathBuf::from(String::from_utf8_lossy(&python.stdout).trim());
    std::os::unix::fs::symlink(&python, dir.path().join("python3")).expect("a link");
    for tool in ["sh", "gcc", "as", "ld"] {
        std::os::unix::fs::symlink(tool_path(tool), dir.path().join(tool)).expect("a link");
    }
    dir
}

#[test]
fn a_language_missing_here_is_skipped_unless_strict() {
    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::write(
        root.join("submissions/accepted/split.kt"),
        "fun main() { val n = readLine()!!.trim().toLong(); println(\"1 ${n - 1}\") }\n",
    )
    .expect("a submission");
    let bin = bare_path();
    judge()
        .env("PATH", bin.path())
        .arg("verify")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "skipped accepted/split.kt: Kotlin: `kotlinc` does not run on this machine",
        ))
        .stdout(predicate::str::contains(
            "3 kept their promise, 0 failed, 1 skipped",
        ));
    judge()
        .env("PATH", bin.path())
        .args(["verify", "--strict"])
        .arg(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("(--strict: skips fail)"));
}

/// `judge verify` on a broken copy of a fixture: exit 2, one error naming `file`, no panic.
fn refused(root: &Path, file: &str, what: &str) {
    let assert = judge().arg("verify").arg(root).assert().code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains(file) && err.contains(what),
        "expected {file:?} and {what:?} in {err:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// `judge verify` on a copy of a fixture whose validator fails: not refused, but the table is
/// printed with a judge error on every submission that reached it, its message naming `file`
/// and `what`; exit 1.
fn judge_error(root: &Path, file: &str, what: &str) {
    let assert = judge().arg("verify").arg(root).assert().code(1);
    let out = crate::stdout_of(&assert);
    assert!(out.contains("submission "), "no table in {out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("accepted/") && l.contains(" JE ") && l.ends_with("FAILED")),
        "no JE row in {out}"
    );
    assert!(
        out.contains(file) && out.contains(what),
        "expected {file:?} and {what:?} in {out}"
    );
}

#[test]
fn broken_packages_are_refused_naming_the_file() {
    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::remove_file(root.join("data/secret/2.ans")).expect("a removal");
    refused(&root, "data/secret/2.ans", "missing");

    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::write(
        root.join("problem.yaml"),
        "name: [Split\nvalidation: custom\n",
    )
    .expect("a write");
    refused(&root, "problem.yaml:", "not YAML");

    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::write(
        root.join("output_validators/split/validate.c"),
        "int main( {\n",
    )
    .expect("a write");
    judge_error(&root, "validate.c", "could not compile");

    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::write(
        root.join("output_validators/split/validate.c"),
        "int main(void) { return 0; }\n",
    )
    .expect("a write");
    judge_error(
        &root,
        "output_validators/split",
        "exited with 0, neither 42 (accept) nor 43 (reject)",
    );

    let tmp = copy("split");
    let root = tmp.path().join("split");
    let outside = tmp.path().join("elsewhere.in");
    std::fs::write(&outside, "7\n").expect("a write");
    std::fs::remove_file(root.join("data/secret/1.in")).expect("a removal");
    std::os::unix::fs::symlink(&outside, root.join("data/secret/1.in")).expect("a link");
    refused(&root, "data/secret/1.in", "outside the package");

    let tmp = copy("split");
    let root = tmp.path().join("split");
    std::fs::rename(
        root.join("data/secret/1.in"),
        root.join("data/secret/case 1.in"),
    )
    .expect("a move");
    std::fs::rename(
        root.join("data/secret/1.ans"),
        root.join("data/secret/case 1.ans"),
    )
    .expect("a move");
    refused(&root, "data/secret/case 1.in", "spaces");
}

#[test]
fn a_symlink_inside_the_package_shares_a_case() {
    let tmp = copy("split");
    let root = tmp.path().join("split");
    for ext in ["in", "ans"] {
        std::os::unix::fs::symlink(
            format!("../sample/1.{ext}"),
            root.join(format!("data/secret/0.{ext}")),
        )
        .expect("a link");
    }
    judge()
        .arg("verify")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("4 cases in 2 groups"));
}

#[test]
fn a_suite_named_like_a_subcommand_is_judged_after_a_double_dash() {
    let tmp = crate::temp_suite("record", &[("01", b"1\n", Some(b"1\n"))]);
    judge()
        .arg("--testcases")
        .arg(tmp.path())
        .args(["--cmd", "cat", "--", "record"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("AC  [").and(predicate::str::contains("record/01")));
}

#[test]
fn a_polygon_package_with_a_testlib_style_checker() {
    verifies(
        "parity",
        "Polygon package, 3 cases in 2 groups",
        &[
            ("solutions/always-even.py", "WA"),
            ("solutions/crash.py", "RE"),
            ("solutions/parity.c", "AC"),
            ("solutions/parity.py", "AC"),
            ("solutions/shouting.py", "PE"),
            ("solutions/sleepy.py", "TLE"),
        ],
    );
}

/// testlib.h is not ours to ship, and no package registry has it: this test exists only in a
/// build with `--cfg testlib`, and compiles a testlib checker against the `testlib.h` that
/// `TESTLIB_H` names, inside a copy of the Polygon fixture:
/// `RUSTFLAGS='--cfg testlib' TESTLIB_H=/path/testlib.h cargo test -p judge real_testlib`.
#[cfg(testlib)]
#[test]
fn a_real_testlib_checker() {
    let testlib = std::env::var_os("TESTLIB_H").expect("TESTLIB_H names a testlib.h");
    let tmp = copy("parity");
    let root = tmp.path().join("parity");
    std::fs::copy(testlib, root.join("files/testlib.h")).expect("a copy of testlib.h");
    std::fs::write(
        root.join("files/check.cpp"),
        "#include \"testlib.h\"\nint main(int argc, char *argv[]) {\n    registerTestlibCmd(argc, argv);\n    \
         std::string expected = ans.readToken(), got = ouf.readToken();\n    \
         if (got != \"even\" && got != \"odd\") quitf(_pe, \"%s is neither even nor odd\", got.c_str());\n    \
         if (got != expected) quitf(_wa, \"expected %s, found %s\", expected.c_str(), got.c_str());\n    \
         quitf(_ok, \"%s\", got.c_str());\n}\n",
    )
    .expect("a checker");
    let xml = std::fs::read_to_string(root.join("problem.xml")).expect("problem.xml");
    std::fs::write(
        root.join("problem.xml"),
        xml.replace(
            "files/check.c\" type=\"c.gcc\"",
            "files/check.cpp\" type=\"cpp.g++17\"",
        ),
    )
    .expect("problem.xml");
    judge()
        .args(["verify", "-j", "2"])
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("6 kept their promise, 0 failed"));
}

#[test]
fn a_suite_written_as_a_package_verifies() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().join("minimax");
    judge()
        .current_dir(util::workspace())
        .args(["package", "minimax", "-o"])
        .arg(&dir)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("22 cases (0 left out)"));
    assert!(dir.join("data/sample/01.ans").is_file() && dir.join("data/secret/22.in").is_file());
    judge()
        .current_dir(util::workspace())
        .arg("verify")
        .arg(&dir)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("accepted/minimax.rs  AC"))
        .stdout(predicate::str::contains(
            "1 kept their promise, 0 failed, 0 skipped",
        ));
    judge()
        .current_dir(util::workspace())
        .args(["package", "minimax", "-o"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exists and is not empty"));
    judge()
        .current_dir(util::workspace())
        .args(["package", "codingame-minesweeper", "-o"])
        .arg(tmp.path().join("cg"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("checker or an interactor"));
}

#[test]
fn an_interactive_sample_may_have_a_transcript_and_no_answer() {
    let tmp = copy("guess");
    let root = tmp.path().join("guess");
    std::fs::remove_file(root.join("data/sample/1.ans")).expect("a removal");
    judge()
        .arg(&root)
        .arg("--cmd")
        .arg(root.join("submissions/accepted/bisect.py"))
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("4 passed, 0 failed\n"));
    std::fs::remove_file(root.join("data/sample/1.interaction")).expect("a removal");
    judge()
        .arg(&root)
        .args(["--cmd", "true"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("data/sample/1.ans: missing"));
}

/// Kattis's `verifyproblem` (PyPI `problemtools`): from `VERIFYPROBLEM`, else on `PATH`.
fn verifyproblem() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("VERIFYPROBLEM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("verifyproblem"))
        .find(|p| p.is_file())
}

/// Each submission's verdict as problemtools names them (`AC`, `WA`, `TLE`, `RTE`), from our
/// table.
fn our_verdicts(root: &Path) -> Vec<(String, String)> {
    require_languages(root);
    let assert = judge()
        .args(["verify", "-j", "2"])
        .arg(root)
        .assert()
        .code(0);
    let out = crate::stdout_of(&assert);
    out.lines()
        .skip(2)
        .take_while(|l| !l.starts_with("time limit"))
        .map(|row| {
            let cells: Vec<&str> = row.split_whitespace().collect();
            let verdict = match cells[cells.len() - 2] {
                "RE" | "MLE" => "RTE",
                "PE" | "OLE" => "WA",
                v => v,
            };
            (cells[0].to_string(), verdict.to_string())
        })
        .collect()
}

/// What `verifyproblem -p submissions` said of each submission it judged.
fn their_verdicts(verifyproblem: &Path, root: &Path, shims: &Path) -> Vec<(String, String)> {
    let path = std::env::join_paths(std::iter::once(shims.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let o = std::process::Command::new(verifyproblem)
        .arg(root)
        .args(["-p", "submissions"])
        .env("PATH", path)
        .output()
        .expect("verifyproblem runs");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim_start_matches("ERROR").trim();
        let Some((name, rest)) = line.split_once(" (") else {
            continue;
        };
        let verdict = rest
            .split_once(") OK: ")
            .or_else(|| rest.split_once(") got "))
            .map(|(_, v)| v.split_whitespace().next().unwrap_or_default().to_string());
        if let Some(v) = verdict.filter(|_| name.contains('/')) {
            found.push((name.to_string(), v));
        }
    }
    assert!(
        !found.is_empty(),
        "no verdict read from verifyproblem:\n{text}"
    );
    found
}

#[test]
#[ignore = "slow tier, needs problemtools (pip install problemtools; VERIFYPROBLEM or PATH): cargo test -- --ignored"]
fn problemtools_gives_the_same_verdicts() {
    let verifyproblem = verifyproblem().expect(
        "this test needs verifyproblem: pip install problemtools, and name it in VERIFYPROBLEM or put it on PATH",
    );
    // problemtools runs .py files with pypy3: where there is none, a stand-in runs python3.
    let shims = tempfile::tempdir().expect("a temporary folder");
    if std::process::Command::new("pypy3")
        .arg("--version")
        .output()
        .is_err()
    {
        let python = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs");
        let python = String::from_utf8_lossy(&python.stdout).trim().to_string();
        let shim = shims.path().join("pypy3");
        std::fs::write(&shim, format!("#!/bin/sh\nexec '{python}' \"$@\"\n")).expect("a shim");
        std::fs::set_permissions(
            &shim,
            <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
        )
        .expect("an executable shim");
        eprintln!("pypy3 is missing: problemtools runs Python with python3 instead");
    }
    // Not the scoring fixture: problemtools' 2023-07 support reads neither its group scores
    // nor its `rejected` folder; nor `half`, whose float tolerance is in BAPCtools'
    // `output_validator_args`, which problemtools does not read.
    for name in ["average", "split", "guess"] {
        let ours = our_verdicts(&fixture(name));
        let theirs = their_verdicts(&verifyproblem, &fixture(name), shims.path());
        for (submission, verdict) in &theirs {
            let mine = ours.iter().find(|(s, _)| s == submission).map(|(_, v)| v);
            assert_eq!(mine, Some(verdict), "{name}: {submission}");
        }
        eprintln!(
            "{name}: {} submissions, the same verdicts as verifyproblem",
            theirs.len()
        );
    }
}

/// problemtools' compiled default validator, found beside the `verifyproblem` in use.
fn problemtools_default_validator() -> Option<PathBuf> {
    let verifyproblem = verifyproblem()?;
    let text = std::fs::read_to_string(&verifyproblem).ok()?;
    let python = text.lines().next()?.strip_prefix("#!")?.trim().to_string();
    let o = std::process::Command::new(python)
        .args([
            "-c",
            "import os, problemtools; print(os.path.dirname(problemtools.__file__))",
        ])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
    Some(dir.join("support/default_validator")).filter(|p| p.is_file())
}

/// A small generator (xorshift), so that the cases are the same on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// Tokens and whitespace, often near `like` when it is given.
    fn text(&mut self, like: Option<&str>) -> String {
        const TOKENS: [&str; 14] = [
            "1", "1.0", "0.5", "0.50001", "-2", "1e3", "1000", "yes", "Yes", "YES", "abc", "inf",
            "1e-9", "0",
        ];
        const SPACES: [&str; 5] = [" ", "  ", "\n", "\t", " \n"];
        if let Some(like) = like.filter(|_| self.below(3) > 0) {
            // A small edit of the answer: one token or one space changed, or a token more.
            let mut pieces: Vec<String> = like
                .split_inclusive(char::is_whitespace)
                .map(String::from)
                .collect();
            if !pieces.is_empty() {
                let i = self.below(pieces.len());
                match self.below(3) {
                    0 => pieces[i] = format!("{}{}", self.pick(&TOKENS), self.pick(&SPACES)),
                    1 => pieces[i] = pieces[i].trim_end().to_string() + self.pick(&SPACES),
                    _ => pieces.push(self.pick(&TOKENS).to_string()),
                }
            }
            return pieces.concat();
        }
        let mut text = String::new();
        for _ in 0..self.below(5) {
            text += self.pick(&TOKENS);
            text += self.pick(&SPACES);
        }
        text
    }
}

/// Our default validator and problemtools' own (a C++ program) agree on accept or reject, on
/// many small random answers and outputs under random flags.
#[test]
#[ignore = "slow tier, needs problemtools (pip install problemtools; VERIFYPROBLEM or PATH): cargo test -- --ignored"]
fn the_default_validator_agrees_with_problemtools() {
    use judge::fuzzing::{default_validator as check, Flags};
    let theirs = problemtools_default_validator()
        .expect("this test needs problemtools' default_validator: pip install problemtools");
    const FLAGS: [&str; 7] = [
        "",
        "case_sensitive",
        "space_change_sensitive",
        "float_tolerance 1e-4",
        "float_absolute_tolerance 1e-3",
        "float_relative_tolerance 1e-3 case_sensitive",
        "float_tolerance 1e-4 space_change_sensitive",
    ];
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let (input, answer) = (tmp.path().join("input"), tmp.path().join("answer"));
    std::fs::write(&input, "").expect("an input");
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let mut rejected = 0;
    for round in 0..1500 {
        let flags = random.pick(&FLAGS);
        let words: Vec<String> = flags.split_whitespace().map(String::from).collect();
        let expected = random.text(None);
        let got = random.text(Some(&expected));
        std::fs::write(&answer, &expected).expect("an answer");
        let mut child = std::process::Command::new(&theirs)
            .arg(&input)
            .arg(&answer)
            .arg(tmp.path())
            .args(&words)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("problemtools' validator runs");
        std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), got.as_bytes())
            .expect("the output written");
        drop(child.stdin.take());
        let code = child.wait().expect("it ends").code();
        let mine = check(
            &Flags::parse(&words).expect("flags"),
            expected.as_bytes(),
            got.as_bytes(),
        );
        assert!(
            code == Some(42) || code == Some(43),
            "round {round}: exit {code:?}"
        );
        assert_eq!(
            mine.is_none(),
            code == Some(42),
            "round {round}, flags {flags:?}, answer {expected:?}, output {got:?}: ours says {mine:?}"
        );
        rejected += usize::from(mine.is_some());
    }
    eprintln!("1500 random pairs, {rejected} rejected by both, the rest accepted by both");
    assert!(
        rejected > 100 && rejected < 1400,
        "{rejected} rejected: the cases should mix"
    );
}

#[test]
fn an_invalid_input_is_named_and_a_broken_input_validator_refused() {
    let tmp = copy("average");
    let root = tmp.path().join("average");
    std::fs::write(root.join("data/secret/02.in"), "4\n1 1 1\n").expect("a write");
    judge()
        .arg("validate")
        .arg(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("INVALID secret/02 ("))
        .stdout(predicate::str::ends_with("3 valid, 1 invalid\n"));
    std::fs::write(root.join("input_validators/validate.py"), "pass\n").expect("a write");
    judge().arg("validate").arg(&root).assert().code(2).stderr(
        predicate::str::contains("validate.py exited with 0").and(predicate::str::contains(
            "neither 42 (valid) nor 43 (invalid)",
        )),
    );
}

#[test]
fn one_program_on_a_scoring_package_gets_its_score() {
    let small = fixture("maximum/submissions/partially_accepted/small.py");
    judge()
        .arg(fixture("maximum"))
        .arg("--cmd")
        .arg(&small)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("time limit 2 s (problem.yaml)"))
        .stdout(predicate::str::contains("maximum: score 30 of 100\n"));
}

#[test]
fn a_custom_grader_and_bapctools_flag_spelling_score_as_problemtools_does() {
    // `output_validator_args` gives the float tolerance (else 2.500000 is not 2.5); the custom
    // grader of `secret` gives 10 points per accepted case and AC; `ignore_sample` leaves the
    // sample out; the limit comes from `domjudge-problem.ini`.
    verifies(
        "half",
        "ICPC problem package (legacy, scoring)",
        &[
            ("accepted/half.py", "AC"),
            ("partially_accepted/floor.py", "AC"),
        ],
    );
    let assert = judge().arg("verify").arg(fixture("half")).assert().code(0);
    let out = crate::stdout_of(&assert);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("accepted/half.py").contains(" 40/40 "), "{out}");
    assert!(
        row("partially_accepted/floor.py").contains(" 20/40 "),
        "{out}"
    );
    assert!(
        out.contains("time limit 5 s (domjudge-problem.ini)"),
        "{out}"
    );
}

/// `PATH` without the folders that hold a checktestdata (`checktestdata` or `pyctd`).
fn path_without_checktestdata() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("pyctd").exists() && !d.join("checktestdata").exists())
        .collect();
    std::env::join_paths(kept).expect("a PATH")
}

#[test]
fn a_checktestdata_validator_that_cannot_run_is_a_warning_unless_validating() {
    require_languages(&fixture("half"));
    let root = fixture("half");
    judge()
        .env("PATH", path_without_checktestdata())
        .arg(&root)
        .arg("--cmd")
        .arg(root.join("submissions/accepted/half.py"))
        .assert()
        .code(0)
        .stderr(predicate::str::contains("input_validators/half.ctd"))
        .stderr(predicate::str::contains("warning"));
    judge()
        .env("PATH", path_without_checktestdata())
        .arg("validate")
        .arg(&root)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("input_validators/half.ctd"))
        .stderr(predicate::str::contains("pip install checktestdata"));
}

#[test]
#[ignore = "slow tier, needs pyctd (pip install checktestdata; PYCTD or PATH): cargo test -- --ignored"]
fn a_checktestdata_validator_is_run_by_validate() {
    let pyctd = std::env::var_os("PYCTD").map_or_else(|| tool_path("pyctd"), PathBuf::from);
    let dir = pyctd.parent().expect("a folder").to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(dir).chain(std::env::split_paths(&path_without_checktestdata())),
    )
    .expect("a PATH");
    let tmp = copy("half");
    let root = tmp.path().join("half");
    judge()
        .env("PATH", &path)
        .arg("validate")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("5 valid, 0 invalid\n"));
    std::fs::write(root.join("data/secret/2.in"), "0\n").expect("a write");
    judge()
        .env("PATH", &path)
        .arg("validate")
        .arg(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("INVALID secret/2"))
        .stdout(predicate::str::contains("outside of range"));
}

#[test]
fn on_reject_break_stops_a_group_at_its_first_rejection() {
    // wrong_answer/boom.py fails secret/1 and would make the validator fail on secret/2.
    verifies(
        "echo",
        "ICPC problem package (legacy)",
        &[("accepted/echo.py", "AC"), ("wrong_answer/boom.py", "WA")],
    );
}

#[test]
fn a_failing_validator_is_a_judge_error_of_that_submission_on_that_case() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    std::fs::write(
        root.join("data/secret/testdata.yaml"),
        "on_reject: continue\n",
    )
    .expect("a write");
    let assert = judge().arg("verify").arg(&root).assert().code(1);
    let out = crate::stdout_of(&assert);
    let row = out
        .lines()
        .find(|l| l.starts_with("wrong_answer/boom.py"))
        .unwrap_or_else(|| panic!("no row in {out}"));
    assert!(row.contains(" JE ") && row.ends_with("FAILED"), "{row}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("accepted/echo.py") && l.ends_with(" ok")),
        "{out}"
    );
    for said in [
        "FAILED wrong_answer/boom.py: promised WA, got JE on secret/2",
        "output_validators/check",
        "judgeerror.txt: told boom: the validator cannot go on; second line",
        "1 kept their promise, 1 failed",
    ] {
        assert!(out.contains(said), "{said:?} not in {out}");
    }
}

#[test]
fn unknown_testdata_keys_are_warned_of_and_unsupported_ones_refused() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    std::fs::write(root.join("data/testdata.yaml"), "colour: blue\n").expect("a write");
    judge()
        .arg("verify")
        .arg(&root)
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "data/testdata.yaml: unknown key \"colour\"; ignored",
        ));
    std::fs::write(root.join("data/testdata.yaml"), "static_validation: true\n").expect("a write");
    refused(
        &root,
        "data/testdata.yaml",
        "static_validation is not supported",
    );
}

#[test]
fn verify_takes_a_time_limit_for_a_package_without_accepted_submissions() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    std::fs::remove_dir_all(root.join("submissions/accepted")).expect("a removal");
    refused(&root, "echo", "--time-limit S");
    judge()
        .args(["verify", "--time-limit", "3"])
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("time limit 3 s (--time-limit)"));
}

#[test]
fn a_computed_time_limit_is_kept_for_the_next_run_unless_recalibrated() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    // A package of its own content, so that no earlier run's limit is kept for it.
    let nonce = format!(
        "{} {:?}\n",
        std::process::id(),
        std::time::SystemTime::now()
    );
    std::fs::write(root.join("data/nonce.txt"), nonce).expect("a write");
    let first_line = |extra: &[&str]| {
        let assert = judge()
            .arg(&root)
            .arg("--cmd")
            .arg(root.join("submissions/accepted/echo.py"))
            .args(extra)
            .assert()
            .code(0);
        crate::stdout_of(&assert)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let first = first_line(&[]);
    assert!(first.contains("the slowest accepted run"), "{first}");
    assert!(!first.contains("computed earlier"), "{first}");
    let second = first_line(&[]);
    assert!(second.contains("computed earlier"), "{second}");
    let third = first_line(&["--recalibrate"]);
    assert!(!third.contains("computed earlier"), "{third}");
}

#[test]
fn an_interactor_that_fails_after_the_program_failed_leaves_the_program_its_verdict() {
    require_languages(&fixture("guess"));
    let tmp = copy("guess");
    let root = tmp.path().join("guess");
    // An interactor that fails (exit 1, neither 42 nor 43) on every case, once the program has
    // said its first guess and ended.
    std::fs::write(
        root.join("output_validator/interactor.py"),
        "import sys\nsys.stdin.read()\nsys.exit(1)\n",
    )
    .expect("a write");
    let crash = tmp.path().join("crash.py");
    std::fs::write(&crash, "print(500, flush=True)\nraise SystemExit(3)\n").expect("a write");
    judge()
        .arg(&root)
        .arg("--cmd")
        .arg(&crash)
        .args(["--filter", "secret/1"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE "));
    let quiet = tmp.path().join("quiet.py");
    std::fs::write(&quiet, "print(500, flush=True)\n").expect("a write");
    judge()
        .arg(&root)
        .arg("--cmd")
        .arg(&quiet)
        .args(["--filter", "secret/1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exited with 1, neither 42"));
}

#[test]
fn a_2025_09_package_is_read_with_its_test_group_files() {
    require_languages(&fixture("maximum"));
    let tmp = copy("maximum");
    let root = tmp.path().join("maximum");
    let yaml = std::fs::read_to_string(root.join("problem.yaml")).expect("a read");
    std::fs::write(
        root.join("problem.yaml"),
        yaml.replace("2023-07-draft", "2025-09"),
    )
    .expect("a write");
    for group in ["group1", "group2"] {
        let dir = root.join("data/secret").join(group);
        std::fs::rename(dir.join("testdata.yaml"), dir.join("test_group.yaml")).expect("a move");
    }
    let assert = judge()
        .arg(&root)
        .arg("--cmd")
        .arg(root.join("submissions/partially_accepted/small.py"))
        .args(["--time-limit", "20"])
        .assert()
        .code(1);
    let out = crate::stdout_of(&assert);
    assert!(
        out.starts_with(&format!(
            "{}: ICPC problem package (2025-09, scoring)",
            root.display()
        )),
        "{out}"
    );
    assert!(out.contains("maximum: score 30 of 100"), "{out}");
}

#[test]
fn a_folder_submission_in_a_language_missing_here_is_skipped() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    let prolog = root.join("submissions/accepted/prolog");
    std::fs::create_dir_all(&prolog).expect("a folder");
    std::fs::write(prolog.join("echo.pl"), ":- initialization(main).\n").expect("a write");
    judge()
        .arg("verify")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("skipped accepted/prolog: "))
        .stdout(predicate::str::contains(
            "2 kept their promise, 0 failed, 1 skipped",
        ));
}

#[test]
fn a_2023_07_output_validator_one_folder_down_is_found() {
    require_languages(&fixture("guess"));
    let tmp = copy("guess");
    let root = tmp.path().join("guess");
    let down = root.join("output_validator/interactor");
    std::fs::create_dir_all(&down).expect("a folder");
    std::fs::rename(
        root.join("output_validator/interactor.py"),
        down.join("interactor.py"),
    )
    .expect("a move");
    judge()
        .arg(&root)
        .arg("--cmd")
        .arg(root.join("submissions/wrong_answer/linear.py"))
        .args(["--time-limit", "20", "--filter", "secret"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA "));
}

#[test]
fn an_interactor_that_rejects_first_gives_a_wrong_answer_however_long_the_program_runs() {
    require_languages(&fixture("guess"));
    let tmp = copy("guess");
    let root = tmp.path().join("guess");
    // Not a number: the interactor rejects at once; the program then hangs past its limit.
    std::fs::write(
        root.join("submissions/wrong_answer/hang.py"),
        "import time\nprint('twelve', flush=True)\ntime.sleep(60)\n",
    )
    .expect("a write");
    let assert = judge()
        .args(["verify", "--filter", "hang", "--time-limit", "4"])
        .arg(&root)
        .assert()
        .code(0);
    let out = crate::stdout_of(&assert);
    let row = out
        .lines()
        .find(|l| l.starts_with("wrong_answer/hang.py"))
        .unwrap_or_else(|| panic!("no row in {out}"));
    assert!(row.contains(" WA ") && row.ends_with(" ok"), "{row}");
}

#[test]
fn input_validators_get_their_own_flags_and_the_legacy_folder_is_read() {
    require_languages(&fixture("average"));
    let tmp = copy("average");
    let root = tmp.path().join("average");
    std::fs::rename(
        root.join("input_validators"),
        root.join("input_format_validators"),
    )
    .expect("a move");
    // Valid only when given exactly the flag `small`, which 2023-07's mapping gives it by name.
    std::fs::write(
        root.join("input_format_validators/flags.py"),
        "import sys\nprint(sys.argv[1:])\nsys.exit(42 if sys.argv[1:] == ['small'] else 43)\n",
    )
    .expect("a write");
    std::fs::write(
        root.join("data/testdata.yaml"),
        "input_validator_flags:\n  flags: small\n",
    )
    .expect("a write");
    judge()
        .arg("validate")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("8 valid, 0 invalid\n"));
}

#[test]
fn accept_and_reject_scores_and_a_range_are_read() {
    require_languages(&fixture("half"));
    let tmp = copy("half");
    let root = tmp.path().join("half");
    std::fs::write(
        root.join("data/secret/testdata.yaml"),
        "accept_score: 5\nreject_score: 1\nrange: 0 10\ngrader_flags: sum\n",
    )
    .expect("a write");
    let assert = judge().arg("verify").arg(&root).assert().code(0);
    let out = crate::stdout_of(&assert);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("accepted/half.py").contains(" 20/20 "), "{out}");
    // Two cases accepted (5 each), two rejected (1 each); the worst error is the verdict.
    assert!(row("partially_accepted/floor.py").contains(" WA "), "{out}");
    assert!(
        row("partially_accepted/floor.py").contains(" 12/20 "),
        "{out}"
    );
    assert!(
        out.contains(
            "warning: group secret scored 20 for accepted/half.py, outside its range 0 10"
        ),
        "{out}"
    );
}

#[test]
fn a_verify_stopped_by_sigterm_has_printed_the_rows_it_finished() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    // The last submission sleeps: the verify is stopped while it runs.
    std::fs::write(
        root.join("submissions/wrong_answer/zz_sleep.py"),
        "import time\ntime.sleep(120)\n",
    )
    .expect("a write");
    let out_path = tmp.path().join("out.txt");
    let out = std::fs::File::create(&out_path).expect("a file");
    let mut judge = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["verify", "--time-limit", "60"])
        .arg(&root)
        .stdout(out)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("judge runs");
    let start = std::time::Instant::now();
    let done_row = |text: &str| text.lines().any(|l| l.starts_with("wrong_answer/boom.py"));
    while !done_row(&std::fs::read_to_string(&out_path).unwrap_or_default()) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no row within 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // SAFETY: a plain signal to the child this test started and has not waited for.
    unsafe { libc::kill(judge.id() as libc::pid_t, libc::SIGTERM) };
    let status = judge.wait().expect("the judge ends");
    assert!(!status.success());
    let text = std::fs::read_to_string(&out_path).expect("a read");
    assert!(text.contains("submission "), "no header in {text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("accepted/echo.py") && l.ends_with(" ok")),
        "{text}"
    );
    assert!(!text.contains("zz_sleep"), "{text}");
}

#[test]
fn python_submissions_run_with_pypy3_where_it_is_on_path() {
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let root = tmp.path().join("echo");
    let shims = tmp.path().join("shims");
    std::fs::create_dir_all(&shims).expect("a folder");
    let shim = shims.join("pypy3");
    let path = std::env::join_paths(std::iter::once(shims.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");
    let write_shim = |body: &str| {
        std::fs::write(&shim, format!("#!/bin/sh\n{body}\n")).expect("a shim");
        std::fs::set_permissions(
            &shim,
            <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
        )
        .expect("an executable shim");
    };
    // A stand-in that runs python3: the promises are kept, and the report names it.
    write_shim("exec python3 \"$@\"");
    judge()
        .env("PATH", &path)
        .args(["verify", "--time-limit", "20"])
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(format!(
            "; Python 3 run with {}",
            shim.display()
        )));
    // One that fails: the Python submissions run through it.
    write_shim("exit 3");
    let assert = judge()
        .env("PATH", &path)
        .args(["verify", "--time-limit", "20"])
        .arg(&root)
        .assert()
        .code(1);
    let out = crate::stdout_of(&assert);
    assert!(
        out.lines()
            .any(|l| l.starts_with("accepted/echo.py") && l.contains(" RE ")),
        "{out}"
    );
}

/// A C program that reads a number, burns `cpu` seconds of its own CPU time (as `clock()`
/// counts it: user and system time, as the judge measures it), then prints the number.
fn burner(cpu: f64) -> String {
    format!(
        "#include <stdio.h>\n#include <time.h>\n\
         int main(void) {{\n    long long n;\n    if (scanf(\"%lld\", &n) != 1) return 1;\n\
         \x20   volatile unsigned long spin = 0;\n\
         \x20   while ((double)clock() / CLOCKS_PER_SEC < {cpu}) spin++;\n\
         \x20   printf(\"%lld\\n\", n);\n    return 0;\n}}\n"
    )
}

#[test]
#[ignore = "slow tier (runs that burn CPU time near a time limit): cargo test -- --ignored"]
fn a_verdict_that_changes_within_the_safety_margin_is_warned_of() {
    require_tool("gcc");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("near");
    for dir in ["data/sample", "data/secret", "submissions/accepted"] {
        std::fs::create_dir_all(root.join(dir)).expect("a folder");
    }
    std::fs::create_dir_all(root.join("submissions/time_limit_exceeded")).expect("a folder");
    // A limit of 0.4 s: runs stopped at 0.6 s (time_limit_to_tle 1.5), and at the wall-time
    // backstop of 1.6 s, which a run of 0.5 s of CPU time meets only if it gets less than a
    // third of a core. The verdicts are compared at 0.267 s, 0.4 s and 0.6 s.
    std::fs::write(
        root.join("problem.yaml"),
        "problem_format_version: 2023-07-draft\nname: Near\nlimits:\n  time_limit: 0.4\n",
    )
    .expect("a write");
    std::fs::write(root.join("data/sample/1.in"), "7\n").expect("a write");
    std::fs::write(root.join("data/sample/1.ans"), "7\n").expect("a write");
    std::fs::write(root.join("data/secret/1.in"), "8\n").expect("a write");
    std::fs::write(root.join("data/secret/1.ans"), "8\n").expect("a write");
    let subs = root.join("submissions");
    std::fs::write(subs.join("accepted/quick.c"), burner(0.0)).expect("a write");
    // AC at the limit, TLE at the limit divided by the margin.
    std::fs::write(subs.join("accepted/close.c"), burner(0.33)).expect("a write");
    // TLE at the limit, AC at the limit times the margin.
    std::fs::write(subs.join("time_limit_exceeded/barely.c"), burner(0.5)).expect("a write");
    let assert = judge().args(["verify"]).arg(&root).assert().code(0);
    let out = crate::stdout_of(&assert);
    assert!(out.contains("3 kept their promise, 0 failed"), "{out}");
    assert!(
        out.contains(
            "warning: accepted/close.c is sensitive to the time limit: TLE at 0.267 s, AC at \
             0.4 s, AC at 0.6 s"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "warning: time_limit_exceeded/barely.c is sensitive to the time limit: TLE at 0.267 \
             s, TLE at 0.4 s, AC at 0.6 s"
        ),
        "{out}"
    );
    assert!(!out.contains("accepted/quick.c is sensitive"), "{out}");
}

#[test]
fn an_interactor_that_closes_its_output_gives_the_program_end_of_file() {
    // As BAPCtools' own test problem `pseudointeraction`: the interactor (a folder, and a
    // Python program run with its folder named, as the program is) writes numbers, closes its
    // stdout, then waits for their sum; the program reads to the end of its input. A shell left
    // between the judge and either process would hold the pipe open and both would wait.
    require_languages(&fixture("guess"));
    let tmp = copy("guess");
    let root = tmp.path().join("guess");
    std::fs::write(
        root.join("output_validator/interactor.py"),
        "import os, sys\nsys.stdout.write('1\\n2\\n3\\n')\nsys.stdout.flush()\n\
         os.close(sys.stdout.fileno())\n\
         sys.exit(42 if sys.stdin.readline().strip() == '6' else 43)\n",
    )
    .expect("a write");
    let subs = root.join("submissions");
    std::fs::remove_dir_all(&subs).expect("a removal");
    std::fs::create_dir_all(subs.join("accepted/sum")).expect("a folder");
    let sum = "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()))\n";
    std::fs::write(subs.join("accepted/sum.py"), sum).expect("a write");
    std::fs::write(subs.join("accepted/sum/main.py"), sum).expect("a write");
    std::fs::write(subs.join("accepted/sum/unused.py"), "").expect("a write");
    std::fs::write(
        subs.join("accepted/sum.c"),
        "#include <stdio.h>\nint main(void) { long s = 0, x; \
         while (scanf(\"%ld\", &x) == 1) s += x; printf(\"%ld\\n\", s); return 0; }\n",
    )
    .expect("a write");
    let assert = judge()
        .args(["verify", "--time-limit", "5"])
        .arg(&root)
        .assert()
        .code(0);
    let out = crate::stdout_of(&assert);
    assert!(out.contains("3 kept their promise, 0 failed"), "{out}");
}

#[test]
fn submissions_judged_before_the_limit_is_known_are_judged_at_it() {
    // The accepted submission burns about 0.15 s of CPU time: times 10, the limit is 2 s or
    // more, above the smallest limit (1 s) the submissions built first are judged with until
    // the accepted one is timed. The spinning submission is a time limit, stopped no later
    // than the limit's own stop (times 1.5); the slow one (1.2 s: a time limit at 1 s, which
    // ends the walk of its groups there, but not at 2 s) is accepted on every case, as it
    // would be had the limit been known from the start.
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("late");
    let files = [
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: late\n\
             limits:\n  time_multipliers:\n    ac_to_time_limit: 10\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/1.in", "2\n"),
        ("data/secret/1.ans", "2\n"),
        (
            "submissions/accepted/burn.py",
            "import time\nwhile time.process_time() < 0.15: pass\nprint(input())\n",
        ),
        (
            "submissions/mixed/slow.py",
            "import time\nwhile time.process_time() < 1.2: pass\nprint(input())\n",
        ),
        (
            "submissions/time_limit_exceeded/spin.py",
            "while True: pass\n",
        ),
        ("submissions/wrong_answer/zero.py", "print(0)\n"),
    ];
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
        std::fs::write(path, text).expect("a write");
    }
    require_languages(&root);
    // slow.py may be accepted or not: it does not time the limit, and is judged early.
    std::fs::write(
        root.join("submissions/submissions.yaml"),
        "mixed:\n  permitted: [AC, WA]\n",
    )
    .expect("a write");
    let out = judge()
        .args(["verify", "-j", "2"])
        .arg(&root)
        .env("XDG_CACHE_HOME", tmp.path().join("cache"))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let limit_line = text
        .lines()
        .find(|l| l.starts_with("time limit "))
        .unwrap_or_else(|| panic!("{text}"));
    let limit: f64 = limit_line["time limit ".len()..]
        .split(' ')
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{limit_line}"));
    assert!(limit >= 2.0, "{text}");
    let stop = limit * 1.5;
    let spin = text
        .lines()
        .find(|l| l.starts_with("time_limit_exceeded/spin.py"))
        .unwrap_or_else(|| panic!("{text}"));
    // Its time is the CPU time it got before the stop (or, on a machine too busy to give it
    // that, before the wall-time backstop): past the limit, as a time limit.
    let spun: f64 = spin
        .split_whitespace()
        .find_map(|word| word.strip_suffix('s')?.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(spun < stop + 1.0, "{text}");
    assert!(spin.ends_with(" TLE      ok"), "{text}");
    let slow = text
        .lines()
        .find(|l| l.starts_with("mixed/slow.py"))
        .unwrap_or_else(|| panic!("{text}"));
    // Both groups run: no `-` cell.
    assert!(
        !slow.contains(" - ") && slow.ends_with(" AC       ok"),
        "{text}"
    );
    assert!(text.contains("4 kept their promise, 0 failed"), "{text}");
}

#[test]
fn submissions_that_are_links_into_other_folders_of_the_package_run() {
    // BAPCtools' test problems file one source under several names: a link to a file of
    // another folder, and a folder of links (to a link). The box shows where they lead.
    require_languages(&fixture("echo"));
    let tmp = copy("echo");
    let submissions = tmp.path().join("echo/submissions");
    let elsewhere = submissions.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("a folder");
    std::fs::copy(
        submissions.join("accepted/echo.py"),
        elsewhere.join("echo.py"),
    )
    .expect("a copy");
    std::os::unix::fs::symlink("echo.py", elsewhere.join("hop.py")).expect("a link");
    std::os::unix::fs::symlink(
        "../elsewhere/echo.py",
        submissions.join("accepted/linked.py"),
    )
    .expect("a link");
    let folder = submissions.join("accepted/folder");
    std::fs::create_dir_all(&folder).expect("a folder");
    std::os::unix::fs::symlink("../../elsewhere/hop.py", folder.join("main.py")).expect("a link");
    let out = judge()
        .args(["verify", "--filter", "accepted/"])
        .arg(tmp.path().join("echo"))
        .env("XDG_CACHE_HOME", tmp.path().join("cache"))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for name in ["accepted/linked.py", "accepted/folder"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(name) && l.ends_with(" ok")),
            "{name}: {text}"
        );
    }
}

//! Files that are not what they claim: named pipes and device nodes as cases and answers, in
//! every format; YAML alias bombs; numbers out of range in `problem.xml`; control characters in
//! a submission's name and a validator's message. Each is refused (exit 2, naming the file)
//! or shown escaped, quickly: a hang fails the test at its timeout.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::util;

/// Long enough for a loaded machine; a judge waiting on a pipe would wait forever.
const PATIENCE: Duration = Duration::from_secs(60);

fn fixture(name: &str) -> PathBuf {
    util::package().join("tests/fixtures/packages").join(name)
}

/// A copy of a package fixture in a temporary folder, and its path there.
fn copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join(name);
    copy_tree(&fixture(name), &root);
    (tmp, root)
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

/// Replaces the file at `path` with a named pipe.
fn fifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// Replaces the file at `path` with a device node like `/dev/zero`; false if refused here.
fn zero_device(path: &Path) -> bool {
    let _ = std::fs::remove_file(path);
    let made = std::process::Command::new("mknod")
        .arg(path)
        .args(["c", "1", "5"])
        .stderr(std::process::Stdio::null())
        .status();
    made.is_ok_and(|s| s.success())
}

/// Runs the judge with `args` and expects exit 2 with `file` and `why` on stderr.
fn refused(args: &[&std::ffi::OsStr], file: &str, why: &str) {
    let o = util::bin("judge")
        .args(args)
        .timeout(PATIENCE)
        .output()
        .expect("judge runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(file) && err.contains(why),
        "{args:?}: expected {file:?} and {why:?} in {err:?}"
    );
}

fn os(s: &(impl AsRef<std::ffi::OsStr> + ?Sized)) -> &std::ffi::OsStr {
    s.as_ref()
}

const PIPE: &str = "not a regular file (a named pipe)";

#[test]
fn named_pipes_as_cases_are_refused_in_every_format() {
    // Our suites.
    for file in ["01.in", "01.out", "01.exit"] {
        let tmp = crate::temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
        fifo(&tmp.path().join("s").join(file));
        let args = [
            os("--testcases"),
            os(tmp.path()),
            os("s"),
            os("--cmd"),
            os("cat"),
        ];
        refused(&args, &format!("s/{file}"), PIPE);
    }
    // ICPC packages: an input, an answer.
    for file in ["data/secret/1.in", "data/secret/1.ans", "data/sample/1.ans"] {
        let (_tmp, root) = copy("split");
        fifo(&root.join(file));
        refused(&[os("verify"), os(&root)], file, PIPE);
    }
    // Polygon packages: a test, an answer.
    for file in ["tests/02", "tests/02.a"] {
        let (_tmp, root) = copy("parity");
        fifo(&root.join(file));
        refused(&[os("verify"), os(&root)], file, PIPE);
    }
    // A plain folder of samples.
    for file in ["sample-1.in", "sample-1.out", "sample-2.ans"] {
        let (_tmp, root) = copy("samples");
        fifo(&root.join(file));
        refused(&[os(&root), os("--cmd"), os("cat")], file, PIPE);
    }
}

#[test]
fn a_device_node_in_a_package_is_not_read() {
    let (_tmp, root) = copy("split");
    if !zero_device(&root.join("data/secret/2.ans")) {
        eprintln!("mknod is refused here: skipped");
        return;
    }
    let why = "not a regular file (a character device)";
    refused(&[os("verify"), os(&root)], "data/secret/2.ans", why);
    let tmp = crate::temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    assert!(zero_device(&tmp.path().join("s/01.out")));
    let args = [
        os("--testcases"),
        os(tmp.path()),
        os("s"),
        os("--cmd"),
        os("cat"),
    ];
    refused(&args, "s/01.out", why);
}

/// A YAML document whose aliases double it forty times (2^40 values).
fn alias_bomb() -> String {
    let mut text = "a0: &a0 [lol, lol]\n".to_string();
    for i in 1..40 {
        text += &format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1);
    }
    text
}

#[test]
fn yaml_alias_bombs_are_refused_at_once() {
    let bomb = "more than 100000 values once its aliases (*name) are expanded";
    let (_tmp, root) = copy("split");
    let yaml = std::fs::read_to_string(root.join("problem.yaml")).expect("problem.yaml");
    std::fs::write(root.join("problem.yaml"), yaml + &alias_bomb()).expect("a bomb");
    refused(&[os("verify"), os(&root)], "problem.yaml:", bomb);

    let (_tmp, root) = copy("split");
    let testdata = root.join("data/secret/testdata.yaml");
    std::fs::write(&testdata, alias_bomb()).expect("a bomb");
    refused(
        &[os("verify"), os(&root)],
        "data/secret/testdata.yaml:",
        bomb,
    );
}

#[test]
fn polygon_limits_out_of_range_are_refused_naming_the_key() {
    for (limit, shown) in [("1e22", "1e22"), ("1e308", "1e308"), ("1e-300", "1e-300")] {
        let (_tmp, root) = copy("parity");
        let xml = std::fs::read_to_string(root.join("problem.xml")).expect("problem.xml");
        let xml = xml.replace("<time-limit>2000<", &format!("<time-limit>{limit}<"));
        std::fs::write(root.join("problem.xml"), xml).expect("problem.xml");
        let why = format!(
            "<time-limit> must be a time limit from 1 to 1000000000 milliseconds, found {shown}"
        );
        refused(&[os("verify"), os(&root)], "problem.xml", &why);
    }
    let (_tmp, root) = copy("parity");
    let xml = std::fs::read_to_string(root.join("problem.xml")).expect("problem.xml");
    let xml = xml.replace("<memory-limit>268435456<", "<memory-limit>1e308<");
    std::fs::write(root.join("problem.xml"), xml).expect("problem.xml");
    let why = "<memory-limit> must be a memory limit from 1 MiB to 1 TiB, found 1e308";
    refused(&[os("verify"), os(&root)], "problem.xml", why);
}

#[test]
fn icpc_limits_and_scores_out_of_range_are_refused_naming_the_key() {
    let cases = [
        (
            "problem.yaml",
            "limits:\n  time_limit: 1e-300\n",
            "limits.time_limit must be a time limit",
        ),
        (
            "problem.yaml",
            "limits:\n  memory: 1e-300\n",
            "limits.memory must be a number of MiB",
        ),
        (
            "data/secret/testdata.yaml",
            "accept_score: 1e300\n",
            "accept_score must be a score",
        ),
        (
            "problem.yaml",
            "limits:\n  time_multiplier: 1e308\n",
            "limits.time_multiplier must be a number from 1 to 1000, found 1e308",
        ),
    ];
    for (file, text, why) in cases {
        let (_tmp, root) = copy("split");
        let path = root.join(file);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let old = old.replace("limits:\n  time_multiplier: 4\n", "");
        std::fs::write(&path, old + text).expect("a write");
        refused(&[os("verify"), os(&root)], file, why);
    }
}

/// Whether `text` holds a control character other than a line break or a tab.
fn has_controls(text: &[u8]) -> bool {
    String::from_utf8_lossy(text)
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

#[test]
fn a_submissions_name_and_a_validators_message_cannot_drive_the_terminal() {
    test_support::require_tool("gcc");
    test_support::require_tool("python3");
    let (_tmp, root) = copy("split");
    let validator = root.join("output_validators/split/validate.c");
    let c = std::fs::read_to_string(&validator).expect("validate.c");
    let c = c.replace(
        "\"a and b must be positive\"",
        "\"\\033[2J\\033]0;owned\\007a and b must be positive\"",
    );
    std::fs::write(&validator, c).expect("validate.c");
    let wrong = root.join("submissions/wrong_answer");
    let evil = wrong.join("\x1b[32mzero\x1b[0m.py");
    std::fs::rename(wrong.join("zero.py"), &evil).expect("a rename");
    let o = util::bin("judge")
        .arg("verify")
        .arg(&root)
        .timeout(PATIENCE)
        .output()
        .expect("judge runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("␛[32mzero␛[0m.py"), "{out}");
    assert!(
        !has_controls(&o.stdout) && !has_controls(&o.stderr),
        "{out}"
    );

    let o = util::bin("judge")
        .arg(&root)
        .arg("--cmd")
        .arg(&evil)
        .timeout(PATIENCE)
        .output()
        .expect("judge runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("␛[2J␛]0;owned␇a and b must be positive"),
        "{out}"
    );
    assert!(
        !has_controls(&o.stdout) && !has_controls(&o.stderr),
        "{out}"
    );
}

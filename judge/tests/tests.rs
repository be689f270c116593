//! The judge's integration tests (one binary, as ripgrep does): fake programs passed with `--cmd` on small suites under
//! `tests/fixtures/judge`, or on suites written to a temporary folder.

mod util;

mod bundle;
mod cache;
mod case_path;
mod cpu_time;
mod defects;
mod expectations;
mod files;
mod fuzz_checks;
mod fuzz_corpus;
mod hostile;
mod interactive;
mod machine;
mod packages;
mod pause;
mod record;
mod reliability;
mod report;
mod robust;
mod sandbox;
mod stress;
mod verdicts;

use std::path::Path;

/// `judge --testcases tests/fixtures/judge ARGS...`.
fn judge(args: &[&str]) -> assert_cmd::Command {
    judge_in(&util::package().join("tests/fixtures/judge"), args)
}

/// `judge --testcases DIR ARGS...`.
fn judge_in(dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = util::bin("judge");
    cmd.arg("--testcases").arg(dir).args(args);
    cmd
}

/// One case of a temporary suite: its name `NN`, its input, and its answer if it has one.
type TempCase<'a> = (&'a str, &'a [u8], Option<&'a [u8]>);

/// A temporary folder of suites: `suite/NN.in` (and `NN.out` when given) for each case.
fn temp_suite(suite: &str, cases: &[TempCase]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().join(suite);
    std::fs::create_dir(&dir).expect("a suite folder");
    for (name, input, output) in cases {
        std::fs::write(dir.join(format!("{name}.in")), input).expect("an input");
        if let Some(out) = output {
            std::fs::write(dir.join(format!("{name}.out")), out).expect("an output");
        }
    }
    tmp
}

/// Stdout of a finished command, as text.
fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

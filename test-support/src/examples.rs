//! Runs the examples that the experiment records name, for the packages' integration tests: the
//! examples' figures take minutes in a release build, so the records quote them, and the tests
//! run them small.

/// The standard output of `cargo run -q -p PACKAGE --example NAME -- ARGS`, run by the Cargo
/// that builds the tests (so the example is built from the current sources, in the tests'
/// target directory, and in release if the tests are optimized); panics with its standard error
/// if it fails.
pub fn run_example(package: &str, name: &str, args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", package, "--example", name])
        .args((!cfg!(debug_assertions)).then_some("--release"))
        .arg("--")
        .args(args)
        .current_dir(crate::workspace())
        .output()
        .expect("run cargo");
    assert!(
        output.status.success(),
        "example {name} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The numbers in `line`, in order (digits only; signs and decimal points separate them).
pub fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect()
}

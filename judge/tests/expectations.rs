//! `submissions/submissions.yaml` of ICPC packages (the 2023-07 draft and 2025-09): promises
//! per submission and per group of cases, kept and broken, on the `triangle` fixture and on
//! copies of it and of `maximum` (scores); and `triangle`'s VIVA input validator.

use std::path::Path;

use crate::packages::{copy, fixture, judge, require_languages, verifies};

#[test]
fn promises_per_group_and_a_validator_message_are_kept() {
    verifies(
        "triangle",
        "ICPC problem package (2023-07)",
        &[
            ("accepted/modules", "AC"),
            ("accepted/triangle.py", "AC"),
            ("overflow/int64.c", "WA"),
            ("run_time_error/recursive.py", "RE"),
            ("wrong_answer/int32.c", "WA"),
        ],
    );
}

/// `judge verify` on a copy of `triangle` whose `submissions.yaml` is `yaml` and the
/// `entrypoint` of `accepted/modules`: stdout and stderr, once the exit code is checked.
fn verify_with(yaml: &str, code: i32) -> (String, String) {
    verify_raw(
        &format!("{yaml}\naccepted/modules:\n  entrypoint: solve.py\n"),
        code,
    )
}

/// As [`verify_with`], with `yaml` alone.
fn verify_raw(yaml: &str, code: i32) -> (String, String) {
    require_languages(&fixture("triangle"));
    let tmp = copy("triangle");
    let root = tmp.path().join("triangle");
    std::fs::write(root.join("submissions/submissions.yaml"), yaml).expect("a write");
    let assert = judge()
        .args(["verify", "-j", "2"])
        .arg(&root)
        .assert()
        .code(code);
    let out = crate::stdout_of(&assert);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out, err)
}

fn has(text: &str, what: &str) {
    assert!(text.contains(what), "expected {what:?} in\n{text}");
}

#[test]
fn a_verdict_a_group_does_not_permit_fails_naming_the_case_and_the_key() {
    let (out, _) = verify_with("overflow:\n  secret/3-large:\n    permitted: [AC]\n", 1);
    has(
        &out,
        "FAILED overflow/int64.c: promised any+, got WA: WA on secret/3-large/1, which \
         `overflow: secret/3-large` does not permit (permitted: AC)",
    );
    has(&out, "4 kept their promise, 1 failed");
}

#[test]
fn a_required_verdict_no_case_got_fails() {
    // The first case of the medium group is judged (and a WA); the second is not (the group
    // stops), so only a promise of the first can be broken by it.
    let yaml = "overflow: {}\nwrong_answer/int32.c:\n  secret/2-medium/1:\n    required: [RTE]\n";
    let (out, _) = verify_with(yaml, 1);
    has(
        &out,
        "FAILED wrong_answer/int32.c: promised WA+, got WA: no case of secret/2-medium/1 got \
         one of RTE (required by `wrong_answer/int32.c: secret/2-medium/1`); got WA",
    );
    let yaml = "overflow: {}\nwrong_answer/int32.c:\n  secret/2-medium:\n    required: [RTE]\n";
    let (out, _) = verify_with(yaml, 0);
    has(&out, "5 kept their promise, 0 failed");
}

#[test]
fn a_message_no_validator_wrote_fails() {
    let yaml = "overflow: {}\naccepted/triangle.py:\n  message: sum of 1..3 is\n";
    let (out, _) = verify_with(yaml, 1);
    has(
        &out,
        "FAILED accepted/triangle.py: promised AC+, got AC: no validator message holds \
         \"sum of 1..3 is\" (required by `accepted/triangle.py`)",
    );
}

#[test]
fn a_key_naming_a_default_folder_replaces_what_it_gives() {
    // `accepted` keeps its default `permitted: [AC]` and now also requires a WA: no
    // submission can keep both.
    let (out, _) = verify_with("overflow: {}\naccepted:\n  required: [WA]\n", 1);
    has(
        &out,
        "FAILED accepted/triangle.py: promised AC, got AC: no case got one of WA (required \
         by `accepted`); got AC",
    );
    // Given both keys, the folder promises a wrong answer.
    let (out, _) = verify_with(
        "overflow: {}\nrun_time_error:\n  permitted: [AC, RTE, WA]\n  required: [RTE, WA]\n",
        0,
    );
    let row = out
        .lines()
        .find(|l| l.starts_with("run_time_error/recursive.py"))
        .expect("a row");
    assert!(row.contains(" AC,WA,RTE ") && row.ends_with("ok"), "{row}");
}

#[test]
fn what_is_not_read_or_matches_nothing_is_warned_of_and_a_bad_verdict_refused() {
    let yaml = "overflow:\n  use_for_time_limit: lower\n  secret/9-huge:\n    permitted: [AC]\n\
                nobody.py:\n  permitted: [AC]\n";
    let (_, err) = verify_with(yaml, 0);
    has(
        &err,
        "submissions.yaml: overflow: use_for_time_limit is not read",
    );
    has(
        &err,
        "submissions.yaml: overflow: secret/9-huge is neither a promise this file can hold nor a glob matching a test case or group; not read",
    );
    has(&err, "submissions.yaml: nobody.py matches no submission");
    // Without its key, the folder of our own is not judged.
    let (out, err) = verify_with("accepted: {}\n", 0);
    has(
        &err,
        "overflow: not a verdict folder the format knows, nor matched by submissions.yaml; its \
         submissions are not judged",
    );
    has(&out, "4 kept their promise, 0 failed");
    let (_, err) = verify_with("overflow:\n  permitted: [AC, MLE]\n", 2);
    has(
        &err,
        "submissions.yaml: overflow: permitted holds MLE, not one of AC, WA, TLE, RTE",
    );
    let (_, err) = verify_with("overflow: {a{b: {}}\n", 2);
    has(&err, "submissions.yaml");
}

#[test]
fn an_entrypoint_names_the_main_file_of_a_folder() {
    // Without it, neither file of the folder is main.*, nor says __main__.
    let (out, _) = verify_raw("overflow: {}\n", 1);
    has(&out, "FAILED accepted/modules: does not build\n    ");
    has(&out, "accepted/modules: cannot tell the main file");
    let (out, _) = verify_raw(
        "overflow: {}\naccepted/modules:\n  entrypoint: main.py\n",
        1,
    );
    has(
        &out,
        "accepted/modules: its entrypoint \"main.py\" names none of its files",
    );
    // Its name without the extension names it too.
    let (out, _) = verify_raw("overflow: {}\naccepted/modules:\n  entrypoint: solve\n", 0);
    has(&out, "5 kept their promise, 0 failed");
}

#[test]
fn expectations_yaml_is_named_as_not_read() {
    let tmp = copy("triangle");
    let root = tmp.path().join("triangle");
    std::fs::write(
        root.join("submissions/expectations.yaml"),
        "accepted: accepted\n",
    )
    .expect("a write");
    let assert = judge()
        .args(["verify", "--filter", "accepted"])
        .arg(&root)
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    has(
        &err,
        "expectations.yaml: not read: the format's expectations are in \
         submissions/submissions.yaml",
    );
}

#[test]
fn scores_of_the_submission_and_of_a_group_are_checked() {
    require_languages(&fixture("maximum"));
    let tmp = copy("maximum");
    let root = tmp.path().join("maximum");
    let write = |yaml: &str| {
        std::fs::write(root.join("submissions/submissions.yaml"), yaml).expect("a write");
    };
    let verify = |root: &Path, code: i32| {
        let assert = judge()
            .args(["verify", "--filter", "partially_accepted"])
            .arg(root)
            .assert()
            .code(code);
        crate::stdout_of(&assert)
    };
    write(
        "partially_accepted/small.py:\n  score: 30\n  secret/group1:\n    score: 30\n  \
         secret/group2:\n    score: [0, 10]\n",
    );
    has(&verify(&root, 0), "1 kept their promise, 0 failed");
    write("partially_accepted:\n  score: [50, 100]\n");
    has(
        &verify(&root, 1),
        "FAILED partially_accepted/small.py: promised partial+, got WA (score 30/100): score \
         30, where `partially_accepted` promises from 50 to 100",
    );
    write("partially_accepted:\n  secret/group2:\n    score: 70\n");
    has(
        &verify(&root, 1),
        "score 0 on secret/group2, where `partially_accepted: secret/group2` promises 70",
    );
}

/// `PATH` without the folders that hold a way to run VIVA (`viva`, `viva.sh`, or the
/// `verifyproblem` and `bt` whose installations ship `viva.jar`).
fn path_without_viva() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<std::path::PathBuf> = std::env::split_paths(&path)
        .filter(|d| {
            ["viva", "viva.sh", "verifyproblem", "bt"]
                .iter()
                .all(|t| !d.join(t).exists())
        })
        .collect();
    std::env::join_paths(kept).expect("a PATH")
}

#[test]
fn a_viva_validator_that_cannot_run_is_a_warning_unless_validating() {
    let root = fixture("triangle");
    judge()
        .env("PATH", path_without_viva())
        .args(["verify", "--filter", "accepted"])
        .arg(&root)
        .assert()
        .code(0)
        .stderr(predicates::str::contains(
            "input_validators/triangle.viva: a VIVA script, and no VIVA here",
        ));
    judge()
        .env("PATH", path_without_viva())
        .arg("validate")
        .arg(&root)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "input_validators/triangle.viva: a VIVA script, and no VIVA here",
        ));
}

#[test]
#[ignore = "slow tier, needs problemtools (pip install problemtools; VERIFYPROBLEM or PATH) and java: cargo test -- --ignored"]
fn a_viva_validator_is_run_by_validate_with_the_viva_jar_of_problemtools() {
    test_support::require_tool("java");
    let verifyproblem = std::env::var_os("VERIFYPROBLEM")
        .map_or_else(|| test_support::tool_path("verifyproblem"), Into::into);
    let bin = verifyproblem.parent().expect("a folder").to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&path_without_viva())),
    )
    .expect("a PATH");
    let tmp = copy("triangle");
    let root = tmp.path().join("triangle");
    judge()
        .env("PATH", &path)
        .arg("validate")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicates::str::ends_with("7 valid, 0 invalid\n"));
    std::fs::write(root.join("data/secret/2-medium/1.in"), "0\n").expect("a write");
    judge()
        .env("PATH", &path)
        .arg("validate")
        .arg(&root)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("INVALID secret/2-medium/1"))
        .stdout(predicates::str::contains("Failed constraint: 1 <= n"));
    std::fs::write(
        root.join("input_validators/triangle.viva"),
        "n (1 <= n <= ;\n",
    )
    .expect("a write");
    judge()
        .env("PATH", &path)
        .arg("validate")
        .arg(&root)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "neither 0 (valid) nor 1 (invalid)",
        ));
}

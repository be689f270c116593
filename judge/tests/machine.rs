//! `--format json` and `--junit FILE`.

use crate::{judge, stdout_of};

const MIXED: &str =
    "read x; case $x in 1) echo one;; 2) echo two;; 3) exit 3;; *) echo four;; esac";

#[test]
fn json_has_every_case_with_its_verdict() {
    let out = judge(&["mixed", "echo", "--cmd", MIXED, "--format", "json"])
        .assert()
        .code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&out)).expect("one JSON document");
    assert_eq!(v["passed"], 1);
    assert_eq!(v["failed"], 5);
    assert_eq!(v["jobs"], 1);
    let mixed = &v["suites"][0];
    assert_eq!(mixed["name"], "mixed");
    let verdicts: Vec<&str> = mixed["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["verdict"].as_str().expect("a verdict"))
        .collect();
    assert_eq!(verdicts, ["AC", "WA", "RE", "NO-ANSWER"]);
    assert_eq!(mixed["cases"][2]["exit_code"], 3);
    assert!(mixed["cases"][0]["time"].as_f64().expect("a time") > 0.0);
    assert!(mixed["cases"][1]["detail"]
        .as_str()
        .expect("a diff")
        .contains("line 1, column 1"));
    assert_eq!(v["suites"][1]["name"], "echo");
}

#[test]
fn junit_lists_suites_cases_and_failures() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let file = tmp.path().join("report.xml");
    judge(&[
        "mixed",
        "--cmd",
        MIXED,
        "--junit",
        file.to_str().expect("utf-8"),
    ])
    .assert()
    .code(1);
    let xml = std::fs::read_to_string(&file).expect("the JUnit file");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"judge\" tests=\"4\" failures=\"3\""));
    assert!(xml.contains("<testsuite name=\"mixed\" tests=\"4\" failures=\"3\""));
    assert!(xml.contains("<testcase name=\"01\" classname=\"mixed\" time=\""));
    assert!(xml.contains("<failure type=\"WA\" message=\"WA: first difference at line 1, column 1"));
    assert!(xml.contains("<failure type=\"RE\" message=\"RE: exit code 3\">"));
    assert!(xml.contains("<failure type=\"NO-ANSWER\""));
    assert_eq!(xml.matches("<testcase ").count(), 4);
    assert_eq!(xml.matches("</testcase>").count(), 3);
    assert!(xml.ends_with("</testsuites>\n"));
}

#[test]
fn an_unwritable_junit_file_is_a_setup_error() {
    judge(&[
        "echo",
        "--cmd",
        "cat",
        "--junit",
        "/nonexistent-folder/report.xml",
    ])
    .assert()
    .code(2);
}

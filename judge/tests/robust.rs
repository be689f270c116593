//! Programs that misbehave around their pipes must not hang the judge: they never read stdin,
//! close it early, flood stderr, or leave a process behind that holds the pipes open.

use std::time::{Duration, Instant};

use predicates::prelude::*;

use crate::{judge_in, temp_suite};

/// 4 MB of input, far more than a pipe holds, and its answer.
fn big_suite() -> tempfile::TempDir {
    let input = "7\n".repeat(2_000_000);
    temp_suite("big", &[("01", input.as_bytes(), Some(b"1 2\n"))])
}

fn quickly(args: &[&str], limit: Duration) -> assert_cmd::assert::Assert {
    let tmp = big_suite();
    let start = Instant::now();
    let assert = judge_in(tmp.path(), args).assert();
    assert!(
        start.elapsed() < limit,
        "{args:?} took {:?}",
        start.elapsed()
    );
    assert
}

#[test]
fn a_program_that_never_reads_stdin_is_judged() {
    quickly(&["big", "--cmd", "echo 1 2"], Duration::from_secs(5)).code(0);
    quickly(
        &["big", "--cmd", "exec 0<&-; echo 1 2"],
        Duration::from_secs(5),
    )
    .code(0);
}

#[test]
fn a_program_that_reads_a_little_then_closes_stdin_is_judged() {
    quickly(
        &["big", "--cmd", "head -c 10 >/dev/null; echo 1 2"],
        Duration::from_secs(5),
    )
    .code(0);
}

#[test]
fn flooding_stderr_does_not_block() {
    // 50 MB on stderr, then the answer; only the tail of stderr is kept.
    quickly(
        &["big", "--cmd", "head -c 50000000 /dev/zero >&2; echo 1 2"],
        Duration::from_secs(20),
    )
    .code(0);
}

#[test]
fn a_process_that_escapes_the_group_with_the_pipes_does_not_hold_the_judge() {
    // setsid moves the sleeper out of the process group, so a group kill would miss it; it holds
    // stdout and stderr open for 20 s. The judge must not wait for it: the measuring helper kills
    // it when the program exits (and the judge would give up on the pipes after 0.5 s).
    quickly(
        &["big", "--cmd", "setsid sleep 20 & echo 1 2"],
        Duration::from_secs(10),
    )
    .code(0)
    .stdout(predicate::str::contains("AC  ["));
}

#[test]
fn parallel_jobs_report_in_case_order_and_say_so() {
    // Case 01 sleeps longer than 02, so 02 finishes first; the report stays in case order.
    let tmp = temp_suite(
        "par",
        &[
            ("01", b"0.4\n", Some(b"0.4\n")),
            ("02", b"0\n", Some(b"0\n")),
            ("03", b"0.1\n", Some(b"0.1\n")),
        ],
    );
    let out = judge_in(
        tmp.path(),
        &["par", "-j", "3", "--cmd", "read t; sleep $t; echo $t"],
    )
    .assert()
    .code(0);
    let text = crate::stdout_of(&out);
    let order: Vec<usize> = ["par/01", "par/02", "par/03"]
        .iter()
        .map(|c| text.find(c).expect("every case reported"))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert!(text.contains("in parallel (-j 3)"), "{text}");
    assert!(text.ends_with("3 passed, 0 failed\n"));
}

#[test]
fn a_reader_that_stops_early_does_not_make_the_judge_panic() {
    // Like `judge | head -1`: stdout is closed after the first line; the later lines must not
    // panic the judge (print! would, on the broken pipe).
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("--testcases")
        .arg(crate::util::package().join("tests/fixtures/judge"))
        .args(["echo", "--cmd", "sleep 0.2; cat"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the judge starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    assert!(first.starts_with("AC  ["), "{first}");
    let out = child.wait_with_output().expect("the judge ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

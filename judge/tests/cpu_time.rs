//! CPU time, the default clock: the user and system time of every process of a run together (its
//! children, and the orphans it leaves behind, in the sandbox or not) limits it and is its time; a
//! run that sleeps is stopped at the wall-time backstop (the larger of twice the limit and the
//! limit plus 1 s); `--time wall` limits and times on the wall clock.
//!
//! The limits are small, so that a busy program reaches its CPU limit long before the backstop
//! even on a loaded machine (with a load of 14 on 2 processors, a spinning program got a fifth of
//! one), and these tests run one at a time, so that their spinning programs do not slow each
//! other. The CPU time of a fixed amount of work varies by a third from run to
//! run on a shared machine: so the processes that do it say their own CPU time (the shell's
//! `times`, on stderr, shown in the detail of an `RE`), and the judge's figure is compared with
//! theirs.

use std::sync::Mutex;
use std::time::Instant;

use crate::{judge_in, stdout_of, temp_suite};

/// A loop of the shell that spins forever.
const SPIN: &str = "while :; do :; done";

/// A fixed amount of work for the shell, some 0.3 s of CPU time, then the shell's own CPU time
/// on stderr (`times`: `0m0.300000s 0m0.000000s`, user and system, then the same for its children).
const WORK: &str = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; times >&2";

/// A run of `cmd` on one case (`1` in, `1` expected) with `args`, in the sandbox or not: its exit
/// code and the case as the JSON report says.
fn run(cmd: &str, args: &[&str], sandbox: bool) -> (i32, serde_json::Value) {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let mut all = vec!["s", "--format", "json", "--cmd", cmd];
    all.extend_from_slice(args);
    let mut judge = judge_in(tmp.path(), &all);
    if !sandbox {
        judge.env("JUDGE_NO_SANDBOX", "1");
    }
    let out = judge.assert();
    let code = out.get_output().status.code().unwrap_or(-1);
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&out)).expect("a JSON report");
    (code, report["suites"][0]["cases"][0].clone())
}

/// A number of the case's report.
fn number(case: &serde_json::Value, key: &str) -> f64 {
    case[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key}: {case}"))
}

/// The detail of the case's report.
fn detail(case: &serde_json::Value) -> &str {
    case["detail"].as_str().unwrap_or("")
}

/// The CPU time, in seconds, that the processes said with `times` in the stderr shown in `detail`.
fn said(detail: &str) -> f64 {
    let seconds = |word: &str| -> Option<f64> {
        let (m, s) = word.strip_suffix('s')?.split_once('m')?;
        Some(m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?)
    };
    let said: Vec<f64> = detail
        .lines()
        .filter_map(|l| {
            let (user, system) = l.trim().split_once(' ')?;
            Some(seconds(user)? + seconds(system)?)
        })
        .collect();
    assert!(!said.is_empty(), "no times in {detail:?}");
    said.iter().sum()
}

/// One clock tick of `times`, and of `/proc`: what the figures may differ by for each process.
const TICK: f64 = 0.01;

#[test]
fn a_busy_program_is_stopped_past_its_cpu_limit() {
    let (code, case) = run(SPIN, &["--time-limit", "0.1"], true);
    assert_eq!((code, &case["verdict"]), (1, &"TLE".into()), "{case}");
    let (time, cpu) = (number(&case, "time"), number(&case, "cpu"));
    assert!(cpu >= 0.1, "{case}");
    assert_eq!(time, cpu, "the time is the CPU time: {case}");
    assert!(
        detail(&case).contains("s of CPU time, past the limit of 0.1 s"),
        "{case}"
    );
}

#[test]
fn a_sleeping_program_is_stopped_at_the_wall_time_backstop() {
    let start = Instant::now();
    let (code, case) = run("sleep 10", &["--time-limit", "0.2"], true);
    assert_eq!((code, &case["verdict"]), (1, &"TLE".into()), "{case}");
    let (cpu, wall) = (number(&case, "cpu"), number(&case, "wall"));
    // 0.2 s plus 1 s, the larger of the two.
    assert!((1.2..5.0).contains(&wall), "{case}");
    assert!(cpu < 0.2, "{case}");
    assert!(
        detail(&case).starts_with("killed at the wall-time limit of 1.2 s with "),
        "{case}"
    );
    assert!(start.elapsed().as_secs() < 8);
}

#[test]
fn children_that_burn_the_cpu_are_charged() {
    // Stopped: two spinning children reach the limit while the shell itself only waits.
    let cmd = format!("sh -c '{SPIN}' & sh -c '{SPIN}'; wait");
    let (code, case) = run(&cmd, &["--time-limit", "0.2"], true);
    assert_eq!((code, &case["verdict"]), (1, &"TLE".into()), "{case}");
    assert!(number(&case, "cpu") >= 0.2, "{case}");
    assert!(
        detail(&case).contains("of CPU time, past the limit"),
        "{case}"
    );
    // Ended: the CPU time of the program is at least what both children said they used.
    let cmd = format!("sh -c '{WORK}' & sh -c '{WORK}'; wait; exit 3");
    let (code, case) = run(&cmd, &["--time-limit", "20"], true);
    assert_eq!((code, &case["verdict"]), (1, &"RE".into()), "{case}");
    let (cpu, said) = (number(&case, "cpu"), said(detail(&case)));
    assert!(said > 0.05, "{case}");
    assert!(
        cpu >= said - 2.0 * TICK,
        "{cpu} s, the children said {said} s: {case}"
    );
}

#[test]
fn an_orphan_left_running_is_charged_in_the_sandbox_and_without() {
    for sandbox in [true, false] {
        // Its parent, a subshell, ends at once: the orphan spins while the program sleeps.
        let cmd = format!("( sh -c '{SPIN}' & ); sleep 10");
        let (code, case) = run(&cmd, &["--time-limit", "0.05"], sandbox);
        assert_eq!((code, &case["verdict"]), (1, &"TLE".into()), "{case}");
        assert!(number(&case, "cpu") >= 0.05, "sandbox {sandbox}: {case}");
        assert!(
            detail(&case).contains("of CPU time, past the limit"),
            "{case}"
        );
    }
    for sandbox in [true, false] {
        // An orphan that does the work, tells the program through a pipe, then spins on: killed
        // when the program ends, it is charged for what it used until then.
        let cmd = format!(
            "mkfifo \"$TMPDIR/done\"; ( ( {WORK}; echo >\"$TMPDIR/done\"; {SPIN} ) & ); \
             read x <\"$TMPDIR/done\"; exit 3"
        );
        let (code, case) = run(&cmd, &["--time-limit", "20"], sandbox);
        assert_eq!((code, &case["verdict"]), (1, &"RE".into()), "{case}");
        let (cpu, said) = (number(&case, "cpu"), said(detail(&case)));
        assert!(said > 0.05, "{case}");
        assert!(
            cpu >= said - TICK,
            "sandbox {sandbox}: {cpu} s, it said {said} s: {case}"
        );
    }
}

#[test]
fn time_wall_limits_and_times_on_the_wall_clock() {
    let start = Instant::now();
    let (code, case) = run("sleep 10", &["--time-limit", "0.3", "--time", "wall"], true);
    assert_eq!((code, &case["verdict"]), (1, &"TLE".into()), "{case}");
    let (time, wall) = (number(&case, "time"), number(&case, "wall"));
    assert_eq!(time, wall, "the time is the wall time: {case}");
    assert!((0.3..1.2).contains(&wall), "stopped at the limit: {case}");
    assert_eq!(
        detail(&case),
        "killed after the time limit of 0.3 s",
        "{case}"
    );
    assert!(start.elapsed().as_secs() < 5);
    // A program that ends has its wall time as its time.
    let (code, case) = run("sleep 0.3; echo 1", &["--time", "wall"], true);
    assert_eq!((code, &case["verdict"]), (0, &"AC".into()), "{case}");
    assert!(number(&case, "time") >= 0.3, "{case}");
    assert!(number(&case, "cpu") < 0.3, "{case}");
}

/// Processes killed when dropped, also when a test fails.
struct Busy(Vec<std::process::Child>);

impl Drop for Busy {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What `judge verify` said of a package: each submission's verdict and whether it kept its
/// promise, and the time limit in seconds.
fn verified(package: &std::path::Path) -> (Vec<(String, String, String)>, f64) {
    let out = crate::util::bin("judge")
        .arg("verify")
        .arg(package)
        .output()
        .expect("judge verify runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let rows = text
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let (first, last) = (words.first()?, words.last()?);
            let verdict = words.get(words.len().checked_sub(2)?)?;
            // A submission's row: its path below `submissions/` first (the first line, the
            // package's path, ends with a colon).
            (first.contains('/') && !first.ends_with(':'))
                .then(|| (first.to_string(), verdict.to_string(), last.to_string()))
        })
        .collect();
    let limit = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("time limit ")?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no time limit in {text}"));
    (rows, limit)
}

#[test]
#[ignore = "slow tier (a minute or more, two busy loops): cargo test -- --ignored"]
fn verify_gives_the_same_verdicts_and_limit_five_times_under_load() {
    // A package whose limit is computed from its accepted submissions, with a submission that
    // spins: verified five times while two busy loops load both processors.
    test_support::require_tool("python3");
    let package = crate::util::package().join("tests/fixtures/packages/average");
    let spin = || {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(SPIN)
            .spawn()
            .expect("sh starts")
    };
    let busy = Busy(vec![spin(), spin()]);
    let runs: Vec<_> = (0..5).map(|_| verified(&package)).collect();
    drop(busy);
    let (rows, _) = &runs[0];
    assert!(rows.len() >= 5, "{rows:?}");
    for (other, limit) in &runs {
        assert_eq!(other, rows, "the verdicts differ");
        assert!(other.iter().all(|r| r.2 == "ok"), "{other:?}");
        // The limit is rounded up to whole seconds: one step apart at most.
        let limits: Vec<f64> = runs.iter().map(|r| r.1).collect();
        let spread = limits.iter().fold(0.0_f64, |m, l| m.max((l - limit).abs()));
        assert!(spread <= 1.0, "limits {limits:?}");
    }
}

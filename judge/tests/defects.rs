//! The judge's setup errors and wording: a filter that matches nothing, paths checked before
//! any case runs, a crashing reference in `record`, unknown suites, a missing test-case folder,
//! memory in MiB measured as `/usr/bin/time` does, testlib checkers.

use predicates::prelude::*;
use test_support::require_tool;

use crate::{judge, judge_in, temp_suite, util};

#[test]
fn a_filter_that_matches_nothing_lists_the_cases() {
    judge(&["echo", "--cmd", "cat", "--filter", "zzz"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("judge: --filter \"zzz\" matches no case; the cases are echo/01, echo/02\n");
}

#[test]
fn a_bad_junit_path_is_reported_before_any_case_runs() {
    judge(&["echo", "--cmd", "cat", "--junit", "/nonexistent/dir/j.xml"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "judge: --junit /nonexistent/dir/j.xml: no folder /nonexistent/dir to write it in\n",
        );
    util::bin("judge")
        .args(["bundle", "minimax", "-o", "/nonexistent/dir/b.rs"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "-o /nonexistent/dir/b.rs: no folder",
        ));
}

#[test]
fn record_shows_a_crashing_reference_and_writes_no_exit_code() {
    // A Python reference that raises.
    let tmp = temp_suite("s", &[("01", b"1\n", None)]);
    let raise = "python3 -c 'raise ValueError(\"no answer here\")'";
    util::bin("judge")
        .args(["record", "s", "--cmd", raise, "--testcases"])
        .arg(tmp.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "FAILED s/01: the reference exited with code 1",
        ))
        .stdout(predicate::str::contains("    ValueError: no answer here\n"));
    assert!(!tmp.path().join("s/01.out").exists());
    assert!(!tmp.path().join("s/01.exit").exists());
}

#[test]
fn an_unknown_suite_lists_the_suites() {
    judge(&["nosuch", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no suite named \"nosuch\" in "))
        .stderr(predicate::str::contains(
            "; the suites are bundle, checker, echo, exits,",
        ));
}

#[test]
fn outside_a_checkout_the_error_says_where_it_looked() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let looked = tmp.path().join("testcases");
    util::bin("judge")
        .current_dir(tmp.path())
        .args(["--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(format!(
            "judge: no test-case folder at {}: run the judge from the project's root, or name \
             the folder with --testcases DIR\n",
            looked.display()
        ));
}

#[test]
fn wording_one_memory_unit_singular_lines_and_subcommand_usage() {
    judge(&["echo", "--cmd", "echo a", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(" MiB] echo/01"))
        .stdout(predicate::str::contains("(expected 1 line, got 1)"))
        .stdout(predicate::str::contains("; peak "))
        .stdout(predicate::str::contains(" MB").not());
    for (sub, usage) in [
        ("bundle", "Usage: judge bundle "),
        ("record", "Usage: judge record "),
        ("stress", "Usage: judge stress "),
    ] {
        util::bin("judge")
            .args([sub, "--help"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains(usage));
    }
}

/// The mean of `n` measures: a shell's peak memory varies by up to 15% from run to run (the same
/// under the judge and under `/usr/bin/time`), so a tiny program is measured many times.
fn mean(n: u64, measure: impl Fn() -> u64) -> u64 {
    (0..n).map(|_| measure()).sum::<u64>() / n
}

/// The peak memory in KiB that the judge reports for `cmd`, from its JSON report. The case must
/// be `AC`: a run stopped on the time limit reports the memory it had reached when it was
/// stopped, which for the 100 MiB program can be any part of it. Hence a time limit far above
/// the program's time, even on a loaded machine (the default 2 s was reached by the 100 MiB
/// program, a 0.2 s run alone, while the judge's other tests ran beside it).
fn judged_kib(cmd: &str) -> u64 {
    let tmp = temp_suite("m", &[("01", b"", Some(b""))]);
    let args = ["m", "--cmd", cmd, "--format", "json", "--time-limit", "60"];
    let out = judge_in(tmp.path(), &args)
        .output()
        .expect("the judge runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let case = &json["suites"][0]["cases"][0];
    assert_eq!(case["verdict"], "AC", "{cmd}: {case}");
    case["memory"].as_u64().expect("memory") / 1024
}

/// The peak memory in KiB that `/usr/bin/time` reports for the program and arguments `argv`,
/// which must succeed.
fn time_kib(argv: &[&str]) -> u64 {
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .args(argv)
        .output()
        .expect("/usr/bin/time runs");
    assert!(
        out.status.success(),
        "/usr/bin/time {argv:?}: {}",
        out.status
    );
    let text = String::from_utf8_lossy(&out.stderr);
    text.lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("a figure")
}

#[test]
#[ignore = "slow tier, needs /usr/bin/time and python3: cargo test -- --ignored"]
fn memory_agrees_with_usr_bin_time() {
    require_tool("/usr/bin/time");
    require_tool("python3");
    // A tiny program, and one that touches 100 MiB; both simple commands, which the judge runs
    // without a shell, as `/usr/bin/time` runs them here.
    let python = ["python3", "-c", "b = b\"x\" * (100 << 20)"];
    for (cmd, argv, n) in [
        ("true", &["true"][..], 15),
        ("python3 -c 'b = b\"x\" * (100 << 20)'", &python[..], 3),
    ] {
        let judged = mean(n, || judged_kib(cmd));
        let timed = mean(n, || time_kib(argv));
        let ratio = judged as f64 / timed as f64;
        eprintln!("{cmd}: judge {judged} KiB, /usr/bin/time {timed} KiB");
        assert!(
            (0.9..=1.1).contains(&ratio),
            "{cmd}: judge {judged} KiB, /usr/bin/time {timed} KiB"
        );
    }
}

#[test]
fn testlib_checker_codes() {
    // The checker exits with the code the program printed, and says so.
    let cases: [crate::TempCase; 4] = [
        ("01", b"0\n", Some(b"")),
        ("02", b"1\n", Some(b"")),
        ("03", b"2\n", Some(b"")),
        ("04", b"7\n", Some(b"")),
    ];
    let tmp = temp_suite("t", &cases);
    let dir = tmp.path().join("t");
    std::fs::write(
        dir.join("check.sh"),
        "read c < \"$2\"; echo \"said $c\"; exit $c\n",
    )
    .expect("checker");
    let toml = "compare = \"checker\"\nchecker = \"sh check.sh\"\n";
    std::fs::write(dir.join("suite.toml"), toml).expect("toml");
    judge_in(tmp.path(), &["t", "--cmd", "cat"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("AC  ["))
        .stdout(predicate::str::contains(
            "checker exit code 1 (wrong answer)\n    said 1",
        ))
        .stdout(predicate::str::contains("PE  ["))
        .stdout(predicate::str::contains(
            "checker exit code 2 (presentation error)",
        ))
        .stdout(predicate::str::contains(
            "checker exit code 7 (partial points)",
        ))
        .stdout(predicate::str::ends_with("1 passed, 3 failed\n"));
    // 3: the checker itself failed, a setup error.
    std::fs::write(dir.join("05.in"), "3\n").expect("input");
    std::fs::write(dir.join("05.out"), "").expect("output");
    judge_in(tmp.path(), &["t", "--cmd", "cat", "--filter", "05"])
        .assert()
        .code(2)
        .stderr("judge: the checker \"sh check.sh\" failed (exit 3): said 3\n");
    // Plain scripts: any code other than 0 is WA.
    std::fs::write(
        dir.join("suite.toml"),
        format!("{toml}checker_codes = \"any\"\n"),
    )
    .expect("toml");
    judge_in(tmp.path(), &["t", "--cmd", "cat", "--filter", "03"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["))
        .stdout(predicate::str::contains(
            "checker exit code 2 (wrong answer)",
        ));
}

#[test]
#[ignore = "slow tier, needs g++, rustc, python3 and gcc: cargo test -- --ignored"]
fn source_files_are_compiled_or_run() {
    let tmp = temp_suite("s", &[("01", b"3 4\n", Some(b"7\n"))]);
    let sources = [
        (
            "sol.cpp",
            "g++",
            "#include <cstdio>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}\n",
        ),
        (
            "sol.rs",
            "rustc",
            "use std::io::Read;\nfn main() { let mut s = String::new(); \
             std::io::stdin().read_to_string(&mut s).unwrap(); \
             println!(\"{}\", s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum::<i64>()); }\n",
        ),
        ("sol.py", "python3", "print(sum(map(int, input().split())))\n"),
    ];
    for (name, tool, text) in sources {
        require_tool(tool);
        let path = tmp.path().join(name);
        std::fs::write(&path, text).expect("a source file");
        let cmd = path.display().to_string();
        // A generous limit: a Python start or a run beside the other tests can pass the default 2 s.
        judge_in(tmp.path(), &["s", "--cmd", &cmd, "--time-limit", "60"])
            .assert()
            .code(0);
    }
    require_tool("gcc");
    {
        // A compile error is shown in full, before any case runs.
        let path = tmp.path().join("bad.c");
        std::fs::write(&path, "int main() { return x; }\n").expect("a source file");
        judge_in(tmp.path(), &["s", "--cmd", &path.display().to_string()])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with("judge: gcc could not compile "))
            .stderr(
                predicate::str::contains("error: 'x' undeclared")
                    .or(predicate::str::contains("error: ‘x’ undeclared")),
            );
    }
}

/// Source files are paths, never shell words or options: a Java file named
/// `x;touch${IFS}PWNED;.java` once ran the `touch` in its name (its class went unquoted into
/// `java -cp DIR CLASS`), `A$B.java` could not run, and a C file named `-x.c` reached gcc as an
/// option.
#[test]
#[ignore = "slow tier, needs javac and gcc: cargo test -- --ignored"]
fn odd_source_file_names_are_plain_paths() {
    require_tool("javac");
    require_tool("gcc");
    let tmp = temp_suite("s", &[("01", b"3 4\n", Some(b"7\n"))]);
    let java = |class: &str| {
        format!(
            "import java.util.Scanner;\npublic class {class} {{ public static void main(String[] a) \
             {{ Scanner s = new Scanner(System.in); System.out.println(s.nextInt() + s.nextInt()); }} }}\n"
        )
    };
    let dollar = tmp.path().join("A$B.java");
    std::fs::write(&dollar, java("A$B")).expect("a source file");
    judge_in(
        tmp.path(),
        &[
            "s",
            "--cmd",
            &dollar.display().to_string(),
            "--time-limit",
            "30",
        ],
    )
    .assert()
    .code(0);
    let minus = tmp.path().join("-x.c");
    std::fs::write(
        &minus,
        "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}\n",
    )
    .expect("a source file");
    judge_in(tmp.path(), &["s", "--cmd", &minus.display().to_string()])
        .assert()
        .code(0);
    let hostile = tmp.path().join("x;touch${IFS}PWNED;.java");
    std::fs::write(&hostile, java("Main").replace("public class", "class")).expect("a file");
    let _ = judge_in(tmp.path(), &["s", "--cmd", &hostile.display().to_string()]).output();
    let pwned = |dir: &std::path::Path| dir.join("PWNED").exists() || dir.join("s/PWNED").exists();
    assert!(!pwned(tmp.path()) && !pwned(&std::env::current_dir().unwrap()));
}

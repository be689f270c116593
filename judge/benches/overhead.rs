//! The judge's cost per case: 200 tiny cases of a + b (a C binary) judged at `-j 1`, beside the
//! same 200 runs from a shell loop, the judge without its box (`JUDGE_NO_SANDBOX=1`), the judge
//! starting each helper by `exec` instead of its zygote (`JUDGE_NO_ZYGOTE=1`) and, where it is
//! installed, `oj test` (online-judge-tools). Prints each one's median wall time over
//! `ROUNDS` rounds (the commands alternating within a round) and the judge's overhead per case
//! over the shell loop, median of the paired differences.
//!
//! `cargo bench -p judge --bench overhead` (release profile). Needs `gcc`; `oj` is found on
//! `PATH` or named by `OJ`. The cases lie in a folder below the build's `target/` (a project's
//! folder, not the system's temporary folder, where each case's private `/tmp` would need a
//! mount point for the project's folder too).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CASES: usize = 200;
const ROUNDS: usize = 7;

fn main() {
    if Command::new("gcc").arg("--version").output().is_err() {
        println!("overhead: skipped (no gcc)");
        return;
    }
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a temporary folder");
    let dir = tmp.path();
    let binary = dir.join("sum");
    std::fs::write(
        dir.join("sum.c"),
        "#include <stdio.h>\nint main(void){long a,b;if(scanf(\"%ld %ld\",&a,&b)!=2)return 1;\
         printf(\"%ld\\n\",a+b);return 0;}\n",
    )
    .expect("the source");
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(dir.join("sum.c"))
        .status()
        .expect("gcc runs");
    assert!(built.success(), "gcc failed");
    let suite = dir.join("many/s");
    std::fs::create_dir_all(&suite).expect("the suite");
    for i in 0..CASES {
        std::fs::write(suite.join(format!("{i:03}.in")), format!("{i} {}\n", i + 1)).expect("in");
        std::fs::write(
            suite.join(format!("{i:03}.out")),
            format!("{}\n", 2 * i + 1),
        )
        .expect("out");
    }
    let judge = env!("CARGO_BIN_EXE_judge");
    let bin = binary.to_str().expect("utf-8");
    let loop_cmd = format!(
        "for f in {}/*.in; do {bin} < \"$f\" > /dev/null; done",
        suite.display()
    );
    let mut runs: Vec<(&str, Command)> = vec![
        ("shell loop", shell(&loop_cmd)),
        ("judge", judge_cmd(judge, dir, bin, false)),
        ("judge, no box", judge_cmd(judge, dir, bin, true)),
        ("judge, exec", {
            let mut cmd = judge_cmd(judge, dir, bin, false);
            cmd.env("JUDGE_NO_ZYGOTE", "1");
            cmd
        }),
    ];
    let oj = std::env::var("OJ").unwrap_or_else(|_| "oj".to_string());
    if Command::new(&oj).arg("--version").output().is_ok() {
        let mut oj = Command::new(&oj);
        oj.args(["test", "-c", bin, "-d"])
            .arg(&suite)
            .args(["-f", "%s.%e"]);
        runs.push(("oj test", oj));
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); runs.len()];
    for _ in 0..ROUNDS {
        for (i, (name, cmd)) in runs.iter_mut().enumerate() {
            let start = Instant::now();
            let status = cmd
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("runs");
            times[i].push(start.elapsed());
            assert!(status.success(), "{name} failed");
        }
    }
    println!("{CASES} cases of a + b at -j 1, {ROUNDS} rounds, median wall time:");
    for ((name, _), t) in runs.iter().zip(&times) {
        println!("  {name:14} {:8.3} s", median(t.clone()).as_secs_f64());
    }
    for (i, (name, _)) in runs.iter().enumerate().skip(1) {
        let paired: Vec<Duration> = times[i]
            .iter()
            .zip(&times[0])
            .map(|(a, b)| a.saturating_sub(*b))
            .collect();
        let per_case = median(paired).as_secs_f64() * 1000.0 / CASES as f64;
        println!("  {name:14} over the shell loop: {per_case:.2} ms a case (median of paired differences)");
    }
}

fn shell(script: &str) -> Command {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", script]);
    cmd
}

fn judge_cmd(judge: &str, dir: &Path, bin: &str, no_box: bool) -> Command {
    let mut cmd = Command::new(judge);
    cmd.current_dir(dir)
        .args(["--testcases", "many", "s", "-j", "1", "--cmd", bin]);
    if no_box {
        cmd.env("JUDGE_NO_SANDBOX", "1");
    } else {
        cmd.env_remove("JUDGE_NO_SANDBOX");
    }
    cmd
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

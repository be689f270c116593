//! Hostile programs: each gets the verdict it must, and the judge stays within generous bounds
//! of its own time and memory (its peak RSS, `VmHWM`, read while it runs), leaving nothing of the
//! program running. The table is in `docs/reliability.md`.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use test_support::require_tool;

use crate::temp_suite;
use crate::util::{process_running, processes_mentioning};

/// The judge's own peak memory may not go past this.
const JUDGE_RSS_KIB: u64 = 200 * 1024;

/// Nor its wall time past this (a bound against hangs, not a benchmark).
const JUDGE_WALL: Duration = Duration::from_secs(30);

/// A finished judge: its exit code, output, peak RSS and wall time.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    peak_kib: u64,
    wall: Duration,
}

/// Runs `cmd` (the judge, possibly under a wrapper that execs it), reading its `VmHWM` every few
/// milliseconds until it exits; asserts the bounds, and that it did not panic. Prints the
/// figures, labelled `what` (`cargo test hostile -- --nocapture` shows them).
fn measured(what: &str, mut cmd: Command) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the judge starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the judge can be waited for") {
            break status;
        }
        peak_kib = peak_kib.max(hwm(&status_file));
        assert!(start.elapsed() < JUDGE_WALL * 2, "the judge hangs");
        std::thread::sleep(Duration::from_millis(5));
    };
    let run = Run {
        code: status.code(),
        stdout: out.join().expect("stdout"),
        stderr: err.join().expect("stderr"),
        peak_kib,
        wall: start.elapsed(),
    };
    let first = run
        .stdout
        .lines()
        .next()
        .unwrap_or("")
        .split(' ')
        .next()
        .unwrap_or("");
    eprintln!(
        "hostile: {what}: {first}, exit {:?}, judge peak {:.1} MiB, {:.2} s",
        run.code,
        run.peak_kib as f64 / 1024.0,
        run.wall.as_secs_f64()
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(
        run.peak_kib < JUDGE_RSS_KIB,
        "judge peak {} KiB",
        run.peak_kib
    );
    assert!(run.wall < JUDGE_WALL, "judge took {:?}", run.wall);
    run
}

/// `VmHWM` in KiB from a `/proc/N/status`, 0 if it cannot be read.
fn hwm(status_file: &str) -> u64 {
    let text = std::fs::read_to_string(status_file).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The judge on suite `s` of `dir` with `args`.
fn judge(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.arg("--testcases").arg(dir).arg("s").args(args);
    cmd
}

/// The judge as [`judge`] does, with the sandbox turned off (`JUDGE_NO_SANDBOX`): for the tests
/// whose programs report their pids in files of the test's folder, read-only in the sandbox, and
/// which check the helper's own cleanup, all there is where namespaces are refused.
fn unsandboxed(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = judge(dir, args);
    cmd.env("JUDGE_NO_SANDBOX", "1");
    cmd
}

/// A suite `s` with one case, input `1`, answer `1`.
fn one_case() -> tempfile::TempDir {
    temp_suite("s", &[("01", b"1\n", Some(b"1\n"))])
}

/// Whether process `pid` is gone (or a zombie), polled for up to 5 s: a killed process takes a
/// moment to exit.
fn gone(pid: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(") ").next().unwrap_or("").chars().next();
        if matches!(state, None | Some('Z')) {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pid written to `file`, waiting for it up to 10 s.
fn pid_in(file: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(file) {
            if text.ends_with('\n') {
                return text.trim().to_owned();
            }
        }
        assert!(Instant::now() < deadline, "no pid in {}", file.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn processes_that_leave_the_group_end_with_their_case() {
    // Each sleeper writes its pid, then sleeps long after the program (`echo 1`, once the pid is
    // written) has exited.
    let tmp = one_case();
    let escapes = [
        (
            "setsid",
            "setsid sh -c 'echo $$ > PID; exec sleep 61' & DONE",
        ),
        (
            "set -m",
            "set -m; sh -c 'echo $$ > PID; exec sleep 62' & DONE",
        ),
        (
            "setpgid",
            "perl -e 'setpgrp(0, 0); exec q{sh}, q{-c}, q{echo $$ > PID; exec sleep 63}' & DONE",
        ),
        (
            "setsid -f",
            "setsid -f sh -c 'echo $$ > PID; exec sleep 64'; DONE",
        ),
    ];
    for (how, cmd) in escapes {
        let file = tmp.path().join(how.replace(' ', "_"));
        let done = "while [ ! -s PID ]; do sleep 0.01; done; echo 1";
        let cmd = cmd
            .replace("DONE", done)
            .replace("PID", &file.display().to_string());
        let run = measured(how, unsandboxed(tmp.path(), &["--cmd", &cmd]));
        assert_eq!(run.code, Some(0), "{how}: {}", run.stdout);
        let pid = pid_in(&file);
        assert!(gone(&pid), "{how}: process {pid} outlived the judge");
    }
}

#[test]
fn without_pidfds_processes_that_leave_the_group_still_end_with_their_case() {
    // `JUDGE_NO_PIDFD` makes the judge kill by pid, as on kernels without pidfds (before 5.3).
    let tmp = one_case();
    let file = tmp.path().join("pid");
    let cmd = format!(
        "setsid -f sh -c 'echo $$ > {0}; exec sleep 71'; while [ ! -s {0} ]; do sleep 0.01; done; \
         echo 1",
        file.display()
    );
    let mut judge = unsandboxed(tmp.path(), &["--cmd", &cmd]);
    judge.env("JUDGE_NO_PIDFD", "1");
    let run = measured("setsid -f, without pidfds", judge);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let pid = pid_in(&file);
    assert!(gone(&pid), "process {pid} outlived the judge");
}

#[test]
fn a_program_that_kills_its_measuring_helper_is_still_ended() {
    // The program's parent is the judge's helper; with it gone, the program and a sleeper in a
    // session of its own are adopted by the judge, which ends them.
    let tmp = one_case();
    let (sleeper, program) = (tmp.path().join("sleeper"), tmp.path().join("program"));
    let cmd = format!(
        "setsid sh -c 'echo $$ > {s}; exec sleep 69' & while [ ! -s {s} ]; do sleep 0.01; done; \
         echo $$ > {p}; kill -9 $PPID; exec sleep 70",
        s = sleeper.display(),
        p = program.display()
    );
    let run = measured(
        "killing its helper",
        unsandboxed(tmp.path(), &["--cmd", &cmd]),
    );
    assert!(run.stdout.starts_with("RE"), "{}", run.stdout);
    for file in [sleeper, program] {
        let pid = pid_in(&file);
        assert!(gone(&pid), "{} outlived the judge", file.display());
    }
}

#[test]
fn memory_of_a_process_that_left_the_group_is_counted() {
    // `setsid -f` starts the allocation in a session of its own; the program exits after it.
    let tmp = one_case();
    let cmd = "setsid -f perl -e '$x = q{a} x 300_000_000; sleep 5'; sleep 1; echo 1";
    let run = measured(
        "setsid -f allocating 300 MB",
        judge(tmp.path(), &["--memory-limit", "100", "--cmd", cmd]),
    );
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(run.stdout.starts_with("MLE"), "{}", run.stdout);
}

#[test]
fn children_that_ignore_sigterm_are_killed_at_the_time_limit() {
    let tmp = one_case();
    let file = tmp.path().join("pid");
    let cmd = format!(
        "trap '' TERM; setsid sh -c \"trap '' TERM; echo \\$\\$ > {}; exec sleep 65\" & sleep 60",
        file.display()
    );
    let run = measured(
        "ignoring SIGTERM",
        unsandboxed(tmp.path(), &["--time-limit", "1", "--cmd", &cmd]),
    );
    assert!(run.stdout.starts_with("TLE"), "{}", run.stdout);
    assert!(gone(&pid_in(&file)), "the sleeper outlived the judge");
}

#[test]
fn two_gb_of_stdout_is_an_output_limit_in_bounded_memory() {
    let tmp = one_case();
    let cmd = "head -c 2000000000 /dev/zero";
    let run = measured(
        "2 GB of stdout",
        judge(tmp.path(), &["--time-limit", "20", "--cmd", cmd]),
    );
    assert!(run.stdout.starts_with("OLE"), "{}", run.stdout);
}

#[test]
fn sixty_mb_of_empty_lines_are_compared_in_bounded_memory() {
    // Under the 64 MiB output cap, so compared: this took the judge to 1.1 GB before.
    let tmp = one_case();
    let cmd = "head -c 60000000 /dev/zero | tr '\\0' '\\n'; echo 2";
    let run = measured(
        "60 MB of empty lines",
        judge(tmp.path(), &["--time-limit", "20", "--cmd", cmd]),
    );
    assert!(run.stdout.starts_with("WA"), "{}", run.stdout);
    assert!(run.stdout.contains("got 60000001)"), "{}", run.stdout);
}

#[test]
fn two_gb_of_stderr_is_drained_in_bounded_memory() {
    let tmp = one_case();
    let cmd = "head -c 2000000000 /dev/zero >&2; echo 1";
    let run = measured(
        "2 GB of stderr",
        judge(tmp.path(), &["--time-limit", "25", "--cmd", cmd]),
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
}

#[test]
fn a_huge_allocation_is_a_memory_limit() {
    let tmp = one_case();
    let cmd = "perl -e '$x = q{a} x 2_000_000_000; print qq{1\\n}'";
    let run = measured(
        "allocating 2 GB",
        // The memory limit stops it, not the time: under the default 2 s, with the judge's
        // other tests beside it, it was once TLE at 221 MiB.
        judge(
            tmp.path(),
            &["--memory-limit", "256", "--time-limit", "20", "--cmd", cmd],
        ),
    );
    assert!(run.stdout.starts_with("MLE"), "{}", run.stdout);
}

#[test]
fn planted_symlinks_do_not_redirect_the_checker_output() {
    // The program plants symlinks to a victim file at the old predictable names, and leaves a
    // process that keeps planting them in every judge folder; the checker compares files.
    let tmp = one_case();
    let dir = tmp.path().join("s");
    let toml = "compare = \"checker\"\nchecker = \"sh -c 'cmp -s \\\"$2\\\" \\\"$3\\\"' check\"\n";
    std::fs::write(dir.join("suite.toml"), toml).expect("toml");
    let scratch = tmp.path().join("tmp");
    std::fs::create_dir(&scratch).expect("a temporary folder");
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "precious\n").expect("the victim");
    let cmd = format!(
        "T={t}; j=$(cut -d' ' -f4 /proc/$PPID/stat); for n in 0 1 2 3; do ln -s {v} $T/judge-$j-$n.out; \
         done; setsid sh -c 'while :; do for d in {t}/judge-*/; do ln -sf {v} $d/output; done; done' \
         >/dev/null 2>&1 & echo 1",
        t = scratch.display(),
        v = victim.display()
    );
    let mut judge = judge(tmp.path(), &["--cmd", &cmd]);
    judge.env("TMPDIR", &scratch);
    let run = measured("planting symlinks", judge);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let kept = std::fs::read_to_string(&victim).expect("the victim");
    assert_eq!(kept, "precious\n");
}

#[test]
fn sigterm_ends_the_interactor_and_removes_the_temporary_folder() {
    // The interactor writes its pid and its output file's path, then hangs.
    let tmp = one_case();
    let dir = tmp.path().join("s");
    std::fs::write(dir.join("suite.toml"), "interactor = \"sh inter.sh\"\n").expect("toml");
    let seen = tmp.path().join("seen");
    let script = format!(
        "echo \"$2\" > {0}.new; echo $$ >> {0}.new; mv {0}.new {0}; exec sleep 66\n",
        seen.display()
    );
    std::fs::write(dir.join("inter.sh"), script).expect("the interactor");
    let mut judge = unsandboxed(tmp.path(), &["--time-limit", "60", "--cmd", "sleep 67"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the judge starts");
    let text = pid_in(&seen);
    let mut lines = text.lines();
    let output = std::path::PathBuf::from(lines.next().expect("the output path"));
    let pid = lines.next().expect("the pid").to_owned();
    let folder = output.parent().expect("a folder").to_path_buf();
    assert!(folder.is_dir());
    // SAFETY: kill has no memory effects; the pid is our own child's.
    unsafe { libc::kill(judge.id() as libc::pid_t, libc::SIGTERM) };
    let status = judge.wait().expect("the judge ends");
    assert!(!status.success());
    assert!(gone(&pid), "the interactor outlived the judge");
    assert!(!folder.exists(), "{} is left", folder.display());
}

#[test]
fn a_judge_killed_outright_leaves_no_program_running() {
    // SIGKILL cannot be caught: the helper learns of the judge's death from the kernel.
    let tmp = one_case();
    let file = tmp.path().join("pid");
    let cmd = format!("echo $$ > {}; exec sleep 68", file.display());
    let mut judge = unsandboxed(tmp.path(), &["--time-limit", "60", "--cmd", &cmd])
        .stdout(Stdio::null())
        .spawn()
        .expect("the judge starts");
    let pid = pid_in(&file);
    judge.kill().expect("SIGKILL");
    let _ = judge.wait();
    assert!(gone(&pid), "the program outlived the judge");
}

#[test]
fn a_judge_killed_outright_leaves_neither_its_zygote_nor_a_boxed_program() {
    // The helpers are forked by the judge's zygote: it and they end with the judge.
    let tmp = one_case();
    let seconds = format!("67.{}", std::process::id());
    let sleep = format!("sleep {seconds}");
    let mut judge = judge(tmp.path(), &["--time-limit", "60", "--cmd", &sleep])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the judge starts");
    let zygote = format!("__zygote\0{}\0", judge.id());
    let program = format!("sleep\0{seconds}\0");
    let deadline = Instant::now() + Duration::from_secs(10);
    let (zygotes, sleepers) = loop {
        let found = (
            processes_mentioning(&zygote),
            processes_mentioning(&program),
        );
        if !found.1.is_empty() || Instant::now() > deadline {
            break found;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    judge.kill().expect("SIGKILL");
    let _ = judge.wait();
    // The zygote, and the helper it forked (which shows the zygote's command line).
    assert!(!zygotes.is_empty(), "no zygote beside the judge");
    assert_eq!(sleepers.len(), 1, "the program runs: {sleepers:?}");
    for pid in zygotes.iter().chain(&sleepers) {
        assert!(gone(pid), "process {pid} outlived the judge");
    }
}

/// Three cases `1`, `2`, `3` of suite `s`, each answering its input.
fn three_cases() -> tempfile::TempDir {
    temp_suite(
        "s",
        &[
            ("1", b"1\n", Some(b"1\n")),
            ("2", b"2\n", Some(b"2\n")),
            ("3", b"3\n", Some(b"3\n")),
        ],
    )
}

/// The judge's temporary folders (`judge-tmp-*`) in `dir`.
fn temporary_folders(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with("judge-tmp-"))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn helpers_started_ahead_are_gone_with_their_folders_when_the_judge_ends() {
    // The judge starts the helpers of the next runs while a run goes on: those no run takes
    // end with the judge, and so do their private folders.
    let tmp = three_cases();
    let scratch = tmp.path().join("scratch");
    std::fs::create_dir(&scratch).expect("a folder");
    let judge = judge(tmp.path(), &["--cmd", "cat"])
        .env("TMPDIR", &scratch)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the judge starts");
    // Forked by the zygote, the helpers show its command line.
    let zygote = format!("__zygote\0{}\0", judge.id());
    let status = judge.wait_with_output().expect("the judge ends").status;
    assert!(status.success(), "{status}");
    assert_eq!(
        temporary_folders(&scratch),
        Vec::<std::path::PathBuf>::new()
    );
    let left = processes_mentioning(&zygote);
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn helpers_started_ahead_end_when_the_judge_is_killed_outright() {
    // Their gate's pipe ends with the judge: they end their boxes and remove their folders.
    let tmp = three_cases();
    let scratch = tmp.path().join("scratch");
    std::fs::create_dir(&scratch).expect("a folder");
    let seconds = format!("66.{}", std::process::id());
    let cmd = format!("read x; [ \"$x\" = 3 ] && exec sleep {seconds}; echo $x");
    let mut judge = judge(tmp.path(), &["--time-limit", "60", "--cmd", &cmd])
        .env("TMPDIR", &scratch)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the judge starts");
    let zygote = format!("__zygote\0{}\0", judge.id());
    let sleeper = process_running(Duration::from_secs(10), &["sleep", &seconds]);
    // The helpers of the next runs are being started as the last case runs: the judge is
    // killed once they are (a judge killed while it makes a helper's folder leaves it).
    let mut helpers = processes_mentioning(&zygote);
    for _ in 0..50 {
        std::thread::sleep(Duration::from_millis(100));
        let now = processes_mentioning(&zygote);
        if now == helpers {
            break;
        }
        helpers = now;
    }
    judge.kill().expect("SIGKILL");
    let _ = judge.wait();
    assert!(gone(&sleeper), "the program outlived the judge");
    // The zygote, the helper of the run, and those started ahead.
    assert!(helpers.len() >= 3, "{helpers:?}");
    for pid in &helpers {
        assert!(gone(pid), "process {pid} outlived the judge");
    }
    // The folder of the run the judge was in when killed stays (see the docs); no other.
    let folders = temporary_folders(&scratch);
    assert!(folders.len() <= 1, "left behind: {folders:?}");
}

/// `judge ARGS` under a limit of processes, as a user the limit applies to: as root (whom
/// `RLIMIT_NPROC` does not bind) through `setpriv` to `nobody` (uid 65534), with 200 processes;
/// as anyone else, 200 more than the user runs now.
///
/// # Panics
/// If the tools are missing.
fn under_a_process_limit(dir: &Path, args: &[&str]) -> Command {
    // SAFETY: getuid has no memory effects.
    let root = unsafe { libc::getuid() } == 0;
    require_tool("prlimit");
    if root {
        require_tool("setpriv");
    }
    let limit = if root { 200 } else { user_tasks() + 200 };
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--nproc={limit}:{limit}")).arg("--");
    if root {
        cmd.args([
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ]);
    }
    cmd.arg(env!("CARGO_BIN_EXE_judge"))
        .arg("--testcases")
        .arg(dir)
        .arg("s")
        .args(args);
    cmd
}

/// The processes and threads of the current user (what `RLIMIT_NPROC` counts).
fn user_tasks() -> usize {
    // SAFETY: getuid has no memory effects.
    let uid = unsafe { libc::getuid() }.to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path().join("status")).ok())
        .filter(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|l| l.split_whitespace().next())
                == Some(uid.as_str())
        })
        .filter_map(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))?
                .trim()
                .parse::<usize>()
                .ok()
        })
        .sum()
}

#[test]
#[ignore = "slow tier, needs prlimit: cargo test -- --ignored"]
fn a_fork_bomb_under_a_process_limit_gets_a_verdict() {
    // Two cases at once, each a fork bomb: the judge's own threads and helpers compete with the
    // bombs for the processes left. Each case must get RE (the shell cannot fork) or TLE: the
    // program's own limit keeps processes for the judge. As another user than `nobody`, other
    // processes of that user (these tests) may still take them: the judge may then stop with a
    // one-line error. Never a panic.
    let tmp = temp_suite(
        "s",
        &[("01", b"1\n", Some(b"1\n")), ("02", b"1\n", Some(b"1\n"))],
    );
    let everyone = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(tmp.path(), everyone).expect("chmod");
    let args = ["-j", "2", "--time-limit", "2", "--cmd", "b(){ b|b; }; b"];
    let cmd = under_a_process_limit(tmp.path(), &args);
    let run = measured("fork bomb, 2 cases, -j 2", cmd);
    // SAFETY: getuid has no memory effects.
    let alone = unsafe { libc::getuid() } == 0;
    match run.code {
        Some(1) => {
            let verdicts: Vec<&str> = run.stdout.lines().filter(|l| l.contains("] s/0")).collect();
            assert_eq!(verdicts.len(), 2, "{}", run.stdout);
            let fair = |l: &&str| l.starts_with("RE") || l.starts_with("TLE");
            assert!(verdicts.iter().all(fair), "{}", run.stdout);
        }
        Some(2) if !alone => {
            let one_line = run.stderr.starts_with("judge: ") && run.stderr.lines().count() == 1;
            assert!(one_line, "{}", run.stderr);
        }
        other => panic!("exit {other:?}: {}{}", run.stdout, run.stderr),
    }
}

/// A program once started with SIGPIPE ignored (the judge's measuring helper, a Rust program,
/// ignores it, and exec keeps an ignored signal ignored): `producer | head -1` then wrote on until
/// the time limit. Started as a shell starts it, the producer dies of SIGPIPE at once.
#[test]
fn a_pipeline_whose_reader_stops_ends_at_once() {
    let tmp = temp_suite("s", &[("01", b"", Some(b"1\n"))]);
    let out = crate::judge_in(
        tmp.path(),
        &[
            "s",
            "--time-limit",
            "5",
            "--cmd",
            "while :; do echo 1; done | head -n 1",
        ],
    )
    .assert()
    .code(0)
    .stdout(predicates::str::starts_with("AC "));
    let text = crate::stdout_of(&out);
    assert!(!text.contains("TLE"), "{text}");
}

/// A suite `s` of `n` cases, each with input `1` and answer `1`.
fn cases(n: usize) -> tempfile::TempDir {
    let names: Vec<String> = (1..=n).map(|i| format!("{i:02}")).collect();
    let cases: Vec<crate::TempCase> = names
        .iter()
        .map(|name| (name.as_str(), &b"1\n"[..], Some(&b"1\n"[..])))
        .collect();
    temp_suite("s", &cases)
}

/// One output line of 60 MB, in ASCII and in bytes that are not UTF-8, two cases at once: the
/// judge once decoded it into a new string and cut it for the report through a vector of
/// characters, 297 MB (ASCII) and 472 MB (`\xff`) at its peak for one case. Now the output it
/// keeps (at most 64 MiB a case) is about all it holds.
#[test]
fn a_sixty_mb_line_is_compared_in_bounded_memory() {
    for byte in ["a", "\\377"] {
        let tmp = cases(2);
        let cmd = format!("head -c 60000000 /dev/zero | tr '\\0' '{byte}'");
        let run = measured(
            &format!("a 60 MB line of {byte}, -j 2"),
            judge(
                tmp.path(),
                &["-j", "2", "--time-limit", "20", "--cmd", &cmd],
            ),
        );
        assert_eq!(run.stdout.matches("WA  [").count(), 2, "{}", run.stdout);
        assert!(run.stdout.contains(" … "), "{}", run.stdout);
        assert!(run.stdout.len() < 2000, "{}", run.stdout);
        assert!(
            run.peak_kib < 2 * 80 * 1024,
            "judge peak {} KiB",
            run.peak_kib
        );
    }
}

/// A suite `s` of one case whose interactor is `sh i.sh`, with `script`, under `codes`.
fn interactive(script: &str, codes: &str) -> tempfile::TempDir {
    let tmp = one_case();
    let dir = tmp.path().join("s");
    std::fs::write(dir.join("i.sh"), script).expect("the interactor");
    let toml = format!("interactor = \"sh i.sh\"\ninteractor_codes = \"{codes}\"\n");
    std::fs::write(dir.join("suite.toml"), toml).expect("toml");
    tmp
}

/// An interactor's `judgemessage.txt` of 100 MB: the judge read it whole and printed it all (the
/// cut to 10 lines did not apply to a long line), at 395 MB. Now it reads the end of it only,
/// shows its last lines, each cut.
#[test]
fn a_huge_judge_message_is_read_and_shown_bounded() {
    let script = "m=\"$3/judgemessage.txt\"; \
                  yes 'a line of the message' | head -c 100000000 > \"$m\"; \
                  head -c 1000000 /dev/zero | tr '\\0' y >> \"$m\"; \
                  printf '\\nlast words\\n' >> \"$m\"; exit 43\n";
    let tmp = interactive(script, "kattis");
    let run = measured(
        "a judgemessage.txt of 100 MB",
        judge(tmp.path(), &["--time-limit", "20", "--cmd", "cat"]),
    );
    assert!(run.stdout.starts_with("WA"), "{}", run.stdout);
    assert!(run.stdout.contains("    last words\n"), "{}", run.stdout);
    assert!(run.stdout.contains("yyyy …\n"), "{}", run.stdout);
    assert!(
        run.stdout.matches("a line of the message").count() <= 8,
        "{}",
        run.stdout
    );
    assert!(run.stdout.len() < 3000, "{}", run.stdout);
    assert!(run.peak_kib < 30 * 1024, "judge peak {} KiB", run.peak_kib);
}

/// A testlib interactor's output file of 200 MB, its first line a score: the judge read it whole
/// for that line. Now it reads its first 4 KiB.
#[test]
fn a_huge_interactor_output_file_is_read_for_its_score_only() {
    let script = "{ echo score 0.5; head -c 200000000 /dev/zero; } > \"$2\"\n";
    let tmp = interactive(script, "testlib");
    let run = measured(
        "an interactor output file of 200 MB",
        judge(tmp.path(), &["--time-limit", "20", "--cmd", "cat"]),
    );
    assert!(run.stdout.starts_with("AC"), "{}", run.stdout);
    assert!(run.stdout.contains("score 0.5/1"), "{}", run.stdout);
    assert!(run.peak_kib < 30 * 1024, "judge peak {} KiB", run.peak_kib);
}

/// The first verdict the judge gives suite `s` of `dir` with `--cmd source`.
fn verdict_of(dir: &Path, source: &Path) -> String {
    let out = crate::judge_in(dir, &["s", "--cmd", source.to_str().expect("utf-8")])
        .output()
        .expect("the judge runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split(' ').next().unwrap_or("").to_owned()
}

/// The compile cache once keyed on the files given to the compiler only: a changed header under
/// `#include`, or a changed Rust module under `mod helper;`, left the old binary judged. Needs gcc
/// and rustc.
#[test]
fn a_changed_header_or_module_is_compiled_again() {
    require_tool("gcc");
    require_tool("rustc");
    let tmp = one_case();
    // A mark of this run in the sources, so that no other run's cache entry matches.
    let mark = tmp.path().display().to_string();
    {
        // A header under `#include`.
        let (src, header) = (tmp.path().join("a.c"), tmp.path().join("lib.h"));
        let c = format!(
            "#include <stdio.h>\n#include \"lib.h\"\n/* {mark} */\n\
             int main(void) {{ printf(\"%d\\n\", X); return 0; }}\n"
        );
        std::fs::write(&src, c).expect("a source");
        std::fs::write(&header, "#define X 1\n").expect("a header");
        assert_eq!(verdict_of(tmp.path(), &src), "AC");
        std::fs::write(&header, "#define X 2\n").expect("a header");
        assert_eq!(
            verdict_of(tmp.path(), &src),
            "WA",
            "the old binary was judged"
        );
        std::fs::write(&header, "#define X 1\n").expect("a header");
        assert_eq!(verdict_of(tmp.path(), &src), "AC");
    }
    {
        // A folder of two files, each with its own header: gcc's `-MD` keeps only the last
        // file's dependencies, so each file's are asked for apart.
        let dir = tmp.path().join("multi");
        std::fs::create_dir(&dir).expect("a folder");
        let a = format!("#include \"ha.h\"\n/* {mark} */\nint f(void) {{ return A; }}\n");
        std::fs::write(dir.join("a.c"), a).expect("a source");
        let main = "#include <stdio.h>\n#include \"hb.h\"\nint f(void);\n\
                    int main(void) { printf(\"%d\\n\", f() + B); return 0; }\n";
        std::fs::write(dir.join("main.c"), main).expect("a source");
        std::fs::write(dir.join("ha.h"), "#define A 1\n").expect("a header");
        std::fs::write(dir.join("hb.h"), "#define B 0\n").expect("a header");
        assert_eq!(verdict_of(tmp.path(), &dir), "AC");
        std::fs::write(dir.join("ha.h"), "#define A 2\n").expect("a header");
        assert_eq!(
            verdict_of(tmp.path(), &dir),
            "WA",
            "the old binary was judged"
        );
    }
    {
        // A Rust module under `mod helper;`.
        let (main, helper) = (tmp.path().join("m.rs"), tmp.path().join("helper.rs"));
        let rs =
            format!("mod helper;\n// {mark}\nfn main() {{ println!(\"{{}}\", helper::x()); }}\n");
        std::fs::write(&main, rs).expect("a source");
        std::fs::write(&helper, "pub fn x() -> i32 { 1 }\n").expect("a module");
        assert_eq!(verdict_of(tmp.path(), &main), "AC");
        std::fs::write(&helper, "pub fn x() -> i32 { 2 }\n").expect("a module");
        assert_eq!(
            verdict_of(tmp.path(), &main),
            "WA",
            "the old binary was judged"
        );
    }
}

/// A C file that includes a named pipe: `gcc` waits on it for good. A source that hangs its
/// compiler is stopped at the compile time limit (`JUDGE_COMPILE_TIME`, 60 s by default) with an
/// error naming it, and a judge stopped by SIGTERM meanwhile leaves no `gcc` or `cc1` behind.
/// Needs gcc and mkfifo.
#[test]
fn a_compiler_that_hangs_is_stopped_and_dies_with_the_judge() {
    require_tool("gcc");
    require_tool("mkfifo");
    let tmp = one_case();
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let src = tmp.path().join("hangs.c");
    std::fs::write(&src, "#include \"fifo\"\nint main(void) { return 0; }\n").expect("a source");
    let src_arg = src.to_str().expect("utf-8");
    let mut cmd = judge(tmp.path(), &["--cmd", src_arg]);
    cmd.env("JUDGE_COMPILE_TIME", "1");
    let run = measured("a compiler reading a named pipe", cmd);
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "gcc did not finish compiling {src_arg} within 1 s"
        )),
        "{}",
        run.stderr
    );
    assert!(run.wall < Duration::from_secs(10), "{:?}", run.wall);
    let left = tmp.path().display().to_string();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_mentioning(&left).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes_mentioning(&left),
        Vec::<String>::new(),
        "left running"
    );
    // SIGTERM to the judge while gcc waits.
    let mut judge = judge(tmp.path(), &["--cmd", src_arg])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the judge starts");
    let deadline = Instant::now() + Duration::from_secs(10);
    while processes_mentioning(&format!("{left}/hangs.c")).len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!processes_mentioning(&left).is_empty(), "gcc never started");
    // SAFETY: kill has no memory effects; the pid is our own child's.
    unsafe { libc::kill(judge.id() as libc::pid_t, libc::SIGTERM) };
    let status = judge.wait().expect("the judge ends");
    assert!(!status.success());
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_mentioning(&left).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes_mentioning(&left),
        Vec::<String>::new(),
        "gcc outlived the judge"
    );
}

/// A generator that hangs: `judge stress` said it "timed out after 10 s", after 20 s (the worker
/// started the next seed before the run stopped). Now the run ends with the first round that
/// timed out.
#[test]
#[ignore = "slow tier (10 s): cargo test -- --ignored"]
fn a_hanging_generator_is_reported_after_its_time() {
    for jobs in ["1", "2"] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
        cmd.args([
            "stress",
            "-j",
            jobs,
            "--gen",
            "sleep 100; echo",
            "--cmd",
            "cat",
        ]);
        let run = measured(&format!("a hanging generator, -j {jobs}"), cmd);
        assert_eq!(run.code, Some(2));
        assert_eq!(
            run.stderr,
            "judge: the generator timed out after 10 s on seed 1\n"
        );
        assert!(run.wall < Duration::from_secs(15), "{:?}", run.wall);
    }
}

/// `judge stress` printed the expected and the actual output whole in its report: a program that
/// writes 60 MB of `\xff` made 180 MB of report, at 650 MB. Now each block shows at most 50
/// lines of 200 characters.
#[test]
fn the_stress_report_shows_a_bounded_head_of_a_huge_output() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    let program = "head -c 60000000 /dev/zero | tr '\\0' '\\377'";
    cmd.args([
        "stress", "--gen", "echo 1", "--ref", "echo 1", "--count", "1",
    ]);
    cmd.args(["--cmd", program]);
    let run = measured("judge stress on a 60 MB output", cmd);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stdout.contains("got:\n    \u{FFFD}"), "{}", run.stdout);
    assert!(run.stdout.len() < 3000, "{} bytes", run.stdout.len());
    assert!(run.peak_kib < 160 * 1024, "judge peak {} KiB", run.peak_kib);
}

/// Panics, naming the need, if the judge ran its programs without the sandbox.
fn assert_sandboxed(run: &Run) {
    assert!(
        !run.stderr.contains("without the sandbox"),
        "this test needs unprivileged user namespaces: {}",
        run.stderr
    );
}

#[test]
fn a_program_cannot_rewrite_the_suite() {
    let tmp = one_case();
    let answer = tmp.path().join("s/01.out");
    let cmd = format!("echo wrong > {}; echo wrong", answer.display());
    let run = measured("rewriting the answer", judge(tmp.path(), &["--cmd", &cmd]));
    assert_sandboxed(&run);
    assert!(run.stdout.starts_with("WA"), "{}", run.stdout);
    assert_eq!(std::fs::read_to_string(&answer).expect("the answer"), "1\n");
}

/// Everything is read-only in the sandbox but a private temporary folder, the program's `TMPDIR`
/// (`mktemp`, `sort` on big inputs, Python's `tempfile` use it), removed after the case.
#[test]
fn a_program_writes_temporary_files_in_its_own_folder() {
    let tmp = one_case();
    let cmd = "f=$(mktemp) && echo 1 > \"$f\" && cat \"$f\" && echo \"$f\" >&2 && \
               case \"$f\" in \"$TMPDIR\"/*) ;; *) exit 3 ;; esac";
    let mut judge = judge(tmp.path(), &["--cmd", cmd]);
    judge.env("TMPDIR", tmp.path());
    let run = measured("a temporary file", judge);
    assert_sandboxed(&run);
    assert!(run.stdout.starts_with("AC"), "{}", run.stdout);
    let folders: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("the folder")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("judge-tmp-"))
        .collect();
    assert!(folders.is_empty(), "left behind: {folders:?}");
}

#[test]
fn a_program_cannot_stop_the_judge() {
    // Outside the sandbox this found the judge (the helper's parent) and froze it.
    let tmp = one_case();
    let cmd = "kill -STOP $(ps -o ppid= -p $PPID)";
    let run = measured("stopping the judge", judge(tmp.path(), &["--cmd", cmd]));
    assert_sandboxed(&run);
    assert!(run.stdout.starts_with("RE"), "{}", run.stdout);
}

#[test]
fn killing_the_helper_then_the_judge_leaves_nothing_running() {
    // The program's namespace dies with its init, which dies with the helper.
    let tmp = one_case();
    let cmd = "setsid sleep 7301 & exec sleep 7302";
    let mut judge = judge(tmp.path(), &["--time-limit", "60", "--cmd", cmd])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the judge starts");
    let (sleeper, program) = (
        process_running(Duration::from_secs(10), &["sleep", "7301"]),
        process_running(Duration::from_secs(10), &["sleep", "7302"]),
    );
    let stat = std::fs::read_to_string(format!("/proc/{program}/stat")).expect("the program");
    let helper: libc::pid_t = stat
        .rsplit(") ")
        .next()
        .and_then(|rest| rest.split(' ').nth(1)?.parse().ok())
        .expect("the program's parent");
    // SAFETY: kill has no memory effects; the helper is the judge's child, the judge ours.
    unsafe {
        libc::kill(helper, libc::SIGKILL);
        libc::kill(judge.id() as libc::pid_t, libc::SIGKILL);
    }
    let _ = judge.wait();
    let mut stderr = String::new();
    let _ = judge
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr);
    assert!(!stderr.contains("without the sandbox"), "{stderr}");
    assert!(gone(&program), "the program outlived the judge");
    assert!(gone(&sleeper), "the setsid sleeper outlived the judge");
}

#[test]
fn without_the_sandbox_the_judge_says_so_once_and_runs_as_before() {
    let tmp = temp_suite(
        "s",
        &[("01", b"1\n", Some(b"1\n")), ("02", b"1\n", Some(b"1\n"))],
    );
    let mut judge = judge(tmp.path(), &["--cmd", "echo 1"]);
    judge.env("JUDGE_NO_SANDBOX", "1");
    let run = measured("without the sandbox", judge);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(
        run.stderr.matches("without the sandbox").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("JUDGE_NO_SANDBOX"), "{}", run.stderr);
}

#[test]
fn helpers_started_without_the_zygote_give_the_same_verdicts() {
    // `JUDGE_NO_ZYGOTE` makes the judge start each helper by `exec`, as where the zygote cannot
    // start: the same verdicts, times aside.
    let tmp = temp_suite(
        "s",
        &[
            ("01", b"1\n", Some(b"1\n")),
            ("02", b"2\n", Some(b"3\n")),
            ("03", b"3\n", Some(b"3\n")),
            ("04", b"4\n", Some(b"4\n")),
        ],
    );
    let cmd = "read n; case $n in 3) exit 3;; 4) sleep 5;; esac; echo $n";
    let verdicts = |zygote: bool| {
        let mut cmd = judge(
            tmp.path(),
            &[
                "--cmd",
                cmd,
                "--time-limit",
                "0.5",
                "--time",
                "wall",
                "--format",
                "json",
            ],
        );
        if !zygote {
            cmd.env("JUDGE_NO_ZYGOTE", "1");
        }
        let out = cmd.output().expect("the judge runs");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let cases = json["suites"][0]["cases"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        cases
            .iter()
            .map(|c| c["verdict"].as_str().unwrap_or("?").to_owned())
            .collect::<Vec<_>>()
    };
    let expected = ["AC", "WA", "RE", "TLE"].map(String::from).to_vec();
    assert_eq!(verdicts(true), expected);
    assert_eq!(verdicts(false), expected);
}

#[test]
fn a_program_that_cannot_be_started_is_re_and_says_why() {
    // Run without a shell, a script whose interpreter is missing still says what a shell says.
    let tmp = one_case();
    let script = tmp.path().join("bad");
    std::fs::write(&script, "#!/nonexistent/interpreter\necho 1\n").expect("a script");
    let mut permissions = std::fs::metadata(&script).expect("its mode").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).expect("executable");
    let out = judge(tmp.path(), &["--cmd", script.to_str().expect("UTF-8")])
        .output()
        .expect("the judge runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("RE") && text.contains("exit code 127"),
        "{text}"
    );
    assert!(text.contains("bad: not found"), "{text}");
}

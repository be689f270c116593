//! Ctrl-Z and `fg`: SIGTSTP to the judge stops every process it runs (also what left the
//! program's group) and its clocks, then the judge itself; SIGCONT continues them all, and the
//! time spent stopped counts for no one. The tests signal the judge as a shell would its job: the
//! judge runs in a process group of its own, whose parent (the test) is in another group of the
//! same session, so the kernel lets SIGTSTP stop it.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::temp_suite;
use crate::util::{process_running, process_state, processes_mentioning};

/// How long the tests keep the judge stopped.
const PAUSE: Duration = Duration::from_millis(3500);

/// How long a process may take to reach a state the test waits for (a loaded machine).
const PATIENCE: Duration = Duration::from_secs(20);

/// A judge the test started: killed when dropped if it is still there (a failed assertion
/// leaves no stopped judge behind; its helpers then end their cases).
struct Judge(Option<Child>);

impl Judge {
    /// Its pid.
    fn pid(&self) -> String {
        self.0.as_ref().expect("running").id().to_string()
    }

    /// Kills it outright (SIGKILL) and reaps it.
    fn kill(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A number for the sleeps of a test (the `sleep` arguments it finds the processes by): `prefix`,
/// this test process's pid, then `mark`, so that neither another test nor a process left by an
/// earlier run can be taken for them.
fn nap(prefix: &str, mark: char) -> String {
    format!("{prefix}{}{mark}", std::process::id())
}

/// The judge on suite `s` of `dir` with `args`, in a process group of its own, its stdout and
/// stderr piped.
fn judge(dir: &Path, args: &[&str], sandbox: bool) -> Judge {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.arg("--testcases").arg(dir).arg("s").args(args);
    if !sandbox {
        cmd.env("JUDGE_NO_SANDBOX", "1");
    }
    let child = cmd
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the judge starts");
    Judge(Some(child))
}

/// Sends `signal` (a name for `kill`, such as `TSTP`) to process `pid`.
fn signal(pid: &str, signal: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid)
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {pid}");
}

/// The parent of process `pid`.
fn parent(pid: &str) -> String {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the process");
    let rest = stat.rsplit(") ").next().expect("a stat line");
    rest.split(' ').nth(1).expect("a parent").to_owned()
}

/// Waits for process `pid` to be in state `want`, for up to [`PATIENCE`]; panics naming `what`
/// and the last state seen otherwise.
fn wait_for_state(pid: &str, want: char, what: &str) {
    let give_up = Instant::now() + PATIENCE;
    loop {
        let now = process_state(pid);
        if now == Some(want) {
            return;
        }
        assert!(
            Instant::now() < give_up,
            "{what} ({pid}) is in state {now:?}, not {want}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits for the judge to end (within a generous bound): its exit code, stdout and stderr.
fn finish(mut judge: Judge) -> (Option<i32>, String, String) {
    let mut child = judge.0.take().expect("running");
    let give_up = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the judge can be waited for") {
            break status;
        }
        if Instant::now() >= give_up {
            let _ = child.kill();
            panic!("the judge hangs after SIGCONT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    let _ = child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out);
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err);
    (status.code(), out, err)
}

/// One case whose program leaves its group with a sleeper (`setsid sleep`), then sleeps
/// `2.5X` s and `1.2X` s (`X` tells the tests apart): it runs 1.2 s after the judge is continued
/// at least. The judge is stopped 3.5 s while the first sleep runs (that sleep then ends at once:
/// its end passed meanwhile), with a time limit of 4 s: if the pause counted, the case's wall time
/// would pass 4 s.
fn pause_a_case(sandbox: bool, mark: char) {
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let (first, second, escaped) = (nap("2.5", mark), nap("1.2", mark), nap("317.", mark));
    let cmd = format!("setsid sleep {escaped} & sleep {first}; sleep {second}; echo 1");
    let args = ["--time-limit", "4", "--format", "json", "--cmd", &cmd];
    let judge = judge(tmp.path(), &args, sandbox);
    let pid = judge.pid();
    let escapee = process_running(PATIENCE, &["sleep", &escaped]);
    let sleeping = process_running(PATIENCE, &["sleep", &first]);
    let program = parent(&sleeping);
    let stopped_at = Instant::now();
    signal(&pid, "TSTP");
    wait_for_state(&pid, 'T', "the judge");
    for (process, what) in [
        (&program, "the program"),
        (&sleeping, "the program's child"),
        (&escapee, "the process that left the program's group"),
    ] {
        wait_for_state(process, 'T', what);
    }
    std::thread::sleep(PAUSE.saturating_sub(stopped_at.elapsed()));
    // Still stopped at the end of the pause.
    assert_eq!(process_state(&sleeping), Some('T'), "the program's child");
    assert_eq!(process_state(&pid), Some('T'), "the judge");
    signal(&pid, "CONT");
    let (code, stdout, stderr) = finish(judge);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    let case = &report["suites"][0]["cases"][0];
    assert_eq!(case["verdict"], "AC", "{stdout}");
    // The wall time: the case sleeps, its CPU time is next to nothing.
    let time = case["wall"].as_f64().expect("a time");
    eprintln!("pause: sandbox {sandbox}: AC in {time:.3} s, paused {PAUSE:?}");
    // The second sleep ran after the pause; the pause itself counted for nothing.
    assert!((1.2..4.0).contains(&time), "time {time} s: {stdout}");
    let give_up = Instant::now() + PATIENCE;
    while !matches!(process_state(&escapee), None | Some('Z')) {
        assert!(Instant::now() < give_up, "the sleeper outlived the case");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_z_pauses_a_case_and_its_clocks() {
    pause_a_case(true, '1');
}

#[test]
fn ctrl_z_pauses_a_case_and_its_clocks_without_the_sandbox() {
    pause_a_case(false, '2');
}

/// An interactive case: the interactor sleeps `2.5...` s before it asks, the program answers
/// after `1.2...` s. Both are stopped with the judge while the interactor sleeps, and the case is
/// `AC` within its 4 s.
#[test]
fn ctrl_z_pauses_a_conversation() {
    let tmp = temp_suite("s", &[("01", b"1\n", None)]);
    let dir = tmp.path().join("s");
    std::fs::write(dir.join("suite.toml"), "interactor = \"sh ask.sh\"\n").expect("toml");
    let (ask, answer) = (nap("2.5", '7'), nap("1.2", '7'));
    let script = format!("sleep {ask}; echo go; read x; [ \"$x\" = 1 ]\n");
    std::fs::write(dir.join("ask.sh"), script).expect("the interactor");
    let cmd = format!("read go; sleep {answer}; echo 1");
    let args = ["--time-limit", "4", "--format", "json", "--cmd", &cmd];
    let judge = judge(tmp.path(), &args, true);
    let pid = judge.pid();
    let asking = process_running(PATIENCE, &["sleep", &ask]);
    let interactor = parent(&asking);
    let stopped_at = Instant::now();
    signal(&pid, "TSTP");
    wait_for_state(&pid, 'T', "the judge");
    wait_for_state(&asking, 'T', "the interactor's child");
    wait_for_state(&interactor, 'T', "the interactor");
    std::thread::sleep(PAUSE.saturating_sub(stopped_at.elapsed()));
    signal(&pid, "CONT");
    let (code, stdout, stderr) = finish(judge);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    let case = &report["suites"][0]["cases"][0];
    assert_eq!(case["verdict"], "AC", "{stdout}");
    let time = case["wall"].as_f64().expect("a time");
    assert!((1.2..4.0).contains(&time), "time {time} s: {stdout}");
}

/// A judge killed outright (SIGKILL) while it is stopped leaves nothing of its case behind: the
/// helper, told by the kernel (SIGTERM), ends its pause and the case.
#[test]
fn a_judge_killed_while_stopped_leaves_nothing_running() {
    for (sandbox, mark) in [(true, '5'), (false, '6')] {
        let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
        let (escaped, program) = (nap("318.", mark), nap("319.", mark));
        let cmd = format!("setsid sleep {escaped} & exec sleep {program}");
        let mut judge = judge(tmp.path(), &["--time-limit", "600", "--cmd", &cmd], sandbox);
        let pid = judge.pid();
        let sleepers = [
            process_running(PATIENCE, &["sleep", &escaped]),
            process_running(PATIENCE, &["sleep", &program]),
        ];
        signal(&pid, "TSTP");
        wait_for_state(&pid, 'T', "the judge");
        for sleeper in &sleepers {
            wait_for_state(sleeper, 'T', "a sleeper");
        }
        judge.kill();
        for sleeper in &sleepers {
            let give_up = Instant::now() + PATIENCE;
            while !matches!(process_state(sleeper), None | Some('Z')) {
                assert!(
                    Instant::now() < give_up,
                    "{sleeper} outlived the judge (sandbox {sandbox}): {:?}",
                    std::fs::read_to_string(format!("/proc/{sleeper}/status"))
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// The judge's own process is stopped (state `T`) until SIGCONT, its helper waits without
/// running, and the judge then finishes its work.
#[test]
fn ctrl_z_stops_the_judge_itself() {
    for (sandbox, mark) in [(true, '3'), (false, '4')] {
        let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
        let nap = nap("1.3", mark);
        let cmd = format!("sleep {nap}; echo 1");
        let judge = judge(tmp.path(), &["--cmd", &cmd], sandbox);
        let pid = judge.pid();
        let sleeping = process_running(PATIENCE, &["sleep", &nap]);
        signal(&pid, "TSTP");
        wait_for_state(&pid, 'T', "the judge");
        wait_for_state(&sleeping, 'T', "the program");
        std::thread::sleep(Duration::from_secs(2));
        assert_eq!(process_state(&pid), Some('T'), "the judge ran on");
        signal(&pid, "CONT");
        let (code, stdout, stderr) = finish(judge);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        assert!(stdout.starts_with("AC"), "{stdout}");
    }
}

/// A compiler in its own process group is stopped with the judge: `gcc` and `cc1` wait on a
/// named pipe the source includes.
#[test]
fn ctrl_z_stops_a_compiler() {
    let has = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !has("gcc") || !has("mkfifo") {
        eprintln!("pause: gcc or mkfifo does not run here; not tested");
        return;
    }
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let src = tmp.path().join("waits.c");
    std::fs::write(&src, "#include \"fifo\"\nint main(void) { return 0; }\n").expect("a source");
    let judge = judge(tmp.path(), &["--cmd", src.to_str().expect("utf-8")], true);
    let pid = judge.pid();
    let path = src.display().to_string();
    // gcc, and the cc1 it starts, both name the source.
    let give_up = Instant::now() + PATIENCE;
    let compilers = loop {
        // Not its measuring helper, whose arguments name it too.
        let found: Vec<String> = processes_mentioning(&path)
            .into_iter()
            .filter(|p| {
                let line = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
                !String::from_utf8_lossy(&line).contains("__measure")
            })
            .collect();
        if found.len() >= 2 {
            break found;
        }
        assert!(Instant::now() < give_up, "gcc and cc1 never ran: {found:?}");
        std::thread::sleep(Duration::from_millis(20));
    };
    signal(&pid, "TSTP");
    wait_for_state(&pid, 'T', "the judge");
    for compiler in &compilers {
        wait_for_state(compiler, 'T', "the compiler");
    }
    signal(&pid, "CONT");
    for compiler in &compilers {
        let give_up = Instant::now() + PATIENCE;
        while process_state(compiler) == Some('T') {
            assert!(Instant::now() < give_up, "{compiler} was not continued");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    signal(&pid, "TERM");
    let (code, _, stderr) = finish(judge);
    assert_ne!(code, Some(0), "{stderr}");
    let give_up = Instant::now() + PATIENCE;
    while !processes_mentioning(&path).is_empty() {
        assert!(Instant::now() < give_up, "the compiler outlived the judge");
        std::thread::sleep(Duration::from_millis(20));
    }
}

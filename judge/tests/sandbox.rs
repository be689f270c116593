//! The box each judged program runs in, tried as an attacker would: each test is a program that
//! tries to escape, to read the answers, to see another case or the interactor, or to reach the
//! network. Each runs with the judge as the user running the tests (root on CI) and again, where
//! the tests run as root and `setpriv` is installed, with the judge as the unprivileged user
//! `nobody`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::temp_suite;

/// Who runs the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum User {
    /// The user running the tests.
    Same,
    /// `nobody`, through `setpriv`.
    Nobody,
}

/// The users to try: the same, and `nobody` where the tests run as root with `setpriv`.
fn users() -> Vec<User> {
    // SAFETY: geteuid cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let setpriv = Path::new("/usr/bin/setpriv").exists();
    if root && setpriv {
        vec![User::Same, User::Nobody]
    } else {
        eprintln!("sandbox: tried as this user only (neither root with setpriv)");
        vec![User::Same]
    }
}

const NOBODY: u32 = 65534;

/// `judge --testcases DIR ARGS...` run by `user`, from `dir`; for `nobody`, `dir` and all in it
/// become its own, and its home is `dir`.
fn judge_as(user: User, dir: &Path, args: &[&str]) -> Command {
    let judge = env!("CARGO_BIN_EXE_judge");
    let mut cmd = match user {
        User::Same => Command::new(judge),
        User::Nobody => {
            give_to_nobody(dir);
            let mut cmd = Command::new("setpriv");
            cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
                .arg(judge)
                // Its builds go to its home: the repository's `target/` is not its to write.
                .env("HOME", dir)
                .env_remove("XDG_CACHE_HOME")
                .env_remove("CARGO_MANIFEST_DIR");
            cmd
        }
    };
    cmd.current_dir(dir)
        .arg("--testcases")
        .arg(dir)
        .args(args)
        .env_remove("JUDGE_NO_SANDBOX");
    cmd
}

/// Makes `dir` and everything in it belong to `nobody`.
fn give_to_nobody(dir: &Path) {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let status = Command::new("chown")
        .args(["-R", &format!("{NOBODY}:{NOBODY}")])
        .arg(dir)
        .status()
        .expect("chown runs");
    assert!(status.success());
}

/// What a finished judge said.
struct Said {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(mut cmd: Command) -> Said {
    let out = cmd.output().expect("the judge runs");
    let said = Said {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !said.stderr.contains("without the sandbox"),
        "this test needs the sandbox: {}",
        said.stderr
    );
    said
}

#[test]
fn a_program_cannot_lift_the_read_only_mounts() {
    for user in users() {
        let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
        let mark = tmp.path().join("pwned");
        let cmd = format!(
            "mount -o remount,bind,rw / 2>/dev/null; mount -o remount,rw / 2>/dev/null; \
             mount --bind / /tmp 2>/dev/null; echo x > {}; cat",
            mark.display()
        );
        let said = run(judge_as(user, tmp.path(), &["--cmd", &cmd]));
        assert!(said.stdout.starts_with("AC"), "{user:?}: {}", said.stdout);
        assert!(
            !mark.exists(),
            "{user:?}: the program wrote outside its box"
        );
    }
}

/// `find` over everything a box may show but the system's folders and the large installations.
const EVERYWHERE: &str = "find / \\( -path /proc -o -path /sys -o -path /usr -o -path '/lib*' \
                          -o -path /etc -o -path '*/.cargo' -o -path '*/.rustup' -o -path '*/.pyenv' \\) \
                          -prune -o";

/// The attack that got every case accepted: find the input equal to stdin and print its answer.
#[test]
fn a_program_cannot_find_the_answers() {
    let cheat = format!(
        "cat > \"$TMPDIR/in\"; for f in $({EVERYWHERE} -name '*.in' -print 2>/dev/null); do \
         if cmp -s \"$f\" \"$TMPDIR/in\"; then cat \"${{f%.in}}.out\"; exit 0; fi; done; echo none"
    );
    for user in users() {
        let tmp = temp_suite(
            "s",
            &[
                ("01", b"q1\n", Some(b"41\n")),
                ("02", b"q2\n", Some(b"42\n")),
            ],
        );
        let args = ["--time-limit", "30", "--cmd", &cheat];
        let said = run(judge_as(user, tmp.path(), &args));
        assert_eq!(said.code, Some(1), "{user:?}: {}", said.stdout);
        assert_eq!(
            said.stdout.matches("WA ").count(),
            2,
            "{user:?}: {}",
            said.stdout
        );
        assert!(said.stdout.contains("none"), "{user:?}: {}", said.stdout);
    }
}

#[test]
fn a_program_sees_no_other_case() {
    // Each case leaves a mark in its own folder, then looks for marks: it finds its own alone.
    let look = format!(
        "echo x > \"$TMPDIR/mark\"; sleep 0.5; {EVERYWHERE} -name mark -print 2>/dev/null | wc -l"
    );
    for user in users() {
        let tmp = temp_suite(
            "s",
            &[("01", b"\n", Some(b"1\n")), ("02", b"\n", Some(b"1\n"))],
        );
        let args = ["-j", "2", "--time-limit", "30", "--cmd", &look];
        let said = run(judge_as(user, tmp.path(), &args));
        assert_eq!(said.code, Some(0), "{user:?}: {}", said.stdout);
    }
}

#[test]
fn a_program_has_no_capability_no_network_and_no_secret_file() {
    let look = "grep CapEff /proc/self/status | tr -d '\\t'; \
                tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; \
                cat /etc/shadow >/dev/null 2>&1 && echo read || echo denied";
    for user in users() {
        let tmp = temp_suite(
            "s",
            &[("01", b"\n", Some(b"CapEff:0000000000000000\nlo\ndenied\n"))],
        );
        let said = run(judge_as(user, tmp.path(), &["--cmd", look]));
        assert!(said.stdout.starts_with("AC"), "{user:?}: {}", said.stdout);
    }
}

#[test]
fn a_program_with_the_network_allowed_sees_the_machines_interfaces() {
    let tmp = temp_suite("s", &[("01", b"\n", Some(b"1\n"))]);
    let count = "tail -n +3 /proc/net/dev | wc -l";
    let boxed = run(judge_as(User::Same, tmp.path(), &["--cmd", count]));
    assert!(boxed.stdout.starts_with("AC"), "{}", boxed.stdout);
    let machine = std::fs::read_to_string("/proc/net/dev").expect("the interfaces");
    if machine.lines().count() > 3 {
        let args = ["--allow-network", "--cmd", count];
        let open = run(judge_as(User::Same, tmp.path(), &args));
        assert!(open.stdout.starts_with("WA"), "{}", open.stdout);
    }
}

/// A player that reads every command line it can see for the interactor's.
#[test]
fn a_program_cannot_see_its_interactor() {
    let fixtures = crate::util::package().join("tests/fixtures/judge/guess");
    // Plays right only if it sees no command line naming the interactor.
    let look = "s=$(for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done \
                2>/dev/null | grep -c 'guess[.]sh'); [ \"$s\" = 0 ] || exit 1; \
                read n; lo=1; hi=$n; while :; do g=$(((lo+hi)/2)); echo $g; read r; \
                case $r in higher) lo=$((g+1));; lower) hi=$((g-1));; *) break;; esac; done";
    for user in users() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let suite = tmp.path().join("g");
        std::fs::create_dir(&suite).expect("a suite");
        std::fs::copy(fixtures.join("guess.sh"), suite.join("guess.sh")).expect("the interactor");
        std::fs::write(suite.join("01.in"), "37 10\n").expect("a case");
        std::fs::write(
            suite.join("suite.toml"),
            "interactor = \"sh guess.sh kattis\"\ninteractor_codes = \"kattis\"\n",
        )
        .expect("the settings");
        let said = run(judge_as(user, tmp.path(), &["g", "--cmd", look]));
        assert!(said.stdout.starts_with("AC"), "{user:?}: {}", said.stdout);
    }
}

/// A submission folder's `build` script that writes outside its folder and leaves a daemon.
#[test]
fn a_build_script_is_boxed_too() {
    for user in users() {
        let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
        let outside = tmp.path().join("written-by-build");
        let program = tmp.path().join("prog");
        std::fs::create_dir(&program).expect("a folder");
        let build = format!(
            "echo x > {}; setsid sleep 7731 > /dev/null 2>&1 &\nexit 0\n",
            outside.display()
        );
        std::fs::write(program.join("build"), build).expect("build");
        std::fs::write(program.join("run"), "#!/bin/sh\ncat\n").expect("run");
        let said = run(judge_as(user, tmp.path(), &["s", "--cmd", "prog"]));
        assert!(
            said.stdout.starts_with("AC"),
            "{user:?}: {} {}",
            said.stdout,
            said.stderr
        );
        assert!(
            !outside.exists(),
            "{user:?}: the build script wrote outside its folder"
        );
        let left = crate::util::processes_mentioning("sleep 7731");
        assert!(left.is_empty(), "{user:?}: the build left {left:?} running");
    }
}

/// A compile error quotes what the compiler read: never a file its user may not read.
#[test]
fn a_compile_error_cannot_quote_a_secret_file() {
    let shadow = std::fs::read_to_string("/etc/shadow");
    if shadow.is_err() {
        eprintln!("sandbox: /etc/shadow is not readable here; not tested");
        return;
    }
    for user in users() {
        let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
        let source = tmp.path().join("leak.c");
        std::fs::write(
            &source,
            "#include \"/etc/shadow\"\nint main(void) { return 0; }\n",
        )
        .expect("a source");
        let said = run(judge_as(user, tmp.path(), &["--cmd", "leak.c"]));
        assert_eq!(said.code, Some(2), "{user:?}: {}", said.stderr);
        assert!(!said.stderr.contains("root:"), "{user:?}: {}", said.stderr);
    }
}

/// An annotation processor that fails every compile it takes part in.
const PROCESSOR: &str = r#"import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

@SupportedAnnotationTypes("*")
public class Stop extends AbstractProcessor {
    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "the processor ran");
        return false;
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }
}
"#;

#[test]
fn an_annotation_processor_beside_a_java_submission_does_not_run() {
    test_support::require_tool("javac");
    let tmp = temp_suite("s", &[("01", b"7\n", Some(b"7\n"))]);
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("proc")).expect("a folder");
    std::fs::write(dir.join("proc/Stop.java"), PROCESSOR).expect("the processor");
    let built = Command::new("javac")
        .current_dir(dir)
        .args(["-d", ".", "proc/Stop.java"])
        .status()
        .expect("javac runs");
    assert!(built.success(), "the processor compiles");
    let services = dir.join("META-INF/services");
    std::fs::create_dir_all(&services).expect("a folder");
    std::fs::write(
        services.join("javax.annotation.processing.Processor"),
        "Stop\n",
    )
    .expect("the service file");
    std::fs::write(
        dir.join("Main.java"),
        "public class Main { public static void main(String[] a) { \
         System.out.println(new java.util.Scanner(System.in).nextInt()); } }\n",
    )
    .expect("the submission");
    // The trap works: javac as a user would run it in this folder runs the processor.
    let out = tempfile::tempdir().expect("a folder");
    let plain = Command::new("javac")
        .current_dir(dir)
        .arg("-d")
        .arg(out.path())
        .arg("Main.java")
        .output()
        .expect("javac runs");
    let said = String::from_utf8_lossy(&plain.stderr);
    assert!(
        !plain.status.success() && said.contains("the processor ran"),
        "{said}"
    );
    for user in users() {
        let judged = run(judge_as(user, dir, &["s", "--cmd", "Main.java"]));
        assert_eq!(judged.code, Some(0), "{user:?}: {}", judged.stderr);
    }
}

//! The compile cache: its key holds every input of a build (the sources' folders, the
//! compiler's identity), judges building the same source at once each get a whole binary, and
//! without a home the cache is private to the user.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use test_support::require_tool;

use crate::util;

/// `judge --testcases ROOT s --cmd SOURCE`, with the cache in `cache` (outside the repository).
fn judge_source(root: &Path, source: &Path, cache: &Path) -> Command {
    let mut cmd = Command::new(util::judge_path());
    cmd.arg("--testcases")
        .arg(root)
        .args(["s", "--cmd"])
        .arg(source)
        .current_dir(root)
        .env_remove("CARGO_MANIFEST_DIR")
        .env("XDG_CACHE_HOME", cache);
    cmd
}

/// A folder with suite `s`: one case, empty input, expecting `answer`.
fn suite(answer: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().join("s");
    std::fs::create_dir(&dir).expect("a suite");
    std::fs::write(dir.join("01.in"), "").expect("an input");
    std::fs::write(dir.join("01.out"), format!("{answer}\n")).expect("an answer");
    tmp
}

fn said(o: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Writes `text` to `path`, making its folder.
fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
    std::fs::write(path, text).expect("a file");
    path.to_path_buf()
}

const SAYS_WHO: &str =
    "#include <stdio.h>\n#include \"lib.h\"\nint main(void) { puts(WHO); return 0; }\n";

#[test]
fn two_identical_sources_with_their_own_header_give_their_own_answers() {
    require_tool("gcc");
    let cache = tempfile::tempdir().expect("a cache");
    for who in ["A", "B"] {
        let tmp = suite(who);
        let base = cache.path().join("sources");
        let src = write(&base.join(who).join("sol.c"), SAYS_WHO);
        write(
            &base.join(who).join("lib.h"),
            &format!("#define WHO \"{who}\"\n"),
        );
        let o = judge_source(tmp.path(), &src, cache.path())
            .output()
            .expect("judge runs");
        assert_eq!(o.status.code(), Some(0), "{who}: {}", said(&o));
    }
}

#[test]
fn a_new_compiler_makes_a_new_build() {
    require_tool("gcc");
    let cache = tempfile::tempdir().expect("a cache");
    let bin = cache.path().join("bin");
    let src = write(
        &cache.path().join("src/sol.c"),
        "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", V); return 0; }\n",
    );
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path =
        std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(&path)))
            .expect("a PATH");
    let gcc = test_support::tool_path("gcc");
    for version in ["1", "2"] {
        // A compiler that differs from the one before only in what it builds.
        let script = format!("#!/bin/sh\nexec {} -DV={version} \"$@\"\n", gcc.display());
        write(&bin.join("gcc"), &script);
        let mut mode = std::fs::metadata(bin.join("gcc"))
            .expect("gcc")
            .permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o755);
        std::fs::set_permissions(bin.join("gcc"), mode).expect("chmod");
        let tmp = suite(version);
        let o = judge_source(tmp.path(), &src, cache.path())
            .env("PATH", &path)
            .output()
            .expect("judge runs");
        assert_eq!(o.status.code(), Some(0), "gcc {version}: {}", said(&o));
    }
}

/// `rounds` times, four judges at once build and run one new source (a new key each round),
/// and each gets AC; two more on two sources whose names differ after a dot.
fn judges_at_once(rounds: usize) {
    require_tool("gcc");
    let cache = tempfile::tempdir().expect("a cache");
    let tmp = suite("42");
    for round in 0..rounds {
        let src = write(
            &cache.path().join(format!("src/sol.v{round}.c")),
            &format!("#include <stdio.h>\n/* round {round} */\nint main(void) {{ puts(\"42\"); return 0; }}\n"),
        );
        let other = write(
            &cache.path().join(format!("src/sol.w{round}.c")),
            &format!("#include <stdio.h>\n/* other {round} */\nint main(void) {{ puts(\"42\"); return 0; }}\n"),
        );
        let judges: Vec<_> = [&src, &src, &src, &src, &other]
            .iter()
            .map(|s| {
                judge_source(tmp.path(), s, cache.path())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("judge starts")
            })
            .collect();
        for judge in judges {
            let o = judge.wait_with_output().expect("judge ends");
            assert_eq!(o.status.code(), Some(0), "round {round}: {}", said(&o));
        }
    }
    let left: Vec<_> = std::fs::read_dir(cache.path().join("judge"))
        .expect("the cache")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".build-"))
        .collect();
    assert!(left.is_empty(), "builds' folders left behind: {left:?}");
}

#[test]
fn four_judges_at_once_on_one_source_all_get_ac() {
    judges_at_once(4);
}

/// The forty rounds (27 s on two busy cores): `cargo test -p judge -- --ignored forty`.
#[test]
#[ignore = "slow tier (forty rounds of five judges): cargo test -- --ignored"]
fn four_judges_at_once_on_one_source_forty_times() {
    judges_at_once(40);
}

#[test]
fn without_a_home_the_cache_is_private_to_the_user() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    require_tool("gcc");
    let tmp = suite("42");
    let src = write(
        &tmp.path().join("src/sol.c"),
        "#include <stdio.h>\nint main(void) { puts(\"42\"); return 0; }\n",
    );
    let temp = tmp.path().join("temp");
    std::fs::create_dir(&temp).expect("a temporary folder");
    let homeless = |runtime: Option<&Path>| {
        let mut cmd = judge_source(tmp.path(), &src, Path::new("/"));
        cmd.env_remove("XDG_CACHE_HOME")
            .env_remove("HOME")
            .env_remove("XDG_RUNTIME_DIR")
            .env("TMPDIR", &temp);
        if let Some(r) = runtime {
            cmd.env("XDG_RUNTIME_DIR", r);
        }
        cmd.output().expect("judge runs")
    };
    let o = homeless(None);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let uid = std::fs::metadata("/proc/self").expect("/proc").uid();
    let private = temp.join(format!("judge-build-{uid}"));
    let meta = std::fs::symlink_metadata(&private).expect("a private cache");
    assert!(meta.is_dir() && meta.uid() == uid, "{meta:?}");
    assert_eq!(meta.mode() & 0o777, 0o700);
    assert!(std::fs::read_dir(&private).expect("listed").count() > 0);

    // A folder others can write is not used.
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let o = homeless(None);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(
        said(&o).contains("not a folder private to this user"),
        "{}",
        said(&o)
    );

    let runtime = tmp.path().join("runtime");
    std::fs::create_dir(&runtime).expect("a runtime folder");
    let o = homeless(Some(&runtime));
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    assert!(runtime.join("judge").is_dir());
}

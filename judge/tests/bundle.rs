//! `judge bundle`: every solver with a suite bundles into one file that bare `rustc` compiles
//! (editions 2021 and 2018) and that passes its suite; bundling is deterministic; module layouts,
//! `#[cfg]` pruning, doc dropping and the std-only rule, on fixture packages.

use std::path::{Path, PathBuf};
use std::process::Command;

use predicates::prelude::*;
use test_support::require_tool;

use crate::util;

/// `judge bundle PUZZLE --root ROOT -o OUT`; returns the bundle's text.
fn bundle(root: &Path, puzzle: &str, out: &Path) -> String {
    util::bin("judge")
        .args(["bundle", puzzle, "--root"])
        .arg(root)
        .arg("-o")
        .arg(out)
        .assert()
        .code(0)
        .stdout("")
        .stderr(predicate::str::starts_with(format!("bundle {puzzle}: ")));
    std::fs::read_to_string(out).expect("the bundle")
}

/// Compiles `source` with bare rustc; `None` for an edition-check only (no binary).
fn rustc(source: &Path, edition: &str, binary: Option<&Path>) {
    require_tool("rustc");
    let mut cmd = Command::new("rustc");
    cmd.args(["--edition", edition]).arg(source);
    match binary {
        Some(b) => cmd.arg("-O").arg("-o").arg(b),
        None => cmd
            .arg("--emit=metadata")
            .arg("-o")
            .arg(source.with_extension(format!("{edition}.rmeta"))),
    };
    let out = cmd.output().expect("rustc runs");
    assert!(
        out.status.success(),
        "rustc --edition {edition} {} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(
        warnings.is_empty(),
        "rustc warned on {}:\n{warnings}",
        source.display()
    );
}

/// The puzzles that have a suite under `testcases/`, a module and a binary.
fn solvers_with_suites() -> Vec<String> {
    let root = util::workspace();
    let mut names: Vec<String> = std::fs::read_dir(root.join("testcases"))
        .expect("testcases/")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| root.join("bin").join(format!("{n}.rs")).is_file())
        .filter(|n| root.join("src").join(n).is_dir() || root.join(format!("src/{n}.rs")).is_file())
        .collect();
    names.sort();
    names
}

#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn every_solver_bundle_compiles_with_bare_rustc_and_passes_its_suite() {
    let solvers = solvers_with_suites();
    assert!(solvers.iter().any(|s| s == "minimax"), "{solvers:?}");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    for puzzle in &solvers {
        let source = tmp.path().join(format!("{puzzle}.rs"));
        let text = bundle(&util::workspace(), puzzle, &source);
        assert!(text.len() <= 64 * 1024, "{puzzle}: {} bytes", text.len());
        let again = bundle(&util::workspace(), puzzle, &tmp.path().join("again.rs"));
        assert!(text == again, "{puzzle}: two bundles differ");

        let binary = tmp.path().join(puzzle);
        rustc(&source, "2021", Some(&binary));
        rustc(&source, "2018", None);
        // The answers are checked, not the time: under the suites' 2 s, `maxblack/16` (`17 2`,
        // 1.2 s with the release build) was TLE in 2 of 4 runs of this test beside a fuzzer.
        util::bin("judge")
            .arg(puzzle)
            .arg("--testcases")
            .arg(util::workspace().join("testcases"))
            .args(["--time-limit", "60"])
            .arg("--cmd")
            .arg(shell_quoted(&binary))
            .assert()
            .code(0)
            .stdout(predicate::str::ends_with(" passed, 0 failed\n"));
        if puzzle == "quarto" {
            // The bundle answers the best move alone: `--values` is a usage error there.
            assert_cmd::Command::new(&binary)
                .arg("--values")
                .assert()
                .code(2)
                .stderr(predicate::str::contains("unexpected argument \"--values\""));
        }
    }
}

/// CodinGame's Minesweeper: the agent, bundled with the bot's strategy, fits CodinGame's
/// 100,000 bytes, compiles without a warning and plays every game of its suite to the end. With
/// 800 ms a turn its deadline hardly ever cuts a search, so it wins about as many games as the
/// unbundled agent (20 of 50 in docs/minesweeper-agent.md); a cut can change a game on a loaded
/// machine, hence the margin.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn the_agent_bundle_fits_codingame_compiles_and_passes_its_suite() {
    util::release_bin("minesweeper-referee");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let source = tmp.path().join("minesweeper-agent.rs");
    let bundle_agent = |out: &Path| {
        util::bin("judge")
            .args(["bundle", "minesweeper", "--bin", "minesweeper-agent"])
            .args(["--max-bytes", "100000", "--root"])
            .arg(util::workspace())
            .arg("-o")
            .arg(out)
            .assert()
            .code(0)
            .stderr(predicate::str::starts_with("bundle minesweeper-agent: "));
        std::fs::read_to_string(out).expect("the bundle")
    };
    let text = bundle_agent(&source);
    assert!(text.len() <= 100_000, "{} bytes", text.len());
    assert!(text == bundle_agent(&tmp.path().join("again.rs")));
    assert!(text.contains("fn main()") && text.contains("Strategy::REGIONS"));
    // The games' engine and the bot's runner stay out: the agent plays through stdin.
    assert!(!text.contains("pub mod game") && !text.contains("fn play_one"));

    let binary = tmp.path().join("minesweeper-agent");
    rustc(&source, "2021", Some(&binary));
    rustc(&source, "2018", None);
    util::bin("judge")
        .arg("codingame-minesweeper")
        .arg("--testcases")
        .arg(util::workspace().join("testcases"))
        .arg("--cmd")
        .arg(format!("{} --budget-ms 800", shell_quoted(&binary)))
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(" passed, 0 failed\n"))
        .stdout(predicate::function(|out: &str| {
            let score = out
                .split(", score ")
                .nth(1)
                .and_then(|s| s.split('/').next());
            out.contains("50 passed, 0 failed")
                && score
                    .and_then(|s| s.parse::<u32>().ok())
                    .is_some_and(|s| (18..=26).contains(&s))
        }));
}

#[test]
fn a_bundle_over_max_bytes_is_written_and_is_an_error() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let out = tmp.path().join("minimax.rs");
    util::bin("judge")
        .args(["bundle", "minimax", "--max-bytes", "1000", "--root"])
        .arg(util::workspace())
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("without doc comments or indentation").and(
                predicate::str::contains("over the limit of 1000 (--max-bytes)"),
            ),
        );
    assert!(std::fs::metadata(&out).expect("written").len() > 1000);
    util::bin("judge")
        .args(["bundle", "minimax", "--bin", "../minimax"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a binary name"));
}

fn shell_quoted(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

fn fixtures() -> PathBuf {
    util::package().join("tests/fixtures/judge/bundle")
}

#[test]
fn module_layouts_and_cfg_are_bundled_as_rustc_would_read_them() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let source = tmp.path().join("layout.rs");
    let text = bundle(&fixtures(), "layout", &source);
    // `mod tests;` and `pub mod engine;` are gone (their files do not exist), and so is the
    // library's variant of `built_for`.
    assert!(
        !text.contains("mod tests") && !text.contains("engine") && !text.contains("\"library\"")
    );
    // `gone.rs` says `#![cfg(not(bundle))]`: neither it nor its crate reach the bundle.
    assert!(!text.contains("gone") && !text.contains("rand"));
    assert!(!text.contains("#[path") && !text.contains("cfg("));
    assert!(text.contains("/// Says where it was compiled."));
    for edition in ["2021", "2018"] {
        let binary = tmp.path().join(format!("layout-{edition}"));
        rustc(&source, edition, Some(&binary));
        assert_cmd::Command::new(&binary)
            .write_stdin("7\n")
            .assert()
            .success()
            .stdout("flat inner nested renamed deep bundle 7\n");
    }
}

#[test]
fn a_crate_or_another_puzzle_in_a_solver_is_refused() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    util::bin("judge")
        .args(["bundle", "external", "--root"])
        .arg(fixtures())
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "judge: src/external: refers to the crate `rand` in `rand::Rng`: \
             a bundled solver may use the standard library only\n",
        );
    util::bin("judge")
        .args(["bundle", "crosses", "--root"])
        .arg(fixtures())
        .arg("-o")
        .arg(tmp.path().join("crosses.rs"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "refers to another puzzle's module in `crate::minimax::solve`",
        ));
    assert!(!tmp.path().join("crosses.rs").exists());
    util::bin("judge")
        .args(["bundle", "nosuch", "--root"])
        .arg(fixtures())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no solver module"));
}

#[test]
fn doc_comments_go_when_the_bundle_would_pass_64_kib() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path();
    std::fs::create_dir_all(root.join("src/big")).expect("src/big");
    std::fs::create_dir_all(root.join("bin")).expect("bin");
    let docs = "/// A long line of documentation that makes the bundle too large for a judge.\n"
        .repeat(1000);
    let module = format!("{docs}pub fn answer() -> u32 {{\n    42\n}}\n");
    std::fs::write(root.join("src/big/mod.rs"), module).expect("mod.rs");
    let main = "fn main() {\n    println!(\"{}\", cp_puzzles::big::answer());\n}\n";
    std::fs::write(root.join("bin/big.rs"), main).expect("big.rs");
    let out = util::bin("judge")
        .args(["bundle", "big", "--root"])
        .arg(root)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("without doc comments"));
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.len() < 64 * 1024 && !text.contains("A long line"));
    assert!(text.contains("::big::answer()") && !text.contains("cp_puzzles"));
}

/// Bare `rustc` sets no Cargo variables: `env!("CARGO_PKG_VERSION")` (here in a module of the
/// binary's, as in `bin/cli.rs`, and inside other macros' arguments, at any depth) becomes the
/// version in the package's `Cargo.toml`.
#[test]
fn the_package_version_is_written_into_the_bundle() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path();
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::create_dir_all(root.join("bin")).expect("bin");
    let manifest = "[package]\nname = \"v\"\nversion = \"1.2.3\"\nedition = \"2021\"\n";
    std::fs::write(root.join("Cargo.toml"), manifest).expect("Cargo.toml");
    std::fs::write(
        root.join("src/v.rs"),
        "pub fn name() -> &'static str {\n    \"v\"\n}\n",
    )
    .expect("v.rs");
    let version = "pub const VERSION: &str = env!(\"CARGO_PKG_VERSION\");\n";
    std::fs::write(root.join("bin/version.rs"), version).expect("version.rs");
    let main = "mod version;\n\nfn main() {\n    println!(\"{} {}\", cp_puzzles::v::name(), \
                version::VERSION);\n    println!(\"{}\", env!(\"CARGO_PKG_VERSION\"));\n    \
                println!(\"{}\", concat!(\"v\", env![\"CARGO_PKG_VERSION\"]));\n}\n";
    std::fs::write(root.join("bin/v.rs"), main).expect("v.rs");
    let source = root.join("bundle.rs");
    let text = bundle(root, "v", &source);
    assert!(text.contains("\"1.2.3\"") && !text.contains("CARGO_PKG_VERSION"));
    let binary = root.join("v");
    rustc(&source, "2021", Some(&binary));
    assert_cmd::Command::new(&binary)
        .assert()
        .success()
        .stdout("v 1.2.3\n1.2.3\nv1.2.3\n");
}

/// `judge bundle minimax -o bin/minimax.rs` once replaced the solver's own source; a symlink into
/// the sources, or a new file there, is refused too, and nothing is written.
#[test]
fn a_bundle_never_overwrites_the_sources_it_is_made_from() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let link = tmp.path().join("out.rs");
    std::os::unix::fs::symlink(util::workspace().join("bin/minimax.rs"), &link).expect("symlink");
    let before = std::fs::read(util::workspace().join("bin/minimax.rs")).expect("the source");
    for out in [
        util::workspace().join("bin/minimax.rs"),
        util::workspace().join("src/minimax/new.rs"),
        link,
    ] {
        util::bin("judge")
            .args(["bundle", "minimax", "--root"])
            .arg(util::workspace())
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("among the package's sources"));
    }
    assert!(!util::workspace().join("src/minimax/new.rs").exists());
    let after = std::fs::read(util::workspace().join("bin/minimax.rs")).expect("the source");
    assert!(before == after, "bin/minimax.rs changed");
}

/// `judge bundle literals --max-bytes LIMIT` on the fixture package, written to `out`: exits 0
/// (the bundle fits); returns the bundle's text and the form named on stderr.
fn bundle_literals(limit: usize, out: &Path) -> (String, String) {
    let run = util::bin("judge")
        .args([
            "bundle",
            "literals",
            "--max-bytes",
            &limit.to_string(),
            "--root",
        ])
        .arg(fixtures())
        .arg("-o")
        .arg(out)
        .assert()
        .code(0)
        .stdout("");
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    let text = std::fs::read_to_string(out).expect("the bundle");
    let report = format!("bundle literals: {} bytes (", text.len());
    assert!(stderr.starts_with(&report), "{stderr}");
    let form = stderr.split("), ").nth(1).unwrap_or_default().trim_end();
    (text, form.to_string())
}

/// What the fixture `literals` prints: its string, raw string and byte string literals over
/// several lines keep their lines' leading spaces and tabs; a `\` continuation skips them.
const LITERALS: &str = "plain, first line\n    four spaces\n\ta tab\n        eight spaces, then \
                        a blank line\n\n  two spaces, end\ncontinued: the spaces after a \
                        backslash go\nraw \"quoted\"\n   three spaces \\\n      six after a \
                        backslash\nbytes\n     five spaces\n2\n";

/// Compiles the bundle `source` with bare rustc (edition 2021) and returns what it prints.
fn literals_output(source: &Path) -> String {
    let binary = source.with_extension("bin");
    rustc(source, "2021", Some(&binary));
    let out = Command::new(&binary).output().expect("the bundle runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// With a large limit the bundle keeps its doc comments and its tabs; a limit below its size
/// without doc comments takes away the indentation too, except on the lines that begin inside
/// a literal; each form prints the same bytes, and the same sources give the same bundle.
#[test]
fn indentation_goes_when_the_bundle_fits_only_without_it() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let indented = tmp.path().join("indented.rs");
    let (full, form) = bundle_literals(1_000_000, &indented);
    assert_eq!(form, "with doc comments");
    assert!(full.contains("/// Two levels down.") && full.contains("\n\t\t\t\tpub fn text()"));
    assert_eq!(literals_output(&indented), LITERALS);

    let (no_docs, form) = bundle_literals(full.len() - 1, &tmp.path().join("no-docs.rs"));
    assert_eq!(form, "without doc comments");
    assert!(!no_docs.contains("Two levels down") && no_docs.contains("\n\t\t\t\tpub fn text()"));

    let flat_path = tmp.path().join("flat.rs");
    let (flat, form) = bundle_literals(no_docs.len() - 1, &flat_path);
    assert_eq!(form, "without doc comments or indentation");
    let (again, _) = bundle_literals(no_docs.len() - 1, &tmp.path().join("again.rs"));
    assert!(flat == again, "two bundles differ");
    // The only lines that still begin with whitespace are the literals' own.
    let indented_lines: Vec<&str> = flat
        .lines()
        .filter(|l| l.starts_with([' ', '\t']))
        .collect();
    assert_eq!(
        indented_lines,
        [
            "    four spaces",
            "\ta tab",
            "        eight spaces, then a blank line",
            "  two spaces, end",
            "\t\t\t\t\t\t\t after a backslash go\\n\",",
            "   three spaces \\",
            "      six after a backslash",
            "     five spaces",
        ]
    );
    assert!(flat.contains("\npub fn text() -> String {\n"));
    assert_eq!(literals_output(&flat_path), LITERALS);
}

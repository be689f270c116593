//! The docs run: every `console` block of `README.md` and `docs/*.md` is a transcript, checked
//! here as trycmd checks one, but through `sh` so that an example may pipe (`printf ... | minimax`).
//!
//! A transcript is a list of commands, each a line `$ COMMAND` (a line ending in `\`, or inside a
//! quoted string, goes on on the next one) followed by the lines it prints, stdout and stderr together. In the expected
//! lines, `[..]` matches any text within a line and a line `...` matches any number of lines.
//! A last line `? N` expects exit status N (else 0). Commands run from the repository's root,
//! with every binary of the workspace (built in this test's own profile) first on `PATH`,
//! `NO_COLOR=1`, and one minute each.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::root;

/// One command of a transcript and what it should print.
#[derive(Debug)]
struct Example {
    /// Where it is written: `docs/judge.md:120`.
    place: String,
    command: String,
    expected: Vec<String>,
    status: i32,
}

/// The binaries that the sibling packages install, which cargo does not build for this package's
/// tests.
const SIBLINGS: [(&str, &str); 4] = [
    ("judge", "judge"),
    ("cp-puzzles-play", "minesweeper-bot"),
    ("cp-puzzles-play", "minesweeper-play"),
    ("cp-puzzles-play", "quarto-play"),
];

/// How long an example may run: a guard against a hang, far above any example's own time.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// How long an example that runs `judge` may run. Inside the repository the judge first runs
/// `cargo build` of the solvers it judges: [`binaries`] has built them all, so that build only
/// checks them, but it waits for the build folder's lock while any other cargo holds it (the
/// other tests' builds of examples, under a loaded machine, take minutes), so its wall time is
/// not the example's: the guard is only against a hang.
const BUILD_GUARD: Duration = Duration::from_secs(30 * 60);

/// The time limit of the example `command` ([`TIME_LIMIT`], or [`BUILD_GUARD`] if it runs
/// `judge`, which may build first).
fn time_limit(command: &str) -> Duration {
    let runs_judge = command
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')'))
        .any(|word| word == "judge");
    if runs_judge {
        BUILD_GUARD
    } else {
        TIME_LIMIT
    }
}

/// The `console` blocks of `text` (from `file`) as examples.
fn examples(file: &str, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_block = false;
            found.extend(current.take());
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.extend(current.take());
            let mut command = command.to_string();
            while command.ends_with('\\') || open_quote(&command) {
                let (_, next) = lines.next().expect("a continued command goes on");
                command.push('\n');
                command.push_str(next);
            }
            current = Some(Example {
                place: format!("{file}:{}", index + 1),
                command,
                expected: Vec::new(),
                status: 0,
            });
        } else if let Some(example) = current.as_mut() {
            match line.strip_prefix("? ").map(str::parse) {
                Some(Ok(status)) => example.status = status,
                _ => example.expected.push(line.to_string()),
            }
        } else {
            panic!(
                "{file}:{}: a console block starts with `$ COMMAND`",
                index + 1
            );
        }
    }
    found
}

/// Whether `command` ends inside a quoted string (a command that goes on on the next line).
fn open_quote(command: &str) -> bool {
    let mut quote = None;
    let mut escaped = false;
    for c in command.chars() {
        match (quote, c) {
            (_, _) if escaped => escaped = false,
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"') | None, '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            _ => {}
        }
    }
    quote.is_some()
}

/// Whether `got` matches the expected `line`, where `[..]` matches any text.
fn line_matches(pattern: &str, got: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = got.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the lines `got` match the `expected` ones, where a line `...` matches any lines.
fn lines_match(expected: &[String], got: &[&str]) -> bool {
    match expected.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=got.len()).any(|skip| lines_match(rest, &got[skip..]))
        }
        Some((first, rest)) => got
            .split_first()
            .is_some_and(|(line, tail)| line_matches(first, line) && lines_match(rest, tail)),
    }
}

/// The folder of this test's own build profile (`target/debug`, `target/release`), with the
/// siblings' binaries brought up to date there: `cargo test -p cp-puzzles` builds only this
/// package's own, and a stale sibling would run an example with yesterday's options. This
/// package's binaries are built too, by the command the judge builds them with, so that the
/// judge's own `cargo build` of the solvers before judging them finds nothing to do.
fn binaries() -> PathBuf {
    let dir = Path::new(crate::util::bin_path("minimax"))
        .parent()
        .expect("the binaries' folder")
        .to_path_buf();
    let profile = match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev".to_string(),
        Some(other) => other.to_string(),
        None => panic!("no profile folder: {}", dir.display()),
    };
    let target = dir.parent().expect("the target folder");
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "--quiet", "--profile", &profile, "--target-dir"]);
    cargo
        .arg(target)
        .arg("--manifest-path")
        .arg(root().join("Cargo.toml"));
    for (package, name) in SIBLINGS {
        cargo.args(["-p", package, "--bin", name]);
    }
    cargo.args(["-p", "cp-puzzles", "--bins"]);
    assert!(cargo.status().expect("cargo runs").success());
    dir
}

/// Runs `example` with `path` as `PATH`; `None` if it printed what the docs say, else why not.
fn check(example: &Example, path: &str) -> Option<String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{}", example.command))
        .current_dir(root())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CARGO_MANIFEST_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let reader = {
        let mut out = child.stdout.take().expect("a piped stdout");
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut out, &mut bytes).map(|_| bytes)
        })
    };
    let start = Instant::now();
    let limit = time_limit(&example.command);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for sh") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Some(format!("still running after {} s", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let bytes = reader.join().expect("the reader").expect("read the output");
    let text = String::from_utf8_lossy(&bytes);
    let got: Vec<&str> = text.lines().collect();
    let code = status.code().unwrap_or(-1);
    if code == example.status && lines_match(&example.expected, &got) {
        return None;
    }
    Some(format!(
        "exit {code} (expected {})\n--- expected\n{}\n--- got\n{text}",
        example.status,
        example.expected.join("\n")
    ))
}

/// Every markdown file whose examples run: the README and the reference pages.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_console_example_of_the_docs_prints_what_it_says() {
    let dir = binaries();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let mut count = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).expect("read a doc");
        let name = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        for example in examples(&name, &text) {
            count += 1;
            if let Some(why) = check(&example, &path) {
                failures.push(format!("{}: $ {}\n{why}", example.place, example.command));
            }
        }
    }
    assert!(count > 0, "no console examples found");
    assert!(
        failures.is_empty(),
        "{} of {count} examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// An example that runs `judge` is not held to a fixed wall time: the judge's own `cargo build`
/// may wait minutes for the build folder's lock while other tests build (a fresh-clone `cargo
/// test` on a loaded machine failed so, past 60 s); the others are.
#[test]
fn examples_that_run_the_judge_are_not_timed_on_its_build() {
    for command in [
        "judge minimax",
        "F=judge/tests/fixtures; judge stress --gen x",
        "judge --testcases judge/tests/fixtures/judge guess --cmd 'x'",
        "(cd x && judge verify y)",
    ] {
        assert_eq!(time_limit(command), BUILD_GUARD, "{command}");
    }
    for command in [
        "minimax < testcases/minimax/01.in",
        "quarto --values < x",
        "printf 'judge\\n' | minesweeper-play",
        "cargo run -p judge-process --example x",
    ] {
        assert_eq!(time_limit(command), TIME_LIMIT, "{command}");
    }
}

#[test]
fn the_transcript_matcher_takes_wildcards_and_skipped_lines() {
    assert!(line_matches(
        "AC  [..] minimax/01",
        "AC  [  1.7 ms   1.6 MiB] minimax/01"
    ));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("a[..]b[..]c", "a--b--c"));
    assert!(!line_matches("a[..]b", "a--c"));
    assert!(!line_matches("exact", "exact "));
    let expected: Vec<String> = ["first", "...", "last"].map(String::from).to_vec();
    assert!(lines_match(&expected, &["first", "x", "y", "last"]));
    assert!(lines_match(&expected, &["first", "last"]));
    assert!(!lines_match(&expected, &["first", "x"]));
    let block = "```console\n$ echo a \\\nb\na b\n? 0\n```\n";
    let found = examples("x.md", block);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].command, "echo a \\\nb");
    assert_eq!(found[0].expected, ["a b"]);
    let block = "```console\n$ sh -c 'echo a\necho b'\na\nb\n```\n";
    let found = examples("x.md", block);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].expected, ["a", "b"]);
    assert!(!open_quote(r#"echo "it's" \' done"#));
}

/// The number of recorded cases of each suite under `testcases/`, by name.
fn suite_sizes() -> Vec<(String, usize)> {
    let mut suites: Vec<(String, usize)> = std::fs::read_dir(root().join("testcases"))
        .expect("testcases/")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.is_dir())
        .map(|dir| {
            let cases = std::fs::read_dir(&dir)
                .expect("a suite folder")
                .filter(|e| {
                    let path = e.as_ref().expect("a folder entry").path();
                    path.extension().is_some_and(|x| x == "in")
                })
                .count();
            let name = dir
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, cases)
        })
        .collect();
    suites.sort();
    suites
}

#[test]
fn the_case_counts_in_the_docs_are_the_recorded_ones() {
    let suites = suite_sizes();
    let total: usize = suites.iter().map(|(_, n)| n).sum();
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let phrase = format!("the {total} recorded cases");
    assert!(readme.contains(&phrase), "README.md should say {phrase:?}");
    let judge = std::fs::read_to_string(root().join("docs/judge.md")).expect("docs/judge.md");
    let flat = judge.split_whitespace().collect::<Vec<_>>().join(" ");
    let phrase = format!("The repository holds {total} cases:");
    assert!(
        flat.contains(&phrase),
        "docs/judge.md should say {phrase:?}"
    );
    for (name, n) in &suites {
        let phrase = format!("`{name}` {n}");
        assert!(
            flat.contains(&phrase),
            "docs/judge.md should say {phrase:?}"
        );
    }
}

/// The README stays a page a newcomer reads: at most 250 lines, opening with its two commands
/// (the main job and the tests) in the first code block.
#[test]
fn the_readme_is_at_most_250_lines_and_opens_with_two_commands() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = text.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines");
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    assert_eq!(block.len(), 2, "the first code block: {block:?}");
}

/// The package whose `examples/` folder holds the example that `command` (a `cargo run ...
/// --example NAME` command) runs: `-p PACKAGE`'s folder, or the root package's.
fn example_folder(command: &str) -> PathBuf {
    let words: Vec<&str> = command.split_whitespace().collect();
    match words.iter().position(|&w| w == "-p") {
        Some(i) if words.get(i + 1) == Some(&"cp-puzzles-play") => root().join("play/examples"),
        Some(i) => panic!("no examples known for package {:?}", words.get(i + 1)),
        None => root().join("examples"),
    }
}

#[test]
fn every_example_the_docs_name_exists_where_their_command_looks() {
    // The commands that name an example are quoted inline (they take minutes, so they are not
    // transcripts): check that each names a file that `cargo run` would build.
    let mut files = documents();
    let records = root().join("docs/experiments");
    files.extend(
        std::fs::read_dir(&records)
            .expect("docs/experiments/")
            .map(|e| e.expect("a folder entry").path()),
    );
    let mut named = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read a doc");
        for command in text
            .split('`')
            .filter(|s| s.starts_with("cargo run") && s.contains("--example "))
        {
            let name = command
                .split("--example ")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .expect("an example's name");
            let source = example_folder(command).join(format!("{name}.rs"));
            assert!(
                source.is_file(),
                "{}: `{command}` names a missing example ({})",
                file.display(),
                source.display()
            );
            named += 1;
        }
    }
    assert!(named >= 2, "only {named} example commands found");
}

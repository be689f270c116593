//! What the judge's fuzz targets check (`fuzz/fuzz_targets/judge_*.rs`), shared with the corpus
//! replay of `cargo test` (`fuzz_corpus.rs`). Each check panics when something that must hold
//! does not.

use std::path::Path;
use std::sync::OnceLock;

use judge::fuzzing::{compare_bytes, Mode};

/// Splits `data` at its first `0xff` byte... unless there is none: then the halves of `data`.
fn two(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0xff) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => data.split_at(data.len() / 2),
    }
}

/// The tolerance that the first byte selects.
fn tolerance(b: u8) -> f64 {
    [0.0, 1e-9, 1e-6, 0.5, 1.0, 1e300][usize::from(b) % 6]
}

/// The comparisons on an expected and a got output (the first byte picks the tolerance, the rest
/// is split in two): no panic; every mode is reflexive and symmetric; `exact` agrees with a
/// naive line-by-line comparison and `tokens` with a naive whitespace split (on UTF-8); what
/// `exact` accepts `tokens` accepts, and what `tokens` accepts `float` accepts; a difference is
/// described.
pub fn compare(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let tol = tolerance(first);
    let (e, g) = two(rest);
    let same = |mode, a: &[u8], b: &[u8]| {
        let d = compare_bytes(mode, tol, a, b);
        assert!(
            d.as_ref().is_none_or(|d| !d.trim().is_empty()),
            "{mode:?}: empty detail"
        );
        d.is_none()
    };
    for mode in [Mode::Exact, Mode::Tokens, Mode::Float] {
        assert!(same(mode, e, e), "{mode:?} is not reflexive");
        assert_eq!(
            same(mode, e, g),
            same(mode, g, e),
            "{mode:?} is not symmetric"
        );
    }
    let (exact, tokens, float) = (
        same(Mode::Exact, e, g),
        same(Mode::Tokens, e, g),
        same(Mode::Float, e, g),
    );
    assert!(!exact || tokens, "exact accepts what tokens refuses");
    assert!(!tokens || float, "tokens accepts what float refuses");
    if let (Ok(a), Ok(b)) = (std::str::from_utf8(e), std::str::from_utf8(g)) {
        assert_eq!(
            exact,
            naive_lines(a) == naive_lines(b),
            "exact against naive"
        );
        let naive = a.split_whitespace().eq(b.split_whitespace());
        assert_eq!(tokens, naive, "tokens against a naive whitespace split");
    }
}

/// The lines of `text` with trailing whitespace removed, trailing empty lines dropped.
fn naive_lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = text.lines().map(str::trim_end).collect();
    while v.last() == Some(&"") {
        v.pop();
    }
    v
}

/// The readers of a suite's files: with an even first byte the rest is a `suite.toml`, with an
/// odd one an `NN.exit`. No panic; an error names the file and is one line; settings read are
/// consistent (a positive time limit, a finite tolerance at least 0, a checker command for
/// `compare = "checker"`), and an exit code is the trimmed text's number from 0 to 255.
pub fn suite_files(data: &[u8]) {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let path = Path::new("s/suite.toml");
    if first % 2 == 0 {
        match judge::fuzzing::Settings::parse(bytes, path) {
            Ok(s) => {
                assert!(s.time_limit.is_finite() && s.time_limit > 0.0);
                assert!(s.tolerance.is_finite() && s.tolerance >= 0.0);
                assert!(s.compare != Mode::Checker || s.checker.is_some());
            }
            Err(e) => assert!(e.starts_with("s/suite.toml: "), "{e}"),
        }
        return;
    }
    let path = Path::new("s/01.exit");
    match judge::fuzzing::exit_code(bytes, path) {
        Ok(code) => {
            let text = std::str::from_utf8(bytes).expect("an exit code read from UTF-8");
            assert_eq!(text.trim().parse::<i32>(), Ok(code));
            assert!((0..=255).contains(&code));
        }
        Err(e) => {
            assert!(e.starts_with("s/01.exit: "), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}

/// The files of [`modules`]: `lib.rs`, then the files its `mod` declarations may name.
const MODULE_FILES: [&str; 4] = ["lib.rs", "a.rs", "b/mod.rs", "a/c.rs"];

/// The bundler's module resolution on up to four Rust files (`data` split at `0xff` bytes into
/// `lib.rs`, `a.rs`, `b/mod.rs`, `a/c.rs`; a missing part is no file), in a scratch folder kept
/// for the whole fuzzing process. No panic; an error is not empty; a tree that loads has every
/// `mod x;` inlined.
#[allow(dead_code)] // the fuzz target's entry: the corpus replay calls `modules_in`
pub fn modules(data: &[u8]) {
    static ROOT: OnceLock<tempfile::TempDir> = OnceLock::new();
    let root = ROOT.get_or_init(|| tempfile::tempdir().expect("a scratch folder"));
    modules_in(root.path(), data);
}

/// [`modules`], its files written under `root` (a folder per thread).
pub fn modules_in(root: &Path, data: &[u8]) {
    let dir = root.join(format!("{:?}", std::thread::current().id()));
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).expect("a scratch folder");
    }
    let mut parts = data.split(|&b| b == 0xff);
    for name in MODULE_FILES {
        let path = dir.join(name);
        match parts.next() {
            Some(text) => std::fs::write(&path, text).expect("a scratch file"),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    match judge::fuzzing::module_tree(&dir.join("lib.rs")) {
        Ok(Some(items)) => assert!(all_inlined(&items), "a `mod x;` left"),
        Ok(None) => {}
        Err(e) => assert!(!e.trim().is_empty()),
    }
}

/// Whether every module of `items`, at any depth, has its contents.
fn all_inlined(items: &[syn::Item]) -> bool {
    items.iter().all(|item| match item {
        syn::Item::Mod(m) => m
            .content
            .as_ref()
            .is_some_and(|(_, inner)| all_inlined(inner)),
        _ => true,
    })
}

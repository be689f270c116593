//! Replays every corpus file and every crash found by the judge's fuzz targets
//! (`fuzz/corpus/judge_*/`, `fuzz/regressions/judge_*/`) through their checks, on stable.

use crate::fuzz_checks;

/// Runs `check` on every file of `fuzz/corpus/<target>` and `fuzz/regressions/<target>`; returns
/// how many there were.
fn replay(target: &str, check: &dyn Fn(&[u8])) -> usize {
    let root = crate::util::workspace().join("fuzz");
    let mut files = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a readable folder").path();
            let data = std::fs::read(&path).expect("a readable file");
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&data)));
            assert!(outcome.is_ok(), "{} fails its check", path.display());
            files += 1;
        }
    }
    files
}

#[test]
fn judge_compare_corpus() {
    assert!(replay("judge_compare", &fuzz_checks::compare) > 0);
}

#[test]
fn judge_suite_files_corpus() {
    assert!(replay("judge_suite_files", &fuzz_checks::suite_files) > 0);
}

#[test]
fn judge_modules_corpus() {
    // A scratch folder removed at the end (the fuzz target's own lives as long as its process).
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let check = |data: &[u8]| fuzz_checks::modules_in(scratch.path(), data);
    assert!(replay("judge_modules", &check) > 0);
}

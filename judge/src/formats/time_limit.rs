//! The time limit of a package: stated by it, given on the command line, or computed as
//! problemtools computes it (the slowest accepted run times the multiplier, rounded up to the
//! package's time resolution, 1 s unless it says otherwise, at least one step) and then kept in the judge's cache, keyed by the package's content, so
//! that judging one program on the package does not run the accepted submissions again.
//!
//! The times are the [`CaseResult::time`] of the runs: the measure the verdicts use, so that the
//! limit follows it.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::verdict::{CaseResult, Verdict};

use super::problem::Problem;

/// The computed limit of `slowest` (seconds of the slowest accepted run), and how it was found.
#[must_use]
pub fn computed(problem: &Problem, slowest: f64) -> (Duration, String) {
    let (multiplier, resolution) = (problem.time.multiplier, problem.time.resolution);
    let seconds = limit_of(slowest, multiplier, resolution);
    let step = if resolution == 1.0 {
        "a whole second".to_string()
    } else {
        format!("a multiple of {resolution} s")
    };
    let how = format!(
        "the slowest accepted run {slowest:.3} s times {multiplier}, rounded up to {step}, \
         at least {resolution} s"
    );
    (Duration::from_secs_f64(seconds), how)
}

/// problemtools' computed limit, in seconds: `slowest` times `multiplier`, rounded up to a
/// multiple of `resolution`, at least `resolution` (the same floating-point steps, so that a
/// product that lands just above a step rounds up here as there).
#[must_use]
pub fn limit_of(slowest: f64, multiplier: f64, resolution: f64) -> f64 {
    let exact = slowest * multiplier;
    (exact / resolution).ceil().max(1.0) * resolution
}

/// The slowest accepted run among `runs` (the results of accepted submissions).
#[must_use]
pub fn slowest<'a>(runs: impl Iterator<Item = &'a CaseResult>) -> f64 {
    runs.filter(|c| c.verdict == Verdict::Accepted)
        .map(|c| c.time)
        .fold(0.0, f64::max)
}

/// The limit computed earlier for this package's content, and how it was found.
#[must_use]
pub fn cached(problem: &Problem) -> Option<(Duration, String)> {
    let text = std::fs::read_to_string(entry(problem)?).ok()?;
    let (seconds, how) = text.split_once('\n')?;
    let seconds: f64 = seconds.trim().parse().ok()?;
    if !(seconds.is_finite() && (1.0..1e6).contains(&seconds)) {
        return None;
    }
    Some((
        Duration::from_secs_f64(seconds),
        format!("{}, computed earlier", how.trim()),
    ))
}

/// Keeps the computed limit for this package's content. A failure to write is not an error:
/// the limit is computed again next time.
pub fn keep(problem: &Problem, limit: Duration, how: &str) {
    let Some(path) = entry(problem) else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let partial = path.with_extension(format!("{}.partial", std::process::id()));
    let text = format!("{}\n{how}\n", limit.as_secs_f64());
    if std::fs::write(&partial, text).is_ok() {
        let _ = std::fs::rename(&partial, &path);
    }
}

/// How limits are computed, in the cache's key: a limit computed by another rule (an earlier
/// judge rounded to the nearest second) is not reused.
const RULE: &[u8] = b"ceil to time_resolution";

/// The cache file of the package: `time-limits/HASH` in the judge's cache folder, the hash of
/// the computing rule and of every file's path and content under the package's folder.
fn entry(problem: &Problem) -> Option<PathBuf> {
    let key = fnv1a(content_hash(&problem.root)?, RULE);
    let dir = crate::source::cache_dir().ok()?;
    Some(dir.join("time-limits").join(format!("{key:016x}")))
}

/// FNV-1a over the sorted relative paths and contents of the regular files below `root`
/// (symbolic links are followed only to files; folders are walked to a depth of 16).
fn content_hash(root: &Path) -> Option<u64> {
    let mut files = Vec::new();
    walk(root, root, 0, &mut files);
    files.sort();
    let mut hash = FNV_START;
    for (relative, path) in files {
        hash = fnv1a(hash, relative.as_bytes());
        hash = fnv1a(hash, &[0]);
        let mut file = std::fs::File::open(&path).ok()?;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match file.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => hash = fnv1a(hash, &buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        hash = fnv1a(hash, &[0xff]);
    }
    Some(hash)
}

fn walk(root: &Path, dir: &Path, depth: usize, files: &mut Vec<(String, PathBuf)>) {
    if depth > 16 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() && !entry.file_type().is_ok_and(|t| t.is_symlink()) {
            walk(root, &path, depth + 1, files);
        } else if meta.is_file() {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            files.push((relative.to_string_lossy().into_owned(), path));
        }
    }
}

fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests {
    use super::limit_of;

    #[test]
    fn computed_limits_round_up_to_the_resolution_as_problemtools() {
        // problemtools 1.20260907: max(1, ceil(exact / resolution)) * resolution.
        assert_eq!(limit_of(0.216, 5.0, 1.0), 2.0);
        assert_eq!(limit_of(0.19, 5.0, 1.0), 1.0);
        assert_eq!(limit_of(0.0, 2.0, 1.0), 1.0);
        assert_eq!(limit_of(1.0, 2.0, 1.0), 2.0);
        assert_eq!(limit_of(0.3, 2.0, 0.25), 0.75);
        assert_eq!(limit_of(0.01, 2.0, 0.25), 0.25);
        // 0.1 * 3 / 0.1 is 3.0000000000000004 in floating point: one step more, as in Python.
        assert_eq!(limit_of(0.1, 3.0, 0.1), 0.4);
    }
}

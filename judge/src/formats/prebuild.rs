//! Builds started early: while `judge verify` reads an ICPC package (and builds its output
//! validator or interactor, which takes seconds), the package's compiled submission files are
//! built on the other cores, into the compile cache, where the verify's own builds then find
//! them (a build still under way is waited for, under the cache's lock). Nothing is judged or
//! timed here, and nothing is reported: a build that fails is made again by the verify, which
//! reports it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::source::Language;

/// The builds under way; dropping it lets each thread finish the build it is on, starts no
/// other, and waits for them.
pub struct Prebuild {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Prebuild {
    /// No build started: a package of another format, or one whose programs cannot run here.
    fn none() -> Prebuild {
        Prebuild {
            stop: Arc::new(AtomicBool::new(true)),
            threads: Vec::new(),
        }
    }

    /// Starts no build after the ones under way (the verify's own builds take over).
    pub fn stop_taking(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

impl Drop for Prebuild {
    fn drop(&mut self) {
        self.stop_taking();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Starts building, on all cores but one (at least one thread), the compiled submission files
/// of the ICPC package at `root` whose name holds `filter` (when given): those that promise a
/// time limit first, then the slowest languages to build first.
#[must_use]
pub fn start(root: &Path, filter: Option<&str>) -> Prebuild {
    let icpc = !root.join("problem.xml").is_file()
        && (root.join("problem.yaml").is_file() || root.join("data").is_dir());
    if !icpc || super::boxed_or_refused(root).is_err() {
        return Prebuild::none();
    }
    judge_process::keep_hidden(root);
    let mut files = files(root, filter);
    if files.is_empty() {
        return Prebuild::none();
    }
    files.sort_by_key(|(first, cost, path)| (!*first, std::cmp::Reverse(*cost), path.clone()));
    let files: Arc<Vec<PathBuf>> = Arc::new(files.into_iter().map(|(_, _, p)| p).collect());
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicUsize::new(0));
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = (0..cores.saturating_sub(1).max(1))
        .filter_map(|_| {
            let (files, stop, next) = (Arc::clone(&files), Arc::clone(&stop), Arc::clone(&next));
            std::thread::Builder::new()
                .name("judge-prebuild".to_owned())
                .spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        let Some(path) = files.get(next.fetch_add(1, Ordering::SeqCst)) else {
                            break;
                        };
                        let _ = crate::source::build(path);
                    }
                })
                .ok()
        })
        .collect();
    Prebuild { stop, threads }
}

/// The compiled submission files the verify judges: whether it promises a time limit (the
/// verify judges those first), and how slow its language is to build (a rough rank: the JVM's
/// compilers, then Rust, then C and C++).
fn files(root: &Path, filter: Option<&str>) -> Vec<(bool, u8, PathBuf)> {
    let mut warnings = Vec::new();
    let Ok(submissions) = super::submission::icpc(root, None, &mut warnings) else {
        return Vec::new();
    };
    submissions
        .into_iter()
        .filter(|s| filter.is_none_or(|f| s.name.contains(f)))
        .filter(|s| s.path.is_file())
        .filter_map(|s| {
            let cost = match Language::of(&s.path)? {
                Language::Java | Language::Kotlin => 3,
                Language::Rust => 2,
                Language::C | Language::Cpp => 1,
                Language::Python2 | Language::Python3 | Language::JavaScript => return None,
            };
            Some((s.time_limited(), cost, s.path))
        })
        .collect()
}

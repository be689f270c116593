//! Helpers started ahead of their case: while a program runs, the judge has the zygote fork the
//! helper of the next run of the same command, which builds its box (its init, mounts and
//! namespaces) and then waits at a gate (`--gate`, a pipe on the helper's [`GATE_FD`]) before it
//! forks anything. When that run comes, the judge opens the gate (one byte) and the program starts
//! at once: the box is built on another processor while the run before goes on, not between two
//! runs.
//!
//! A helper is taken only for a run whose helper arguments, environment and folder ([`Recipe`])
//! are exactly those it was started with, worked out again at the run: the same program, the same
//! box (the same folders shown, written and hidden, as the judge's lists of folders say then),
//! the same limits of processes. Only its private folder (`TMPDIR`) is its own. A helper whose
//! recipe no run asks for is dropped: its gate's end closes, and it ends its box, removes its
//! folder and exits; the judge reaps it. At most [`MOST`] wait at once (the oldest goes first),
//! [`AHEAD`] per recipe; [`discard_all`] drops them at the judge's end (where it is not called, the
//! end of the gate's pipe at the judge's exit tells them just as well). Conversations are not
//! started ahead.

use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

use super::helper::{GATE_FD, HELPER, REPORT_FD};
use super::launch::{through_zygote, ProgramPipes};
use super::registry::{Handle, Scratch};
use super::sys;

/// How many helpers wait for one recipe: two, so that a box has the time of two runs to be built
/// on a busy machine.
pub const AHEAD: usize = 2;

/// The most helpers waiting at once.
const MOST: usize = 6;

/// What a helper is started with but its private folder: two runs of equal recipes get equal
/// boxes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// The helper's first arguments after its mark (the limit of processes, `--net`), before
    /// which nothing else may come.
    pub head: Vec<OsString>,
    /// The rest of its arguments (box options, the program).
    pub rest: Vec<OsString>,
    /// What its environment adds to the judge's.
    pub env: Vec<(OsString, OsString)>,
    /// Its folder, absolute.
    pub cwd: PathBuf,
    /// The identity of each file (not folder) its box shows on its own, as it is now: a box
    /// binds a file's inode, so that a file replaced since (a program built again at the same
    /// path) makes another recipe.
    files: Vec<FileIdentity>,
}

/// A file's device, inode, size and modification time.
type FileIdentity = (u64, u64, u64, i64, i64);

impl Recipe {
    /// The recipe of these arguments, environment and folder, with the identity of the files
    /// the box options of `rest` show.
    pub fn new(
        head: Vec<OsString>,
        rest: Vec<OsString>,
        env: Vec<(OsString, OsString)>,
        cwd: PathBuf,
    ) -> Recipe {
        use std::os::unix::fs::MetadataExt;
        let files = rest
            .windows(2)
            .filter(|pair| pair[0] == "--ro" || pair[0] == "--show")
            .filter_map(|pair| std::fs::metadata(&pair[1]).ok())
            .filter(|m| !m.is_dir())
            .map(|m| (m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec()))
            .collect();
        Recipe {
            head,
            rest,
            env,
            cwd,
            files,
        }
    }

    /// Whether a helper may be started ahead for this recipe: not when its box shows a folder
    /// writable besides its own private one (a compiler's output, a checker's feedback), which
    /// the box being built would take over from the run still writing there (the box's user
    /// owns its writable folders).
    pub fn may_wait(&self) -> bool {
        !self.rest.iter().any(|a| a == "--rw")
    }

    /// The helper's command with `tmp` as its private folder, waiting at its gate with `gate`.
    pub fn command(&self, executable: &Path, tmp: &Path, gate: bool) -> Command {
        let mut cmd = Command::new(executable);
        cmd.arg(HELPER).args(&self.head).arg("--tmp").arg(tmp);
        if gate {
            cmd.arg("--gate");
        }
        cmd.args(&self.rest)
            .env("TMPDIR", tmp)
            .current_dir(&self.cwd);
        for (name, value) in &self.env {
            cmd.env(name, value);
        }
        cmd
    }
}

/// A helper at its gate, with what the judge holds of it.
pub struct Waiting {
    pub recipe: Recipe,
    pub handle: Handle,
    pub pipes: ProgramPipes,
    /// The judge's end of its report pipe.
    pub report: OwnedFd,
    pub tmp: Scratch,
    /// The judge's end of the gate.
    gate: File,
}

impl Waiting {
    /// Starts `recipe`'s helper through the zygote, holding the judge's `shared` namespaces
    /// (descriptor, number), a report pipe and its gate: `None` where there is no zygote.
    ///
    /// # Errors
    /// The helper, its folder or its pipes could not be made.
    pub fn start(
        recipe: Recipe,
        executable: &Path,
        shared: &[(RawFd, RawFd)],
    ) -> std::io::Result<Option<Waiting>> {
        let tmp = Scratch::new("judge-tmp-").map_err(std::io::Error::other)?;
        let (report, report_write) = sys::pipe_nonblocking()?;
        let (gate_read, gate_write) = sys::pipe_blocking()?;
        let mut passed = vec![
            (report_write.as_raw_fd(), REPORT_FD),
            (gate_read.as_raw_fd(), GATE_FD),
        ];
        passed.extend_from_slice(shared);
        let cmd = recipe.command(executable, tmp.path(), true);
        let Some((pipes, handle)) = through_zygote(&cmd, &recipe.cwd, &passed)? else {
            return Ok(None);
        };
        Ok(Some(Waiting {
            recipe,
            handle,
            pipes,
            report,
            tmp,
            gate: File::from(gate_write),
        }))
    }

    /// Opens the gate: the helper starts its program now. `None` if it is gone (killed by
    /// hand; it is then reaped).
    pub fn go(self) -> Option<Waiting> {
        // A helper gone leaves a pipe without a reader: an error (the judge ignores SIGPIPE).
        if (&self.gate).write_all(b"g").is_ok() {
            return Some(self);
        }
        self.discard();
        None
    }

    /// Drops the helper: closes its gate and reaps it (it ends its box first).
    pub fn discard(self) {
        let Waiting {
            handle, gate, tmp, ..
        } = self;
        drop(gate);
        let _ = handle.reap_blocking();
        drop(tmp);
    }
}

/// The helpers waiting, oldest first.
static WAITING: Mutex<Vec<Waiting>> = Mutex::new(Vec::new());

fn waiting() -> std::sync::MutexGuard<'static, Vec<Waiting>> {
    WAITING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The helper waiting for `recipe`, if one is.
pub fn take(recipe: &Recipe) -> Option<Waiting> {
    let mut all = waiting();
    let i = all.iter().position(|w| &w.recipe == recipe)?;
    Some(all.remove(i))
}

/// How many helpers wait for `recipe`.
pub fn count(recipe: &Recipe) -> usize {
    waiting().iter().filter(|w| &w.recipe == recipe).count()
}

/// Keeps `helper` waiting for its run; the oldest is dropped when more than [`MOST`] wait.
pub fn keep(helper: Waiting) {
    let dropped = {
        let mut all = waiting();
        all.push(helper);
        (all.len() > MOST).then(|| all.remove(0))
    };
    if let Some(old) = dropped {
        old.discard();
    }
}

/// Drops every helper waiting (the judge's end).
pub fn discard_all() {
    let all = std::mem::take(&mut *waiting());
    for helper in all {
        helper.discard();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe_showing(path: &Path) -> Recipe {
        let rest = vec!["--ro".into(), path.as_os_str().to_owned(), "--".into()];
        Recipe::new(vec!["64".into()], rest, Vec::new(), "/".into())
    }

    #[test]
    fn a_file_replaced_at_the_same_path_makes_another_recipe() {
        let dir = tempfile::tempdir().expect("a folder");
        let program = dir.path().join("sum");
        std::fs::write(&program, "old").expect("the file");
        let before = recipe_showing(&program);
        assert_eq!(before, recipe_showing(&program));
        let new = dir.path().join("sum.new");
        std::fs::write(&new, "new!").expect("the file");
        std::fs::rename(&new, &program).expect("replaced");
        assert_ne!(before, recipe_showing(&program));
    }

    #[test]
    fn a_box_with_a_writable_folder_is_not_started_ahead() {
        let mut recipe = recipe_showing(Path::new("/"));
        assert!(recipe.may_wait());
        recipe.rest.splice(0..0, ["--rw".into(), "/tmp/out".into()]);
        assert!(!recipe.may_wait());
    }
}

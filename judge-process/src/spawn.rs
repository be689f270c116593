//! The judge's side of a measuring helper: starting a program (alone, or in a conversation with
//! an interactor) under its helper, waiting for it within its limits, and stopping it.
//!
//! The judge never waits on a helper for long: it waits for the helper's exit on its pidfd, for
//! its report of the program's end (the end of the run, but in a conversation) and for the run's
//! output pipes (see [`Started::wait_draining`]), looking again after 50 µs at first
//! and at most every 10 ms later (every millisecond on a kernel without pidfds, where it sleeps
//! instead), so that quick runs are timed closely and long ones cost little, and it checks the
//! limits between looks: the wall-time deadline at each, the memory and the CPU time
//! of the run's processes (one reading of `/proc`) when a reading is due. Signals to the helper go through a pidfd (see
//! [`super::sys`]). Every time here is read on the judge's running clock ([`super::clock`]): a
//! pause of the judge (Ctrl-Z) counts neither towards a deadline nor towards a time measured.

use std::ffi::OsString;
use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use super::ahead::{self, Recipe};
use super::clock::Moment;
use super::helper::{INTERACTOR_FDS, REPORT_FD};
use super::launch::{retry_busy, through_zygote, ProgramPipes};
use super::network::{self, NET_FD, USER_FD};
use super::registry::{self, Handle};
use super::report::{Reported, Said};
use super::sys::{self, Signal};
use super::tree;
use super::visible;

/// Limits for one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The time limit, on the clock `timing` says.
    pub time: Duration,
    /// The clock `time` is read on, and the run's time reported.
    pub timing: Timing,
    /// Bytes of stdout kept; past this the run is stopped and reported as `OLE`.
    pub output: usize,
    /// Bytes of resident memory for every process of the run together (all below the helper,
    /// whatever their group or session, but the interactor's), checked every `MEMORY_POLL`
    /// while it runs; past this the run is stopped.
    pub memory: Option<u64>,
    /// A limit settled while the run goes: until it is settled the run is stopped at `time`, or
    /// at the larger bound the settling has been raised to meanwhile; once it is, at the settled
    /// limit instead (`None`: `time` is the limit).
    pub settling: Option<&'static Settling>,
}

/// A time limit not known when a run starts, settled while it goes (see [`Limits::settling`]):
/// until then, a lower bound on it may rise. One made [`Settling::under`] another follows it
/// until settled on its own: so one run among those of a settling can be stopped alone
/// ([`Settling::stop_now`]).
#[derive(Debug, Default)]
pub struct Settling {
    /// The limit in nanoseconds once settled, 0 before.
    settled: std::sync::atomic::AtomicU64,
    /// What the limit is known to be at least, in nanoseconds.
    at_least: std::sync::atomic::AtomicU64,
    /// The settling followed until this one is settled.
    parent: Option<&'static Settling>,
}

impl Settling {
    /// Unsettled, with no bound.
    #[must_use]
    pub const fn new() -> Settling {
        Settling::under(None)
    }

    /// Unsettled, following `parent` (if any): its limit and bound until this one is settled.
    #[must_use]
    pub const fn under(parent: Option<&'static Settling>) -> Settling {
        Settling {
            settled: std::sync::atomic::AtomicU64::new(0),
            at_least: std::sync::atomic::AtomicU64::new(0),
            parent,
        }
    }

    /// Settles the limit at nothing (if not settled yet): a run under it is stopped at once.
    pub fn stop_now(&self) {
        self.settle(Duration::ZERO);
    }

    /// Settles the limit at `limit` (at least 1 ns); a later call changes nothing.
    pub fn settle(&self, limit: Duration) {
        let _ = self.settled.compare_exchange(
            0,
            nanos(limit).max(1),
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// The limit is at least `bound`: the unsettled runs are stopped no sooner.
    pub fn at_least(&self, bound: Duration) {
        self.at_least.fetch_max(nanos(bound), Ordering::SeqCst);
    }

    /// The limit, once settled (this one, else the one it follows).
    #[must_use]
    pub fn get(&self) -> Option<Duration> {
        match self.settled.load(Ordering::SeqCst) {
            0 => self.parent.and_then(Settling::get),
            ns => Some(Duration::from_nanos(ns)),
        }
    }

    /// The bound the limit is known to be at least (zero without one), the followed one's
    /// included.
    #[must_use]
    pub fn bound(&self) -> Duration {
        let own = Duration::from_nanos(self.at_least.load(Ordering::SeqCst));
        own.max(self.parent.map_or(Duration::ZERO, Settling::bound))
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The clock a run is limited and timed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Timing {
    /// CPU time: user and system time of every process of the run together (but the
    /// interactor's), the children it reaped included. The run is stopped once it has used its
    /// limit, or at the wall-time backstop ([`Limits::wall`]) if it sleeps or waits.
    #[default]
    Cpu,
    /// Wall time from start to end: the run is stopped at its limit.
    Wall,
}

impl Timing {
    /// The time of a run on this clock: `wall` or `cpu`.
    #[must_use]
    pub fn of(self, wall: Duration, cpu: Duration) -> Duration {
        match self {
            Timing::Cpu => cpu,
            Timing::Wall => wall,
        }
    }
}

impl Limits {
    /// The limits as they stand now: with the settled limit once [`Limits::settling`] has one,
    /// and until then with the larger of `time` and its bound.
    #[must_use]
    pub fn now(&self) -> Limits {
        let Some(settling) = self.settling else {
            return *self;
        };
        match settling.get() {
            Some(time) => Limits {
                time,
                settling: None,
                ..*self
            },
            None => Limits {
                time: self.time.max(settling.bound()),
                ..*self
            },
        }
    }

    /// When the run is stopped on the wall clock: at the limit itself for [`Timing::Wall`]; for
    /// [`Timing::Cpu`], the backstop for a run that sleeps or waits, the larger of twice the limit
    /// and the limit plus one second.
    #[must_use]
    pub fn wall(&self) -> Duration {
        match self.timing {
            Timing::Wall => self.time,
            Timing::Cpu => (self.time * 2).max(self.time + Duration::from_secs(1)),
        }
    }
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited normally with this code.
    Code(i32),
    /// Killed by this signal (also when the judge killed it on time or output).
    Signal(i32),
}

impl Exit {
    /// The exit of a raw wait status.
    #[must_use]
    pub fn of(status: sys::Status) -> Exit {
        match sys::decode(status) {
            Ok(code) => Exit::Code(code),
            Err(signal) => Exit::Signal(signal),
        }
    }
}

/// How often the memory of a run with a memory limit is read.
const MEMORY_POLL: Duration = Duration::from_millis(20);

/// The shortest and the longest wait between two readings of a run's CPU time.
const CPU_POLL: [Duration; 2] = [Duration::from_millis(5), Duration::from_millis(200)];

/// How long the helper may take to end a program's tree once asked to (it gives up after 10 s
/// of its own); past this the judge kills the helper and what it can see below it.
const HELPER_GRACE: Duration = Duration::from_secs(15);

/// How long the interactor may go on once the program has ended.
pub const INTERACTOR_GRACE: Duration = Duration::from_secs(5);

/// The judge's ends of the interactor's stdin, stdout and stderr.
pub struct InteractorPipes {
    pub stdin: File,
    pub stdout: File,
    pub stderr: File,
}

/// A program spawned under the measuring helper, in a process group of its own, its three pipes
/// open for the caller to take.
pub struct Started {
    /// The program's stdin, stdout and stderr.
    pub child: ProgramPipes,
    handle: Handle,
    report: Report,
    start: Moment,
    conversation: bool,
    /// The program's private temporary folder (its `TMPDIR`), and the interactor's, removed
    /// with the run.
    _tmp: (registry::Scratch, Option<registry::Scratch>),
    /// The recipe of a helper to start ahead for the next run like this one, once this one runs.
    ahead: Option<Recipe>,
    /// In a conversation, the interactor's ends that stop the program at once (its rejections).
    rejects: Option<fn(Exit) -> bool>,
}

/// How a started program ended.
#[derive(Clone, Copy, Debug)]
pub struct Ended {
    /// From spawn to exit (or to the kill), the judge's pauses (Ctrl-Z) left out.
    pub wall: Duration,
    /// The CPU time, user and system, of every process of the program's side together.
    pub cpu: Duration,
    /// The clock of the run's limit: which of `wall` and `cpu` is its time.
    pub timing: Timing,
    /// Peak resident memory in bytes.
    pub max_rss: u64,
    pub timed_out: bool,
    pub output_exceeded: bool,
    /// Stopped while running for going past `Limits::memory`.
    pub memory_exceeded: bool,
    pub exit: Exit,
    /// In a conversation, how the interactor ended.
    pub interactor: Option<Interactor>,
}

impl Ended {
    /// The run's time on the clock of its limit.
    #[must_use]
    pub fn time(&self) -> Duration {
        self.timing.of(self.wall, self.cpu)
    }
}

/// How the interactor of a conversation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interactor {
    /// It exited; `first` if the helper saw it end before the program.
    Exited { exit: Exit, first: bool },
    /// It was still running [`INTERACTOR_GRACE`] after a program that ended within its limits,
    /// and was killed.
    Hung,
    /// It could not be started: the `errno`.
    NoFork(i32),
    /// Its end is unknown (the helper was killed), or says nothing (the judge stopped it after the
    /// program went past a limit).
    Unknown,
}

impl Started {
    /// Spawns `program` under its helper, with its stdin, stdout and stderr piped; the clock
    /// starts now.
    ///
    /// # Errors
    /// The helper cannot be spawned.
    pub fn spawn(program: &Command) -> std::io::Result<Started> {
        Started::start(program, None).map(|(s, _)| s)
    }

    /// Spawns `program` and the interactor `sh -c command` (run from `dir`) under one helper,
    /// each with its stdin, stdout and stderr piped; the interactor's pipes are returned.
    ///
    /// # Errors
    /// The helper cannot be spawned.
    pub fn converse(
        program: &Command,
        dir: &std::path::Path,
        command: &str,
    ) -> std::io::Result<(Started, InteractorPipes)> {
        let (started, pipes) = Started::start(program, Some((dir, command)))?;
        Ok((
            started,
            pipes.expect("a conversation has the interactor's pipes"),
        ))
    }

    fn start(
        command: &Command,
        interactor: Option<(&std::path::Path, &str)>,
    ) -> std::io::Result<(Started, Option<InteractorPipes>)> {
        registry::reap_ended();
        let executable = super::own::executable()?;
        let here = std::env::current_dir()?;
        let cwd = command
            .get_current_dir()
            .map_or_else(|| here.clone(), |d| here.join(d));
        let mut head: Vec<OsString> = vec![super::limits::processes().to_string().into()];
        if visible::network() {
            head.push("--net".into());
        }
        let mut env = Vec::new();
        if super::sandbox::turned_off() {
            env.push(("JUDGE_NO_SANDBOX".into(), "1".into()));
        }
        let mut words: Vec<&std::ffi::OsStr> = vec![command.get_program()];
        words.extend(command.get_args());
        let mut rest: Vec<OsString> = Vec::new();
        for (option, path) in visible::box_options(&cwd, &words) {
            rest.extend([option.into(), path.into_os_string()]);
        }
        let interactor_box = interactor
            .map(|(dir, command)| visible::box_options(&here.join(dir), &[command.as_ref()]));
        let shared = shared_namespaces(&mut rest);
        let program: Vec<OsString> = std::iter::once(command.get_program())
            .chain(command.get_args())
            .map(ToOwned::to_owned)
            .collect();
        let Some((dir, interactor_command)) = interactor else {
            rest.push("--".into());
            rest.extend(program);
            let recipe = Recipe::new(head, rest, env, cwd);
            if let Some(started) = Started::from_waiting(&recipe, &executable, &shared)? {
                return Ok((started, None));
            }
            return Started::start_now(recipe, &executable, shared, None);
        };
        rest.extend([
            "--interactor".into(),
            dir.as_os_str().to_owned(),
            interactor_command.into(),
        ]);
        for (option, path) in interactor_box.into_iter().flatten() {
            rest.extend([option.into(), path.into_os_string()]);
        }
        // The interactor's private folder, made after every box's options were worked out.
        let interactor_tmp = registry::Scratch::new("judge-tmp-").map_err(std::io::Error::other)?;
        rest.extend(["--tmp".into(), interactor_tmp.path().as_os_str().to_owned()]);
        rest.push("--".into());
        rest.extend(program);
        let recipe = Recipe::new(head, rest, env, cwd);
        Started::start_now(recipe, &executable, shared, Some(interactor_tmp))
    }

    /// Starts the helper of `recipe` through a helper waiting for it (see [`super::ahead`]), or
    /// one started now through the zygote that waits for nothing; the clock starts as its gate
    /// opens. `None` where there is no zygote.
    ///
    /// # Errors
    /// The helper cannot be spawned.
    fn from_waiting(
        recipe: &Recipe,
        executable: &std::path::Path,
        shared: &[(RawFd, RawFd)],
    ) -> std::io::Result<Option<Started>> {
        // A helper taken may have died since (killed by hand): then one is started now.
        for taken in [true, false] {
            let waiting = match taken {
                true => ahead::take(recipe),
                false => ahead::Waiting::start(recipe.clone(), executable, shared)?,
            };
            let Some(waiting) = waiting else {
                if taken {
                    continue;
                }
                return Ok(None);
            };
            let start = Moment::now();
            if let Some(w) = waiting.go() {
                return Ok(Some(Started {
                    child: w.pipes,
                    handle: w.handle,
                    report: Report::new(w.report),
                    start,
                    conversation: false,
                    _tmp: (w.tmp, None),
                    ahead: Some(w.recipe),
                    rejects: None,
                }));
            }
        }
        Ok(None)
    }

    /// Starts the helper of `recipe` now, with a private folder of its own, through the zygote or
    /// by `exec`, holding the judge's `shared` namespaces; in a conversation, with the
    /// interactor's pipes and its folder `interactor_tmp` (named in the recipe).
    ///
    /// # Errors
    /// The helper cannot be spawned.
    fn start_now(
        recipe: Recipe,
        executable: &std::path::Path,
        shared: Vec<(RawFd, RawFd)>,
        interactor_tmp: Option<registry::Scratch>,
    ) -> std::io::Result<(Started, Option<InteractorPipes>)> {
        // Temporary files go to a private folder: the box's `/tmp`.
        let tmp = registry::Scratch::new("judge-tmp-").map_err(std::io::Error::other)?;
        let mut cmd = recipe.command(executable, tmp.path(), false);
        let (report_read, report_write) = sys::pipe_nonblocking()?;
        let mut passed = vec![(report_write.as_raw_fd(), REPORT_FD)];
        passed.extend(shared);
        // The child's ends (held until the spawn) and the judge's.
        let mut theirs: Vec<OwnedFd> = vec![report_write];
        let mut pipes = None;
        if interactor_tmp.is_some() {
            let (stdin_read, stdin_write) = sys::pipe_blocking()?;
            let (stdout_read, stdout_write) = sys::pipe_blocking()?;
            let (stderr_read, stderr_write) = sys::pipe_blocking()?;
            for (fd, to) in [&stdin_read, &stdout_write, &stderr_write]
                .into_iter()
                .zip(INTERACTOR_FDS)
            {
                passed.push((fd.as_raw_fd(), to));
            }
            theirs.extend([stdin_read, stdout_write, stderr_write]);
            pipes = Some(InteractorPipes {
                stdin: File::from(stdin_write),
                stdout: File::from(stdout_read),
                stderr: File::from(stderr_read),
            });
        }
        let start = Moment::now();
        let (child, handle) = match through_zygote(&cmd, &recipe.cwd, &passed)? {
            Some(spawned) => spawned,
            None => {
                cmd.stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped());
                std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
                sys::pass_fds(&mut cmd, passed, sys::SIGTERM);
                let (mut child, handle) = retry_busy(|| registry::spawn(&mut cmd))?;
                let pipes = ProgramPipes {
                    stdin: child.stdin.take(),
                    stdout: child.stdout.take(),
                    stderr: child.stderr.take(),
                };
                (pipes, handle)
            }
        };
        drop(theirs);
        let started = Started {
            child,
            handle,
            report: Report::new(report_read),
            start,
            conversation: pipes.is_some(),
            _tmp: (tmp, interactor_tmp),
            ahead: None,
            rejects: None,
        };
        Ok((started, pipes))
    }

    /// In a conversation, has the program stopped as soon as the interactor ends in a way that
    /// `rejects` (a rejection decides the case, whatever the program would do after). The
    /// program then counts as ended when the judge stopped it, after the interactor.
    pub fn stop_on_rejection(&mut self, rejects: fn(Exit) -> bool) {
        self.rejects = Some(rejects);
    }

    /// Stops the program and everything below its helper, and reaps the helper (when the run
    /// cannot go on).
    pub fn stop(self) {
        stop_helper(&self.handle, sys::SIGTERM);
    }

    /// Waits for the program within `limits` (`exceeded` is set by whoever reads its stdout when
    /// it floods), and for its helper to end everything the program started; in a conversation,
    /// for the interactor too, within [`INTERACTOR_GRACE`] of the program's end.
    ///
    /// # Errors
    /// The program cannot be waited for, or could not be forked.
    pub fn wait(self, limits: Limits, exceeded: &AtomicBool) -> std::io::Result<Ended> {
        self.wait_draining(limits, exceeded, &mut NoPipes)
    }

    /// [`Started::wait`], reading the pipes of `drain` whenever they have something meanwhile.
    ///
    /// # Errors
    /// As [`Started::wait`].
    pub(crate) fn wait_draining(
        mut self,
        limits: Limits,
        exceeded: &AtomicBool,
        drain: &mut dyn Drain,
    ) -> std::io::Result<Ended> {
        let waited = self.watch(limits, exceeded, drain)?;
        // A run the judge's own ending stopped has no result to give.
        registry::hold_if_ending();
        self.report.poll();
        let reported = self.report.reported;
        if waited.running {
            registry::reap_later(self.handle);
        }
        if let Some(errno) = reported.unsandboxed {
            super::sandbox::say_unavailable(errno);
        }
        let measured = match reported.program {
            Some(Said::Ran(m)) => Some(m),
            Some(Said::NoFork(errno)) => return Err(std::io::Error::from_raw_os_error(errno)),
            None => {
                // The helper was killed (by the program itself?): its program and what it
                // started were adopted by the judge.
                registry::sweep_orphans();
                None
            }
        };
        let interactor = self.conversation.then(|| match reported.interactor {
            // Only an interactor that outlived a program ended within its limits is to blame; a
            // program stopped at a limit is judged on it (the interactor may still be working
            // through a flood of queries), whatever the interactor's end, which the judge caused.
            _ if waited.gave_up && waited.stop.is_none() => Interactor::Hung,
            _ if waited.gave_up => Interactor::Unknown,
            Some(Said::NoFork(errno)) => Interactor::NoFork(errno),
            Some(Said::Ran(i)) => Interactor::Exited {
                exit: Exit::of(i.status),
                first: measured.is_some_and(|m| i.at < m.at),
            },
            None => Interactor::Unknown,
        });
        Ok(Ended {
            // A run the judge stopped lasted until it decided to (killing a large tree, a fork
            // bomb, can take a while on a loaded machine).
            wall: match (measured, waited.stop) {
                (Some(m), None) => m.wall,
                _ => waited.wall,
            },
            // The helper's figure, or the largest seen while it ran (the processes killed when a
            // conversation's init dies go uncounted); without the helper's report (the helper was
            // killed), the helper's own, which counts the interactor's too.
            cpu: measured
                .map_or(waited.helper_cpu, |m| m.cpu)
                .max(waited.seen_cpu),
            timing: limits.timing,
            // Without the helper's report (the helper was killed), its own peak is the best
            // figure left: it counts the judge's pages too.
            max_rss: measured.map_or_else(
                || (waited.helper_rss_kib * 1024).max(waited.seen_rss),
                |m| m.max_rss.max(waited.seen_rss),
            ),
            timed_out: waited.stop == Some(Stop::Time),
            output_exceeded: waited.stop == Some(Stop::Output) || exceeded.load(Ordering::SeqCst),
            memory_exceeded: waited.stop == Some(Stop::Memory),
            exit: Exit::of(measured.map_or(waited.status, |m| m.status)),
            interactor,
        })
    }

    /// Polls the helper until it exits, stopping the program if it goes past a limit (and, in
    /// a conversation, the interactor if it outlives the program by [`INTERACTOR_GRACE`]).
    fn watch(
        &mut self,
        limits: Limits,
        exceeded: &AtomicBool,
        drain: &mut dyn Drain,
    ) -> std::io::Result<Waited> {
        let mut polls = Polls::new(&limits, self.start);
        let mut stopped: Option<(Stop, Moment)> = None;
        let mut program_end: Option<Moment> = None;
        let mut pause = Duration::from_micros(50);
        loop {
            // A limit settled meanwhile applies from now on.
            let limits = limits.now();
            let deadline = self.start + limits.wall();
            if let Some(reaped) = self.handle.reap_now()? {
                let wall =
                    stopped.map_or_else(|| self.start.elapsed(), |(_, at)| at.since(self.start));
                return Ok(Waited {
                    status: reaped.status,
                    helper_rss_kib: reaped.max_rss_kib,
                    helper_cpu: reaped.cpu,
                    wall,
                    stop: stopped.map(|(s, _)| s),
                    seen_rss: polls.seen_rss,
                    seen_cpu: polls.seen_cpu,
                    gave_up: false,
                    running: false,
                });
            }
            let now = Moment::now();
            self.report.poll();
            let program_ended = self.report.reported.program.is_some();
            if program_ended || self.report.reported.program_pid.is_some() {
                // The next run's helper is started once this program runs, not while it starts.
                if let Some(recipe) = self.ahead.take() {
                    start_ahead(&recipe);
                }
            }
            if program_ended && !self.conversation && stopped.is_none() {
                // The helper reports once everything of the case has ended and been reaped: its
                // own exit is not waited for (it is reaped later).
                return Ok(Waited {
                    status: 0,
                    helper_rss_kib: 0,
                    helper_cpu: Duration::ZERO,
                    wall: self.start.elapsed(),
                    stop: None,
                    seen_rss: polls.seen_rss,
                    seen_cpu: polls.seen_cpu,
                    gave_up: false,
                    running: true,
                });
            }
            if program_ended && program_end.is_none() {
                program_end = Some(now);
            }
            // The interactor may go on for a while after the program; a helper asked to stop the
            // program must report it within its own grace.
            let grace_end = match (program_end, stopped) {
                (Some(end), _) => Some(end + INTERACTOR_GRACE),
                (None, Some((_, at))) => Some(at + HELPER_GRACE),
                (None, None) => None,
            };
            if grace_end.is_some_and(|end| now >= end) {
                // The interactor outlived the program, or the program's tree would not end after
                // a limit: everything is stopped.
                let reaped = stop_helper(&self.handle, sys::SIGTERM);
                let stop = stopped.map(|(s, _)| s);
                let wall =
                    stopped.map_or_else(|| now.since(self.start), |(_, at)| at.since(self.start));
                return Ok(Waited {
                    status: reaped.map_or(0, |r| r.status),
                    helper_rss_kib: reaped.map_or(0, |r| r.max_rss_kib),
                    helper_cpu: reaped.map_or(Duration::ZERO, |r| r.cpu),
                    wall,
                    stop,
                    seen_rss: polls.seen_rss,
                    seen_cpu: polls.seen_cpu,
                    gave_up: true,
                    running: false,
                });
            }
            if stopped.is_none() && !program_ended && self.interactor_rejected() {
                let _ = self.handle.signal(sys::SIGUSR1);
                stopped = Some((Stop::Rejected, Moment::now()));
            }
            if stopped.is_none() && !program_ended {
                if polls.due(now) {
                    self.report.poll();
                }
                // The interactor's memory and time are not the program's (nor those of the
                // interactor's box's init), nor is the memory of the program's box's init. The
                // helper reaps the program's orphans where there is no box; in a conversation, the
                // interactor too.
                let reported = &self.report.reported;
                let skip: Vec<sys::Pid> = [reported.interactor_pid, reported.interactor_init_pid]
                    .into_iter()
                    .flatten()
                    .collect();
                let spare = reported.init_pid;
                let root_reaped = !self.conversation;
                if let Some(stop) =
                    limit_reached(limits, exceeded, deadline, &mut polls, now, || {
                        tree::usage(self.handle.pid(), &skip, spare, root_reaped)
                    })
                {
                    let at = Moment::now();
                    if !self.conversation {
                        let reaped = stop_helper(&self.handle, sys::SIGTERM);
                        return Ok(Waited {
                            status: reaped.map_or(0, |r| r.status),
                            helper_rss_kib: reaped.map_or(0, |r| r.max_rss_kib),
                            helper_cpu: reaped.map_or(Duration::ZERO, |r| r.cpu),
                            wall: at.since(self.start),
                            stop: Some(stop),
                            seen_rss: polls.seen_rss,
                            seen_cpu: polls.seen_cpu,
                            gave_up: false,
                            running: false,
                        });
                    }
                    // The interactor goes on: it may still give its verdict.
                    let _ = self.handle.signal(sys::SIGUSR1);
                    stopped = Some((stop, at));
                }
            }
            let left = if stopped.is_some() || program_ended {
                Duration::from_millis(1)
            } else {
                let due = polls.next().map_or(Duration::MAX, |next| next.since(now));
                deadline.since(now).min(due)
            };
            pause = self.pause(pause.min(left), program_ended, drain);
        }
    }
}

impl Started {
    /// Whether the interactor has ended in a way that stops the program at once.
    fn interactor_rejected(&self) -> bool {
        match (self.rejects, self.report.reported.interactor) {
            (Some(rejects), Some(Said::Ran(i))) => rejects(Exit::of(i.status)),
            _ => false,
        }
    }

    /// Waits up to `pause` for the helper to exit (or, in a conversation, to report the
    /// program's end until `program_ended`); the next pause: growing to [`MAX_PAUSE`] where the
    /// helper's exit wakes the wait, to 1 ms where it does not (no pidfd).
    ///
    /// The pipes of `drain` wake the wait too, and are read after it.
    fn pause(&self, pause: Duration, program_ended: bool, drain: &mut dyn Drain) -> Duration {
        let Some(exit) = self.handle.exit_fd() else {
            thread::sleep(pause);
            drain.read_ready();
            return (pause * 2).min(Duration::from_millis(1));
        };
        let mut fds = vec![exit];
        if !program_ended {
            fds.push(self.report.fd.as_raw_fd());
        }
        fds.extend(drain.fds());
        let _ = sys::wait_readable(&fds, pause);
        drain.read_ready();
        (pause * 2).min(MAX_PAUSE)
    }
}

/// Pipes of a run that the thread waiting for it reads as it waits (see [`Started::wait_draining`]).
pub(crate) trait Drain {
    /// The pipes still open.
    fn fds(&self) -> Vec<RawFd>;
    /// Reads what the pipes hold now, without waiting.
    fn read_ready(&mut self);
}

/// No pipe to read.
struct NoPipes;

impl Drain for NoPipes {
    fn fds(&self) -> Vec<RawFd> {
        Vec::new()
    }

    fn read_ready(&mut self) {}
}

/// Starts helpers for the next runs of `recipe`, waiting at their gates, until [`ahead::AHEAD`]
/// wait (see [`super::ahead`]). A helper that cannot be started is no error: the run then starts
/// its own.
fn start_ahead(recipe: &Recipe) {
    if !recipe.may_wait() {
        return;
    }
    let Ok(executable) = super::own::executable() else {
        return;
    };
    let mut rest = Vec::new();
    let shared = shared_namespaces(&mut rest);
    for _ in ahead::count(recipe)..ahead::AHEAD {
        match ahead::Waiting::start(recipe.clone(), &executable, &shared) {
            Ok(Some(waiting)) => ahead::keep(waiting),
            _ => return,
        }
    }
}

/// The judge's shared namespaces a helper is to hold (descriptor, number), where the boxes do
/// not keep the machine's network, with their options added to `args`.
fn shared_namespaces(args: &mut Vec<OsString>) -> Vec<(RawFd, RawFd)> {
    let mut passed = Vec::new();
    if let Some(shared) = (!visible::network()).then(network::shared).flatten() {
        args.push("--netns".into());
        passed.push((shared.net.as_raw_fd(), NET_FD));
        if let Some(user) = &shared.user {
            args.push("--userns".into());
            passed.push((user.as_raw_fd(), USER_FD));
        }
    }
    passed
}

/// The longest the judge waits between two looks at a run whose end wakes it.
const MAX_PAUSE: Duration = Duration::from_millis(10);

/// Why the judge stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Time,
    Output,
    Memory,
    /// The interactor rejected the program while it ran.
    Rejected,
}

/// What the judge saw of its helper.
struct Waited {
    /// The helper's own wait status.
    status: sys::Status,
    /// The helper's own peak memory, in KiB.
    helper_rss_kib: u64,
    /// The helper's CPU time and its children's.
    helper_cpu: Duration,
    wall: Duration,
    stop: Option<Stop>,
    /// The largest RSS of the program's processes seen while polling, in bytes.
    seen_rss: u64,
    /// The largest CPU time of the program's processes seen while polling.
    seen_cpu: Duration,
    /// The judge stopped everything past a grace: the interactor's after the program's end, or
    /// the helper's after a limit.
    gave_up: bool,
    /// The helper had reported the program's end and had yet to exit: it is reaped later.
    running: bool,
}

/// The readings of a run's processes in `/proc`: when the next ones are due, and the largest
/// figures seen.
struct Polls {
    /// When the memory is next read, with a memory limit.
    memory_next: Option<Moment>,
    /// When the CPU time is next read, on [`Timing::Cpu`].
    cpu_next: Option<Moment>,
    /// The largest memory seen, in bytes (with a memory limit; 0 without).
    seen_rss: u64,
    seen_cpu: Duration,
}

impl Polls {
    /// The first readings of a run started at `start`: the CPU time is first read when the run
    /// could have used a good part of its limit on every processor, so that a quick run is never
    /// read at all.
    fn new(limits: &Limits, start: Moment) -> Polls {
        Polls {
            memory_next: limits.memory.map(|_| start + MEMORY_POLL),
            cpu_next: (limits.timing == Timing::Cpu).then(|| start + cpu_pause(limits.time)),
            seen_rss: 0,
            seen_cpu: Duration::ZERO,
        }
    }

    /// When the next reading is due, if any is planned.
    fn next(&self) -> Option<Moment> {
        [self.memory_next, self.cpu_next]
            .into_iter()
            .flatten()
            .min()
    }

    /// Whether a reading is due at `now`.
    fn due(&self, now: Moment) -> bool {
        [self.memory_next, self.cpu_next]
            .into_iter()
            .flatten()
            .any(|next| now >= next)
    }

    /// Keeps the reading `seen` taken at `now`, and plans the next ones.
    fn record(&mut self, seen: tree::Usage, now: Moment, limits: &Limits) {
        self.seen_cpu = self.seen_cpu.max(seen.cpu);
        if self.memory_next.is_some() {
            self.seen_rss = self.seen_rss.max(seen.rss);
            self.memory_next = Some(now + MEMORY_POLL);
        }
        if self.cpu_next.is_some() {
            let left = limits.time.saturating_sub(self.seen_cpu);
            self.cpu_next = Some(now + cpu_pause(left));
        }
    }
}

/// How long to wait before the CPU time is read again, when `left` of the limit is left: the
/// run's processes cannot use more than every processor's time meanwhile; within [`CPU_POLL`].
fn cpu_pause(left: Duration) -> Duration {
    static PROCESSORS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let processors = *PROCESSORS.get_or_init(|| {
        thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
    });
    (left / processors).clamp(CPU_POLL[0], CPU_POLL[1])
}

/// The limit the run has gone past at `now`, if any. Reads what the run's processes use
/// (`usage`) when a reading is due: every [`MEMORY_POLL`] with a memory limit, and on
/// [`Timing::Cpu`] as [`cpu_pause`] says.
fn limit_reached(
    limits: Limits,
    exceeded: &AtomicBool,
    deadline: Moment,
    polls: &mut Polls,
    now: Moment,
    usage: impl FnOnce() -> tree::Usage,
) -> Option<Stop> {
    if exceeded.load(Ordering::SeqCst) {
        return Some(Stop::Output);
    }
    if now >= deadline {
        return Some(Stop::Time);
    }
    if !polls.due(now) {
        return None;
    }
    polls.record(usage(), now, &limits);
    if limits.timing == Timing::Cpu && polls.seen_cpu >= limits.time {
        return Some(Stop::Time);
    }
    let limit = limits.memory?;
    (polls.seen_rss > limit).then_some(Stop::Memory)
}

/// Sends `signal` to the helper (SIGTERM: end everything) and reaps it; if it has not exited
/// within [`HELPER_GRACE`], kills what is below it and the helper itself. The helper's end, if
/// it could be reaped.
fn stop_helper(handle: &Handle, signal: Signal) -> Option<sys::Reaped> {
    let _ = handle.signal(signal);
    let give_up = Moment::now() + HELPER_GRACE;
    loop {
        match handle.reap_now() {
            Ok(Some(reaped)) => return Some(reaped),
            Err(_) => return None,
            Ok(None) => {}
        }
        if Moment::now() >= give_up {
            tree::kill_below(handle.pid(), None, None);
            let _ = handle.signal(sys::SIGKILL);
            return handle.reap_blocking();
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// The read end of the helper's report pipe, and what has been read of it.
struct Report {
    fd: OwnedFd,
    /// A line not yet complete.
    partial: String,
    reported: Reported,
}

impl Report {
    fn new(fd: OwnedFd) -> Report {
        Report {
            fd,
            partial: String::new(),
            reported: Reported::default(),
        }
    }

    /// Reads what the helper has written since the last poll.
    fn poll(&mut self) {
        loop {
            let bytes = sys::read_now(self.fd.as_raw_fd());
            if bytes.is_empty() {
                break;
            }
            self.partial.push_str(&String::from_utf8_lossy(&bytes));
        }
        if let Some(end) = self.partial.rfind('\n') {
            let complete: String = self.partial.drain(..=end).collect();
            self.reported.read(&complete);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settling_limit_rises_with_its_bound_then_is_the_settled_one() {
        static SETTLING: Settling = Settling::new();
        let limits = Limits {
            time: Duration::from_secs(4),
            timing: Timing::Cpu,
            output: 1,
            memory: None,
            settling: Some(&SETTLING),
        };
        assert_eq!(limits.now().time, Duration::from_secs(4));
        SETTLING.at_least(Duration::from_secs(2));
        assert_eq!(
            limits.now().time,
            Duration::from_secs(4),
            "never below its own"
        );
        SETTLING.at_least(Duration::from_secs(8));
        SETTLING.at_least(Duration::from_secs(6));
        assert_eq!(
            limits.now().time,
            Duration::from_secs(8),
            "the bound only rises"
        );
        assert_eq!(limits.now().wall(), Duration::from_secs(16));
        SETTLING.settle(Duration::from_secs(12));
        SETTLING.settle(Duration::from_secs(3));
        let now = limits.now();
        assert_eq!(now.time, Duration::from_secs(12), "settled once");
        assert!(now.settling.is_none());
    }

    #[test]
    fn a_settling_under_another_follows_it_until_stopped_alone() {
        static PARENT: Settling = Settling::new();
        static CHILD: Settling = Settling::under(Some(&PARENT));
        static SIBLING: Settling = Settling::under(Some(&PARENT));
        let under = |s: &'static Settling| Limits {
            time: Duration::from_secs(1),
            timing: Timing::Cpu,
            output: 1,
            memory: None,
            settling: Some(s),
        };
        PARENT.at_least(Duration::from_secs(3));
        assert_eq!(under(&CHILD).now().time, Duration::from_secs(3));
        CHILD.stop_now();
        assert!(
            under(&CHILD).now().time < Duration::from_micros(1),
            "stopped"
        );
        assert_eq!(under(&SIBLING).now().time, Duration::from_secs(3));
        PARENT.settle(Duration::from_secs(2));
        assert_eq!(under(&SIBLING).now().time, Duration::from_secs(2));
        assert!(under(&CHILD).now().time < Duration::from_micros(1));
    }
}

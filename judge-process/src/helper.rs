//! The measuring helper: the small process that starts the program (and, in a conversation, the
//! interactor), watches them end on one clock, measures the program's own peak memory and ends
//! everything they started.
//!
//! The kernel's peak RSS of a process (`ru_maxrss`) counts every page it held since it was
//! forked, including the pages of the parent it was forked from, up to its `exec`. A program
//! spawned straight from the judge would thus report at least the judge's own size. So the judge
//! starts a helper (`NPROC [--interactor DIR COMMAND] PROGRAM ARGS...`, with the box's options,
//! see `Args::parse`): forked by the judge's small zygote (see [`super::zygote`]), or where there
//! is none, a fresh start of the judge's own executable (`judge __measure ...`). The helper, which
//! holds only a few pages, forks the program into a process group of its own, waits for it, and
//! writes how it ended to the pipe on descriptor 3 (see [`super::report`]).
//!
//! The program's CPU time is the kernel's (`wait4`) for every process of its side the helper
//! reaps: the program with the children it waited for, the orphans, and the sandbox's init, which
//! holds the time of the orphans it reaped. The orphans still running when the program ends are
//! killed and reaped by the init before the init itself is killed: those the kernel reaps at the
//! init's death would not count.
//!
//! The helper is a child subreaper (`PR_SET_CHILD_SUBREAPER`): a process the program started
//! whose parent exits is adopted by the helper, not by init, even if it left the program's group
//! or session (`setsid`, `set -m`, `setpgid`). Once the program has exited, the helper kills its
//! group (before reaping its leader, so that the group's number is still its own) and every
//! process below itself, reaps them, and only then reports; so when the helper is gone, so is
//! everything of its case.
//!
//! Signals: SIGUSR1 stops the program (the judge, on a limit, or on an interactor's rejection):
//! the helper kills its group, and reports the program's end at the signal's instant (what ends
//! after the judge's stop, such as an interactor reading the end of the program's output, did not
//! end first). SIGTERM stops everything (the judge stopping altogether, or giving up on a hanging
//! interactor): the program's group and the interactor's. The helper gets SIGTERM if the judge's
//! thread that started it dies (`PR_SET_PDEATHSIG`), so that a judge killed with SIGKILL leaves
//! nothing.
//!
//! SIGTSTP pauses the case (the judge, on Ctrl-Z): the helper stops (SIGSTOP) the program's and
//! the interactor's groups, then every process below itself but the sandbox's init, reading
//! `/proc` again until none runs (one may fork, or leave its group, while it is being stopped);
//! it then waits for SIGCONT, which the judge sends once it is continued itself, and continues
//! them. Its clock stands still meanwhile: the time it reports leaves the pause out. SIGCHLD,
//! SIGTSTP and SIGCONT stay blocked in the helper, which waits for them with `sigwait`, so that
//! none is lost between a look at its children and the wait (a SIGCONT that comes before the
//! helper has begun its pause cancels it: the kernel drops a stop signal still pending then).
//! SIGTERM ends a pause (everything is killed), and after a SIGTERM no pause begins (the judge
//! that would continue it is gone); SIGUSR1 kills the program and leaves the pause on.
//!
//! In a conversation (`--interactor`) the helper also forks `sh -c COMMAND` in `DIR`, its stdin,
//! stdout and stderr on descriptors 4, 5 and 6. It reports the exit of each, timed on its own
//! clock as it reaps them, so that the judge can tell which ended first from one observer. Two
//! ends seen in the same wake-up are reported at the same instant. The program's memory leaves out
//! the interactor's own; orphans of the interactor (rare: a shell waits for its commands) cannot be
//! told from the program's and count as the program's.
//!
//! The program runs under a limit of processes (`RLIMIT_NPROC`, given by the judge), lower than
//! the judge's own, so that a fork bomb leaves the judge room to start its threads.
//!
//! A helper started ahead of its run (`--gate`, see [`super::ahead`]) builds its boxes, then
//! waits for a byte on [`GATE_FD`] before it forks anything; its clock starts then. The end of
//! that pipe (the judge dropped it, or is gone) or SIGTERM calls the run off: it ends its boxes,
//! removes its private folder and exits without a report.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::ns;
use super::report;
use super::sandbox::{self, Ids, Spec};
use super::sys::{self, Exec, Pid, Signal, SignalSet};
use super::tree;

/// The helper's first argument.
pub const HELPER: &str = "__measure";

/// The descriptor the helper reports on.
pub const REPORT_FD: i32 = 3;

/// The descriptor a helper is given the judge's shared network namespace on (see
/// [`super::network`]).
pub const NET_FD: i32 = 7;

/// The descriptor a helper run by a user other than root is given the user namespace on, which
/// owns the shared network namespace.
pub const USER_FD: i32 = 8;

/// The descriptors of the interactor's stdin, stdout and stderr, in a conversation.
pub const INTERACTOR_FDS: [i32; 3] = [4, 5, 6];

/// The descriptor a helper started ahead of its case (`--gate`) waits on: a byte says go, the
/// end of the pipe says that the case will not come (see [`gate_opened`]).
pub const GATE_FD: i32 = 9;

/// How long the helper keeps killing what is left below it before it gives up (processes stuck
/// in the kernel).
const CLEANUP: Duration = Duration::from_secs(10);

/// The helper's arguments.
struct Args {
    processes: u64,
    /// Whether the processes keep the machine's network.
    network: bool,
    /// The judge's shared namespaces given on [`NET_FD`] (and [`USER_FD`]), to join.
    shared: sandbox::Given,
    /// Started ahead of its case: waits on [`GATE_FD`] once its boxes are built.
    gate: bool,
    /// What the program's box shows.
    program_box: Spec,
    /// `sh -c COMMAND` and its folder, and what its box shows.
    interactor: Option<(Exec, Spec)>,
    program: Exec,
}

impl Args {
    /// `NPROC [--net] [BOX]... [--interactor DIR COMMAND [BOX]...] -- PROGRAM ARGS...`, where
    /// each `BOX` is a box option and its path (see [`Spec::take`]), `--netns` (`--userns`):
    /// the judge's shared network namespace is given on [`NET_FD`] (its user namespace on
    /// [`USER_FD`]), or `--gate`: the helper waits on [`GATE_FD`] before it starts anything.
    fn parse(args: &[OsString]) -> Option<Args> {
        let c = |s: &OsString| CString::new(s.as_bytes()).ok();
        let processes = args.first()?.to_str()?.parse().ok()?;
        let mut rest = &args[1..];
        let network = rest.first().is_some_and(|a| a == "--net");
        if network {
            rest = &rest[1..];
        }
        let here = std::env::current_dir().ok()?;
        let mut program_box = Spec {
            cwd: here.clone(),
            ..Spec::default()
        };
        let mut interactor = None;
        let mut shared = sandbox::Given::default();
        let mut gate = false;
        loop {
            let word = rest.first()?.to_str()?;
            if word == "--" {
                rest = &rest[1..];
                break;
            }
            if word == "--netns" || word == "--userns" {
                match word {
                    "--netns" => shared.net = Some(NET_FD),
                    _ => shared.user = Some(USER_FD),
                }
                rest = &rest[1..];
                continue;
            }
            if word == "--gate" {
                gate = true;
                rest = &rest[1..];
                continue;
            }
            if word == "--interactor" {
                let (dir, command) = (rest.get(1)?, c(rest.get(2)?)?);
                let cwd = here.join(dir);
                let argv = vec![c(&"sh".into())?, c(&"-c".into())?, command];
                let exec = Exec::new(argv, Some(c(&cwd.clone().into_os_string())?));
                let spec = Spec {
                    cwd,
                    ..Spec::default()
                };
                interactor = Some((exec.stdio(INTERACTOR_FDS), spec));
                rest = &rest[3..];
                continue;
            }
            let value = std::path::PathBuf::from(rest.get(1)?);
            let spec = match &mut interactor {
                Some((_, spec)) => spec,
                None => &mut program_box,
            };
            if !spec.take(word, value) {
                return None;
            }
            rest = &rest[2..];
        }
        let argv: Option<Vec<CString>> = rest.iter().map(c).collect();
        let argv = argv.filter(|a| !a.is_empty())?;
        let program = Exec::new(argv, None).processes(processes);
        Some(Args {
            processes,
            network,
            shared,
            gate,
            program_box,
            interactor,
            program,
        })
    }
}

/// The helper: runs as the module says, reports on descriptor 3, exits 0; exits 127 if the
/// arguments are wrong.
pub fn helper(args: &[OsString]) -> std::process::ExitCode {
    std::process::ExitCode::from(run(args))
}

/// The helper, in this process (started by `exec`, or forked by the zygote): its exit code.
pub fn run(args: &[OsString]) -> u8 {
    let Some(mut args) = Args::parse(args) else {
        return 127;
    };
    debug_assert!(args.processes > 0);
    // Waited for, never handled (see the module's documentation); the children start with an
    // empty mask.
    waited().block();
    for fd in [REPORT_FD, NET_FD, USER_FD, GATE_FD]
        .into_iter()
        .chain(INTERACTOR_FDS)
    {
        sys::set_cloexec(fd, true);
    }
    sys::set_child_subreaper();
    let signals = SignalSet::of(&[sys::SIGTERM, sys::SIGUSR1]);
    // Blocked until the groups are known to the handlers.
    signals.block();
    sys::on_signal(sys::SIGTERM, on_signal);
    sys::on_signal(sys::SIGUSR1, on_signal);
    let mut case = Case {
        start: sys::monotonic_ns(),
        paused: Duration::ZERO,
        init: None,
        init_build_cpu: Duration::ZERO,
        init_orphans_cpu: None,
        interactor_init: None,
        mount_namespaces: Vec::new(),
        program: None,
        program_start: Duration::ZERO,
        interactor: None,
        max_rss_kib: 0,
        cpu: Duration::ZERO,
    };
    let started = case.start_all(&mut args);
    sys::detach_stdio();
    match started {
        Start::Started => {
            signals.unblock();
            case.watch();
        }
        Start::Failed => {}
        Start::CalledOff => {
            case.end_all();
            // Its case never came: its private folder goes with it (the judge removes it too,
            // unless it is gone).
            if let Some(tmp) = &args.program_box.tmp {
                let _ = std::fs::remove_dir_all(tmp);
            }
            return 0;
        }
    }
    case.end_all();
    0
}

/// How [`Case::start_all`] went.
enum Start {
    /// The program (and the interactor) run.
    Started,
    /// Something could not start (reported).
    Failed,
    /// Started ahead of its case, the helper was told that it will not come.
    CalledOff,
}

/// Waits on [`GATE_FD`], with SIGTERM and SIGUSR1 let through: whether the judge said go (a
/// byte); `false` at the end of the pipe (the judge dropped this helper, or is gone) or on
/// SIGTERM.
fn gate_opened() -> bool {
    let handled = SignalSet::of(&[sys::SIGTERM, sys::SIGUSR1]);
    while !ENDING.load(Ordering::SeqCst) {
        if sys::wait_readable_unblocking(GATE_FD, &handled) {
            return !sys::read_now(GATE_FD).is_empty();
        }
    }
    false
}

/// How long a program that has begun to exit may take to end before the interactor's end is
/// seen as first (its exit stuck in the kernel).
const EXITING_WITHIN: Duration = Duration::from_millis(200);

/// Whether exiting child `pid` has ended (not reaped) within [`EXITING_WITHIN`].
fn finishes_exiting(pid: Pid) -> bool {
    let deadline = Instant::now() + EXITING_WITHIN;
    loop {
        if sys::ended(pid, true).ok() == Some(Some(pid)) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// The signals the helper waits for rather than handles: a child's end, and the judge's pause
/// and continuation.
fn waited() -> SignalSet {
    SignalSet::of(&[sys::SIGCHLD, sys::SIGTSTP, sys::SIGCONT])
}

/// How long the helper keeps stopping the processes below it on a pause (a process in an
/// uninterruptible wait stops only when it leaves it).
const STOP_WITHIN: Duration = Duration::from_secs(2);

/// The program's process group (its pid) while it runs, for the signal handler; 0 otherwise.
static PROGRAM: AtomicI32 = AtomicI32::new(0);

/// The interactor's process group while it runs; 0 otherwise.
static INTERACTOR: AtomicI32 = AtomicI32::new(0);

/// When the judge asked for the program to be stopped (its first SIGUSR1), on the monotonic
/// clock ([`sys::monotonic_ns`]); 0 before. The program's end is reported no later than this:
/// what ends after the judge's stop (an interactor reading the end of the program's output) did
/// not end before the program.
static STOP_ASKED: AtomicU64 = AtomicU64::new(0);

/// Set for good once SIGTERM has come: no pause may begin or go on after it.
static ENDING: AtomicBool = AtomicBool::new(false);

/// SIGUSR1 kills the program's group; SIGTERM the interactor's too. The helper's wait then
/// returns, and it ends the rest. Each number is cleared before its leader is reaped.
extern "C" fn on_signal(signal: Signal) {
    // Async-signal-safe: atomic loads and stores, the clock, at most two kills, nothing
    // allocated.
    let interactor = if signal == sys::SIGTERM {
        ENDING.store(true, Ordering::SeqCst);
        INTERACTOR.load(Ordering::SeqCst)
    } else {
        let now = sys::monotonic_ns();
        let _ = STOP_ASKED.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst);
        0
    };
    for pgid in [PROGRAM.load(Ordering::SeqCst), interactor] {
        if pgid > 0 {
            let _ = sys::kill_group(pgid, sys::SIGKILL);
        }
    }
}

/// The processes of one case, as the helper watches them.
struct Case {
    /// The helper's clock: every time it reports is from here (on the monotonic clock, in
    /// nanoseconds), less `paused`.
    start: u64,
    /// The pauses so far, added up.
    paused: Duration,
    /// The init of the program's box, until it is reaped.
    init: Option<Pid>,
    /// The CPU time that init spent building the box: not the program's.
    init_build_cpu: Duration,
    /// The CPU time of the orphans that init has reaped so far, as it counts it.
    init_orphans_cpu: Option<sys::Tally>,
    /// The init of the interactor's box, until it is reaped.
    interactor_init: Option<Pid>,
    /// The boxes' mount namespaces, held open until the processes have joined them.
    mount_namespaces: Vec<std::fs::File>,
    /// The program, until it is reaped.
    program: Option<Pid>,
    /// When the program was forked.
    program_start: Duration,
    /// The interactor, until it is reaped.
    interactor: Option<Pid>,
    /// The largest peak RSS of the program's side so far.
    max_rss_kib: u64,
    /// The CPU time of the program's side reaped so far (the program, the orphans, the init).
    cpu: Duration,
}

impl Case {
    /// The time on the helper's clock: from its start, less the pauses.
    fn now(&self) -> Duration {
        self.on_clock(sys::monotonic_ns())
    }

    /// The instant `ns` of the monotonic clock on the helper's clock.
    fn on_clock(&self, ns: u64) -> Duration {
        Duration::from_nanos(ns.saturating_sub(self.start)).saturating_sub(self.paused)
    }

    /// When the judge asked for the program to be stopped, on the helper's clock, if it has.
    fn stop_asked(&self) -> Option<Duration> {
        let ns = STOP_ASKED.load(Ordering::SeqCst);
        (ns != 0).then(|| self.on_clock(ns))
    }

    /// Forks the interactor (if any), then the program, each in its box where the machine
    /// allows, once the judge says go (with `--gate`); whether both started (else the failure
    /// is reported), or the case was called off.
    fn start_all(&mut self, args: &mut Args) -> Start {
        let boxes = match sandbox::enter(args.network, args.shared) {
            Ok(ids) => match self.open_boxes(args, ids) {
                Ok(boxes) => Some(boxes),
                Err(e) => {
                    say(&format!("nosandbox {}\n", e.raw_os_error().unwrap_or(1)));
                    None
                }
            },
            Err(errno) => {
                say(&format!("nosandbox {errno}\n"));
                None
            }
        };
        let (program_ns, interactor_ns) = match boxes {
            Some((p, i)) => (Some(p), i),
            None => (None, None),
        };
        if args.gate && !gate_opened() {
            return Start::CalledOff;
        }
        // The helper's clock starts when its case does.
        self.start = sys::monotonic_ns();
        if let Some((exec, _)) = &args.interactor {
            if let Some(ns) = &interactor_ns {
                let _ = ns::children_in(ns);
            }
            let spawned = sys::spawn(exec);
            // Only the interactor holds its pipes: the judge sees their ends when it ends.
            for fd in INTERACTOR_FDS {
                sys::close_inherited(fd);
            }
            match spawned {
                Ok(pid) => {
                    self.interactor = Some(pid);
                    INTERACTOR.store(pid, Ordering::SeqCst);
                }
                Err(e) => {
                    say(&report::no_fork("nointeractor", &e));
                    return Start::Failed;
                }
            }
        }
        if let Some(ns) = &program_ns {
            let _ = ns::children_in(ns);
        }
        self.program_start = self.now();
        match sys::spawn(&args.program) {
            Ok(pid) => {
                self.program = Some(pid);
                PROGRAM.store(pid, Ordering::SeqCst);
                let inits = [self.init, self.interactor_init];
                say(&report::pids(pid, self.interactor, inits));
                Start::Started
            }
            Err(e) => {
                say(&report::no_fork("nofork", &e));
                Start::Failed
            }
        }
    }

    /// Builds the interactor's box (in a conversation) and the program's, and prepares their
    /// starts to enter them as `ids`: the PID namespaces to fork them into (the program's, the
    /// interactor's). On an error no box is left.
    fn open_boxes(
        &mut self,
        args: &mut Args,
        ids: Ids,
    ) -> std::io::Result<(std::fs::File, Option<std::fs::File>)> {
        let inherited: Vec<i32> = std::iter::once(REPORT_FD).chain(INTERACTOR_FDS).collect();
        let here = std::env::current_dir()?;
        let mut interactor_ns = None;
        if let Some((exec, spec)) = &mut args.interactor {
            let opened = sandbox::open(spec, ids, &inherited)?;
            self.interactor_init = Some(opened.init);
            exec.join(&opened.mount_ns, &here);
            exec.unprivileged(ids);
            interactor_ns = Some(opened.pid_ns);
            self.mount_namespaces.push(opened.mount_ns);
        }
        let opened = match sandbox::open(&args.program_box, ids, &inherited) {
            Ok(opened) => opened,
            Err(e) => {
                if let Some(init) = self.interactor_init.take() {
                    let _ = sys::kill(init, sys::SIGKILL);
                    self.reap_interactor_init(init);
                }
                return Err(e);
            }
        };
        self.init = Some(opened.init);
        self.init_build_cpu = opened.build_cpu;
        self.init_orphans_cpu = Some(opened.orphans_cpu);
        args.program.join(&opened.mount_ns, &here);
        args.program.unprivileged(ids);
        self.mount_namespaces.push(opened.mount_ns);
        // Inside, temporary files go to the box's own `/tmp`.
        std::env::set_var("TMPDIR", "/tmp");
        Ok((opened.pid_ns, interactor_ns))
    }

    /// Waits until the program and the interactor have ended, reaping orphans meanwhile, and
    /// pausing when the judge says so.
    fn watch(&mut self) {
        let waited = waited();
        while self.program.is_some() || self.interactor.is_some() {
            match sys::ended(-1, true) {
                Ok(Some(pid)) => {
                    self.exited(pid);
                    continue;
                }
                Ok(None) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return, // no child left
            }
            // None has ended: a child that ends from now on leaves SIGCHLD pending, so the wait
            // returns at once.
            if waited.wait() == Some(sys::SIGTSTP) {
                self.pause();
            }
        }
    }

    /// The judge's pause (see the module's documentation): stops everything below the helper,
    /// waits for SIGCONT, continues them; the pause is left out of the helper's clock.
    fn pause(&mut self) {
        // From here on SIGTERM and SIGUSR1 wait for the pause's own wait. A SIGTERM handled
        // before (the judge gone, its SIGTERM from the kernel) leaves `ENDING` set: no pause then,
        // for no SIGCONT will come.
        let handled = SignalSet::of(&[sys::SIGTERM, sys::SIGUSR1]);
        handled.block();
        if ENDING.load(Ordering::SeqCst) {
            handled.unblock();
            return;
        }
        let since = Instant::now();
        let groups = [
            PROGRAM.load(Ordering::SeqCst),
            INTERACTOR.load(Ordering::SeqCst),
        ];
        // Their leaders are not reaped during a pause: the groups' numbers stay their own.
        for &pgid in groups.iter().filter(|&&g| g > 0) {
            let _ = sys::kill_group(pgid, sys::SIGSTOP);
        }
        let stopped = tree::stop_below(sys::getpid(), &[], self.init, STOP_WITHIN);
        let woken = SignalSet::of(&[sys::SIGCONT, sys::SIGTERM, sys::SIGUSR1]);
        loop {
            match woken.wait() {
                Some(sys::SIGCONT) => break,
                Some(sys::SIGTERM) => {
                    on_signal(sys::SIGTERM);
                    break;
                }
                Some(signal) => on_signal(signal),
                None => {}
            }
        }
        handled.unblock();
        for &pgid in groups.iter().filter(|&&g| g > 0) {
            let _ = sys::kill_group(pgid, sys::SIGCONT);
        }
        tree::resume(&stopped);
        self.paused += since.elapsed();
    }

    /// Handles the end of child `pid` (not yet reaped). If the program and the interactor have
    /// both ended by now, both are reported at this instant.
    fn exited(&mut self, pid: Pid) {
        let at = self.now();
        let ended =
            |p: Option<Pid>| p.filter(|&p| p == pid || sys::ended(p, true).ok() == Some(Some(p)));
        if Some(pid) == self.init {
            // The namespace is gone: the program ends as well.
            self.reap_init(pid);
            return;
        }
        if Some(pid) == self.interactor_init {
            self.reap_interactor_init(pid);
            return;
        }
        let (mut program, interactor) = (ended(self.program), ended(self.interactor));
        if interactor.is_some() && program.is_none() {
            // A program that had begun to exit when the interactor ended (it may have closed
            // its output on its way out, and the interactor read that end) ended first.
            program = self
                .program
                .filter(|&p| tree::exiting(p) && finishes_exiting(p));
        }
        if program.is_none() && interactor.is_none() {
            self.reap(pid);
            return;
        }
        // The interactor first: the program's cleanup reaps whatever else has ended.
        if let Some(i) = interactor {
            self.end_interactor(i, at);
        }
        if let Some(p) = program {
            self.end_program(p, at);
        }
    }

    /// The program has ended (seen at `at`): kills its group, reaps it, ends what is left of its
    /// side, and reports.
    fn end_program(&mut self, pid: Pid, at: Duration) {
        let _ = sys::kill_group(pid, sys::SIGKILL);
        // Stopped by the judge, it ended when the judge said so.
        let at = self.stop_asked().map_or(at, |asked| asked.min(at));
        PROGRAM.store(0, Ordering::SeqCst);
        self.program = None;
        let status = self.reap(pid);
        let alone = self.end_orphans();
        let wall = at.saturating_sub(self.program_start);
        if alone && self.interactor.is_none() && self.interactor_init.is_none() {
            // Only the box's init is left, which has counted the orphans it reaped: the report
            // need not wait for its end (the judge then goes on while the helper ends it).
            let orphans = self
                .init_orphans_cpu
                .as_ref()
                .map_or(Duration::ZERO, sys::Tally::get);
            let cpu = self.cpu + orphans;
            say(&report::ran(status, self.max_rss_kib, cpu, wall, at));
            self.end_side();
            return;
        }
        self.end_side();
        // An init that still runs (for the interactor) holds the CPU time of the orphans it reaped.
        let cpu = self.cpu + self.init.map_or(Duration::ZERO, tree::reaped_cpu);
        say(&report::ran(status, self.max_rss_kib, cpu, wall, at));
    }

    /// Kills the orphans the sandbox's init adopted, again until it has reaped them all (or
    /// [`CLEANUP`] has passed). Reaped by the init, their CPU time counts in the init's (and in
    /// its tally), which [`Case::reap_init`] adds to the program's; the kernel reaps the
    /// processes left at the init's death without counting them. Whether the init is then the
    /// box's last process, its tally complete (false without a box).
    fn end_orphans(&self) -> bool {
        let Some(init) = self.init else {
            return false;
        };
        let deadline = Instant::now() + CLEANUP;
        let tally = self.init_orphans_cpu.as_ref();
        loop {
            if Instant::now() >= deadline {
                return false;
            }
            if children(init).is_empty() {
                // Once the init has added the last orphan's time.
                if !tally.is_some_and(sys::Tally::busy) {
                    return true;
                }
                std::thread::sleep(Duration::from_micros(100));
                continue;
            }
            tree::kill_below(init, None, None);
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The interactor has ended (seen at `at`): kills its group, reaps it, and reports.
    fn end_interactor(&mut self, pid: Pid, at: Duration) {
        let _ = sys::kill_group(pid, sys::SIGKILL);
        INTERACTOR.store(0, Ordering::SeqCst);
        self.interactor = None;
        if let Some(init) = self.interactor_init {
            // Whatever the interactor left behind in its box ends with it.
            let _ = sys::kill(init, sys::SIGKILL);
        }
        let status = reap_ended(pid).map_or(0, |r| r.status);
        say(&report::interactor(status, at));
    }

    /// Reaps the init (killed, or dead), leaving its peak memory out: it is a copy of the
    /// helper's, not the program's. Its CPU time counts but for the box's building: it holds that
    /// of the orphans it reaped.
    fn reap_init(&mut self, init: Pid) {
        self.init = None;
        let cpu = reap_ended(init).map_or(Duration::ZERO, |r| r.cpu);
        self.cpu += cpu.saturating_sub(self.init_build_cpu);
    }

    /// Reaps the init of the interactor's box, its memory left out.
    fn reap_interactor_init(&mut self, init: Pid) {
        self.interactor_init = None;
        let _ = reap_ended(init);
    }

    /// Reaps child `pid` (ended) into the program's memory and CPU time; its wait status.
    fn reap(&mut self, pid: Pid) -> sys::Status {
        let reaped = reap_ended(pid);
        let kib = reaped.map_or(0, |r| r.max_rss_kib);
        self.max_rss_kib = self.max_rss_kib.max(kib);
        self.cpu += reaped.map_or(Duration::ZERO, |r| r.cpu);
        reaped.map_or(0, |r| r.status)
    }

    /// Ends everything below the helper, the interactor included (unreported: the case is
    /// over, or could not start).
    fn end_all(&mut self) {
        if let Some(i) = self.interactor.take() {
            let _ = sys::kill_group(i, sys::SIGKILL);
            INTERACTOR.store(0, Ordering::SeqCst);
        }
        if let Some(init) = self.interactor_init {
            let _ = sys::kill(init, sys::SIGKILL);
        }
        self.end_side();
    }

    /// Kills every process below the helper but the interactor's side, again until none is
    /// left (or [`CLEANUP`] has passed), reaping them; an interactor that ends meanwhile is
    /// reported.
    fn end_side(&mut self) {
        let me = sys::getpid();
        let deadline = Instant::now() + CLEANUP;
        loop {
            let others = loop {
                match sys::ended(-1, true) {
                    Ok(Some(pid)) if Some(pid) == self.interactor => {
                        self.end_interactor(pid, self.now());
                    }
                    Ok(Some(pid)) if Some(pid) == self.init => self.reap_init(pid),
                    Ok(Some(pid)) if Some(pid) == self.interactor_init => {
                        self.reap_interactor_init(pid);
                    }
                    Ok(Some(pid)) => {
                        self.reap(pid);
                    }
                    Ok(None) => {
                        break self.interactor.is_none()
                            || others_than(me, &[self.interactor, self.init, self.interactor_init])
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return, // no child left: nothing is left below the helper
                }
            };
            if !others || Instant::now() >= deadline {
                return;
            }
            match (self.interactor, self.init) {
                // Every process of the case is in the namespace: the init's death ends them all,
                // without a reading of `/proc`. The init is our child, not yet reaped.
                (None, Some(init)) => {
                    let _ = sys::kill(init, sys::SIGKILL);
                    self.reap_init(init);
                    continue;
                }
                // While the interactor runs, its namespace's init stays.
                (interactor, spare) => {
                    let skip: Vec<Pid> =
                        interactor.into_iter().chain(self.interactor_init).collect();
                    tree::kill_below_but(me, &skip, spare);
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Reaps child `pid`, waiting for it (a signal does not cut the wait short); `None` if it cannot
/// be reaped (already reaped, not a child).
fn reap_ended(pid: Pid) -> Option<sys::Reaped> {
    loop {
        match sys::reap(pid, false) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            r => return r.ok().flatten(),
        }
    }
}

/// Whether processes other than `spared` (the interactor, the program's box's init, the
/// interactor's box's init) are left below `me`: children of `me`, or orphans adopted by the
/// program's box's init.
fn others_than(me: Pid, spared: &[Option<Pid>; 3]) -> bool {
    let others = children(me).into_iter().any(|c| !spared.contains(&Some(c)));
    let init = spared[1];
    others || init.is_some_and(|i| !children(i).is_empty())
}

/// The children of `parent`: from `/proc/P/task/P/children`, or a reading of all of `/proc`
/// where that file is missing.
fn children(parent: Pid) -> Vec<Pid> {
    let path = format!("/proc/{parent}/task/{parent}/children");
    match std::fs::read_to_string(path) {
        Ok(text) => text
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect(),
        Err(_) => tree::children(parent).iter().map(|p| p.pid).collect(),
    }
}

/// Writes `line` to the judge.
fn say(line: &str) {
    sys::write_all(REPORT_FD, line.as_bytes());
}

//! The human report on stdout: one aligned line per case, the details of a failure, a summary per
//! suite and `N passed, M failed`; colour when stdout is a terminal; a progress bar on stderr when
//! stderr is one and the run has lasted a second (short runs stay quiet).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::Color;
use crate::out;
use crate::verdict::SuiteReport;
use crate::verdict::{CaseResult, Verdict};

/// Prints the report as it goes.
pub struct Human {
    colour: bool,
    /// Printed at all (`--format json` keeps stdout for the JSON).
    enabled: bool,
    /// Hidden until the run has lasted [`BAR_AFTER`], and for good if stderr is not a terminal.
    bar: ProgressBar,
    bar_wanted: bool,
    start: Instant,
}

/// How long a run goes before its progress bar shows.
const BAR_AFTER: Duration = Duration::from_secs(1);

/// Memory is shown in MiB everywhere, as the limits are given.
const MIB: f64 = 1048576.0;

const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const MAGENTA: &str = "\x1b[35m";
const CYAN: &str = "\x1b[36m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

impl Human {
    /// A report for `total` cases. The bar shows only when stderr is a terminal, after a second.
    #[must_use]
    pub fn new(colour: Color, enabled: bool, total: usize) -> Human {
        let colour = match colour {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Human {
            colour,
            enabled,
            bar,
            bar_wanted: std::io::stderr().is_terminal() && total > 1,
            start: Instant::now(),
        }
    }

    /// Shows the bar once the run has lasted long enough.
    fn maybe_show_bar(&self) {
        if self.bar_wanted && self.bar.is_hidden() && self.start.elapsed() >= BAR_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// One case: its line, and the detail of a failure, indented.
    pub fn case(&self, r: &CaseResult) {
        self.maybe_show_bar();
        self.bar.inc(1);
        self.bar.set_message(crate::terminal::shown(&r.name));
        if !self.enabled {
            return;
        }
        let mut text = format!(
            "{} [{:>6.1} ms {:>5.1} MiB{}] {}\n",
            self.paint(
                verdict_colour(r.verdict),
                &format!("{:<3}", r.verdict.name())
            ),
            r.time * 1e3,
            r.memory as f64 / MIB,
            wall_note(r),
            shown(&r.name),
        );
        for l in r.detail.iter().flat_map(|d| d.lines()) {
            text += &format!("    {}\n", shown(l));
        }
        // Raw: the colours are the judge's own, everything else was shown above.
        self.bar.suspend(|| out::stdout_raw(&text));
    }

    /// A suite's summary line.
    pub fn suite(&self, s: &SuiteReport, jobs: usize) {
        if !self.enabled {
            return;
        }
        let slowest = s.cases.iter().max_by(|a, b| a.time.total_cmp(&b.time));
        let peak = s.cases.iter().map(|c| c.memory).max().unwrap_or(0);
        let mut line = format!(
            "{}: {} passed, {} failed in {:.2} s",
            shown(&s.name),
            s.passed,
            s.failed,
            s.time
        );
        if let Some(c) = slowest {
            line += &format!(
                " (slowest {:.1} ms, {}; peak {:.1} MiB)",
                c.time * 1e3,
                shown(&c.name),
                peak as f64 / MIB
            );
        }
        if jobs > 1 {
            line += &format!("; times taken with {jobs} cases in parallel (-j {jobs})");
        }
        if let Some(score) = s.score {
            line += &format!(", score {score}/{}", s.cases.len());
        }
        let colour = if s.failed == 0 { GREEN } else { RED };
        let line = self.paint(colour, &line);
        self.bar.suspend(|| out::stdout_raw(&format!("{line}\n")));
    }

    /// The last line, `N passed, M failed`.
    pub fn finish(&self, passed: usize, failed: usize) {
        self.bar.finish_and_clear();
        if self.enabled {
            let colour = if failed == 0 { GREEN } else { RED };
            let line = format!("{passed} passed, {failed} failed");
            out::stdout_raw(&format!(
                "{}\n",
                self.paint(&format!("{BOLD}{colour}"), &line)
            ));
        }
    }

    fn paint(&self, colour: &str, text: &str) -> String {
        if self.colour {
            format!("{colour}{text}{RESET}")
        } else {
            text.to_string()
        }
    }
}

/// `, wall 2000.3 ms` when a case's wall time is well above its time (CPU time that the program
/// slept or waited through, or a loaded machine), else nothing.
fn wall_note(r: &CaseResult) -> String {
    if r.wall - r.time > (r.time / 2.0).max(WALL_NOTE) {
        format!(", wall {:.1} ms", r.wall * 1e3)
    } else {
        String::new()
    }
}

/// The least difference, in seconds, between a case's wall time and its time that the report
/// shows.
const WALL_NOTE: f64 = 0.05;

fn verdict_colour(v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => GREEN,
        Verdict::WrongAnswer | Verdict::PresentationError => RED,
        Verdict::RuntimeError => MAGENTA,
        Verdict::TimeLimit | Verdict::MemoryLimit | Verdict::OutputLimit => YELLOW,
        Verdict::NoAnswer | Verdict::JudgeError => CYAN,
    }
}

/// Text from a file, a name or a program, for the terminal (see [`crate::terminal::text`]).
fn shown(text: &str) -> String {
    crate::terminal::text(text)
}

//! The command line of `minesweeper-play`, checked into a [`Setup`].

use std::time::{SystemTime, UNIX_EPOCH};

use clap::Parser;
use cp_puzzles::minesweeper::game::{self, Config, FirstClick, Level};
use cp_puzzles::minesweeper::Pos;

/// Plays Minesweeper in the terminal, with the exact analyzer as a hint and the bot to watch.
#[derive(Debug, Parser)]
#[command(name = "minesweeper-play", version, after_help = KEYS_HELP)]
pub struct Args {
    /// A standard level: beginner, intermediate or expert (the default without --width).
    #[arg(long, conflicts_with_all = ["width", "height", "mines"])]
    pub level: Option<Level>,
    /// Board width (with --height and --mines).
    #[arg(long, requires_all = ["height", "mines"])]
    pub width: Option<usize>,
    /// Board height.
    #[arg(long, requires_all = ["width", "mines"])]
    pub height: Option<usize>,
    /// Number of mines.
    #[arg(long, requires_all = ["width", "height"])]
    pub mines: Option<usize>,
    /// The first-click rule: safe (the first click, anywhere, is never a mine) or opening (it
    /// and its neighbours are mine-free, so it opens an area).
    #[arg(long, default_value = "safe")]
    pub first_click: FirstClick,
    /// The seed: game i (r starts the next game) is drawn from the seed of `minesweeper-bot
    /// --seed S --game i`, and is the bot's game when your first click is the bot's, (0, 0)
    /// under safe and (3, 3) under opening; a game first clicked at (X, Y) is the one
    /// `minesweeper-bot --first-cell X,Y` plays. The default is drawn from the clock and shown
    /// on screen.
    #[arg(long)]
    pub seed: Option<u64>,
    /// No-guess boards: each layout is made, at the first click, so that the exact analyzer
    /// clears it from there without a guess (the total mine count may be needed). Shown as
    /// "no guess" in the title and the status line.
    #[arg(long)]
    pub no_guess: bool,
    /// Plays back a replay written by `replay FILE` (line mode) or `w` (full screen): full
    /// screen at the game's pace (n steps, p resumes the pace), or in the line mode every action
    /// with the board after it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["stats", "level", "width", "no_guess", "seed"])]
    pub replay: Option<std::path::PathBuf>,
    /// The line mode, for scripts (the default when stdin or stdout is not a terminal).
    #[arg(long)]
    pub plain: bool,
    /// Print the statistics kept between games and exit.
    #[arg(long, conflicts_with = "plain")]
    pub stats: bool,
}

/// The help's closing text: the keys and the line mode's commands.
pub const KEYS_HELP: &str = "\
The board starts all hidden: the first click goes anywhere, and the clock starts with it. Flags
come after it. The bot's first click (a, or auto) is at (0, 0) under safe, (3, 3) under opening.

Keys: arrows or hjkl move, Space or Enter reveal, f flag, c chord, H hint overlay, a one bot move,
A the bot plays to the end, s save the view as a .mine file, w save the game as a replay,
r next game, ? help, q quit. Playing a replay back: n next action, p at the game's pace.
Mouse: left click reveals (on a number: chords), right click flags.

Line mode commands (x the column, y the row, from 0): reveal X Y, flag X Y, chord X Y, hint,
auto, auto all, save FILE, replay FILE (the game so far as a replay), board, restart, quit. Each prints the board in the .mine letters and
a status line: mines left N, time T s, playing (or won, or lost), then \"no guess\" with
--no-guess, and once the game is won its 3BV, 3BV/s and efficiency (3BV per click).";

/// What to play: the board, the first-click rule, the run's seed, and whether the boards are
/// no-guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub config: Config,
    pub rule: FirstClick,
    pub seed: u64,
    pub no_guess: bool,
}

impl Setup {
    /// The setup the arguments ask for, checked: a board out of range, or too many mines for a
    /// first click somewhere, is an error.
    ///
    /// # Errors
    /// As [`Config::new`] and [`Setup::check`].
    pub fn from_args(args: &Args) -> Result<Setup, game::Error> {
        let config = match (args.width, args.height, args.mines) {
            (Some(w), Some(h), Some(m)) => Config::new(w, h, m)?,
            _ => Config::level(args.level.unwrap_or(Level::Expert)),
        };
        let setup = Setup {
            config,
            rule: args.first_click,
            seed: args.seed.unwrap_or_else(clock_seed),
            no_guess: args.no_guess,
        };
        setup.check()?;
        Ok(setup)
    }

    /// Checks that the rule leaves room for the mines wherever the first click goes: it is
    /// checked at the cell whose block the rule keeps freest, (1, 1) clamped to the board (under
    /// `opening`, the largest 3x3 block; under `safe`, every cell keeps one cell free).
    ///
    /// # Errors
    /// As [`Config::check_first`]: [`game::Error::TooManyMines`].
    pub fn check(&self) -> Result<(), game::Error> {
        let c = &self.config;
        let freest = Pos::new(1.min(c.width() - 1), 1.min(c.height() - 1));
        c.check_first(self.rule, freest)
    }

    /// The rule's name in the statistics: `safe` or `opening`, with `-no-guess` for no-guess
    /// boards, which are counted apart.
    #[must_use]
    pub fn rule_name(&self) -> String {
        if self.no_guess {
            format!("{}-no-guess", self.rule)
        } else {
            self.rule.to_string()
        }
    }

    /// The level's name (`expert`), or the board as `WxH/M` when it is not a standard level.
    #[must_use]
    pub fn board_name(&self) -> String {
        [Level::Beginner, Level::Intermediate, Level::Expert]
            .into_iter()
            .find(|&l| Config::level(l) == self.config)
            .map_or_else(|| self.config.to_string(), |l| l.to_string())
    }
}

/// A seed from the clock, for a game nobody asked to replay (small, so that it is easy to type).
fn clock_seed() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::from(now.subsec_nanos()) % 1_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_holds_exactly_when_every_first_click_leaves_room() {
        for rule in [FirstClick::Safe, FirstClick::Opening] {
            for width in 1..=5 {
                for height in 1..=5 {
                    for mines in 0..=width * height {
                        let Ok(config) = Config::new(width, height, mines) else {
                            continue;
                        };
                        let setup = Setup {
                            config,
                            rule,
                            seed: 0,
                            no_guess: false,
                        };
                        let everywhere = (0..height)
                            .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
                            .all(|p| config.check_first(rule, p).is_ok());
                        assert_eq!(setup.check().is_ok(), everywhere, "{config} {rule}");
                    }
                }
            }
        }
    }
}

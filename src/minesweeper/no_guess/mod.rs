//! No-guess boards: layouts that the exact analyzer clears from the first click without ever
//! guessing.
//!
//! A layout is *no-guess* for a first click when, starting from that click (and the area it opens),
//! every position on the way to the cleared board has a safe cell or a certain mine that
//! [`analyze_exact`](crate::minesweeper::analyze_exact) finds, the total mine count included, as a
//! perfect player would. [`generate`] returns only layouts it has proved so by a replay from the
//! first click.
//!
//! Method (after Simon Tatham's Mines): draw a uniform layout under the first-click rule and play
//! it with the analyzer, revealing every safe cell and flagging every certain mine. Where the play
//! is stuck, pick a revealed number that still has unknown neighbours and either empty those
//! neighbours of mines or fill them all with mines, whichever moves fewer mines, moving the
//! difference to or from unknown cells that touch no revealed cell; the number then decides its
//! neighbours, and the play goes on with the numbers the move changed. Once the play clears the
//! board, it is replayed from the first click on the final layout, and the layout is returned only
//! if that replay clears it too; else the repairs go on from where the replay stopped. A layout
//! that runs out of repairs is dropped for a new one, and the whole is bounded by an [`Effort`],
//! whose work budget bounds the time on any board.

mod error;
mod repair;
mod replay;

pub use error::NoGuessError;

use crate::minesweeper::game::{Config, FirstClick, Layout, Rng};
use crate::minesweeper::Pos;
use repair::{repair, Repaired};
use replay::{Progress, Replay};

/// How much work [`generate`] may do before it gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// The most layouts drawn.
    pub layouts: usize,
    /// The most repairs made to one layout before it is dropped.
    pub repairs: usize,
    /// The most cells looked at in all: each analysis of the board, and each repair, counts the
    /// board's cells. This bounds the time on any board size.
    pub work: u64,
}

impl Effort {
    /// The default: 50 layouts of at most 2 repairs per cell each, and 40 million cells of work
    /// (a few seconds on one core: boards that need more give up; expert takes about 0.1% of it).
    #[must_use]
    pub fn default_for(config: Config) -> Effort {
        Effort {
            layouts: 50,
            repairs: 2 * config.cells(),
            work: 40_000_000,
        }
    }
}

/// A proved no-guess layout and what it took to make it.
#[derive(Clone, Debug)]
pub struct NoGuess {
    /// The layout: no-guess from the first click given to [`generate`].
    pub layout: Layout,
    /// The layouts drawn (1 if the first one could be repaired).
    pub layouts: usize,
    /// The repairs made to the layout returned.
    pub repairs: usize,
}

/// A layout of `config` that is no-guess when the first click is at `first` under `rule` (see the
/// module's documentation), drawn from `seed`: the same arguments give the same layout on every
/// machine.
///
/// # Errors
/// [`NoGuessError::Config`] if `first` is off the board or the rule leaves no room for the mines
/// there; [`NoGuessError::GaveUp`] if no layout was proved within `effort`, with how far the best
/// attempt got.
///
/// # Complexity
/// At most `effort.work / cells` analyses and repairs, each linear in the cells or close to it
/// (an analysis can cost more where the numbers leave many arrangements, within the analyzer's
/// own budgets).
pub fn generate(
    config: Config,
    rule: FirstClick,
    first: Pos,
    seed: u64,
    effort: Effort,
) -> Result<NoGuess, NoGuessError> {
    let mut rng = Rng::new(seed);
    let mut work = effort.work;
    let cells = config.cells() as u64;
    let (mut best_revealed, mut repairs_made, mut drawn) = (0, 0, 0);
    'layouts: while drawn < effort.layouts {
        drawn += 1;
        let layout =
            Layout::generate(config, rule, first, &mut rng).map_err(NoGuessError::Config)?;
        let mut replay = Replay::new(&layout, rule, first);
        let mut repairs = 0;
        loop {
            // Play on (after a repair, with the changed numbers) until stuck or clear.
            loop {
                match replay.play(&mut work) {
                    Progress::Cleared => break,
                    Progress::OutOfWork => break 'layouts,
                    Progress::Stuck => {}
                }
                best_revealed = best_revealed.max(replay.revealed());
                if repairs == effort.repairs || work < cells {
                    continue 'layouts;
                }
                work -= cells;
                let done = repair(&mut replay, &mut rng);
                if done == Repaired::Failed {
                    continue 'layouts;
                }
                repairs += 1;
                repairs_made += 1;
                if done == Repaired::Restart {
                    replay = Replay::new(&replay.layout(), rule, first);
                }
            }
            // Cleared with numbers that changed on the way: prove it from the first click.
            let proved = replay.layout();
            replay = Replay::new(&proved, rule, first);
            match replay.play(&mut work) {
                Progress::Cleared => {
                    return Ok(NoGuess {
                        layout: proved,
                        layouts: drawn,
                        repairs,
                    })
                }
                Progress::OutOfWork => break 'layouts,
                Progress::Stuck => best_revealed = best_revealed.max(replay.revealed()),
            }
        }
    }
    Err(NoGuessError::GaveUp {
        config,
        effort,
        layouts: drawn,
        spent: work < cells,
        repairs: repairs_made,
        best_revealed,
        safe: config.cells() - config.mines(),
    })
}

//! How the bot guesses when no cell is proved safe: a [`Strategy`] is a pipeline of stages, tried
//! in order until one answers (see [`Pipeline::guess`]). Each stage lives in its own file under
//! `stage/`.

pub use super::stage::lookahead::Pool;

use super::calls::Calls;
use super::exact::MAX_ARRANGEMENTS;
use super::probabilities::lowest;
use super::stage::fifty::{self, Forced};
use super::stage::lookahead::{Lookahead, Score};
use super::stage::{endgame, region};
use crate::minesweeper::{Analysis, Board, Pos};

/// A guessing strategy. All are deterministic: the same position gives the same guess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    /// The lowest mine probability; ties go to the first cell in row-major order.
    Lowest,
    /// The analyzer's own recommendation (`Analysis::best`).
    Analyzer,
    /// One move of lookahead. Among the cells whose probability `p` is close to the lowest, pick
    /// the one that maximizes `(1 - p) * (1 - next_risk * (1 - progress))`, where `progress` is
    /// the chance that the number it shows (estimated from its neighbours' probabilities, over
    /// the values the analyzer finds consistent) proves some cell safe, and `next_risk` is the
    /// assumed risk of the next guess that a guess without progress leads to.
    Progress { next_risk: f64 },
    /// As `Progress`, but when few arrangements remain (see [`super::endgame_click`]), the click that
    /// maximizes the exact chance of winning.
    Endgame { next_risk: f64 },
    /// As `Endgame`, but the lookahead maximizes the chance of surviving this click and the next:
    /// `(1 - p) * E[1 - p_next]`, where `p_next` is the lowest mine probability on the board after
    /// the number the cell shows (0 if that number proves a cell safe). `window` plays the part of
    /// `next_risk` only in choosing the candidates.
    Survival { window: f64 },
    /// As `Survival`, with exact weights: the chance that the cell is safe and shows each number
    /// is a ratio of arrangement counts (the analyzer's, before and after the number). The
    /// safety of the next click after a number is 1 if it proves two cells safe, `1 - lone * p`
    /// if it proves one, `p` the lowest mine probability of the other cells, else
    /// `(1 - blend) * s1 + blend * s2`, with `s1` and `s2` the two best safeties on the board then.
    /// The exact endgame search runs up to `endgame` arrangements. With `regions`, it first
    /// looks for a region of the board independent of the rest and small enough to solve exactly
    /// (see [`super::region_click`]). Past the endgame search, `forced` 50/50s are guessed
    /// before the lookahead. With `influence` above 0, the lookahead's score is multiplied by a
    /// 50/50 influence (see `Lookahead::influence` in `stage/lookahead/`).
    Secondary {
        window: f64,
        blend: f64,
        lone: f64,
        endgame: usize,
        regions: bool,
        pool: Pool,
        forced: Forced,
        influence: f64,
    },
}

/// The pool of the older strategies.
const SMALL_POOL: Pool = Pool {
    candidates: 8,
    interior: 2,
    near: 0,
    deep: 0,
    extra: 0,
};

impl Strategy {
    /// The best measured strategy: the exact-weight lookahead ([`Strategy::Secondary`]) with the
    /// endgame search up to 4,000 arrangements, exact play in independent regions, dead sets and pseudo-50/50s guessed at
    /// once, and a lookahead that weighs a lone safe cell as JSMinesweeper does and favours the
    /// cells whose number may settle a 50/50 before it forms (its 50/50 influence, 8 cells
    /// outside the window included).
    pub const REGIONS: Strategy = Strategy::Secondary {
        window: 0.1,
        blend: 0.2,
        lone: 0.2,
        endgame: 4000,
        regions: true,
        pool: Pool {
            candidates: 12,
            interior: 4,
            near: 0,
            deep: 0,
            extra: 8,
        },
        forced: Forced::Sets,
        influence: 0.9,
    };

    /// Picks a hidden, unflagged cell to click and returns it with its mine probability.
    /// `calls` counts the analyzer calls the strategy makes.
    ///
    /// # Panics
    /// If `analysis.probabilities` is empty (a game in progress always has a hidden cell).
    #[must_use]
    pub fn choose(self, view: &Board, analysis: &Analysis, calls: &mut Calls) -> (Pos, f64) {
        self.pipeline().guess(view, analysis, calls)
    }

    /// The stages this strategy runs.
    fn pipeline(self) -> Pipeline {
        let small = |window, score| {
            Last::Lookahead(Lookahead {
                window,
                pool: SMALL_POOL,
                score,
                influence: 0.0,
            })
        };
        let none = Pipeline {
            regions: None,
            endgame: None,
            forced: Forced::None,
            last: Last::Lowest,
        };
        match self {
            Strategy::Lowest => none,
            Strategy::Analyzer => Pipeline {
                last: Last::Analyzer,
                ..none
            },
            Strategy::Progress { next_risk } => Pipeline {
                last: small(next_risk, Score::Progress { next_risk }),
                ..none
            },
            Strategy::Endgame { next_risk } => Pipeline {
                endgame: Some(MAX_ARRANGEMENTS),
                last: small(next_risk, Score::Progress { next_risk }),
                ..none
            },
            Strategy::Survival { window } => Pipeline {
                endgame: Some(MAX_ARRANGEMENTS),
                last: small(window, Score::Survival),
                ..none
            },
            Strategy::Secondary {
                window,
                blend,
                lone,
                endgame,
                regions,
                pool,
                forced,
                influence,
            } => Pipeline {
                regions: regions.then_some(endgame),
                endgame: Some(endgame),
                forced,
                last: Last::Lookahead(Lookahead {
                    window,
                    pool,
                    score: Score::Secondary { blend, lone },
                    influence,
                }),
            },
        }
    }
}

/// The stages of one guess. Each is skipped when it is off, or passes when it finds nothing; the
/// last always answers.
struct Pipeline {
    /// Exact play in an independent region of at most this many arrangements.
    regions: Option<usize>,
    /// Exact play on the whole board when at most this many arrangements remain.
    endgame: Option<usize>,
    /// Which 50/50s the game must take anyway are guessed at once.
    forced: Forced,
    last: Last,
}

/// The stage that always answers.
enum Last {
    /// The lowest mine probability, first row-major.
    Lowest,
    /// The analyzer's recommendation.
    Analyzer,
    Lookahead(Lookahead),
}

impl Pipeline {
    /// The guess: independent regions, then the whole-board endgame, then forced 50/50s, then
    /// the last stage.
    fn guess(&self, view: &Board, analysis: &Analysis, calls: &mut Calls) -> (Pos, f64) {
        let regions = || region::guess(view, analysis, self.regions?);
        let endgame = || endgame::guess(view, analysis, self.endgame?);
        regions()
            .or_else(endgame)
            .or_else(|| fifty::forced(view, analysis, self.forced, calls))
            .unwrap_or_else(|| match &self.last {
                Last::Lowest => lowest(analysis),
                // `None` (no hidden cell can be safe) never happens in a game in progress.
                Last::Analyzer => analysis.best.unwrap_or_else(|| lowest(analysis)),
                Last::Lookahead(lookahead) => lookahead.guess(view, analysis, calls),
            })
    }
}

//! The bot's floating-point tolerances, in one place. Probabilities that must be equal use the
//! analyzer's [`NEAR_TIE`](crate::minesweeper::NEAR_TIE).

/// Two scores (win chances, expected safeties, two-click survival chances) closer than this are
/// equal: a candidate replaces the best only if it beats it by more, and an upper bound that
/// comes within it of the best prunes the candidate. The lookahead's window of probabilities
/// keeps a cell this far past its edge.
pub const SCORE_TIE: f64 = 1e-12;

/// The slack when the log of an arrangement count (a sum of logs, rounded) is checked against the
/// log of a limit: a count equal to the limit passes.
pub const LN_COUNT_SLACK: f64 = 1e-9;

/// The relative slack when a sum of probabilities is checked against the total it can reach: a
/// sum within this fraction of its total holds all of it.
pub const MASS_SLACK: f64 = 1e-9;

/// A weight below this is too small for the lookahead to spend an analyzer call on.
pub const NEGLIGIBLE: f64 = 1e-9;

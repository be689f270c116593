//! Why the bot stopped before the game ended.

use std::fmt;
use std::sync::Arc;

use cp_puzzles::minesweeper::Error;

/// The analyzer rejected the engine's own view of a game (found it inconsistent, or too complex),
/// which is a bug in one of them.
///
/// The analyzer's error is shared, so that a `BotError` can be cloned; two `BotError`s are equal
/// when they say the same thing (the analyzer's error has no equality of its own, as it may hold
/// an I/O error).
#[derive(Clone, Debug)]
pub struct BotError(Arc<Error>);

impl BotError {
    /// The analyzer's error.
    #[must_use]
    pub fn analyzer(&self) -> &Error {
        &self.0
    }
}

impl From<Error> for BotError {
    fn from(error: Error) -> Self {
        BotError(Arc::new(error))
    }
}

impl PartialEq for BotError {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl Eq for BotError {}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the analyzer rejected a game's view: {}", self.0)
    }
}

impl std::error::Error for BotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.0.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cp_puzzles::minesweeper::{Inconsistency, Pos};
    use std::error::Error as _;

    #[test]
    fn the_analyzer_error_is_the_source() {
        let why = Inconsistency::Numbers { at: Pos::new(2, 1) };
        let error = BotError::from(Error::Inconsistent(why.clone()));
        let source = error.source().expect("the analyzer's error");
        assert_eq!(source.to_string(), Error::Inconsistent(why).to_string());
        assert!(matches!(error.analyzer(), Error::Inconsistent(_)));
        assert!(error
            .to_string()
            .starts_with("the analyzer rejected a game's view: "));
        assert_eq!(error.clone(), error);
    }
}

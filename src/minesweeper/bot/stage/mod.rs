//! The stages of a guess, each in its own file; [`super::guess`] tries them in order. A stage
//! answers with a cell and its mine probability, or passes. Stages use the shared helpers above
//! them (the exact search, the shapes of 50/50s, the probabilities, the call count), never each
//! other.

pub mod endgame;
pub mod fifty;
pub mod lookahead;
pub mod region;

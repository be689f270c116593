//! `quarto-play`: Quarto against the computer, full screen or through stdin (line mode).

pub mod book;
pub mod game;
pub mod line;
pub mod players;
pub mod screen;
pub mod worker;

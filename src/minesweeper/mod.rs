//! The `minesweeper` solver (in progress).

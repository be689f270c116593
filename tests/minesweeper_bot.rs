//! Tests for `minesweeper_bot` (in progress).

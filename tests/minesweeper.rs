//! Tests for `minesweeper` (in progress).

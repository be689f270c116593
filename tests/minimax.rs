//! Tests for `minimax` (in progress).

//! Tests for `judge` (in progress).

//! Tests for `quarto` (in progress).

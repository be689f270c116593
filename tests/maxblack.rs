//! Tests for `maxblack` (in progress).

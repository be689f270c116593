//! The `maxblack` solver (in progress).

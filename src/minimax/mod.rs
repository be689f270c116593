//! The `minimax` solver (in progress).

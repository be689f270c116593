//! The `quarto` solver (in progress).

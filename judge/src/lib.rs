//! The judge as a library: everything `judge` does, for its binary (`src/main.rs`) and for the
//! fuzz targets (`fuzz/`), which call the comparisons, the `suite.toml` and `NN.exit` readers
//! and the bundler's module resolution directly.

pub mod bounded;
pub mod build_cache;
pub mod bundle;
pub mod case;
pub mod checker;
pub mod cli;
pub mod compare;
pub mod compiler;
pub mod diff;
pub mod formats;
pub mod interact;
pub mod lossy;
pub mod machine;
pub mod manifest;
pub mod out;
pub mod pool;

pub mod program;
pub mod record;
pub mod report;
pub mod run;
pub mod session;
pub mod shell;
pub mod source;
pub mod stress;
pub mod suite;
pub mod transcript;
pub mod verdict;

//! Benchmark (in progress).
fn main() {}

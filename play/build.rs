//! Writes the sources fingerprint of `minesweeper-bot` (see `test_support::sources`, which the
//! tests check with the same code) into the build as the environment variable
//! `MINESWEEPER_BOT_SOURCES`, 16 lowercase hex digits, which the package reads with `env!`. It is
//! recomputed whenever a file under the fingerprinted folders changes.

use std::path::PathBuf;

use test_support::sources;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .expect("the play package is a folder of the workspace");
    println!("cargo:rerun-if-changed=build.rs");
    for folder in sources::FOLDERS {
        println!("cargo:rerun-if-changed={}", root.join(folder).display());
    }
    match sources::fingerprint(root, &sources::FOLDERS) {
        Ok(hash) => println!("cargo:rustc-env=MINESWEEPER_BOT_SOURCES={hash:016x}"),
        Err(e) => {
            eprintln!("cannot fingerprint the minesweeper-bot sources: {e}");
            std::process::exit(1);
        }
    }
}

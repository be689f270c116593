//! `quarto-book`: its limits and the conversion between the book's two forms.

use predicates::prelude::*;

use crate::util::bin;

/// Depths beyond 4 are refused before any work (they would only grow the book).
#[test]
fn depth_is_limited() {
    for depth in ["0", "5", "99"] {
        bin("quarto-book")
            .args(["--depth", depth])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--depth"));
    }
}

/// Converting the built-in book to text and back gives the same bytes; a book that cannot be
/// read is refused with its name.
#[test]
fn conversion_is_reproducible() {
    let book = cp_puzzles::quarto::book::EMBEDDED;
    let dir = tempfile::tempdir().unwrap();
    let (bin_file, text_file) = (dir.path().join("book.bin"), dir.path().join("book.txt"));
    std::fs::write(&bin_file, book).unwrap();
    let text = bin("quarto-book")
        .args(["--text", "--convert"])
        .arg(&bin_file)
        .assert()
        .success();
    std::fs::write(&text_file, &text.get_output().stdout).unwrap();
    bin("quarto-book")
        .arg("--convert")
        .arg(&text_file)
        .assert()
        .success()
        .stdout(predicate::eq(book));
    bin("quarto-book")
        .args(["--convert", "/dev/zero"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/dev/zero: larger than a book can be",
        ));
}

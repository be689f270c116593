//! The sources fingerprint (`test_support::sources`, which the build script runs): the hash, the
//! files it covers, and what changes it.

use std::path::Path;

use test_support::sources::{files, fingerprint, with_lf, Fnv1a, FOLDERS};

/// The FNV-1a 64-bit hash of `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::new();
    hash.write(bytes);
    hash.finish()
}

#[test]
fn the_hash_is_fnv1a_64() {
    // The reference values published with the FNV hash (www.isthe.com/chongo/tech/comp/fnv).
    assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv(b"foobar"), 0x8594_4171_f739_67e8);
    // Fed in pieces, the same.
    let mut hash = Fnv1a::new();
    hash.write(b"foo");
    hash.write(b"bar");
    assert_eq!(hash.finish(), fnv(b"foobar"));
}

#[test]
fn crlf_becomes_lf_and_nothing_else_changes() {
    assert_eq!(with_lf(b"a\r\nb\r\n"), b"a\nb\n");
    assert_eq!(with_lf(b"a\rb\n\r"), b"a\rb\n\r");
    assert_eq!(with_lf(b"\r\r\n\n"), b"\r\n\n");
    assert_eq!(with_lf(b""), b"");
}

/// Writes `files` (path relative to `root`, text) under `root`.
fn write(root: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// The fingerprint of a tree made of `files`.
fn of(files: &[(&str, &str)]) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), files);
    fingerprint(dir.path(), &FOLDERS).unwrap()
}

/// A small tree in the shape of the workspace.
const TREE: [(&str, &str); 4] = [
    ("src/minesweeper/mod.rs", "pub mod bot;\n"),
    (
        "src/minesweeper/bot/mod.rs",
        "fn guess() -> u8 {\n    1\n}\n",
    ),
    ("play/src/minesweeper_bot/runner.rs", "fn run() {}\n"),
    ("src/quarto/mod.rs", "fn not_minesweeper() {}\n"),
];

#[test]
fn the_fingerprint_covers_the_rs_files_of_the_two_folders() {
    let base = of(&TREE);
    // Its value: the names, sorted, each with its length and text.
    let mut hash = Fnv1a::new();
    for (name, text) in [TREE[2], TREE[1], TREE[0]] {
        hash.write(name.as_bytes());
        hash.write(&[0]);
        hash.write(&(text.len() as u64).to_le_bytes());
        hash.write(text.as_bytes());
    }
    assert_eq!(base, hash.finish());
    // A Windows checkout agrees.
    let crlf: Vec<(String, String)> = TREE
        .iter()
        .map(|(n, t)| (n.to_string(), t.replace('\n', "\r\n")))
        .collect();
    let crlf: Vec<(&str, &str)> = crlf.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    assert_eq!(of(&crlf), base);
    // Files outside the folders, or not .rs, do not count.
    let mut more = TREE.to_vec();
    more.extend([
        ("src/minesweeper/notes.md", "a note\n"),
        ("play/src/minesweeper_play/mod.rs", "fn screen() {}\n"),
        ("src/lib.rs", "pub mod minesweeper;\n"),
    ]);
    assert_eq!(of(&more), base);
    // A changed text, a moved file, a new file, a removed one: each changes it.
    let mut changed = TREE.to_vec();
    changed[1].1 = "fn guess() -> u8 {\n    2\n}\n";
    let mut moved = TREE.to_vec();
    moved[2].0 = "play/src/minesweeper_bot/run.rs";
    let mut added = TREE.to_vec();
    added.push(("src/minesweeper/game/rules.rs", ""));
    let removed = &TREE[1..];
    let mut seen = vec![base];
    for tree in [&changed[..], &moved, &added, removed] {
        let value = of(tree);
        assert!(!seen.contains(&value), "{tree:?}");
        seen.push(value);
    }
    // Moving text from one file into the next is a change too.
    let bot = ("play/src/minesweeper_bot/mod.rs", "");
    let split = of(&[
        ("src/minesweeper/a.rs", "ab"),
        ("src/minesweeper/b.rs", "c"),
        bot,
    ]);
    let resplit = of(&[
        ("src/minesweeper/a.rs", "a"),
        ("src/minesweeper/b.rs", "bc"),
        bot,
    ]);
    assert_ne!(split, resplit);
}

#[test]
fn a_missing_folder_or_no_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[("src/minesweeper/mod.rs", "")]);
    let err = fingerprint(dir.path(), &FOLDERS).unwrap_err();
    assert!(err.to_string().contains("minesweeper_bot"), "{err}");
    let empty = tempfile::tempdir().unwrap();
    write(
        empty.path(),
        &[
            ("src/minesweeper/notes.md", ""),
            ("play/src/minesweeper_bot/x.txt", ""),
        ],
    );
    let err = fingerprint(empty.path(), &FOLDERS).unwrap_err();
    assert!(err.to_string().starts_with("no .rs file under"), "{err}");
}

#[test]
fn the_workspace_files_are_the_minesweeper_library_and_the_bot() {
    let root = test_support::workspace();
    let names = files(&root, &FOLDERS).unwrap();
    for name in [
        "src/minesweeper/mod.rs",
        "src/minesweeper/bot/mod.rs",
        "src/minesweeper/no_guess/mod.rs",
        "play/src/minesweeper_bot/runner.rs",
        "play/src/minesweeper_bot/sources.rs",
    ] {
        assert!(names.iter().any(|n| n == name), "{name}: {names:?}");
    }
    assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
    assert!(names
        .iter()
        .all(|n| n.ends_with(".rs") && FOLDERS.iter().any(|f| n.starts_with(&format!("{f}/")))));
}

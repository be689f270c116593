//! README's install lines: each `cargo install --path P` names, after its `#`, every binary that
//! the package at `P` installs (the `[[bin]]` names of its manifest), and nothing else.

use std::collections::BTreeSet;

use crate::util::root;

/// The `name = "..."` of every `[[bin]]` table of the manifest `text`.
fn binaries(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(value) = line.strip_prefix("name = ").filter(|_| in_bin) {
            names.insert(value.trim_matches('"').to_string());
        }
    }
    names
}

/// The names after the `#` of README's line `cargo install --path PATH`.
fn install_line(readme: &str, path: &str) -> BTreeSet<String> {
    let start = format!("cargo install --path {path} ");
    let line = readme
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("README has no line `{start}...`"));
    let (_, comment) = line.split_once('#').expect("a comment naming the binaries");
    comment
        .split(',')
        .map(|name| name.trim().to_string())
        .collect()
}

#[test]
fn the_install_lines_name_every_binary() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for (path, manifest) in [
        (".", "Cargo.toml"),
        ("judge", "judge/Cargo.toml"),
        ("play", "play/Cargo.toml"),
    ] {
        let text = std::fs::read_to_string(root().join(manifest)).unwrap();
        let expected = binaries(&text);
        assert!(!expected.is_empty(), "{manifest} declares no binary");
        assert_eq!(install_line(&readme, path), expected, "{manifest}");
    }
}

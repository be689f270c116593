//! `judge bundle PUZZLE [--bin NAME] [--max-bytes N] [-o FILE]`: one self-contained, std-only Rust
//! source file for an online judge, made with a Rust parser (`syn`) and printer (`prettyplease`).
//!
//! The bundle holds the `main` of `bin/NAME.rs` (by default `bin/PUZZLE.rs`) at its root and the
//! puzzle's module tree,
//! `src/PUZZLE/mod.rs` (or `src/PUZZLE.rs`) with every `mod x;` inlined, as `pub mod PUZZLE { … }`,
//! so that `crate::PUZZLE::…` paths resolve as in the library. Items under `#[cfg(test)]` or
//! `#[cfg(not(bundle))]` are left out; `#[cfg(bundle)]` items stay, and so do items under
//! `#[cfg(any(not(bundle), bundle_bin = "NAME"))]` when bundling `bin/NAME.rs` (see `cfg.rs`). `env!("CARGO_PKG_VERSION")`
//! becomes the version in the package's `Cargo.toml`.
//!
//! The bundle takes the first of three [`Form`]s that stays within the size limit
//! (`--max-bytes`, by default [`SIZE_LIMIT`]): with doc comments, lines indented with tabs; without
//! doc comments; without doc comments or indentation (every line's leading whitespace removed,
//! except on the lines that begin inside a string literal, see `indent.rs`). A bundle still over
//! the limit in the last form is written, and reported as an error. The output depends only on
//! the source files.

mod cfg;
mod deps;
mod edition;
mod env;
mod indent;
mod main_file;
mod modules;

use std::path::{Path, PathBuf};

use syn::{AttrStyle, Item};

use crate::cli::BundleArgs;
use crate::out;
use cfg::Prune;

/// The source size many online judges accept (Codeforces: 64 KiB).
pub const SIZE_LIMIT: usize = 64 * 1024;

/// The forms of a bundle, each smaller than the one before; a bundle takes the first that stays
/// within its size limit, or the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Doc comments kept, lines indented with tabs.
    WithDocs,
    /// Doc comments dropped, lines indented with tabs.
    WithoutDocs,
    /// Doc comments dropped, and every line's indentation, except inside string literals.
    Unindented,
}

impl std::fmt::Display for Form {
    /// As the size report ends: `with doc comments`, `without doc comments`, `without doc
    /// comments or indentation`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Form::WithDocs => "with doc comments",
            Form::WithoutDocs => "without doc comments",
            Form::Unindented => "without doc comments or indentation",
        })
    }
}

/// Runs `judge bundle`: writes the bundle and reports its size on stderr; returns `false` (and
/// says so on stderr) if the bundle is over the size limit.
///
/// # Errors
/// The puzzle's files are missing or do not parse, or they use something beyond `std`, or the
/// output cannot be written.
pub fn command(args: &BundleArgs) -> Result<bool, String> {
    if let Some(path) = &args.output {
        not_a_source(&args.root, path)?;
        out::writable("-o", path)?;
    }
    let bin = args.bin.as_deref().unwrap_or(&args.puzzle);
    let limit = args.max_bytes.unwrap_or(SIZE_LIMIT);
    let (text, form) = bundle_bin(&args.root, &args.puzzle, bin, limit)?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        None => out::stdout_raw(&text),
    }
    out::stderr(&format!(
        "bundle {bin}: {} bytes ({:.1} KiB), {form}\n",
        text.len(),
        text.len() as f64 / 1024.0
    ));
    let fits = text.len() <= limit;
    if !fits {
        out::stderr(&format!(
            "judge: the bundle of {bin} is {} bytes, over the limit of {limit} (--max-bytes)\n",
            text.len()
        ));
    }
    Ok(fits)
}

/// Refuses an output file `path` among the package's own sources (under `root`'s `src/` or
/// `bin/`, also through a symlink), which the bundle would overwrite.
///
/// # Errors
/// `path` is there.
fn not_a_source(root: &Path, path: &Path) -> Result<(), String> {
    let resolved = match path.canonicalize() {
        Ok(p) => p,
        Err(_) => {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new(".")).canonicalize();
            match (dir, path.file_name()) {
                (Ok(dir), Some(name)) => dir.join(name),
                _ => return Ok(()),
            }
        }
    };
    let Ok(root) = root.canonicalize() else {
        return Ok(());
    };
    if ["src", "bin"]
        .iter()
        .any(|d| resolved.starts_with(root.join(d)))
    {
        return Err(format!(
            "-o {}: that is among the package's sources (src/, bin/), which the bundle is made \
             from; write it elsewhere",
            path.display()
        ));
    }
    Ok(())
}

/// The bundle of `puzzle`'s own binary in the package at `root`, and its form (the first that
/// stays within [`SIZE_LIMIT`], or the last).
///
/// # Errors
/// As [`command`].
pub fn bundle(root: &Path, puzzle: &str) -> Result<(String, Form), String> {
    bundle_bin(root, puzzle, puzzle, SIZE_LIMIT)
}

/// The bundle of the binary `bin/BIN.rs` with `puzzle`'s module in the package at `root`, and
/// its form: the first [`Form`] that stays within `limit` bytes, or else the last.
///
/// # Errors
/// As [`command`]; also a binary name that is not a plain file name.
pub fn bundle_bin(
    root: &Path,
    puzzle: &str,
    bin: &str,
    limit: usize,
) -> Result<(String, Form), String> {
    if !is_identifier(puzzle) {
        return Err(format!(
            "{puzzle:?} is not a module name; bundle a puzzle such as minimax"
        ));
    }
    if !is_bin_name(bin) {
        return Err(format!(
            "{bin:?} is not a binary name; give NAME of bin/NAME.rs, such as minesweeper-agent"
        ));
    }
    let with_docs = render(root, puzzle, bin, false)?;
    if with_docs.len() <= limit {
        return Ok((with_docs, Form::WithDocs));
    }
    let without_docs = render(root, puzzle, bin, true)?;
    if without_docs.len() <= limit {
        return Ok((without_docs, Form::WithoutDocs));
    }
    Ok(match indent::removed(&without_docs) {
        Some(flat) => (flat, Form::Unindented),
        None => (without_docs, Form::WithoutDocs),
    })
}

/// The items of the module tree rooted at `file`, every `mod x;` inlined and pruned as in a
/// bundle (`x.rs` or `x/mod.rs` looked for beside `file`), or `None` if `file` rules itself out.
///
/// # Errors
/// As `modules::load`.
pub fn module_tree(file: &Path) -> Result<Option<Vec<Item>>, String> {
    let children = file.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut prune = Prune {
        drop_docs: false,
        bin: String::new(),
    };
    let module = modules::load(file, children, &mut prune)?;
    Ok(module.kept.then_some(module.items))
}

fn render(root: &Path, puzzle: &str, bin: &str, drop_docs: bool) -> Result<String, String> {
    let mut prune = Prune {
        drop_docs,
        bin: bin.to_string(),
    };
    let module_path = module_file(root, puzzle)?;
    let children = root.join("src").join(puzzle);
    let mut module = modules::load(&module_path, children, &mut prune)?;
    if !module.kept {
        return Err(format!(
            "{}: its #![cfg] leaves nothing in the bundle",
            module_path.display()
        ));
    }
    deps::check(&module.items, puzzle, None).map_err(|e| format!("src/{puzzle}: {e}"))?;
    let main_path = root.join("bin").join(format!("{bin}.rs"));
    let mut main = modules::load(&main_path, root.join("bin"), &mut prune)?;
    deps::check(&main.items, puzzle, Some(main_file::LIBRARY))
        .map_err(|e| format!("{}: {e}", main_path.display()))?;
    main_file::rewrite(&mut main.items);
    env::freeze_version(&mut module.items, root)?;
    env::freeze_version(&mut main.items, root)?;

    let mut attrs: Vec<syn::Attribute> = module.attrs;
    for a in &mut attrs {
        a.style = AttrStyle::Inner(Default::default());
    }
    attrs.push(syn::parse_quote!(#![allow(dead_code, unused_imports)]));
    let wrapped = Item::Mod(syn::ItemMod {
        attrs,
        vis: syn::parse_quote!(pub),
        unsafety: None,
        mod_token: Default::default(),
        ident: syn::Ident::new(puzzle, proc_macro2::Span::call_site()),
        content: Some((Default::default(), module.items)),
        semi: None,
    });
    let mut file = syn::File {
        shebang: None,
        attrs: main.attrs,
        items: main.items,
    };
    file.items.push(wrapped);
    edition::import_everywhere(&mut file.items);
    file.items.push(edition::shim());
    let command = if bin == puzzle {
        format!("judge bundle {puzzle}")
    } else {
        format!("judge bundle {puzzle} --bin {bin}")
    };
    Ok(format!(
        "// Rust edition 2021 or 2018 (not 2015), standard library only: `rustc --edition 2021 \
         -O {bin}.rs`.\n// One-file bundle of `{bin}`, written by `{command}` from src/{puzzle} \
         and bin/{bin}.rs.\n{}",
        indent::with_tabs(prettyplease::unparse(&file))
    ))
}

/// `src/PUZZLE/mod.rs`, or else `src/PUZZLE.rs`.
fn module_file(root: &Path, puzzle: &str) -> Result<PathBuf, String> {
    let nested = root.join("src").join(puzzle).join("mod.rs");
    let flat = root.join("src").join(format!("{puzzle}.rs"));
    if nested.is_file() {
        Ok(nested)
    } else if flat.is_file() {
        Ok(flat)
    } else {
        Err(format!(
            "no solver module {} or {}",
            nested.display(),
            flat.display()
        ))
    }
}

/// A file name of `bin/`, without its `.rs`: letters, digits, `_` and `-`.
fn is_bin_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn is_identifier(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

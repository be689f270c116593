//! Loads a module tree from disk into one syntax tree: every `mod x;` becomes `mod x { … }`,
//! read from `x.rs`, `x/mod.rs` or its `#[path]`, pruned (see [`super::cfg`]) before its own
//! `mod` declarations are followed, so that `#[cfg(test)] mod tests;` is never read.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::{AttrStyle, Item, ItemMod};

use super::cfg::Prune;

/// A parsed file: its inner attributes and its items, modules inlined. A file whose inner
/// `#![cfg]` is false has neither, and the `mod` that names it is dropped.
pub struct Module {
    pub attrs: Vec<syn::Attribute>,
    pub items: Vec<Item>,
    /// `false` if the file's inner `#![cfg]` rules it out.
    pub kept: bool,
}

/// Where the files of a module's children are looked for.
struct Place<'a> {
    /// The file being read.
    file: &'a Path,
    /// Where `mod x;` finds `x.rs` or `x/mod.rs`.
    children: PathBuf,
    /// Inside an inline `mod m { … }` block of `file`: `#[path]` is then relative to `children`.
    inline: bool,
}

/// Reads the module whose file is `file`; its `mod x;` are looked for in `children`.
///
/// # Errors
/// A file cannot be read or parsed, a module file is missing or ambiguous, or read twice.
pub fn load(file: &Path, children: PathBuf, prune: &mut Prune) -> Result<Module, String> {
    let mut seen = BTreeSet::new();
    load_file(file, children, prune, &mut seen)
}

fn load_file(
    file: &Path,
    children: PathBuf,
    prune: &mut Prune,
    seen: &mut BTreeSet<PathBuf>,
) -> Result<Module, String> {
    let canonical = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    if !seen.insert(canonical) {
        return Err(format!("{}: module file included twice", file.display()));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut parsed =
        syn::parse_file(&text).map_err(|e| format!("{}: cannot parse: {e}", file.display()))?;
    if !prune.file(&mut parsed) {
        return Ok(Module {
            attrs: Vec::new(),
            items: Vec::new(),
            kept: false,
        });
    }
    let place = Place {
        file,
        children,
        inline: false,
    };
    inline_all(&mut parsed.items, &place, prune, seen)?;
    Ok(Module {
        attrs: parsed.attrs,
        items: parsed.items,
        kept: true,
    })
}

/// Inlines every `mod x;` of `items`, dropping those whose file rules itself out.
fn inline_all(
    items: &mut Vec<Item>,
    place: &Place,
    prune: &mut Prune,
    seen: &mut BTreeSet<PathBuf>,
) -> Result<(), String> {
    let mut kept = Vec::with_capacity(items.len());
    for mut item in std::mem::take(items) {
        if let Item::Mod(m) = &mut item {
            if let Some((_, inner)) = &mut m.content {
                let nested = Place {
                    file: place.file,
                    children: place.children.join(m.ident.to_string()),
                    inline: true,
                };
                inline_all(inner, &nested, prune, seen)?;
            } else if !inline_one(m, place, prune, seen)? {
                continue;
            }
        }
        kept.push(item);
    }
    *items = kept;
    Ok(())
}

/// Replaces `mod x;` by `mod x { … }` with the file's items and inner attributes; `false` if the
/// file rules itself out.
fn inline_one(
    m: &mut ItemMod,
    place: &Place,
    prune: &mut Prune,
    seen: &mut BTreeSet<PathBuf>,
) -> Result<bool, String> {
    let (file, children) = locate(m, place)?;
    let module = load_file(&file, children, prune, seen)?;
    if !module.kept {
        return Ok(false);
    }
    m.attrs.retain(|a| !a.path().is_ident("path"));
    m.attrs.extend(module.attrs.into_iter().map(|mut a| {
        a.style = AttrStyle::Inner(Default::default());
        a
    }));
    m.content = Some((Default::default(), module.items));
    m.semi = None;
    Ok(true)
}

/// The file of `mod x;` and the folder of its own children, as rustc finds them.
fn locate(m: &ItemMod, place: &Place) -> Result<(PathBuf, PathBuf), String> {
    let name = m.ident.to_string();
    if let Some(path) = path_attribute(m)? {
        let base = if place.inline {
            place.children.clone()
        } else {
            place.file.parent().unwrap_or(Path::new(".")).to_path_buf()
        };
        let file = base.join(path);
        // A file named by `#[path]` is read like a `mod.rs`: its children sit beside it.
        let children = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        return Ok((file, children));
    }
    let flat = place.children.join(format!("{name}.rs"));
    let nested = place.children.join(&name).join("mod.rs");
    match (flat.is_file(), nested.is_file()) {
        (true, false) => Ok((flat, place.children.join(&name))),
        (false, true) => Ok((nested, place.children.join(&name))),
        (true, true) => Err(format!(
            "{}: both {} and {} exist for `mod {name};`",
            place.file.display(),
            flat.display(),
            nested.display()
        )),
        (false, false) => Err(format!(
            "{}: no {} or {} for `mod {name};`",
            place.file.display(),
            flat.display(),
            nested.display()
        )),
    }
}

/// The value of `#[path = "…"]`, if any.
fn path_attribute(m: &ItemMod) -> Result<Option<String>, String> {
    let Some(attr) = m.attrs.iter().find(|a| a.path().is_ident("path")) else {
        return Ok(None);
    };
    match &attr.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value:
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }),
            ..
        }) => Ok(Some(s.value())),
        _ => Err(format!(
            "mod {}: #[path] must be #[path = \"file.rs\"]",
            m.ident
        )),
    }
}

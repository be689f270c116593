//! Checks that bundled code depends on the standard library only: no `extern crate` other than
//! `std`, `core` and `alloc`, no path into another crate (`::serde::…`, `use rand::…`,
//! `cp_puzzles::other`) and no path into another puzzle (`crate::other::…`).
//!
//! A path's first segment is judged against the names the tree itself declares (modules, items,
//! imports), the standard crates and the primitive types: anything else names a crate.

use std::collections::BTreeSet;

use syn::visit::{self, Visit};

use super::main_file::{is_path_sep, LIBRARY};
use syn::{Item, UseTree};

const STD_CRATES: [&str; 3] = ["std", "core", "alloc"];
const PRIMITIVES: [&str; 17] = [
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];
const RELATIVE: [&str; 4] = ["self", "super", "Self", "crate"];

/// Checks `items`, which live in the bundle's module `puzzle` (or at its root, for `main`).
/// `allowed_crate` is a crate name that may appear as the first segment, followed by `puzzle`
/// (`cp_puzzles` in the binary's file, which the bundle rewrites to `crate`).
///
/// # Errors
/// The first foreign reference, named.
pub fn check(items: &[Item], puzzle: &str, allowed_crate: Option<&str>) -> Result<(), String> {
    let mut names = Names::default();
    for item in items {
        names.visit_item(item);
    }
    let mut checker = Checker {
        puzzle,
        allowed_crate,
        local: names.0,
        error: None,
    };
    for item in items {
        checker.visit_item(item);
    }
    checker.error.map_or(Ok(()), Err)
}

/// Every name the tree declares, at any depth.
#[derive(Default)]
struct Names(BTreeSet<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast Item) {
        let ident = match item {
            Item::Const(x) => Some(&x.ident),
            Item::Enum(x) => Some(&x.ident),
            Item::Fn(x) => Some(&x.sig.ident),
            Item::Mod(x) => Some(&x.ident),
            Item::Static(x) => Some(&x.ident),
            Item::Struct(x) => Some(&x.ident),
            Item::Trait(x) => Some(&x.ident),
            Item::Type(x) => Some(&x.ident),
            Item::Union(x) => Some(&x.ident),
            Item::Macro(x) => x.ident.as_ref(),
            _ => None,
        };
        if let Some(i) = ident {
            self.0.insert(i.to_string());
        }
        if let Item::Use(u) = item {
            imported(&u.tree, None, &mut self.0);
        }
        visit::visit_item(self, item);
    }
}

/// The names a `use` tree brings into scope.
fn imported(tree: &UseTree, parent: Option<&syn::Ident>, names: &mut BTreeSet<String>) {
    match tree {
        UseTree::Path(p) => imported(&p.tree, Some(&p.ident), names),
        UseTree::Name(n) if n.ident == "self" => {
            if let Some(p) = parent {
                names.insert(p.to_string());
            }
        }
        UseTree::Name(n) => {
            names.insert(n.ident.to_string());
        }
        UseTree::Rename(r) => {
            names.insert(r.rename.to_string());
        }
        UseTree::Glob(_) => {}
        UseTree::Group(g) => g.items.iter().for_each(|t| imported(t, parent, names)),
    }
}

struct Checker<'a> {
    puzzle: &'a str,
    allowed_crate: Option<&'a str>,
    local: BTreeSet<String>,
    error: Option<String>,
}

impl Checker<'_> {
    /// Judges a path from its first two segments (`second` is `None` for a one-segment path).
    fn judge(&mut self, leading_colon: bool, first: &str, second: Option<&str>, whole: &str) {
        if self.error.is_some() {
            return;
        }
        let problem = if STD_CRATES.contains(&first) {
            None
        } else if leading_colon {
            Some(format!("refers to the crate `{first}` in `{whole}`"))
        } else if first == "crate" && second.is_some_and(|s| s != self.puzzle) {
            Some(format!("refers to another puzzle's module in `{whole}`"))
        } else if Some(first) == self.allowed_crate {
            match second {
                Some(s) if s == self.puzzle => None,
                _ => Some(format!("refers to another puzzle's module in `{whole}`")),
            }
        } else if RELATIVE.contains(&first)
            || PRIMITIVES.contains(&first)
            || self.local.contains(first)
            || second.is_none()
            || first.starts_with(|c: char| c.is_uppercase())
        {
            None
        } else {
            Some(format!("refers to the crate `{first}` in `{whole}`"))
        };
        if let Some(p) = problem {
            self.error = Some(format!(
                "{p}: a bundled solver may use the standard library only"
            ));
        }
    }
}

impl Checker<'_> {
    fn macro_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::TokenTree;
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Group(g) => self.macro_tokens(g.stream()),
                TokenTree::Ident(id) if is_path_sep(&tokens[i + 1..]) => {
                    let first = id.to_string();
                    let watched = first == "crate"
                        || Some(first.as_str()) == self.allowed_crate
                        || first == LIBRARY;
                    let second = match tokens.get(i + 3) {
                        Some(TokenTree::Ident(s)) => s.to_string(),
                        _ => String::new(),
                    };
                    if watched {
                        let whole = format!("{first}::{second}");
                        self.judge(false, &first, Some(&second), &whole);
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Checker<'_> {
    /// Attributes name tools (`rustfmt::skip`, `clippy::…`), not crates.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_item_extern_crate(&mut self, node: &'ast syn::ItemExternCrate) {
        let name = node.ident.to_string();
        if !STD_CRATES.contains(&name.as_str()) && self.error.is_none() {
            self.error = Some(format!(
                "`extern crate {name}`: a bundled solver may use the standard library only"
            ));
        }
    }

    fn visit_item_use(&mut self, node: &'ast syn::ItemUse) {
        for (first, second, whole) in use_roots(&node.tree) {
            let lone = second.is_none() && !STD_CRATES.contains(&first.as_str());
            if lone && !RELATIVE.contains(&first.as_str()) && self.error.is_none() {
                // `use rand;` can only bring a crate into scope.
                self.error = Some(format!(
                    "refers to the crate `{first}` in `use {whole}`: a bundled solver may use \
                     the standard library only"
                ));
            }
            self.judge(
                node.leading_colon.is_some(),
                &first,
                second.as_deref(),
                &whole,
            );
        }
    }

    /// Macro arguments are tokens: `crate::x::…` and `LIBRARY::x::…` in them are judged.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.macro_tokens(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path.segments.iter().map(|s| s.ident.to_string());
        if let Some(first) = segments.next() {
            let second = segments.next();
            let whole = quote::quote!(#path).to_string().replace(' ', "");
            self.judge(
                path.leading_colon.is_some(),
                &first,
                second.as_deref(),
                &whole,
            );
        }
        visit::visit_path(self, path);
    }
}

/// For each leaf of a `use` tree: its first segment, its second (if any) and the whole path.
fn use_roots(tree: &UseTree) -> Vec<(String, Option<String>, String)> {
    let mut leaves = Vec::new();
    walk_use(tree, &mut Vec::new(), &mut leaves);
    leaves
        .into_iter()
        .filter_map(|segments| {
            let first = segments.first()?.clone();
            let second = segments.get(1).cloned();
            Some((first, second, segments.join("::")))
        })
        .collect()
}

fn walk_use(tree: &UseTree, prefix: &mut Vec<String>, leaves: &mut Vec<Vec<String>>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            walk_use(&p.tree, prefix, leaves);
            prefix.pop();
        }
        UseTree::Name(n) => leaves.push(with(prefix, n.ident.to_string())),
        UseTree::Rename(r) => leaves.push(with(prefix, r.ident.to_string())),
        UseTree::Glob(_) => leaves.push(with(prefix, "*".to_string())),
        UseTree::Group(g) => g.items.iter().for_each(|t| walk_use(t, prefix, leaves)),
    }
}

fn with(prefix: &[String], last: String) -> Vec<String> {
    let mut v = prefix.to_vec();
    v.push(last);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(src: &str) -> Result<(), String> {
        let file: syn::File = syn::parse_str(src).expect("a file");
        check(&file.items, "minimax", None)
    }

    #[test]
    fn std_and_local_paths_pass() {
        let ok = "use std::io::{self, Read}; mod scan { pub fn f() {} } use scan::f; #[rustfmt::skip] #[allow(clippy::all)] \
                  use crate::minimax::scan::f as g; use super::x; \
                  fn h() -> u64 { io::stdin(); u64::MAX; ::std::process::exit(0); Self::x(); T::default() }";
        assert_eq!(verdict(ok), Ok(()));
    }

    #[test]
    fn crates_and_other_puzzles_fail() {
        for bad in [
            "extern crate rand;",
            "use rand::Rng;",
            "use itertools;",
            "fn f() { ::serde::x(); }",
            "fn f() { regex::Regex::new(); }",
            "use crate::maxblack::solve;",
            "fn f() { crate::quarto::x(); }",
            "fn f() { cp_puzzles::minimax::solve(); }",
            "fn f() { println!(\"{}\", crate::maxblack::x()); }",
            "fn f() { println!(\"{}\", cp_puzzles::minimax::x()); }",
        ] {
            let e = verdict(bad).expect_err(bad);
            assert!(e.ends_with("standard library only"), "{bad}: {e}");
        }
    }
}

//! The binary's file, `bin/PUZZLE.rs`, made part of the bundle: `cp_puzzles::PUZZLE::…` becomes
//! `crate::PUZZLE::…`, since the puzzle's module sits at the bundle's root.

use proc_macro2::{Group, Spacing, TokenStream, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{Ident, Item, UseTree};

/// The name of the library crate, as the binaries see it.
pub const LIBRARY: &str = "cp_puzzles";

/// Rewrites every path and `use` that starts with the library's name to start with `crate`, and
/// drops `extern crate cp_puzzles;`.
pub fn rewrite(items: &mut Vec<Item>) {
    items.retain(|i| !matches!(i, Item::ExternCrate(e) if e.ident == LIBRARY));
    let mut r = ToCrate;
    for item in items {
        r.visit_item_mut(item);
    }
}

struct ToCrate;

/// Macro arguments are tokens, not paths: `cp_puzzles` followed by `::` becomes `crate`.
fn to_crate(tokens: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        out.push(match t {
            TokenTree::Ident(id) if id == LIBRARY && is_path_sep(&tokens[i + 1..]) => {
                TokenTree::Ident(crate_ident(id.span()))
            }
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), to_crate(g.stream()));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            other => other.clone(),
        });
    }
    out.into_iter().collect()
}

/// Whether `rest` starts with `::`.
pub fn is_path_sep(rest: &[TokenTree]) -> bool {
    matches!(rest, [TokenTree::Punct(a), TokenTree::Punct(b), ..]
        if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
}

fn crate_ident(span: proc_macro2::Span) -> Ident {
    Ident::new("crate", span)
}

impl VisitMut for ToCrate {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if let Some(first) = path.segments.first_mut() {
            if first.ident == LIBRARY {
                first.ident = crate_ident(first.ident.span());
                path.leading_colon = None;
            }
        }
        visit_mut::visit_path_mut(self, path);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        mac.tokens = to_crate(std::mem::take(&mut mac.tokens));
        visit_mut::visit_macro_mut(self, mac);
    }

    fn visit_item_use_mut(&mut self, node: &mut syn::ItemUse) {
        let root = match &mut node.tree {
            UseTree::Path(p) => Some(&mut p.ident),
            UseTree::Name(n) => Some(&mut n.ident),
            UseTree::Rename(r) => Some(&mut r.ident),
            _ => None,
        };
        if let Some(ident) = root.filter(|i| *i == LIBRARY) {
            *ident = crate_ident(ident.span());
            node.leading_colon = None;
        }
    }
}

//! `env!("CARGO_PKG_VERSION")` made a literal: bare `rustc` does not set Cargo's variables, so the
//! bundle carries the version read from the package's `Cargo.toml` (`package.version`), both
//! where the call is an expression and inside other macros' arguments (`println!("{}",
//! env!("CARGO_PKG_VERSION"))`), whose tokens `syn` does not parse.

use std::path::Path;

use proc_macro2::{Delimiter, Group, Literal, TokenStream, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{Expr, Item, LitStr, Macro};

/// The variable replaced.
const VERSION: &str = "CARGO_PKG_VERSION";

/// Replaces every `env!("CARGO_PKG_VERSION")` in `items` by the version of the package at `root`.
/// `Cargo.toml` is read only if `items` use the variable.
///
/// # Errors
/// `Cargo.toml` cannot be read or parsed, or has no `package.version` string.
pub fn freeze_version(items: &mut [Item], root: &Path) -> Result<(), String> {
    let mut freezer = Freezer {
        root,
        version: None,
        error: None,
    };
    for item in items.iter_mut() {
        freezer.visit_item_mut(item);
    }
    freezer.error.map_or(Ok(()), Err)
}

struct Freezer<'a> {
    root: &'a Path,
    /// The version, once read.
    version: Option<String>,
    /// The first error met; nothing more is replaced after it.
    error: Option<String>,
}

impl Freezer<'_> {
    fn version(&mut self) -> Option<String> {
        if self.version.is_none() && self.error.is_none() {
            match package_version(self.root) {
                Ok(v) => self.version = Some(v),
                Err(e) => self.error = Some(e),
            }
        }
        self.version.clone()
    }
}

impl VisitMut for Freezer<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let Expr::Macro(m) = expr {
            let is_version = m.mac.path.is_ident("env")
                && m.mac
                    .parse_body::<LitStr>()
                    .is_ok_and(|name| name.value() == VERSION);
            if is_version {
                if let Some(version) = self.version() {
                    *expr = syn::parse_quote!(#version);
                }
                return;
            }
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_macro_mut(&mut self, mac: &mut Macro) {
        if mentions_version(&mac.tokens) {
            if let Some(version) = self.version() {
                mac.tokens = replace_in_tokens(mac.tokens.clone(), &version);
            }
        }
        visit_mut::visit_macro_mut(self, mac);
    }
}

/// Whether `tokens` contain the variable's name anywhere (a cheap test before rewriting).
fn mentions_version(tokens: &TokenStream) -> bool {
    tokens.to_string().contains(VERSION)
}

/// `tokens` with every `env!("CARGO_PKG_VERSION")` (any delimiter, at any depth) replaced by the
/// string literal `version`; everything else is kept as it is, spans included.
fn replace_in_tokens(tokens: TokenStream, version: &str) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if is_version_call(&trees[i..]) {
            let mut lit = Literal::string(version);
            lit.set_span(trees[i].span());
            out.push(TokenTree::Literal(lit));
            i += 3;
            continue;
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), replace_in_tokens(g.stream(), version));
                inner.set_span(g.span());
                TokenTree::Group(inner)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// Whether `trees` start with `env ! ( "CARGO_PKG_VERSION" )` (or with `[...]` or `{...}`).
fn is_version_call(trees: &[TokenTree]) -> bool {
    let [TokenTree::Ident(name), TokenTree::Punct(bang), TokenTree::Group(args), ..] = trees else {
        return false;
    };
    if name != "env" || bang.as_char() != '!' || args.delimiter() == Delimiter::None {
        return false;
    }
    let inner: Vec<TokenTree> = args.stream().into_iter().collect();
    matches!(inner.as_slice(), [TokenTree::Literal(l)] if l.to_string() == format!("\"{VERSION}\""))
}

/// `package.version` of `root/Cargo.toml`.
fn package_version(root: &Path) -> Result<String, String> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest: toml::Table =
        toml::from_str(&text).map_err(|e| format!("{}: cannot parse: {e}", path.display()))?;
    manifest
        .get("package")
        .and_then(|p| p.get("version"))
        .and_then(toml::Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "{}: expected a package.version string for env!(\"{VERSION}\")",
                path.display()
            )
        })
}

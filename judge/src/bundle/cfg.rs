//! Conditional compilation as the bundle sees it: `test` is false, `bundle` is true, and
//! `bundle_bin = "NAME"` is true exactly for the binary being bundled (`bin/NAME.rs`); every other
//! configuration predicate is unknown and left for `rustc` to decide. So
//! `#[cfg(any(not(bundle), bundle_bin = "minesweeper-agent"))]` keeps an item in the library and
//! in that binary's bundle only.
//!
//! An item whose `#[cfg]` is false is dropped (`#[cfg(test)]`, `#[cfg(not(bundle))]`); a `#[cfg]`
//! that is true is removed from its item (so `#[cfg(bundle)]` code stays in the bundle, although
//! a bare `rustc` sets no `bundle` flag); `#[cfg_attr]` is expanded or dropped the same way.
//! Optionally, doc comments (`#[doc]` attributes) are dropped too.

use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Meta, Token};

/// Evaluates a configuration predicate for the binary `bin`: `Some` when it is known under the
/// bundle's settings.
fn eval(meta: &Meta, bin: &str) -> Option<bool> {
    match meta {
        Meta::Path(p) if p.is_ident("test") => Some(false),
        Meta::Path(p) if p.is_ident("bundle") => Some(true),
        Meta::NameValue(nv) if nv.path.is_ident("bundle_bin") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value() == bin),
            _ => None,
        },
        Meta::Path(_) | Meta::NameValue(_) => None,
        Meta::List(list) => {
            let args = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?;
            let values: Vec<Option<bool>> = args.iter().map(|m| eval(m, bin)).collect();
            if list.path.is_ident("not") && values.len() == 1 {
                values[0].map(|v| !v)
            } else if list.path.is_ident("all") {
                fold(&values, false)
            } else if list.path.is_ident("any") {
                fold(&values, true)
            } else {
                None
            }
        }
    }
}

/// `any` (`absorbing = true`) or `all` (`absorbing = false`) over partly known values.
fn fold(values: &[Option<bool>], absorbing: bool) -> Option<bool> {
    if values.contains(&Some(absorbing)) {
        Some(absorbing)
    } else if values.iter().all(Option::is_some) {
        Some(!absorbing)
    } else {
        None
    }
}

/// What becomes of an element with these attributes.
enum Fate {
    Drop,
    Keep(Vec<Attribute>),
}

/// Removes `#[cfg]`s known to be true, expands known `#[cfg_attr]`s, and drops doc attributes if
/// asked; `Drop` if some `#[cfg]` is known to be false.
fn fate(attrs: &[Attribute], settings: &Prune) -> Fate {
    let drop_docs = settings.drop_docs;
    let bin = settings.bin.as_str();
    let mut kept = Vec::with_capacity(attrs.len());
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("doc") && drop_docs {
            continue;
        }
        if path.is_ident("cfg") {
            match attr
                .parse_args::<Meta>()
                .ok()
                .as_ref()
                .and_then(|m| eval(m, bin))
            {
                Some(false) => return Fate::Drop,
                Some(true) => continue,
                None => {}
            }
        }
        if path.is_ident("cfg_attr") {
            if let Some(expanded) = expand_cfg_attr(attr, bin) {
                kept.extend(expanded);
                continue;
            }
        }
        kept.push(attr.clone());
    }
    Fate::Keep(kept)
}

/// `#[cfg_attr(pred, a, b)]`: `[#[a], #[b]]` if `pred` is true, `[]` if false, `None` if unknown.
fn expand_cfg_attr(attr: &Attribute, bin: &str) -> Option<Vec<Attribute>> {
    let args = attr
        .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .ok()?;
    let mut args = args.into_iter();
    let predicate = args.next()?;
    Some(if eval(&predicate, bin)? {
        args.map(|meta| Attribute {
            pound_token: attr.pound_token,
            style: attr.style,
            bracket_token: attr.bracket_token,
            meta,
        })
        .collect()
    } else {
        Vec::new()
    })
}

/// Applies [`fate`] to every element of a list that has attributes, keeping the survivors.
fn retain<T>(
    list: &mut Vec<T>,
    settings: &Prune,
    attrs: impl Fn(&mut T) -> Option<&mut Vec<Attribute>>,
) {
    list.retain_mut(|element| {
        let Some(a) = attrs(element) else {
            return true;
        };
        match fate(a, settings) {
            Fate::Drop => false,
            Fate::Keep(kept) => {
                *a = kept;
                true
            }
        }
    });
}

/// The visitor that prunes a syntax tree.
pub struct Prune {
    pub drop_docs: bool,
    /// The binary being bundled, `NAME` of `bin/NAME.rs`: the value for which `bundle_bin` holds.
    pub bin: String,
}

impl Prune {
    /// Prunes a file, its inner attributes included; returns `false`, leaving the file alone, if
    /// an inner `#![cfg]` of the file is false (a module that rules itself out of the bundle).
    pub fn file(&mut self, file: &mut syn::File) -> bool {
        match fate(&file.attrs, self) {
            Fate::Drop => false,
            Fate::Keep(kept) => {
                file.attrs = kept;
                self.visit_file_mut(file);
                true
            }
        }
    }
}

impl VisitMut for Prune {
    fn visit_file_mut(&mut self, node: &mut syn::File) {
        retain(&mut node.items, self, item_attrs);
        visit_mut::visit_file_mut(self, node);
    }

    fn visit_item_mod_mut(&mut self, node: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut node.content {
            retain(items, self, item_attrs);
        }
        visit_mut::visit_item_mod_mut(self, node);
    }

    fn visit_item_impl_mut(&mut self, node: &mut syn::ItemImpl) {
        retain(&mut node.items, self, |i| match i {
            syn::ImplItem::Const(x) => Some(&mut x.attrs),
            syn::ImplItem::Fn(x) => Some(&mut x.attrs),
            syn::ImplItem::Type(x) => Some(&mut x.attrs),
            syn::ImplItem::Macro(x) => Some(&mut x.attrs),
            _ => None,
        });
        visit_mut::visit_item_impl_mut(self, node);
    }

    fn visit_item_trait_mut(&mut self, node: &mut syn::ItemTrait) {
        retain(&mut node.items, self, |i| match i {
            syn::TraitItem::Const(x) => Some(&mut x.attrs),
            syn::TraitItem::Fn(x) => Some(&mut x.attrs),
            syn::TraitItem::Type(x) => Some(&mut x.attrs),
            syn::TraitItem::Macro(x) => Some(&mut x.attrs),
            _ => None,
        });
        visit_mut::visit_item_trait_mut(self, node);
    }

    fn visit_block_mut(&mut self, node: &mut syn::Block) {
        retain(&mut node.stmts, self, |s| match s {
            syn::Stmt::Item(i) => item_attrs(i),
            syn::Stmt::Local(l) => Some(&mut l.attrs),
            syn::Stmt::Macro(m) => Some(&mut m.attrs),
            syn::Stmt::Expr(..) => None,
        });
        visit_mut::visit_block_mut(self, node);
    }

    fn visit_fields_named_mut(&mut self, node: &mut syn::FieldsNamed) {
        let mut fields: Vec<syn::Field> = std::mem::take(&mut node.named).into_iter().collect();
        retain(&mut fields, self, |f| Some(&mut f.attrs));
        node.named = fields.into_iter().collect();
        visit_mut::visit_fields_named_mut(self, node);
    }

    fn visit_fields_unnamed_mut(&mut self, node: &mut syn::FieldsUnnamed) {
        let mut fields: Vec<syn::Field> = std::mem::take(&mut node.unnamed).into_iter().collect();
        retain(&mut fields, self, |f| Some(&mut f.attrs));
        node.unnamed = fields.into_iter().collect();
        visit_mut::visit_fields_unnamed_mut(self, node);
    }

    fn visit_item_enum_mut(&mut self, node: &mut syn::ItemEnum) {
        let mut variants: Vec<syn::Variant> =
            std::mem::take(&mut node.variants).into_iter().collect();
        retain(&mut variants, self, |v| Some(&mut v.attrs));
        node.variants = variants.into_iter().collect();
        visit_mut::visit_item_enum_mut(self, node);
    }

    fn visit_expr_match_mut(&mut self, node: &mut syn::ExprMatch) {
        retain(&mut node.arms, self, |a| Some(&mut a.attrs));
        visit_mut::visit_expr_match_mut(self, node);
    }
}

/// The attributes of an item, inner ones of an inline module included.
pub fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<Attribute>> {
    use syn::Item;
    Some(match item {
        Item::Const(x) => &mut x.attrs,
        Item::Enum(x) => &mut x.attrs,
        Item::ExternCrate(x) => &mut x.attrs,
        Item::Fn(x) => &mut x.attrs,
        Item::ForeignMod(x) => &mut x.attrs,
        Item::Impl(x) => &mut x.attrs,
        Item::Macro(x) => &mut x.attrs,
        Item::Mod(x) => &mut x.attrs,
        Item::Static(x) => &mut x.attrs,
        Item::Struct(x) => &mut x.attrs,
        Item::Trait(x) => &mut x.attrs,
        Item::TraitAlias(x) => &mut x.attrs,
        Item::Type(x) => &mut x.attrs,
        Item::Union(x) => &mut x.attrs,
        Item::Use(x) => &mut x.attrs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(cfg: &str) -> Option<bool> {
        eval(&syn::parse_str::<Meta>(cfg).expect("a meta"), "agent")
    }

    #[test]
    fn test_is_false_and_bundle_is_true() {
        assert_eq!(known("test"), Some(false));
        assert_eq!(known("not(bundle)"), Some(false));
        assert_eq!(known("bundle"), Some(true));
        assert_eq!(known("not(test)"), Some(true));
        assert_eq!(known("all(test, unix)"), Some(false));
        assert_eq!(known("any(test, unix)"), None);
        assert_eq!(known("any(bundle, unix)"), Some(true));
        assert_eq!(known("feature = \"x\""), None);
        assert_eq!(known("all(not(test), bundle)"), Some(true));
        assert_eq!(known("bundle_bin = \"agent\""), Some(true));
        assert_eq!(known("bundle_bin = \"solver\""), Some(false));
        assert_eq!(
            known("any(not(bundle), bundle_bin = \"agent\")"),
            Some(true)
        );
        assert_eq!(
            known("any(not(bundle), bundle_bin = \"solver\")"),
            Some(false)
        );
    }

    #[test]
    fn false_items_go_and_true_cfgs_vanish() {
        let mut file: syn::File = syn::parse_str(
            "#[cfg(test)] mod tests; #[cfg(not(bundle))] pub mod engine; \
             #[cfg(bundle)] fn a() {} #[cfg(unix)] fn b() {} \
             /// doc\n fn c() { #[cfg(test)] let x = 1; }",
        )
        .expect("a file");
        Prune {
            drop_docs: true,
            bin: "x".into(),
        }
        .file(&mut file);
        let text = prettyplease::unparse(&file);
        assert_eq!(text, "fn a() {}\n#[cfg(unix)]\nfn b() {}\nfn c() {}\n");
    }
}

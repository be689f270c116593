//! Lets a bundle compile under edition 2018 as well as 2021: the 2021 prelude added `TryFrom`,
//! `TryInto` and `FromIterator`, so the bundle declares them in a module of its own and
//! glob-imports it into every module. A glob import never clashes with an explicit import or a
//! local item of the same name (they shadow it), and its lint is allowed when unused.

use syn::{parse_quote, Item};

/// The shim's module name, at the bundle's root.
const SHIM: &str = "prelude_2021";

/// The shim module, to put at the bundle's root.
pub fn shim() -> Item {
    parse_quote! {
        /// The names edition 2021 added to the prelude, for edition 2018.
        #[allow(unused_imports)]
        mod prelude_2021 {
            pub use std::convert::{TryFrom, TryInto};
            pub use std::iter::FromIterator;
        }
    }
}

/// Adds `use crate::prelude_2021::*;` at the top of `items` and of every inline module in them.
pub fn import_everywhere(items: &mut Vec<Item>) {
    for item in items.iter_mut() {
        if let Item::Mod(m) = item {
            if let Some((_, inner)) = &mut m.content {
                if m.ident != SHIM {
                    import_everywhere(inner);
                }
            }
        }
    }
    items.insert(
        0,
        parse_quote! {
            #[allow(unused_imports)]
            use crate::prelude_2021::*;
        },
    );
}

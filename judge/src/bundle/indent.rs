//! The bundle's indentation: the printer's runs of four spaces written as tabs, or removed
//! altogether. Neither touches the inside of a string literal, where whitespace is content.

use std::str::FromStr;

use proc_macro2::{TokenStream, TokenTree};

/// `text` with each leading run of four spaces (the printer's indentation) written as a tab: a
/// quarter of the bytes of the indentation, a third of a deeply nested bundle. Kept only if it
/// reads as the same tokens with the same string values as `text` (so a string literal over
/// several lines without `\` keeps its spaces).
pub fn with_tabs(text: String) -> String {
    let tabbed: String = text
        .lines()
        .map(|line| {
            let tabs = (line.len() - line.trim_start_matches(' ').len()) / 4;
            format!("{}{}\n", "\t".repeat(tabs), &line[4 * tabs..])
        })
        .collect();
    let tokens = |t: &str| t.parse().map(|stream| flat_tokens(stream, Vec::new())).ok();
    match (tokens(&text), tokens(&tabbed)) {
        (Some(a), Some(b)) if a == b => tabbed,
        _ => text,
    }
}

/// The tokens of `stream`, groups flattened with their delimiters, string literals as their
/// values (a `\` line continuation skips the next line's indentation, whatever it is).
fn flat_tokens(stream: TokenStream, mut out: Vec<String>) -> Vec<String> {
    for tree in stream {
        match tree {
            TokenTree::Group(g) => {
                out.push(format!("{:?}", g.delimiter()));
                out = flat_tokens(g.stream(), out);
                out.push("end".to_string());
            }
            TokenTree::Literal(l) => out.push(match syn::Lit::new(l.clone()) {
                syn::Lit::Str(s) => format!("{:?}", s.value()),
                _ => l.to_string(),
            }),
            other => out.push(other.to_string()),
        }
    }
    out
}

/// `text` with the leading spaces and tabs (all the indentation the printer and [`with_tabs`]
/// write) of every line removed, except on the lines that begin inside a literal: the second to
/// the last line of a string, byte string or raw string literal written over several lines, whose
/// leading whitespace is part of its value. Those lines are found by lexing `text` (every
/// literal's span, in groups at any depth, macro arguments included), and are left byte for byte
/// as they are.
///
/// `None` if `text` does not lex as Rust tokens, or if the result would not lex to the same
/// tokens with the same literal texts (which the above rules out; checked all the same).
pub fn removed(text: &str) -> Option<String> {
    let stream = TokenStream::from_str(text).ok()?;
    // `inside[n]`: line `n` (1-based, as spans count them) begins inside a literal.
    let mut inside = vec![false; text.split_inclusive('\n').count() + 2];
    mark_literal_lines(stream.clone(), &mut inside);
    let flat: String = text
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, line)| {
            if inside[i + 1] {
                line
            } else {
                line.trim_start_matches([' ', '\t'])
            }
        })
        .collect();
    let same = TokenStream::from_str(&flat).ok()?.to_string() == stream.to_string();
    same.then_some(flat)
}

/// Marks in `inside` the lines after the first of each literal in `stream` that spans lines, up
/// to its last.
fn mark_literal_lines(stream: TokenStream, inside: &mut [bool]) {
    for tree in stream {
        match tree {
            TokenTree::Group(g) => mark_literal_lines(g.stream(), inside),
            TokenTree::Literal(l) => {
                let span = l.span();
                for line in span.start().line + 1..=span.end().line {
                    if let Some(flag) = inside.get_mut(line) {
                        *flag = true;
                    }
                }
            }
            TokenTree::Ident(_) | TokenTree::Punct(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{removed, with_tabs};

    #[test]
    fn indentation_becomes_tabs_unless_a_string_would_change() {
        let nested = "mod a {\n    fn f() {\n        g(\"x \\\n         y\");\n    }\n}\n";
        let tabbed = "mod a {\n\tfn f() {\n\t\tg(\"x \\\n\t\t y\");\n\t}\n}\n";
        assert_eq!(with_tabs(nested.to_string()), tabbed);
        let multi_line = "fn f() {\n    g(\"x\n    y\");\n}\n";
        assert_eq!(with_tabs(multi_line.to_string()), multi_line);
    }

    #[test]
    fn indentation_goes_except_on_lines_that_begin_inside_a_literal() {
        let text = concat!(
            "mod a {\n",
            "\tfn f() {\n",
            "\t\tprintln!(\"{}\", \"x\n",
            "\t\t  y \\\n",
            "\t\t  z\");\n",
            "\t\tlet r = r#\"a \"quoted\"\n",
            "    b\"#;\n",
            "\t\tlet q = '\"';\n",
            "\t\tlet b = b\"p\n",
            "\t q\";\n",
            "\n",
            "\t\t  [1, 2]\n",
            "\t}\n",
            "}\n",
        );
        let flat = concat!(
            "mod a {\n",
            "fn f() {\n",
            "println!(\"{}\", \"x\n",
            "\t\t  y \\\n",
            "\t\t  z\");\n",
            "let r = r#\"a \"quoted\"\n",
            "    b\"#;\n",
            "let q = '\"';\n",
            "let b = b\"p\n",
            "\t q\";\n",
            "\n",
            "[1, 2]\n",
            "}\n",
            "}\n",
        );
        assert_eq!(removed(text).as_deref(), Some(flat));
        assert_eq!(removed("fn f() { \"open\n}\n"), None);
    }
}

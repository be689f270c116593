//! The bundle's indentation: the printer's runs of four spaces written as tabs, or removed
//! altogether. Neither touches the inside of a string literal, where whitespace is content.

use std::str::FromStr;

use proc_macro2::{TokenStream, TokenTree};

/// How a line of the bundle begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Outside any literal: its leading whitespace separates tokens, nothing more.
    Code,
    /// Inside a string, byte string or raw string literal: its leading whitespace is content.
    Literal,
    /// Inside a string or byte string literal, after a line ending in a `\` that escapes the
    /// newline: the escape skips the line's leading whitespace, which is not content.
    Continued,
}

/// `text` with each leading run of four spaces (the printer's indentation) written as a tab: a
/// quarter of the bytes of the indentation, a third of a deeply nested bundle. Lines that begin
/// inside a literal are left as they are, unless a `\` line continuation skips their leading
/// whitespace. Kept only if it reads as the same tokens with the same string values as `text`
/// (checked, though the above rules out a difference); `text` itself if it does not lex.
pub fn with_tabs(text: String) -> String {
    let Some(starts) = line_starts(&text) else {
        return text;
    };
    let tabbed: String = text
        .split_inclusive('\n')
        .zip(starts)
        .map(|(line, start)| {
            if start == Start::Literal {
                return line.to_string();
            }
            let tabs = (line.len() - line.trim_start_matches(' ').len()) / 4;
            format!("{}{}", "\t".repeat(tabs), &line[4 * tabs..])
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
/// leading whitespace is part of its value (or, after a `\` continuation, skipped by it). Those
/// lines are found by lexing `text` (every literal's span, in groups at any depth, macro
/// arguments included), and are left byte for byte as they are.
///
/// `None` if `text` does not lex as Rust tokens, or if the result would not lex to the same
/// tokens with the same literal texts (which the above rules out; checked all the same).
pub fn removed(text: &str) -> Option<String> {
    let starts = line_starts(text)?;
    let flat: String = text
        .split_inclusive('\n')
        .zip(starts)
        .map(|(line, start)| match start {
            Start::Code => line.trim_start_matches([' ', '\t']),
            Start::Literal | Start::Continued => line,
        })
        .collect();
    let lexed = |t: &str| TokenStream::from_str(t).ok().map(|s| s.to_string());
    (lexed(&flat)? == lexed(text)?).then_some(flat)
}

/// How each line of `text` begins (one entry for each line of `text.split_inclusive('\n')`), or
/// `None` if `text` does not lex as Rust tokens.
fn line_starts(text: &str) -> Option<Vec<Start>> {
    let stream = TokenStream::from_str(text).ok()?;
    // `starts[n]`: line `n`, 1-based as spans count them; line 0 is not one.
    let mut starts = vec![Start::Code; text.split_inclusive('\n').count() + 1];
    mark_literal_lines(stream, &mut starts);
    starts.remove(0);
    Some(starts)
}

/// Marks in `starts` the lines after the first of each literal in `stream` that spans lines, up
/// to its last.
fn mark_literal_lines(stream: TokenStream, starts: &mut [Start]) {
    for tree in stream {
        match tree {
            TokenTree::Group(g) => mark_literal_lines(g.stream(), starts),
            TokenTree::Literal(l) => {
                let first = l.span().start().line;
                let repr = l.to_string();
                let raw = repr.starts_with('r') || repr.starts_with("br") || repr.starts_with("cr");
                // Each line of the literal but its last, with the line after it.
                let ended = repr
                    .split_inclusive('\n')
                    .filter_map(|l| l.strip_suffix('\n'));
                for (ended, line) in ended.zip(first + 1..) {
                    let backslashes = ended.len() - ended.trim_end_matches('\\').len();
                    let start = if !raw && backslashes % 2 == 1 {
                        Start::Continued
                    } else {
                        Start::Literal
                    };
                    if let Some(s) = starts.get_mut(line) {
                        *s = start;
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
        let multi_line = "fn f() {\n    g(\"x\n    y\", r\"\\\n    z\");\n}\n";
        let tabbed = "fn f() {\n\tg(\"x\n    y\", r\"\\\n    z\");\n}\n";
        assert_eq!(with_tabs(multi_line.to_string()), tabbed);
        // An escaped backslash ends the line: the newline and the spaces are content.
        let escaped = "fn f() {\n    g(\"p \\\\\n    q \\\\\\\n    r\");\n}\n";
        let tabbed = "fn f() {\n\tg(\"p \\\\\n    q \\\\\\\n\tr\");\n}\n";
        assert_eq!(with_tabs(escaped.to_string()), tabbed);
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

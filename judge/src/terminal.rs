//! Text bound for the terminal, made harmless: a file's content, a file's name, or what another
//! program wrote (a validator's `judgemessage.txt`, a checker's message) may hold control
//! characters, and an escape sequence among them would drive the reader's terminal (clear it,
//! move the cursor, retitle the window, hide text). [`text`] shows each control character as
//! its Unicode picture (`␛` for ESC, `␇` for BEL, `␍` for a carriage return, `␀`), as the WA
//! diffs do, and C1 controls (U+0080 to U+009F) as U+FFFD. The judge's own colours and progress
//! line, a fixed list of sequences ([`OWN`]), are kept.

/// The escape sequences the judge itself writes: its colours (`report`), and the start of
/// `judge stress`'s progress line (a carriage return and "erase the line").
pub const OWN: [&str; 8] = [
    "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[35m", "\x1b[36m", "\x1b[1m", "\x1b[0m", "\r\x1b[K",
];

/// `s` with every control character but line breaks and tabs shown as its picture, and the
/// sequences of [`OWN`] kept.
#[must_use]
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some(own) = OWN.iter().find(|own| rest.starts_with(**own)) {
            out += own;
            rest = &rest[own.len()..];
            continue;
        }
        out.push(match c {
            '\n' | '\t' => c,
            c => picture(c),
        });
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `s` for one line of text (a name): every control character shown as its picture, line
/// breaks and tabs too.
#[must_use]
pub fn shown(s: &str) -> String {
    s.chars().map(picture).collect()
}

/// The picture of a control character; any other character as it is.
fn picture(c: char) -> char {
    match c {
        c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('?'),
        '\x7f' => '␡',
        '\u{80}'..='\u{9f}' => '\u{FFFD}',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_and_the_judges_colours_kept() {
        assert_eq!(text("a\x1b[2Jb\x07\r\n\tc\u{9b}"), "a␛[2Jb␇␍\n\tc\u{FFFD}");
        assert_eq!(text("\x1b[31mWA\x1b[0m"), "\x1b[31mWA\x1b[0m");
        assert_eq!(text("\r\x1b[K3 cases run"), "\r\x1b[K3 cases run");
        assert_eq!(text("\x1b]0;title\x07"), "␛]0;title␇");
        assert_eq!(shown("a\nb\x1b"), "a␊b␛");
        assert_eq!(text("é ✓"), "é ✓");
    }
}

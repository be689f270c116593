//! Text bound for the terminal, made harmless: a file's content, a file's name, or what another
//! program wrote (a validator's `judgemessage.txt`, a checker's message) may hold control
//! characters, and an escape sequence among them would drive the reader's terminal (clear it,
//! move the cursor, retitle the window, hide text). [`text`] shows each control character as
//! its Unicode picture (`␛` for ESC, `␇` for BEL, `␍` for a carriage return, `␀`), as the WA
//! diffs do, and C1 controls (U+0080 to U+009F) as U+FFFD. Everything the judge writes goes
//! through it (see [`crate::out`]), but for its own colours and progress line, added around
//! text already shown.

/// `s` with every control character but line breaks and tabs shown as its picture.
#[must_use]
pub fn text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c => picture(c),
        })
        .collect()
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
    fn control_characters_are_shown() {
        assert_eq!(text("a\x1b[2Jb\x07\r\n\tc\u{9b}"), "a␛[2Jb␇␍\n\tc\u{FFFD}");
        assert_eq!(text("\x1b[31mWA\x1b[0m"), "␛[31mWA␛[0m");
        assert_eq!(text("\x1b]0;title\x07"), "␛]0;title␇");
        assert_eq!(shown("a\nb\x1b"), "a␊b␛");
        assert_eq!(text("é ✓"), "é ✓");
    }
}

//! The ICPC default output validator, as problemtools' `default_validator.cc` judges:
//!
//! - the answer and the output are read token by token (a token is a run of bytes that are not
//!   C `isspace`);
//! - tokens are equal ignoring ASCII case, unless `case_sensitive`;
//! - whitespace is ignored, unless `space_change_sensitive`: then each whitespace byte of the
//!   answer must be the same byte in the output, and the output has no other whitespace;
//! - with `float_absolute_tolerance E`, `float_relative_tolerance E` or `float_tolerance E` (both),
//!   an answer token that is a number makes the output token a number too, accepted when
//!   `|a - b| <= abs` or `|a - b| <= rel * |a|` (relative to the answer); tokens that are not
//!   numbers are compared as text;
//! - output left over after the last answer token is a wrong answer.
//!
//! A number is a whole token that reads as a finite decimal number (`1`, `-2.5`, `1e-9`, `.5`);
//! `inf`, `nan` and hexadecimal floats are text here.

/// The validator's flags.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub absolute: Option<f64>,
    pub relative: Option<f64>,
}

impl Flags {
    /// Reads the flags from their words (`float_tolerance 1e-6 case_sensitive`).
    ///
    /// # Errors
    /// An unknown flag, or a tolerance that is missing or not a number at least 0.
    pub fn parse(words: &[String]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut it = words.iter();
        while let Some(word) = it.next() {
            let mut tolerance = || -> Result<f64, String> {
                let value = it
                    .next()
                    .ok_or_else(|| format!("validator flag {word} needs a number"))?;
                match value.parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
                    _ => Err(format!(
                        "validator flag {word} needs a number, found {value:?}"
                    )),
                }
            };
            match word.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => flags.absolute = Some(tolerance()?),
                "float_relative_tolerance" => flags.relative = Some(tolerance()?),
                "float_tolerance" => {
                    let t = tolerance()?;
                    flags.absolute = Some(t);
                    flags.relative = Some(t);
                }
                other => return Err(format!("unknown default validator flag {other:?}")),
            }
        }
        Ok(flags)
    }

    fn floats(&self) -> bool {
        self.absolute.is_some() || self.relative.is_some()
    }
}

/// Judges `output` against `answer`: `None` if accepted, else the judge message.
#[must_use]
pub fn check(flags: &Flags, answer: &[u8], output: &[u8]) -> Option<String> {
    let (mut judge, mut team) = (Reader::new(answer), Reader::new(output));
    loop {
        while let Some(c) = judge.space() {
            if flags.space_change_sensitive {
                let d = team.next_byte();
                if d != Some(c) {
                    return Some(format!(
                        "space change error on output line {}: got {}, expected {}",
                        team.line,
                        show(d),
                        show(Some(c))
                    ));
                }
            }
        }
        while let Some(d) = team.space() {
            if flags.space_change_sensitive {
                return Some(format!(
                    "space change error on output line {}: got {} where the answer has none",
                    team.line,
                    show(Some(d))
                ));
            }
        }
        let Some(expected) = judge.token() else { break };
        let Some(got) = team.token() else {
            return Some(format!(
                "output ended while the answer goes on (next answer token: {})",
                text(expected)
            ));
        };
        if let Some(message) = compare(flags, expected, got) {
            return Some(format!(
                "{message} (output line {}, answer line {})",
                team.line, judge.line
            ));
        }
    }
    team.skip_all_space();
    team.token()
        .map(|t| format!("trailing output on line {}: {}", team.line, text(t)))
}

fn compare(flags: &Flags, expected: &[u8], got: &[u8]) -> Option<String> {
    if let Some(a) = flags.floats().then(|| number(expected)).flatten() {
        let Some(b) = number(got) else {
            return Some(format!("expected a number, got {}", text(got)));
        };
        let d = (a - b).abs();
        let abs_ok = flags.absolute.is_some_and(|t| d <= t);
        let rel_ok = flags.relative.is_some_and(|t| d <= t * a.abs());
        return (!abs_ok && !rel_ok).then(|| {
            format!(
                "too large a difference: answer {}, output {}, difference {d:e}",
                text(expected),
                text(got)
            )
        });
    }
    let same = if flags.case_sensitive {
        expected == got
    } else {
        expected.eq_ignore_ascii_case(got)
    };
    (!same).then(|| format!("expected {}, got {}", text(expected), text(got)))
}

/// The token as a finite decimal number.
fn number(token: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(token).ok()?;
    let decimal = s
        .bytes()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    s.parse::<f64>().ok().filter(|v| decimal && v.is_finite())
}

/// Characters of a token shown in a message.
const SHOWN_CHARS: usize = 60;

/// The token's first 60 characters, decoded as `from_utf8_lossy` decodes the whole token, quoted,
/// with `...` when there are more; decoded in place, without a copy of the token.
fn text(token: &[u8]) -> String {
    let mut chars = crate::lossy::chars(token);
    let short: String = chars.by_ref().take(SHOWN_CHARS).collect();
    if chars.next().is_some() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

fn show(byte: Option<u8>) -> String {
    match byte {
        None => "the end of the output".to_string(),
        Some(b) => format!("{:?}", char::from(b)),
    }
}

/// C's `isspace` in the C locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// A cursor over bytes that counts lines.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader {
            bytes,
            at: 0,
            line: 1,
        }
    }

    fn next_byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    /// The next byte if it is whitespace, consumed.
    fn space(&mut self) -> Option<u8> {
        match self.bytes.get(self.at) {
            Some(&b) if is_space(b) => self.next_byte(),
            _ => None,
        }
    }

    fn skip_all_space(&mut self) {
        while self.space().is_some() {}
    }

    /// The next token, after any whitespace.
    fn token(&mut self) -> Option<&'a [u8]> {
        self.skip_all_space();
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|&b| !is_space(b)) {
            self.at += 1;
        }
        (self.at > start).then(|| &self.bytes[start..self.at])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` as it was, decoding the whole token: the reference for the bounded one.
    fn text_whole(token: &[u8]) -> String {
        let t = String::from_utf8_lossy(token);
        let short: String = t.chars().take(SHOWN_CHARS).collect();
        if short.len() < t.len() {
            format!("{short:?}...")
        } else {
            format!("{short:?}")
        }
    }

    #[test]
    fn a_token_is_shown_as_if_decoded_whole() {
        // Random tokens of every length around the cut, made of valid characters of every
        // width and of broken sequences (cut short, stray continuation bytes, 0xff).
        let units: &[&[u8]] = &[
            b"a",
            "\u{e9}".as_bytes(),
            "\u{20ac}".as_bytes(),
            "\u{1f600}".as_bytes(),
            &[0xf0, 0x9f, 0x98],
            &[0xe2, 0x82],
            &[0x80],
            &[0xff],
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let (n, heavy) = (next() % 90, next().is_multiple_of(2));
            let mut token = Vec::new();
            for _ in 0..n {
                let r = next() as usize;
                // Half the tokens are mostly four-byte characters, the longest 60 can be.
                let unit = if heavy && !r.is_multiple_of(4) {
                    3
                } else {
                    r % units.len()
                };
                token.extend_from_slice(units[unit]);
            }
            assert_eq!(text(&token), text_whole(&token), "{token:?}");
        }
        let long = vec![0xffu8; 60_000_000];
        assert_eq!(text(&long), text_whole(&long[..300]));
    }

    fn flags(s: &str) -> Flags {
        let words: Vec<String> = s.split_whitespace().map(String::from).collect();
        Flags::parse(&words).unwrap()
    }

    #[test]
    fn tokens_ignore_space_and_case_by_default() {
        let f = flags("");
        assert_eq!(check(&f, b"Yes 1\n2\n", b"yes   1 2"), None);
        assert!(check(&f, b"1 2", b"1 2 3").is_some());
        assert!(check(&f, b"1 2 3", b"1 2").is_some());
        assert!(check(&f, b"1.0", b"1").is_some());
        assert!(check(&flags("case_sensitive"), b"Yes", b"yes").is_some());
    }

    #[test]
    fn space_change_sensitive_wants_the_same_bytes() {
        let f = flags("space_change_sensitive");
        assert_eq!(check(&f, b"1 2\n", b"1 2\n"), None);
        assert!(check(&f, b"1 2\n", b"1  2\n").is_some());
        assert!(check(&f, b"1 2\n", b"1 2").is_some());
        assert!(check(&f, b"1 2\n", b"1 2\n\n").is_some());
        assert!(check(&f, b"1 2\n", b"1\t2\n").is_some());
    }

    #[test]
    fn floats_are_relative_to_the_answer() {
        let f = flags("float_relative_tolerance 0.1");
        assert_eq!(check(&f, b"100", b"109"), None);
        assert!(check(&f, b"100", b"111").is_some());
        assert!(check(&f, b"0", b"0.0001").is_some());
        assert!(check(&f, b"1", b"one").is_some());
        let f = flags("float_absolute_tolerance 1e-6");
        assert_eq!(check(&f, b"0.5", b"0.5000005"), None);
        assert!(check(&f, b"0.5", b"0.500002").is_some());
        assert!(check(&f, b"nan", b"nan").is_none());
        assert!(check(&f, b"1", b"nan").is_some());
        assert_eq!(
            check(&flags("float_tolerance 1e-3"), b"abc 2", b"ABC 2.0001"),
            None
        );
    }

    #[test]
    fn bad_flags_are_errors() {
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert!(Flags::parse(&words("float_tolerance")).is_err());
        assert!(Flags::parse(&words("float_tolerance x")).is_err());
        assert!(Flags::parse(&words("ignore_case")).is_err());
    }
}

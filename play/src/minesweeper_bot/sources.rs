//! Which code played a run: the sources fingerprint, a 64-bit hash of the `.rs` files that decide
//! how games are played, computed by the package's build script (`test-support/src/sources.rs`
//! says which files and how) and written as 16 lowercase hex digits.

use std::fmt;

/// A sources fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sources(pub u64);

impl Sources {
    /// The fingerprint of the sources this program was built from.
    pub const BUILT: Sources = match Sources::parse(env!("MINESWEEPER_BOT_SOURCES")) {
        Some(sources) => sources,
        None => panic!("the build script writes 16 lowercase hex digits"),
    };

    /// Reads a fingerprint written as exactly 16 lowercase hex digits.
    #[must_use]
    pub const fn parse(text: &str) -> Option<Sources> {
        let bytes = text.as_bytes();
        if bytes.len() != 16 {
            return None;
        }
        let mut value = 0u64;
        let mut i = 0;
        while i < bytes.len() {
            let digit = match bytes[i] {
                b @ b'0'..=b'9' => b - b'0',
                b @ b'a'..=b'f' => b - b'a' + 10,
                _ => return None,
            };
            value = value << 4 | digit as u64;
            i += 1;
        }
        Some(Sources(value))
    }
}

/// 16 lowercase hex digits.
impl fmt::Display for Sources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_reads_back_from_its_text() {
        for value in [0, 1, 0xfedc_ba98_7654_3210, u64::MAX] {
            let text = Sources(value).to_string();
            assert_eq!(text.len(), 16);
            assert_eq!(Sources::parse(&text), Some(Sources(value)));
        }
        assert_eq!(
            Sources::parse(&Sources::BUILT.to_string()),
            Some(Sources::BUILT)
        );
        for bad in [
            "",
            "0123",
            "0123456789ABCDEF",
            "0123456789abcdeg",
            "0123456789abcdef0",
        ] {
            assert_eq!(Sources::parse(bad), None, "{bad}");
        }
    }
}

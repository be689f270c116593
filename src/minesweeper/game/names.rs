//! The names of the levels and the first-click rules, as the command line writes them:
//! `Display` and `FromStr` give the same lowercase words.

use std::fmt;
use std::str::FromStr;

use super::config::{FirstClick, Level};

/// A word that names none of the expected values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameError {
    /// The accepted words, as a phrase: `"beginner, intermediate or expert"`.
    pub expected: &'static str,
    /// The word given.
    pub found: String,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found \"{}\"", self.expected, self.found)
    }
}

impl std::error::Error for NameError {}

/// Finds `word` among `names` (each value with its name); `expected` lists them for the error.
///
/// # Errors
/// [`NameError`] if no name matches.
pub(crate) fn by_name<T: Copy>(
    word: &str,
    names: &[(T, &str)],
    expected: &'static str,
) -> Result<T, NameError> {
    names
        .iter()
        .find(|(_, name)| *name == word)
        .map(|&(value, _)| value)
        .ok_or_else(|| NameError {
            expected,
            found: word.to_string(),
        })
}

/// The name of `value` in `names`.
///
/// # Panics
/// If `value` has no name in the table (each table lists every variant).
pub(crate) fn name_of<T: PartialEq>(value: &T, names: &[(T, &'static str)]) -> &'static str {
    names
        .iter()
        .find(|(v, _)| v == value)
        .map(|&(_, name)| name)
        .expect("every variant has a name")
}

const LEVELS: [(Level, &str); 3] = [
    (Level::Beginner, "beginner"),
    (Level::Intermediate, "intermediate"),
    (Level::Expert, "expert"),
];

const RULES: [(FirstClick, &str); 2] =
    [(FirstClick::Safe, "safe"), (FirstClick::Opening, "opening")];

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(name_of(self, &LEVELS))
    }
}

impl FromStr for Level {
    type Err = NameError;

    /// `beginner`, `intermediate` or `expert`.
    fn from_str(s: &str) -> Result<Level, NameError> {
        by_name(s, &LEVELS, "beginner, intermediate or expert")
    }
}

impl fmt::Display for FirstClick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(name_of(self, &RULES))
    }
}

impl FromStr for FirstClick {
    type Err = NameError;

    /// `safe` or `opening`.
    fn from_str(s: &str) -> Result<FirstClick, NameError> {
        by_name(s, &RULES, "safe or opening")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for (level, _) in LEVELS {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        for (rule, _) in RULES {
            assert_eq!(rule.to_string().parse::<FirstClick>(), Ok(rule));
        }
        let e = "Safe".parse::<FirstClick>().unwrap_err();
        assert_eq!(e.to_string(), "expected safe or opening, found \"Safe\"");
    }
}

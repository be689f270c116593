//! The names of the levels and the first-click rules, as the command line writes them:
//! `Display` and `FromStr` give the same lowercase words.

use std::fmt;

use super::config::{FirstClick, Level};

/// A word that names none of the expected values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameError {
    /// The accepted words, as a phrase: `"beginner, intermediate or expert"`.
    pub expected: String,
    /// The word given.
    pub found: String,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found \"{}\"", self.expected, self.found)
    }
}

impl std::error::Error for NameError {}

/// Finds `word` among `names` (each value with its name).
///
/// # Errors
/// [`NameError`], listing the names, if none matches.
pub fn by_name<T: Copy>(word: &str, names: &[(T, &str)]) -> Result<T, NameError> {
    names
        .iter()
        .find(|(_, name)| *name == word)
        .map(|&(value, _)| value)
        .ok_or_else(|| NameError {
            expected: one_of(names),
            found: word.to_string(),
        })
}

/// The names as a phrase: `a, b or c`.
fn one_of<T>(names: &[(T, &str)]) -> String {
    let mut phrase = String::new();
    for (i, (_, name)) in names.iter().enumerate() {
        let separator = match i {
            0 => "",
            _ if i + 1 == names.len() => " or ",
            _ => ", ",
        };
        phrase += separator;
        phrase += name;
    }
    phrase
}

/// The name of `value` in `names`.
///
/// # Panics
/// If `value` has no name in the table (each table lists every variant).
pub fn name_of<T: PartialEq>(value: &T, names: &[(T, &'static str)]) -> &'static str {
    names
        .iter()
        .find(|(v, _)| v == value)
        .map(|&(_, name)| name)
        .expect("every variant has a name")
}

/// `Display` and `FromStr` for a type whose values are named in a table of `(value, name)`.
macro_rules! named {
    ($type:ty, $table:expr) => {
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::minesweeper::game::name_of(self, &$table))
            }
        }

        impl std::str::FromStr for $type {
            type Err = $crate::minesweeper::game::NameError;

            fn from_str(s: &str) -> Result<$type, Self::Err> {
                $crate::minesweeper::game::by_name(s, &$table)
            }
        }
    };
}

const LEVELS: [(Level, &str); 3] = [
    (Level::Beginner, "beginner"),
    (Level::Intermediate, "intermediate"),
    (Level::Expert, "expert"),
];

const RULES: [(FirstClick, &str); 2] =
    [(FirstClick::Safe, "safe"), (FirstClick::Opening, "opening")];

named!(Level, LEVELS);
named!(FirstClick, RULES);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        use std::str::FromStr;

        for (level, _) in LEVELS {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        for (rule, _) in RULES {
            assert_eq!(rule.to_string().parse::<FirstClick>(), Ok(rule));
        }
        let e = FirstClick::from_str("Safe").unwrap_err();
        assert_eq!(e.to_string(), "expected safe or opening, found \"Safe\"");
        let e = Level::from_str("").unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected beginner, intermediate or expert, found \"\""
        );
    }
}

//! Reading `N K`.

use super::{Error, MAX_N};

/// Parses `N K` on the first line; blank lines may follow, nothing else.
///
/// # Errors
/// [`Error::Missing`] if a number is missing, [`Error::Bad`] if a token is not an integer in range
/// or anything follows `K`.
pub fn parse(text: &str) -> Result<(usize, usize), Error> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let mut tokens = first.split_whitespace();
    let n = number(tokens.next(), 1, "an integer N in 1..=20", MAX_N)?;
    let k = number(tokens.next(), 2, "an integer K >= 1", usize::MAX)?;
    if let Some(t) = tokens.next() {
        return Err(Error::Bad {
            line: 1,
            token: 3,
            expected: "end of line",
            found: t.into(),
        });
    }
    for (i, line) in lines.enumerate() {
        if let Some(t) = line.split_whitespace().next() {
            return Err(Error::Bad {
                line: i + 2,
                token: 1,
                expected: "end of input",
                found: t.into(),
            });
        }
    }
    Ok((n, k))
}

fn number(
    token: Option<&str>,
    index: usize,
    expected: &'static str,
    max: usize,
) -> Result<usize, Error> {
    let t = token.ok_or(Error::Missing {
        line: 1,
        token: index,
        expected,
    })?;
    match t.parse::<usize>() {
        Ok(v) if (1..=max).contains(&v) => Ok(v),
        _ => Err(Error::Bad {
            line: 1,
            token: index,
            expected,
            found: t.into(),
        }),
    }
}

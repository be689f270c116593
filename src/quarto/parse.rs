//! Reading a position: 4 lines of 4 cells, then the piece in hand.

use std::io::Read;

use super::board::{Board, Cell, Piece};
use super::error::Error;

/// The longest input accepted, in bytes (a position takes about 50).
pub const MAX_INPUT: usize = 1 << 16;

/// A position to solve: the board, and the piece the player to move must place.
///
/// Invariants (checked by [`parse`]): no piece appears twice, no full line shares an attribute,
/// the board is not full, and `hand` is `None` only on the empty board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub board: Board,
    /// The piece to place; `None` at the start, when the player to move only gives a piece.
    pub hand: Option<Piece>,
}

/// Reads a position.
///
/// # Errors
/// A read error, an input over [`MAX_INPUT`] bytes, a line with the wrong number of tokens, a
/// token that is not `.` or 4 binary digits (or `-` for the hand), a non-blank line after the
/// hand, a duplicated piece, a position already won, a full board, or `-` on a non-empty board.
pub fn parse<R: Read>(input: R) -> Result<Position, Error> {
    let mut bytes = Vec::new();
    input
        .take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(Error::Read)?;
    if bytes.len() > MAX_INPUT {
        return Err(Error::TooLong { limit: MAX_INPUT });
    }
    let mut lines = bytes.split(|&b| b == b'\n');
    let mut board = Board::EMPTY;
    // Where each piece was first seen, to name it in a duplicate error.
    let mut seen: [Option<(usize, usize)>; 16] = [None; 16];
    for row in 0..4u8 {
        let line = usize::from(row) + 1;
        let tokens = line_tokens(&mut lines, line, "4 cells")?;
        if tokens.len() != 4 {
            return Err(Error::WrongCount {
                line,
                expected: "4 cells",
                found: tokens.len(),
            });
        }
        for (col, token) in tokens.iter().enumerate() {
            if *token == b"." {
                continue;
            }
            let piece = piece(token).ok_or_else(|| Error::BadToken {
                line,
                token: col + 1,
                expected: "a cell: '.' or a piece of 4 binary digits",
                found: show(token),
            })?;
            if let Some((l, t)) = seen[piece.index() as usize] {
                return Err(Error::Duplicate {
                    line,
                    token: col + 1,
                    piece: piece.to_string(),
                    first: format!("on line {l}, cell {t}"),
                });
            }
            seen[piece.index() as usize] = Some((line, col + 1));
            let cell = Cell::new(row, col as u8).expect("row and column are below 4");
            board = board.place(cell, piece);
        }
    }
    const HAND: &str = "1 token, the piece in hand (or '-')";
    let tokens = line_tokens(&mut lines, 5, HAND)?;
    if tokens.len() != 1 {
        return Err(Error::WrongCount {
            line: 5,
            expected: HAND,
            found: tokens.len(),
        });
    }
    let hand = if tokens[0] == b"-" {
        None
    } else {
        Some(piece(tokens[0]).ok_or_else(|| Error::BadToken {
            line: 5,
            token: 1,
            expected: "the piece in hand: 4 binary digits or '-'",
            found: show(tokens[0]),
        })?)
    };
    if let Some(extra) = lines.position(|l| !tokens_empty(l)) {
        return Err(Error::Trailing { line: 6 + extra });
    }
    if board.has_winning_line() {
        return Err(Error::AlreadyWon);
    }
    if board.empty().is_empty() {
        return Err(Error::FullBoard);
    }
    match hand {
        None if !board.occupied().is_empty() => Err(Error::NoPieceInHand { line: 5 }),
        Some(p) if board.used().contains(p) => {
            let (l, t) = seen[p.index() as usize].expect("a used piece was seen");
            Err(Error::Duplicate {
                line: 5,
                token: 1,
                piece: p.to_string(),
                first: format!("on the board (line {l}, cell {t})"),
            })
        }
        _ => Ok(Position { board, hand }),
    }
}

/// The tokens of the next line, numbered `line`.
///
/// # Errors
/// [`Error::Missing`] if the input has nothing but blanks left.
fn line_tokens<'a>(
    lines: &mut (impl Iterator<Item = &'a [u8]> + Clone),
    line: usize,
    expected: &'static str,
) -> Result<Vec<&'a [u8]>, Error> {
    if lines.clone().all(tokens_empty) {
        return Err(Error::Missing {
            line,
            cell: 1,
            expected,
        });
    }
    Ok(tokens(lines.next().unwrap_or(b"")))
}

fn tokens(line: &[u8]) -> Vec<&[u8]> {
    line.split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .collect()
}

fn tokens_empty(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// A piece written as exactly 4 binary digits, most significant first.
fn piece(token: &[u8]) -> Option<Piece> {
    if token.len() != 4 {
        return None;
    }
    let mut value = 0u8;
    for &b in token {
        value = value * 2
            + match b {
                b'0' => 0,
                b'1' => 1,
                _ => return None,
            };
    }
    Piece::new(value)
}

/// A token shown in an error message: lossy UTF-8, cut to a readable length.
fn show(token: &[u8]) -> String {
    const MAX: usize = 16;
    let text = String::from_utf8_lossy(&token[..token.len().min(MAX)]).into_owned();
    if token.len() > MAX {
        text + "…"
    } else {
        text
    }
}

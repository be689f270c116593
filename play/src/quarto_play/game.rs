//! A game of Quarto: the position, whose turn it is, the moves so far, and their rules.

use cp_puzzles::quarto::{Board, Cell, Move, Piece, Position};

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Player 1 or 2 (numbered from 1) completed a line.
    Win(u8),
    /// The board filled with no line.
    Draw,
}

/// A game: the moves so far from the empty board, player `first` moving first.
#[derive(Clone, Debug)]
pub struct Game {
    /// The player (1 or 2) who gives the first piece.
    pub first: u8,
    moves: Vec<Move>,
    board: Board,
    hand: Option<Piece>,
}

impl Game {
    /// A new game in which player `first` (1 or 2) gives the first piece.
    #[must_use]
    pub fn new(first: u8) -> Game {
        Game {
            first,
            moves: Vec::new(),
            board: Board::EMPTY,
            hand: None,
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The piece the player to move must place (`None` at the start).
    #[must_use]
    pub fn hand(&self) -> Option<Piece> {
        self.hand
    }

    /// The position in `quarto`'s terms.
    #[must_use]
    pub fn position(&self) -> Position {
        Position {
            board: self.board,
            hand: self.hand,
        }
    }

    /// The moves so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The player (1 or 2) to move, or who made the last move once the game is over.
    #[must_use]
    pub fn to_move(&self) -> u8 {
        let n = self.moves.len() - usize::from(self.outcome().is_some());
        if n.is_multiple_of(2) {
            self.first
        } else {
            3 - self.first
        }
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let last = self.moves.last()?;
        last.place?;
        if self.board.has_winning_line() {
            let mover = if self.moves.len() % 2 == 1 {
                self.first
            } else {
                3 - self.first
            };
            Some(Outcome::Win(mover))
        } else if self.board.empty().is_empty() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// The cells of a winning line, once the game is won.
    #[must_use]
    pub fn winning_cells(&self) -> Vec<Cell> {
        cp_puzzles::quarto::board::LINES
            .iter()
            .filter(|&&mask| {
                mask & !self.board.occupied().0 == 0 && {
                    let cells: Vec<Cell> = (0..16u8)
                        .filter(|i| mask >> i & 1 == 1)
                        .map(Cell::from_index)
                        .collect();
                    let pieces: Vec<u8> = cells
                        .iter()
                        .filter_map(|&c| self.board.get(c))
                        .map(Piece::index)
                        .collect();
                    let and = pieces.iter().fold(15, |a, p| a & p);
                    let or = pieces.iter().fold(0, |a, p| a | p);
                    and != 0 || or != 15
                }
            })
            .flat_map(|&mask| (0..16u8).filter(move |i| mask >> i & 1 == 1))
            .map(Cell::from_index)
            .collect()
    }

    /// Why `mv` is illegal now, or `None` if it is legal.
    #[must_use]
    pub fn illegal(&self, mv: Move) -> Option<String> {
        if self.outcome().is_some() {
            return Some("the game is over".into());
        }
        let Some(hand) = self.hand else {
            return match (mv.place, mv.give) {
                (Some(_), _) => {
                    Some("nothing to place yet: the game starts with `give PPPP`".into())
                }
                (None, None) => Some("expected `give PPPP`".into()),
                (None, Some(_)) => None,
            };
        };
        let Some(cell) = mv.place else {
            return Some(format!("place piece {hand} first: `place R C give PPPP`"));
        };
        if self.board.get(cell).is_some() {
            return Some(format!("cell {} {} is taken", cell.row(), cell.col()));
        }
        let after = self.board.place(cell, hand);
        let ends = after.has_winning_line() || after.empty().is_empty();
        match mv.give {
            Some(_) if ends => Some("this placement ends the game: give nothing".into()),
            None if !ends => Some(format!(
                "give the opponent a piece too: `place {} {} give PPPP`",
                cell.row(),
                cell.col()
            )),
            Some(p) if !after.unused().contains(p) => Some(format!("piece {p} is already used")),
            _ => None,
        }
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// Why the move is illegal (see [`Game::illegal`]); the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        if let Some(why) = self.illegal(mv) {
            return Err(why);
        }
        if let (Some(cell), Some(hand)) = (mv.place, self.hand) {
            self.board = self.board.place(cell, hand);
        }
        self.hand = mv.give;
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(moves) = self.moves.len().checked_sub(1) else {
            return false;
        };
        let mut replay = Game::new(self.first);
        for &mv in &self.moves[..moves] {
            replay.play(mv).expect("a move played before");
        }
        *self = replay;
        true
    }

    /// Every legal move, in the solver's order: cell (row-major), then gift (ascending).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.board, self.hand)
    }

    /// The position in `quarto`'s input format.
    #[must_use]
    pub fn to_quarto_input(&self) -> String {
        let mut s = String::new();
        for row in 0..4 {
            let cells: Vec<String> = (0..4)
                .map(|col| {
                    let cell = Cell::new(row, col).expect("in range");
                    self.board
                        .get(cell)
                        .map_or_else(|| ".".to_string(), |p| p.to_string())
                })
                .collect();
            s += &cells.join(" ");
            s.push('\n');
        }
        s += &self.hand.map_or_else(|| "-".to_string(), |p| p.to_string());
        s.push('\n');
        s
    }
}

/// Every legal move from `board` with `hand` to place, in the solver's order.
#[must_use]
pub fn legal_moves(board: &Board, hand: Option<Piece>) -> Vec<Move> {
    let Some(hand) = hand else {
        return board
            .unused()
            .map(|p| Move {
                place: None,
                give: Some(p),
            })
            .collect();
    };
    cp_puzzles::quarto::book::moves(board, hand)
}

/// Reads a move in the solver's notation: `give PPPP`, `place R C`, `place R C give PPPP`.
///
/// # Errors
/// A one-line message saying what was expected.
pub fn parse_move(text: &str) -> Result<Move, String> {
    let t: Vec<&str> = text.split_ascii_whitespace().collect();
    let (place, rest) = match t.as_slice() {
        ["place", r, c, rest @ ..] => (Some(parse_cell(r, c)?), rest),
        ["place", ..] => return Err("expected `place R C` with R and C from 0 to 3".into()),
        rest => (None, rest),
    };
    let give = match rest {
        [] => None,
        ["give", p] => Some(parse_piece(p)?),
        _ => return Err("expected `give PPPP`, `place R C` or `place R C give PPPP`".into()),
    };
    if place.is_none() && give.is_none() {
        return Err("expected `give PPPP`, `place R C` or `place R C give PPPP`".into());
    }
    Ok(Move { place, give })
}

fn parse_cell(r: &str, c: &str) -> Result<Cell, String> {
    let n = |s: &str| s.parse::<u8>().ok().filter(|&v| v < 4);
    match (n(r), n(c)) {
        (Some(r), Some(c)) => Ok(Cell::new(r, c).expect("below 4")),
        _ => Err(format!(
            "expected a row and a column from 0 to 3, found \"{r} {c}\""
        )),
    }
}

/// A piece written as 4 binary digits.
///
/// # Errors
/// A one-line message quoting the token.
pub fn parse_piece(p: &str) -> Result<Piece, String> {
    if p.len() == 4 && p.bytes().all(|b| b == b'0' || b == b'1') {
        Ok(Piece::new(u8::from_str_radix(p, 2).expect("binary")).expect("below 16"))
    } else {
        Err(format!(
            "expected a piece as 4 binary digits, found \"{p}\""
        ))
    }
}

//! The rules: pieces, cells, the board as bitboards, and win detection.
//!
//! The search knows nothing of how these are stored; it uses only the public methods here.

/// One of the 16 pieces: 4 binary attributes, bit 3 the first digit as players write it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// The piece numbered `value`, if `value < 16`.
    #[must_use]
    pub const fn new(value: u8) -> Option<Piece> {
        if value < 16 {
            Some(Piece(value))
        } else {
            None
        }
    }

    /// The piece numbered `value & 15`.
    #[must_use]
    pub const fn from_low_bits(value: u8) -> Piece {
        Piece(value & 15)
    }

    /// The piece's number, 0 to 15.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The attribute values this piece has: bit `2a + 1` if attribute `a` is set, else bit `2a`.
    #[must_use]
    pub const fn traits(self) -> Traits {
        Traits(SPREAD_SET[self.0 as usize] | SPREAD_CLEAR[(!self.0 & 15) as usize])
    }
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04b}", self.0)
    }
}

/// A cell of the 4x4 board, numbered row-major: `4 * row + column`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row`, `col`, if both are below 4.
    #[must_use]
    pub const fn new(row: u8, col: u8) -> Option<Cell> {
        if row < 4 && col < 4 {
            Some(Cell(4 * row + col))
        } else {
            None
        }
    }

    /// The cell numbered `index & 15` (row-major).
    #[must_use]
    pub const fn from_index(index: u8) -> Cell {
        Cell(index & 15)
    }

    /// The row-major number, 0 to 15.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The row, 0 to 3.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// The column, 0 to 3.
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % 4
    }

    const fn bit(self) -> u16 {
        1 << self.0
    }
}

/// A set of cells, bit `i` for cell `i`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Cells(pub u16);

impl Cells {
    /// The number of cells in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `cell` is in the set.
    #[must_use]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }
}

impl Iterator for Cells {
    type Item = Cell;
    /// Cells in increasing (row-major) order.
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(i))
    }
}

/// A set of pieces, bit `p` for piece `p`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Pieces(pub u16);

impl Pieces {
    /// Every piece.
    pub const ALL: Pieces = Pieces(0xFFFF);

    /// The number of pieces in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `piece` is in the set.
    #[must_use]
    pub const fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece.0) != 0
    }

    /// The set without `piece`.
    #[must_use]
    pub const fn without(self, piece: Piece) -> Pieces {
        Pieces(self.0 & !(1 << piece.0))
    }

    /// The pieces in both sets.
    #[must_use]
    pub const fn and(self, other: Pieces) -> Pieces {
        Pieces(self.0 & other.0)
    }
}

impl Iterator for Pieces {
    type Item = Piece;
    /// Pieces in increasing order.
    fn next(&mut self) -> Option<Piece> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Piece(i))
    }
}

/// A set of attribute values: bit `2a + 1` stands for "attribute `a` set", bit `2a` for "clear".
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Traits(pub u8);

impl Traits {
    /// Whether a piece with these attribute values shares one with `other`.
    #[must_use]
    pub const fn meets(self, other: Traits) -> bool {
        self.0 & other.0 != 0
    }

    /// The pieces that have none of these attribute values: the safe gifts when `self` holds the
    /// threats of a board.
    #[must_use]
    pub fn safe_pieces(self) -> Pieces {
        Pieces(SAFE[self.0 as usize])
    }
}

/// For each 4-bit mask, its bits moved to the odd positions `2a + 1`.
const SPREAD_SET: [u8; 16] = spread(1);
/// For each 4-bit mask, its bits moved to the even positions `2a`.
const SPREAD_CLEAR: [u8; 16] = spread(0);

const fn spread(offset: u8) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        let mut a = 0;
        while a < 4 {
            if m & (1 << a) != 0 {
                t[m] |= 1 << (2 * a + offset);
            }
            a += 1;
        }
        m += 1;
    }
    t
}

/// For each threat set, the pieces that meet none of it.
static SAFE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut threats = 0;
    while threats < 256 {
        let mut p = 0;
        while p < 16 {
            if Piece(p as u8).traits().0 & threats as u8 == 0 {
                t[threats] |= 1 << p;
            }
            p += 1;
        }
        threats += 1;
    }
    t
};

/// The 10 lines: 4 rows, 4 columns, the main diagonal and the anti-diagonal, as cell masks.
pub const LINES: [u16; 10] = [
    0x000F, 0x00F0, 0x0F00, 0xF000, 0x1111, 0x2222, 0x4444, 0x8888, 0x8421, 0x1248,
];

/// For each cell, the lines through it (indices into [`LINES`]) as a 10-bit mask.
#[cfg(test)]
const LINES_THROUGH: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut c = 0;
    while c < 16 {
        let mut l = 0;
        while l < 10 {
            if LINES[l] & (1 << c) != 0 {
                t[c] |= 1 << l;
            }
            l += 1;
        }
        c += 1;
    }
    t
};

/// A position's pieces on the board.
///
/// Invariants: `pieces` holds cell `i`'s piece in bits `4i..4i+4` and 0 on empty cells; `occupied`
/// has bit `i` set iff cell `i` holds a piece; `used` has bit `p` set iff piece `p` is on the board,
/// so each piece is on at most one cell. Per line `l` (byte lane `l` of the two `u128`s):
/// `lines` holds the attribute values shared by the line's pieces (0xFF for no piece), `counts`
/// its number of pieces; lanes 10 to 15 are 0 in both.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pieces: u64,
    occupied: u16,
    used: u16,
    lines: u128,
    counts: u128,
}

/// The low bit of each of the 16 byte lanes.
const LANE_LOW: u128 = u128::MAX / 255;
/// The high bit of each byte lane.
const LANE_HIGH: u128 = LANE_LOW << 7;
/// 0xFF in the lanes of the 10 lines.
const LINE_LANES: u128 = (1 << 80) - 1;

/// For each cell and piece: the piece's traits in the lanes of the lines through the cell, 0xFF
/// elsewhere, so that `lines & PLACE[c][p]` adds the piece to its lines.
static PLACE: [[u128; 16]; 16] = {
    let mut t = [[0u128; 16]; 16];
    let mut c = 0;
    while c < 16 {
        let mut p = 0;
        while p < 16 {
            let traits = Piece(p as u8).traits().0 as u128;
            let mut m = u128::MAX;
            let mut l = 0;
            while l < 10 {
                if LINES[l] & (1 << c) != 0 {
                    m &= !(0xFF << (8 * l));
                    m |= traits << (8 * l);
                }
                l += 1;
            }
            t[c][p] = m;
            p += 1;
        }
        c += 1;
    }
    t
};

/// For each cell, 1 in the lanes of the lines through it (and 0xFF for [`THROUGH`]).
static STEP: [u128; 16] = lanes_through(1);
static THROUGH: [u128; 16] = lanes_through(0xFF);

const fn lanes_through(value: u128) -> [u128; 16] {
    let mut t = [0u128; 16];
    let mut c = 0;
    while c < 16 {
        let mut l = 0;
        while l < 10 {
            if LINES[l] & (1 << c) != 0 {
                t[c] |= value << (8 * l);
            }
            l += 1;
        }
        c += 1;
    }
    t
}

/// 0xFF in each lane of `counts` equal to `n` (lane values are at most 4, `n` at most 4).
///
/// Each lane's flag `0x80` becomes `0x100 - 0x01`; the top lane's `0x100` falls off the word, so
/// the subtraction wraps there (with `n = 0` the unused top lanes are equal too), which still
/// leaves 0xFF in that lane.
#[inline]
fn lanes_equal(counts: u128, n: u8) -> u128 {
    let x = counts ^ (LANE_LOW * u128::from(n));
    let zero = !((x + (LANE_HIGH - LANE_LOW)) | x) & LANE_HIGH;
    (zero << 1).wrapping_sub(zero >> 7)
}

/// The OR of the 16 byte lanes.
#[inline]
fn fold_or(x: u128) -> u8 {
    let x = (x as u64) | (x >> 64) as u64;
    let x = x | x >> 32;
    let x = x | x >> 16;
    (x | x >> 8) as u8
}

/// The shared attribute values of a board's lines with two pieces and with three (byte lanes as
/// in [`Board`], 0 in the other lanes): what [`Board::threats`] would be after a placement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LineCounts {
    two: u128,
    three: u128,
}

impl LineCounts {
    /// For an empty `cell`: `(stay, made)` such that the threats after placing a piece `p` there
    /// (when it does not win) are `stay | (made & p.traits())`. `stay` are the threats of the
    /// lines not through `cell` (those through it are then full), `made` the shared values of the
    /// lines through `cell` with two pieces (then three).
    #[inline]
    #[must_use]
    pub fn after(&self, cell: Cell) -> (Traits, Traits) {
        let through = THROUGH[cell.0 as usize];
        let (stay, made) = (self.three & !through, self.two & through);
        // Both folds at once: each halved to 32 bits, side by side in one word.
        let half = |x: u128| {
            let x = (x as u64) | (x >> 64) as u64;
            (x | x >> 32) & 0xFFFF_FFFF
        };
        let x = half(stay) | half(made) << 32;
        let x = x | x >> 16;
        let x = x | x >> 8;
        (Traits(x as u8), Traits((x >> 32) as u8))
    }

    /// The threats of the board these counts describe: the shared attribute values of its lines
    /// with three pieces ([`Board::threats`]).
    #[inline]
    #[must_use]
    pub fn threats(&self) -> Traits {
        Traits(fold_or(self.three))
    }

    /// The threats after placing `piece` on the empty `cell`, when it completes no line there:
    /// `stay | (made & piece.traits())` of [`after`](LineCounts::after).
    #[inline]
    #[must_use]
    pub fn threats_after(&self, cell: Cell, piece: Piece) -> Traits {
        let (stay, made) = self.after(cell);
        Traits(stay.0 | made.0 & piece.traits().0)
    }
}

/// The shared attribute values of a board's lines and its empty cells, without the pieces: what
/// the last three placements need to tell whether a full board has a winning line
/// ([`Board::outline_after`]).
#[derive(Clone, Copy, Debug)]
pub struct Outline {
    lines: u128,
    empty: u16,
}

impl Outline {
    /// The empty cells.
    #[must_use]
    pub const fn empty(&self) -> Cells {
        Cells(self.empty)
    }

    /// Whether placing `first.1` on `first.0` and then the two `pieces` on the two `others`
    /// cells, either way round, leaves a line sharing an attribute value both ways.
    ///
    /// Precondition: `first.0` and `others` are the three empty cells, the pieces unused.
    #[inline]
    #[must_use]
    pub fn fills_both_ways(
        &self,
        first: (Cell, Piece),
        others: (Cell, Cell),
        pieces: (Piece, Piece),
    ) -> bool {
        debug_assert_eq!(self.empty, first.0.bit() | others.0.bit() | others.1.bit());
        let lines = self.lines & PLACE[first.0 .0 as usize][first.1 .0 as usize];
        let (d, e) = (others.0 .0 as usize, others.1 .0 as usize);
        let (a, b) = (pieces.0 .0 as usize, pieces.1 .0 as usize);
        (lines & PLACE[d][a] & PLACE[e][b] != 0) & (lines & PLACE[d][b] & PLACE[e][a] != 0)
    }
}

/// Which lines of a board hold none, one, two and three pieces (0xFF byte lanes, 0 elsewhere):
/// enough to tell the [`LineCounts`] after any placement without counting again
/// ([`Board::line_counts_after`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CountLanes {
    zero: u128,
    one: u128,
    two: u128,
    three: u128,
}

impl CountLanes {
    /// The count lanes after a placement on the empty `cell`: the lines through it gain a piece.
    #[inline]
    #[must_use]
    pub fn after(&self, cell: Cell) -> CountLanes {
        let through = THROUGH[cell.0 as usize];
        CountLanes {
            zero: self.zero & !through,
            one: (self.one & !through) | (self.zero & through),
            two: (self.two & !through) | (self.one & through),
            three: (self.three & !through) | (self.two & through),
        }
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::EMPTY
    }
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        pieces: 0,
        occupied: 0,
        used: 0,
        lines: LINE_LANES,
        counts: 0,
    };

    /// The piece on `cell`, if any.
    #[must_use]
    pub const fn get(&self, cell: Cell) -> Option<Piece> {
        if self.occupied & cell.bit() != 0 {
            Some(Piece(self.nibble(cell.0)))
        } else {
            None
        }
    }

    const fn nibble(&self, cell: u8) -> u8 {
        ((self.pieces >> (4 * cell)) & 15) as u8
    }

    /// The board with `piece` on `cell`.
    ///
    /// # Panics
    /// In debug builds, if `cell` is occupied or `piece` already on the board.
    #[must_use]
    pub fn place(&self, cell: Cell, piece: Piece) -> Board {
        debug_assert!(self.occupied & cell.bit() == 0);
        debug_assert!(self.used & (1 << piece.0) == 0);
        Board {
            pieces: self.pieces | (u64::from(piece.0) << (4 * cell.0)),
            occupied: self.occupied | cell.bit(),
            used: self.used | (1 << piece.0),
            lines: self.lines & PLACE[cell.0 as usize][piece.0 as usize],
            counts: self.counts + STEP[cell.0 as usize],
        }
    }

    /// The occupied cells.
    #[must_use]
    pub const fn occupied(&self) -> Cells {
        Cells(self.occupied)
    }

    /// The empty cells.
    #[must_use]
    pub const fn empty(&self) -> Cells {
        Cells(!self.occupied)
    }

    /// The pieces on the board.
    #[must_use]
    pub const fn used(&self) -> Pieces {
        Pieces(self.used)
    }

    /// The pieces not on the board.
    #[must_use]
    pub const fn unused(&self) -> Pieces {
        Pieces(!self.used)
    }

    /// The raw encoding `(pieces, occupied)`: cell `i`'s piece in bits `4i..4i+4` (0 if empty), and
    /// the occupancy mask. Two boards are equal iff their raw encodings are.
    #[must_use]
    pub const fn raw(&self) -> (u64, u16) {
        (self.pieces, self.occupied)
    }

    /// The attribute values that win at once: those shared by the three pieces of some line
    /// whose fourth cell is empty. A piece meeting them wins when placed there.
    #[must_use]
    pub fn threats(&self) -> Traits {
        Traits(fold_or(self.lines & lanes_equal(self.counts, 3)))
    }

    /// [`threats`](Board::threats), from `lanes`, this board's [`count_lanes`](Board::count_lanes).
    #[inline]
    #[must_use]
    pub fn threats_with(&self, lanes: &CountLanes) -> Traits {
        Traits(fold_or(self.lines & lanes.three))
    }

    /// Which lines hold none, one, two and three pieces.
    #[must_use]
    pub fn count_lanes(&self) -> CountLanes {
        CountLanes {
            zero: lanes_equal(self.counts, 0) & LINE_LANES,
            one: lanes_equal(self.counts, 1),
            two: lanes_equal(self.counts, 2),
            three: lanes_equal(self.counts, 3),
        }
    }

    /// `self.place(cell, piece).line_counts()`, from `lanes` (this board's
    /// [`count_lanes`](Board::count_lanes)) without counting: the lines through `cell` gain a
    /// piece, the others keep their count.
    #[inline]
    #[must_use]
    pub fn line_counts_after(&self, lanes: &CountLanes, cell: Cell, piece: Piece) -> LineCounts {
        let lines = self.lines & PLACE[cell.0 as usize][piece.0 as usize];
        let after = lanes.after(cell);
        LineCounts {
            two: lines & after.two,
            three: lines & after.three,
        }
    }

    /// The board's outline.
    #[must_use]
    pub fn outline(&self) -> Outline {
        Outline {
            lines: self.lines,
            empty: !self.occupied,
        }
    }

    /// The outline of `self.place(cell, piece)`.
    #[inline]
    #[must_use]
    pub fn outline_after(&self, cell: Cell, piece: Piece) -> Outline {
        Outline {
            lines: self.lines & PLACE[cell.0 as usize][piece.0 as usize],
            empty: !self.occupied & !cell.bit(),
        }
    }

    /// The board's lines with two and with three pieces, to tell the threats after a placement
    /// without making it ([`LineCounts::after`]).
    #[must_use]
    pub fn line_counts(&self) -> LineCounts {
        LineCounts {
            two: self.lines & lanes_equal(self.counts, 2),
            three: self.lines & lanes_equal(self.counts, 3),
        }
    }

    /// Whether placing `piece` on the empty `cell` completes a winning line.
    #[must_use]
    pub fn wins_at(&self, cell: Cell, piece: Piece) -> bool {
        let open = lanes_equal(self.counts, 3) & THROUGH[cell.0 as usize] & self.lines;
        Traits(fold_or(open)).meets(piece.traits())
    }

    /// Whether filling the last two empty cells, `first.1` on `first.0` and `second.1` on
    /// `second.0`, leaves a line sharing an attribute value. On a full board every line is full,
    /// so this only asks whether some line's common attributes survive: no counting.
    ///
    /// Precondition: the two cells are the board's only empty cells, and the pieces are unused.
    #[must_use]
    pub fn fills_a_line(&self, first: (Cell, Piece), second: (Cell, Piece)) -> bool {
        debug_assert_eq!(self.empty().0, first.0.bit() | second.0.bit());
        let lines = self.lines
            & PLACE[first.0 .0 as usize][first.1 .0 as usize]
            & PLACE[second.0 .0 as usize][second.1 .0 as usize];
        lines & LINE_LANES != 0
    }

    /// Whether some full line shares an attribute value: the game is already over.
    #[must_use]
    pub fn has_winning_line(&self) -> bool {
        self.lines & lanes_equal(self.counts, 4) != 0
    }

    /// Builds a board from its raw encoding.
    ///
    /// Returns `None` unless every empty cell holds 0 and no piece appears twice.
    #[must_use]
    pub fn from_raw(pieces: u64, occupied: u16) -> Option<Board> {
        let mut board = Board::EMPTY;
        for i in 0..16u8 {
            let p = ((pieces >> (4 * i)) & 15) as u8;
            if occupied & (1 << i) != 0 {
                if board.used & (1 << p) != 0 {
                    return None;
                }
                board = board.place(Cell(i), Piece(p));
            } else if p != 0 {
                return None;
            }
        }
        Some(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_tables_are_consistent() {
        for (c, lines) in LINES_THROUGH.iter().enumerate() {
            let n = lines.count_ones();
            let on_diagonal = [0, 5, 10, 15, 3, 6, 9, 12].contains(&c);
            assert_eq!(n, if on_diagonal { 3 } else { 2 }, "cell {c}");
        }
        assert!(LINES.iter().all(|l| l.count_ones() == 4));
    }

    #[test]
    fn a_row_of_tall_pieces_wins() {
        let mut b = Board::EMPTY;
        for (c, p) in [(0, 0b1000), (1, 0b1001), (2, 0b1010)] {
            b = b.place(Cell(c), Piece(p));
        }
        assert!(b.wins_at(Cell(3), Piece(0b1111)));
        assert!(!b.wins_at(Cell(3), Piece(0b0111)));
        assert!(b.threats().meets(Piece(0b1111).traits()));
        assert!(!b.threats().meets(Piece(0b0111).traits()));
        assert!(b.place(Cell(3), Piece(0b1100)).has_winning_line());
    }

    #[test]
    fn safe_pieces_meet_no_threat() {
        for t in 0..=255u8 {
            for p in Traits(t).safe_pieces() {
                assert!(!p.traits().meets(Traits(t)));
            }
        }
    }

    /// Boards with 0 to 15 pieces and no winning line, from a fixed pseudo-random sequence.
    fn some_boards() -> Vec<Board> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as u8
        };
        let mut boards = Vec::new();
        for _ in 0..400 {
            let mut b = Board::EMPTY;
            for _ in 0..next(20) {
                if b.empty().len() <= 1 {
                    break;
                }
                let cells: Vec<Cell> = b.empty().collect();
                let pieces: Vec<Piece> = b.unused().collect();
                let c = cells[usize::from(next(cells.len() as u64))];
                let p = pieces[usize::from(next(pieces.len() as u64))];
                // Play on without a line where this placement allows it.
                if !b.place(c, p).has_winning_line() {
                    b = b.place(c, p);
                }
            }
            boards.push(b);
        }
        boards
    }

    #[test]
    fn line_counts_after_a_placement_match_counting_again() {
        for b in some_boards() {
            let lanes = b.count_lanes();
            for c in b.empty() {
                for p in b.unused() {
                    let placed = b.place(c, p);
                    assert_eq!(b.line_counts_after(&lanes, c, p), placed.line_counts());
                }
            }
        }
    }

    #[test]
    fn count_lanes_after_a_placement_match_counting_again() {
        for b in some_boards() {
            let lanes = b.count_lanes();
            assert_eq!(b.threats_with(&lanes), b.threats());
            for c in b.empty() {
                for p in b.unused() {
                    let placed = b.place(c, p);
                    assert_eq!(lanes.after(c), placed.count_lanes());
                    assert_eq!(placed.threats_with(&lanes.after(c)), placed.threats());
                }
            }
        }
    }

    #[test]
    fn threats_after_a_placement_match_placing() {
        let mut seen = [0, 0];
        for b in some_boards() {
            let counts = b.line_counts();
            assert_eq!(counts.threats(), b.threats());
            for c in b.empty() {
                for p in b.unused().filter(|&p| !b.wins_at(c, p)) {
                    let threats = b.place(c, p).threats();
                    assert_eq!(counts.threats_after(c, p), threats);
                    // With the opposite piece too: `stay` is what both leave, `made` the rest.
                    let q = Piece(15 - p.0);
                    if b.unused().contains(q) && !b.wins_at(c, q) {
                        let other = b.place(c, q).threats();
                        let (stay, made) = counts.after(c);
                        assert_eq!(stay.0, threats.0 & other.0);
                        assert_eq!(stay.0 | made.0, threats.0 | other.0);
                    }
                    seen[usize::from(threats.0 != 0)] += 1;
                }
            }
        }
        assert!(
            seen[0] > 0 && seen[1] > 0,
            "with and without threats: {seen:?}"
        );
    }

    /// Boards with three empty cells and their outlines: those of [`some_boards`] and, from
    /// those with four, each placement of their first unused piece.
    fn three_empty_with_outlines() -> Vec<(Board, Outline)> {
        let mut out = Vec::new();
        for b in some_boards() {
            match b.empty().len() {
                3 => out.push((b, b.outline())),
                4 => {
                    let h = b.unused().next().expect("an unused piece");
                    for w in b.empty().filter(|&w| !b.wins_at(w, h)) {
                        out.push((b.place(w, h), b.outline_after(w, h)));
                    }
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn filling_the_last_three_cells_both_ways_matches_placing_them() {
        let mut answers = [0, 0];
        for (b, outline) in three_empty_with_outlines() {
            assert_eq!(outline.empty(), b.empty());
            let cells: Vec<Cell> = b.empty().collect();
            let [c, d, e] = cells[..] else {
                panic!("three empty cells");
            };
            for (x, y, z) in [(c, d, e), (d, c, e), (e, c, d)] {
                for h in b.unused() {
                    let placed = b.place(x, h);
                    let rest = b.unused().without(h);
                    for p in rest {
                        for q in rest.without(p) {
                            let both = placed.place(y, p).place(z, q).has_winning_line()
                                && placed.place(y, q).place(z, p).has_winning_line();
                            assert_eq!(outline.fills_both_ways((x, h), (y, z), (p, q)), both);
                            answers[usize::from(both)] += 1;
                        }
                    }
                }
            }
        }
        assert!(
            answers[0] > 0 && answers[1] > 0,
            "both answers: {answers:?}"
        );
    }

    #[test]
    fn filling_the_last_two_cells_matches_placing_them() {
        let mut lines = [0, 0];
        for b in some_boards() {
            let mut empty = b.empty();
            let (Some(d), Some(e), None) = (empty.next(), empty.next(), empty.next()) else {
                continue;
            };
            for x in b.unused() {
                for y in b.unused().without(x) {
                    let full = b.place(d, x).place(e, y);
                    let line = b.fills_a_line((d, x), (e, y));
                    assert_eq!(line, full.has_winning_line());
                    lines[usize::from(line)] += 1;
                }
            }
        }
        assert!(lines[0] > 0 && lines[1] > 0, "both answers seen: {lines:?}");
    }
}

//! Perfect play: negamax with alpha-beta over (placement, gift) moves, only safe gifts, moves
//! ordered by the opponent's number of safe replies, a transposition table, and symmetry near the
//! root. The last five placements are searched by short functions of their own (`last_five` down
//! to `last_two`): no list, no table, no ordering, and with three empty cells no search at all.
//! Nodes with a few more empty cells whose window asks one question only (a win, or at least a
//! draw) are answered yes or no by `Searcher::reaches`: ordered moves, no table.
//!
//! Values are -1 (loss), 0 (draw) and 1 (win) for the player to move. The search is fail-soft: a
//! result at or below alpha is an upper bound, at or above beta a lower bound, else exact.

use super::board::{Board, Cell, Cells, CountLanes, LineCounts, Outline, Piece, Pieces, Traits};
use super::symmetry::{canonical, stabilizer, Symmetry};
use super::table::{Bound, Entry, Key, Table};

/// Tuning knobs, chosen by measurement (see `docs/quarto.md`).
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Nodes with at most this many pieces placed use the canonical form as their table key;
    /// deeper ones use the position itself.
    pub canonical_until: u32,
    /// Nodes with at most this many pieces placed search one move per orbit of their stabilizer.
    pub stabilizer_until: u32,
    /// Nodes with at least this many empty cells order their moves by the opponent's replies.
    pub order_from: u32,
    /// Nodes with at least this many empty cells use the table.
    pub table_from: u32,
    /// Table size: `2^log2_buckets` buckets of 32 bytes; `None` picks it from the empty cells.
    pub log2_buckets: Option<u32>,
    /// Nodes with 6 to this many empty cells and a window that asks one question (`alpha >= 0`:
    /// a win?, `beta <= 0`: at least a draw?) answer it by `Searcher::reaches`, without the
    /// table, the stabilizer or the settings above; below 6, never.
    pub decide_until: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            canonical_until: 7,
            stabilizer_until: 6,
            table_from: 6,
            order_from: 6,
            log2_buckets: None,
            decide_until: 7,
        }
    }
}

/// The table size for a search from a position with `empty` empty cells: 8 KiB (2^8 buckets) up
/// to 10 empty cells, 32 KiB (2^10) with 11 and 12, 128 KiB (2^12) with 13 and 14, 2 MiB (2^16)
/// from 15. Small on purpose: the search's nodes barely grow (the table holds the general nodes:
/// those with at least 8 empty cells, and those with 6 or 7 whose window is not one-sided; up to
/// 7 pieces placed by canonical form), while a table that stays in the caches, and needs few
/// fresh pages, is much faster than a large one (see `docs/quarto.md`, tuning knobs).
#[must_use]
pub fn default_log2_buckets(empty: u32) -> u32 {
    match empty {
        0..=10 => 8,
        11..=12 => 10,
        13..=14 => 12,
        _ => 16,
    }
}

/// One search: its table, its counters and its settings.
pub struct Searcher {
    table: Table,
    config: Config,
    /// Nodes entered so far.
    pub nodes: u64,
    /// A move list for each number of empty cells, reused from node to node.
    lists: Vec<Vec<Candidate>>,
}

impl Searcher {
    /// A searcher with a table of `2^log2_buckets` buckets.
    #[must_use]
    pub fn new(config: Config, log2_buckets: u32) -> Searcher {
        Searcher {
            table: Table::new(log2_buckets),
            config,
            nodes: 0,
            lists: (0..17).map(|_| Vec::with_capacity(240)).collect(),
        }
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The value of `board` with `hand` to place, within the window `(alpha, beta)`.
    ///
    /// Preconditions: the board has an empty cell and no winning line, `hand` is not on it, and
    /// `alpha < beta`.
    pub fn value(&mut self, board: Board, hand: Piece, alpha: i8, beta: i8) -> i8 {
        if board.threats().meets(hand.traits()) {
            self.nodes += 1;
            return 1;
        }
        self.value_safe(board, hand, alpha, beta)
    }

    /// As [`Searcher::value`], when `hand` is known not to win at once.
    fn value_safe(&mut self, board: Board, hand: Piece, alpha: i8, beta: i8) -> i8 {
        self.nodes += 1;
        let remaining = board.unused().without(hand);
        match board.empty().len() {
            1 => 0,
            2 => last_two(board, hand, remaining),
            3 => last_three(&board.outline(), &board.line_counts(), hand, remaining),
            4 => last_four(&board, &board.count_lanes(), hand, remaining, beta),
            5 => last_five(board, hand, remaining, alpha, beta),
            // A win is 1 (exact), anything less 0 (at most alpha).
            e if e <= self.config.decide_until && alpha >= 0 => {
                i8::from(self.reaches(board, hand, remaining, Goal::Win))
            }
            // At least a draw is 0 (at least beta), a loss -1 (exact).
            e if e <= self.config.decide_until && beta <= 0 => {
                i8::from(self.reaches(board, hand, remaining, Goal::Draw)) - 1
            }
            _ => self.value_by_moves(board, hand, alpha, beta),
        }
    }

    /// Whether the player to move reaches `goal`, with 6 or more empty cells, `hand` safe and
    /// `remaining` the other pieces not placed: some move after which the opponent does not reach
    /// the other goal (a win when ours is the draw, the draw when ours is a win). The moves in
    /// the general nodes' order (an immediate win, else the fewest safe replies first); no table.
    fn reaches(&mut self, board: Board, hand: Piece, remaining: Pieces, goal: Goal) -> bool {
        let depth = board.empty().len() as usize;
        let mut moves = std::mem::take(&mut self.lists[depth]);
        let (best, _) = candidates(board, hand, &[], &mut moves, true);
        let mut reached = best == 1;
        if !reached {
            if let Some(i) = least_score(&moves) {
                move_to_front(&mut moves, i);
            }
            for k in 0..moves.len() {
                if k == 1 {
                    sort_by_score(&mut moves[1..]);
                }
                let m = moves[k];
                self.nodes += 1;
                let child = board.place(m.cell, hand);
                let rest = remaining.without(m.gift);
                let theirs = match (depth, goal) {
                    (6, Goal::Win) => last_five(child, m.gift, rest, -1, 0) >= 0,
                    (6, Goal::Draw) => last_five(child, m.gift, rest, 0, 1) > 0,
                    _ => self.reaches(child, m.gift, rest, goal.other()),
                };
                if !theirs {
                    reached = true;
                    break;
                }
            }
        }
        self.lists[depth] = moves;
        reached
    }

    fn value_by_moves(&mut self, board: Board, hand: Piece, mut alpha: i8, mut beta: i8) -> i8 {
        let empty = board.empty();
        let placed = 16 - empty.len();
        let canonical_key = placed <= self.config.canonical_until;
        let key =
            (empty.len() >= self.config.table_from).then(|| table_key(&board, hand, canonical_key));
        let mut first = None;
        if let Some(e) = key.and_then(|k| self.table.probe(&k)) {
            match e.bound {
                Bound::Exact => return e.value,
                Bound::Lower if e.value >= beta => return e.value,
                Bound::Lower => alpha = alpha.max(e.value),
                Bound::Upper if e.value <= alpha => return e.value,
                Bound::Upper => beta = beta.min(e.value),
            }
            first = e.best;
        }
        let symmetries = if placed <= self.config.stabilizer_until {
            stabilizer(&board, hand)
        } else {
            Vec::new()
        };
        // One reusable list per depth, taken out while this node uses it.
        let depth = empty.len() as usize;
        let mut moves = std::mem::take(&mut self.lists[depth]);
        let ordered = empty.len() >= self.config.order_from;
        let (mut best, mut best_move) = candidates(board, hand, &symmetries, &mut moves, ordered);
        // The table's move first, else the least score; the rest are sorted only if that one
        // does not cut off (most nodes do, so most lists are never sorted).
        let lead =
            match first.and_then(|(c, g)| moves.iter().position(|m| m.cell == c && m.gift == g)) {
                Some(i) => Some(i),
                None if ordered => least_score(&moves),
                None => None,
            };
        if let Some(i) = lead {
            move_to_front(&mut moves, i);
        }
        let mut window = (alpha.max(best), beta);
        for k in 0..moves.len() {
            if window.0 >= window.1 || best == 1 {
                break;
            }
            if k == 1 && ordered {
                sort_by_score(&mut moves[1..]);
            }
            let m = moves[k];
            let child = board.place(m.cell, hand);
            let v = -self.value_safe(child, m.gift, -window.1, -window.0);
            if v > best {
                best = v;
                best_move = Some((m.cell, m.gift));
                window.0 = window.0.max(v);
            }
        }
        self.lists[depth] = moves;
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let bound = match (bound, best) {
            (Bound::Lower, 1) | (Bound::Upper, -1) => Bound::Exact,
            _ => bound,
        };
        let entry = Entry {
            value: best,
            bound,
            best: if canonical_key { None } else { best_move },
        };
        if let Some(k) = key {
            self.table.store(&k, empty.len(), entry);
        }
        best
    }
}

/// The table key of a position: its canonical form (with 0000 in hand) or the position itself.
fn table_key(board: &Board, hand: Piece, canonical_key: bool) -> Key {
    if canonical_key {
        let c = canonical(board, hand);
        Key {
            pieces: c.pieces,
            occupied: c.occupied,
            hand: 0,
        }
    } else {
        let (pieces, occupied) = board.raw();
        Key {
            pieces,
            occupied,
            hand: hand.index(),
        }
    }
}

/// Fills `moves` with the moves worth searching: placements with a safe gift, times those
/// gifts, one per orbit of `symmetries`, in the order cell then gift. Returns the best value
/// and move known without search: -1 and the first such move when some placement leaves no safe
/// gift (every gift loses), else -2 (nothing yet).
///
/// When `ordered`, each move is scored by the number of safe replies (placement, gift) the
/// opponent would have (the caller searches them fewest first, ties in the order cell then
/// gift); as soon as a move leaves the opponent no safe reply at all (a win), the list is that
/// move alone and the result is 1 and that move.
// Kept out of the search loop: with link-time optimization that is measurably faster.
#[inline(never)]
fn candidates(
    board: Board,
    hand: Piece,
    symmetries: &[Symmetry],
    moves: &mut Vec<Candidate>,
    ordered: bool,
) -> (i8, Option<(Cell, Piece)>) {
    let remaining = board.unused().without(hand);
    let counts = board.line_counts();
    let lanes = board.count_lanes();
    let traits = hand.traits();
    let (mut best, mut best_move) = (-2, None);
    moves.clear();
    // For the child's empty cells: the threats after a placement there, as (stay, made).
    let mut after = [(Traits(0), Traits(0)); 16];
    for cell in board.empty() {
        let (stay, made) = counts.after(cell);
        let safe = Traits(stay.0 | made.0 & traits.0)
            .safe_pieces()
            .and(remaining);
        if safe.is_empty() {
            if best < -1 {
                best = -1;
                best_move = remaining.into_iter().next().map(|g| (cell, g));
            }
            continue;
        }
        let gifts = safe.filter(|&g| is_first_of_orbit(symmetries, cell, g));
        if !ordered {
            moves.extend(gifts.map(|gift| Candidate {
                cell,
                gift,
                score: 0,
            }));
            continue;
        }
        // The opponent's safe replies, cell by cell for each gift. Counting the cells where no
        // line gets its third piece once for all gifts does less work but branches on data,
        // which costs more.
        let child_counts = board.line_counts_after(&lanes, cell, hand);
        let mut n = 0;
        for c in Cells(board.empty().0 & !(1 << cell.index())) {
            after[n] = child_counts.after(c);
            n += 1;
        }
        for gift in gifts {
            let score = replies(&after[..n], gift, remaining.without(gift));
            if score == 0 {
                moves.clear();
                moves.push(Candidate { cell, gift, score });
                return (1, Some((cell, gift)));
            }
            moves.push(Candidate { cell, gift, score });
        }
    }
    (best, best_move)
}

/// Moves `moves[i]` to the front, the ones before it one place back: a plain loop, faster than
/// the library's rotation on these short lists.
fn move_to_front(moves: &mut [Candidate], i: usize) {
    let m = moves[i];
    for j in (0..i).rev() {
        moves[j + 1] = moves[j];
    }
    moves[0] = m;
}

/// Sorts `moves` by score, stably: an insertion sort, faster than the library's on these short
/// lists.
fn sort_by_score(moves: &mut [Candidate]) {
    for i in 1..moves.len() {
        let m = moves[i];
        let mut j = i;
        while j > 0 && moves[j - 1].score > m.score {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = m;
    }
}

/// The index of the first move with the least score, if any.
fn least_score(moves: &[Candidate]) -> Option<usize> {
    let mut least: Option<(u16, usize)> = None;
    for (i, m) in moves.iter().enumerate() {
        if least.is_none_or(|(s, _)| m.score < s) {
            least = Some((m.score, i));
        }
    }
    least.map(|(_, i)| i)
}

/// The number of safe replies (placement, gift) the opponent has after receiving `gift`, with
/// `remaining` left to give, on the cells of which `after` holds the threats after a placement
/// there ([`LineCounts::after`](super::board::LineCounts::after)). `gift` must be safe.
fn replies(after: &[(Traits, Traits)], gift: Piece, remaining: Pieces) -> u16 {
    let t = gift.traits().0;
    after
        .iter()
        .map(|&(stay, made)| popcount(Traits(stay.0 | made.0 & t).safe_pieces().and(remaining)))
        .sum()
}

/// The number of pieces in `set`, by table lookup.
#[inline]
fn popcount(set: Pieces) -> u16 {
    u16::from(POPCOUNT[usize::from(set.0 as u8)] + POPCOUNT[usize::from(set.0 >> 8)])
}

/// The number of set bits of each byte: a lookup, faster than `count_ones` on targets without a
/// population count instruction (the default x86_64 one).
static POPCOUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// What [`Searcher::reaches`] asks of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Goal {
    /// A win.
    Win,
    /// At least a draw.
    Draw,
}

impl Goal {
    /// The opponent's goal that refutes this one: a draw refutes a win, a win refutes a draw.
    fn other(self) -> Goal {
        match self {
            Goal::Win => Goal::Draw,
            Goal::Draw => Goal::Win,
        }
    }
}

/// One candidate move and its ordering score.
#[derive(Clone, Copy)]
struct Candidate {
    cell: Cell,
    gift: Piece,
    score: u16,
}

/// The value with two empty cells: place `hand` on one, give the last piece, which the opponent
/// places on the other cell, winning iff it meets a threat.
fn last_two(board: Board, hand: Piece, remaining: Pieces) -> i8 {
    let last = remaining.into_iter().next().expect("one piece remains");
    let mut empty = board.empty();
    let (c, d) = match (empty.next(), empty.next()) {
        (Some(c), Some(d)) => (c, d),
        _ => unreachable!("two empty cells"),
    };
    if board.fills_a_line((c, hand), (d, last)) && board.fills_a_line((d, hand), (c, last)) {
        -1
    } else {
        0
    }
}

/// The value with five empty cells, `hand` safe, fail-soft in the window `(alpha, beta)`: each
/// placement with each safe gift, in the order cell then gift, until one reaches `beta`.
///
/// With `beta <= 0` only a move that holds the draw is looked for, and whether it would even win
/// is not asked: the result is then 0 (a lower bound, at least `beta`) or -1 (exact).
fn last_five(board: Board, hand: Piece, remaining: Pieces, alpha: i8, beta: i8) -> i8 {
    let before = board.count_lanes();
    let mut best = -1;
    for cell in board.empty() {
        let placed = board.place(cell, hand);
        let lanes = before.after(cell);
        for gift in placed.threats_with(&lanes).safe_pieces().and(remaining) {
            let rest = remaining.without(gift);
            if beta <= 0 {
                // Only the draw is asked: a reply that does not win is enough.
                if !last_four_wins(&placed, &lanes, gift, rest) {
                    return 0;
                }
                continue;
            }
            let v = -last_four(&placed, &lanes, gift, rest, -alpha.max(best));
            if v > best {
                best = v;
                if best >= beta {
                    return best;
                }
            }
        }
    }
    best
}

/// Whether the player to move with four empty cells, `hand` safe and `remaining` the other three
/// pieces, wins: some placement and safe gift leave the opponent, with three empty cells, no
/// placement after which a safe piece remains (the value of [`last_three`] is -1 exactly then).
/// `lanes` are the board's [`count_lanes`](Board::count_lanes).
#[inline(always)]
fn last_four_wins(board: &Board, lanes: &CountLanes, hand: Piece, remaining: Pieces) -> bool {
    for cell in board.empty() {
        let counts = board.line_counts_after(lanes, cell, hand);
        let empty = Cells(board.empty().0 & !(1 << cell.index()));
        for gift in counts.threats().safe_pieces().and(remaining) {
            if !has_safe_placement(&counts, empty, gift, remaining.without(gift)) {
                return true;
            }
        }
    }
    false
}

/// Whether `hand` has a placement on one of the three `empty` cells after which some piece of
/// `remaining` is safe; `counts` describe the board. Every cell is tested and the answers
/// combined without branching.
#[inline(always)]
fn has_safe_placement(counts: &LineCounts, empty: Cells, hand: Piece, remaining: Pieces) -> bool {
    let (c, d, e) = three_cells(empty);
    let safe = |cell| leaves_a_safe_piece(counts, cell, hand, remaining);
    safe(c) | safe(d) | safe(e)
}

/// Whether placing `hand` on the empty `cell` of the board that `counts` describe leaves some
/// piece of `remaining` safe.
#[inline(always)]
fn leaves_a_safe_piece(counts: &LineCounts, cell: Cell, hand: Piece, remaining: Pieces) -> bool {
    !counts
        .threats_after(cell, hand)
        .safe_pieces()
        .and(remaining)
        .is_empty()
}

/// The three cells of a set of three, in increasing order.
#[inline(always)]
fn three_cells(mut cells: Cells) -> (Cell, Cell, Cell) {
    match (cells.next(), cells.next(), cells.next()) {
        (Some(c), Some(d), Some(e)) => (c, d, e),
        _ => unreachable!("three empty cells"),
    }
}

/// The value with four empty cells, `hand` safe and `remaining` the other three pieces: each
/// placement with each safe gift, in the order cell then gift, until one reaches `beta`. The
/// result is exact below `beta`, a lower bound at or above it (fail-soft in any window with this
/// `beta`: the values below three empty cells are exact). `lanes` are the board's
/// [`count_lanes`](Board::count_lanes).
#[inline(always)]
fn last_four(board: &Board, lanes: &CountLanes, hand: Piece, remaining: Pieces, beta: i8) -> i8 {
    let mut best = -1;
    for cell in board.empty() {
        let counts = board.line_counts_after(lanes, cell, hand);
        let outline = board.outline_after(cell, hand);
        for gift in counts.threats().safe_pieces().and(remaining) {
            let v = -last_three(&outline, &counts, gift, remaining.without(gift));
            if v > best {
                best = v;
                if best >= beta {
                    return best;
                }
            }
        }
    }
    best
}

/// The exact value with three empty cells, `hand` safe (it completes no line) and `remaining` the
/// other two pieces; `outline` and `counts` describe the board. The mover places `hand`, gives
/// one of the two, which the opponent places, and receives the last, which they place on the last
/// cell. The mover loses iff every placement leaves both pieces unsafe. Otherwise the opponent
/// cannot win (the gift is safe), and the mover wins with a placement on `cell` iff both ways of
/// putting the two pieces on the other two cells complete a line (the last piece does it: `hand`
/// and the safe gift cannot), whichever safe piece is given.
///
/// Every test is made and the answers combined without branching: their outcomes are hard to
/// predict, and a branch that stops early costs more than the tests it saves.
#[inline(always)]
fn last_three(outline: &Outline, counts: &LineCounts, hand: Piece, remaining: Pieces) -> i8 {
    let mut pieces = remaining;
    let (a, b) = match (pieces.next(), pieces.next()) {
        (Some(a), Some(b)) => (a, b),
        _ => unreachable!("two pieces remain with three empty cells"),
    };
    let (c, d, e) = three_cells(outline.empty());
    let safe = |cell| leaves_a_safe_piece(counts, cell, hand, remaining);
    let (sc, sd, se) = (safe(c), safe(d), safe(e));
    let wc = outline.fills_both_ways((c, hand), (d, e), (a, b));
    let wd = outline.fills_both_ways((d, hand), (c, e), (a, b));
    let we = outline.fills_both_ways((e, hand), (c, d), (a, b));
    if (sc & wc) | (sd & wd) | (se & we) {
        1
    } else if sc | sd | se {
        0
    } else {
        -1
    }
}

/// Whether `(cell, gift)` is the least move of its orbit under `symmetries` (a group without its
/// identity), in the order cell then gift.
pub fn is_first_of_orbit(symmetries: &[Symmetry], cell: Cell, gift: Piece) -> bool {
    symmetries
        .iter()
        .all(|s| (s.cell(cell), s.piece(gift)) >= (cell, gift))
}

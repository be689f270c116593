//! What every solver must do on any input: the checks of the fuzz targets (`fuzz/`), which the
//! replay of their corpora (`tests/fuzz_corpus.rs`) runs in `cargo test` on stable.
//!
//! Each check runs the solver's `run` on the bytes twice and asserts: no panic; either an answer
//! or an error whose message is one non-empty line; the same bytes both times; and, for an answer,
//! that it has the solver's output format (and, for maxblack, that `--count-only` agrees).

use std::fmt::Display;

use cp_puzzles::{maxblack, minesweeper, minimax, quarto};

/// Runs `run` on `data` twice; returns the output if it answered, after the common checks.
fn answer_of<E: Display>(
    data: &[u8],
    run: impl Fn(&[u8], &mut Vec<u8>) -> Result<(), E>,
) -> Option<String> {
    let once = || {
        let mut out = Vec::new();
        let result = run(data, &mut out).map_err(|e| e.to_string());
        (result, out)
    };
    let (result, out) = once();
    assert_eq!((result.clone(), out.clone()), once(), "not deterministic");
    match result {
        Ok(()) => {
            let text = String::from_utf8(out).expect("the answer is UTF-8");
            assert!(
                text.ends_with('\n'),
                "the answer ends with a newline: {text:?}"
            );
            Some(text)
        }
        Err(message) => {
            assert!(
                !message.is_empty() && !message.contains('\n'),
                "one-line error: {message:?}"
            );
            None
        }
    }
}

/// minimax: `<value> <nodes>`, two integers (the nodes may pass `u64::MAX`: a chain of depth
/// `2^64 - 1` has `2^64` nodes).
pub fn minimax(data: &[u8]) {
    if let Some(text) = answer_of(data, |d, out| minimax::run(d, out)) {
        let fields: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(fields.len(), 2, "{text:?}");
        assert!(
            fields[0].parse::<i64>().is_ok() && fields[1].parse::<u128>().is_ok(),
            "{text:?}"
        );
    }
}

/// The largest board the minesweeper target analyses (cells): bigger ones only go through the
/// parser, so that one input costs milliseconds.
const MINESWEEPER_CELLS: usize = 400;

/// minesweeper: every line is words and numbers, the probabilities in `[0, 1]`; the count alone
/// is the analysis's, and a layout drawn from the board agrees with it.
pub fn minesweeper(data: &[u8]) {
    let Ok(board) = minesweeper::parse(data) else {
        return;
    };
    if board.cells().len() > MINESWEEPER_CELLS {
        return;
    }
    if let Some(text) = answer_of(data, |d, out| minesweeper::run(d, out)) {
        assert!(!text.trim().is_empty());
        for token in text.split_whitespace() {
            if let Ok(p) = token.parse::<f64>() {
                assert!((0.0..=1.0).contains(&p) || p.fract() == 0.0, "{text:?}");
            }
        }
    }
    let analysis = minesweeper::analyze(&board);
    match (&analysis, minesweeper::ln_arrangements(&board)) {
        (Ok(a), Ok(ln)) => assert_eq!(a.ln_arrangements.to_bits(), ln.to_bits()),
        (Err(e), Err(f)) => assert_eq!(e.to_string(), f.to_string()),
        (a, l) => panic!(
            "analysis {:?} but count {l:?}",
            a.as_ref().map(|_| "answered")
        ),
    }
    let drawn = minesweeper::sample_mines(&board, &mut minesweeper::game::Rng::new(7));
    match (&analysis, drawn) {
        (Ok(_), Ok(mine)) => check_layout(&board, &mine),
        (Err(minesweeper::Error::Inconsistent(_)), Err(minesweeper::Error::Inconsistent(_))) => {}
        (_, Err(minesweeper::Error::TooComplex { .. })) => {}
        (a, d) => panic!(
            "analysis {:?} but draw {:?}",
            a.as_ref().map(|_| "answered"),
            d.map(|_| "a layout")
        ),
    }
}

/// Asserts that `mine` (row-major) is a layout of `board`: its number of mines, every flag a
/// mine, no revealed cell a mine, and every number the count of its mine neighbours.
fn check_layout(board: &minesweeper::Board, mine: &[bool]) {
    use minesweeper::Cell;
    let at = |p: minesweeper::Pos| mine[p.y * board.width() + p.x];
    assert_eq!(mine.iter().filter(|&&m| m).count(), board.mines());
    for p in board.positions() {
        match board.get(p) {
            Cell::Flagged => assert!(at(p), "a flag at {p:?} is not a mine"),
            Cell::Revealed(n) => {
                assert!(!at(p), "the number at {p:?} is a mine");
                let around = board.neighbours(p).filter(|&q| at(q)).count();
                assert_eq!(around, usize::from(n), "the number at {p:?}");
            }
            Cell::Hidden => {}
        }
    }
}

/// The largest N the maxblack target solves: larger ones only go through the parser.
const MAXBLACK_N: usize = 6;

/// maxblack: the maximum, `orbits total`, then `orbits` grids of N rows of M cells holding the
/// maximum each; `--count-only` prints the same first two lines.
pub fn maxblack(data: &[u8]) {
    let Ok(puzzle) = maxblack::parse(data) else {
        return;
    };
    if puzzle.rows() > MAXBLACK_N || puzzle.cols() > MAXBLACK_N {
        return;
    }
    let full = maxblack::Options {
        threads: 1,
        ..maxblack::Options::default()
    };
    let count = maxblack::Options {
        count_only: true,
        ..full.clone()
    };
    let Some(text) = answer_of(data, |d, out| maxblack::run(d, out, &full)) else {
        panic!("{puzzle:?} has an answer");
    };
    let counts = answer_of(data, |d, out| maxblack::run(d, out, &count)).expect("an answer");
    let mut blocks = text.split("\n\n");
    let head = blocks.next().expect("a head");
    assert_eq!(format!("{head}\n"), counts, "--count-only differs");
    let lines: Vec<&str> = head.lines().collect();
    let max: usize = lines[0].parse().expect("the maximum");
    let orbits: usize = lines[1]
        .split(' ')
        .next()
        .and_then(|o| o.parse().ok())
        .expect("orbits");
    let grids: Vec<&str> = blocks.collect();
    assert_eq!(grids.len(), orbits);
    for g in grids {
        let rows: Vec<&str> = g.lines().collect();
        assert_eq!(rows.len(), puzzle.rows());
        assert!(rows.iter().all(|r| r.len() == puzzle.cols()));
        assert_eq!(g.matches('#').count(), max);
    }
}

/// The fewest pieces on the board (or in hand) for the quarto target to solve a position: emptier
/// ones only go through the parser.
const QUARTO_PIECES: usize = 7;

/// quarto: `place R C [give PPPP]` or `give PPPP`, then `win`, `draw` or `loss`.
pub fn quarto(data: &[u8]) {
    if quarto::parse(data).is_err() {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let pieces = text
        .split_whitespace()
        .filter(|t| t.len() == 4 && t.bytes().all(|b| b == b'0' || b == b'1'))
        .count();
    if pieces < QUARTO_PIECES {
        return;
    }
    let text = answer_of(data, |d, out| quarto::run(d, out)).expect("a legal position has a move");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text:?}");
    assert!(
        lines[0].starts_with("place ") || lines[0].starts_with("give "),
        "{text:?}"
    );
    assert!(["win", "draw", "loss"].contains(&lines[1]), "{text:?}");
}

/// A book read with `quarto --book` from any bytes (binary or text): a book or an error, never a
/// panic. A book read is the same when written in its binary and text forms and read back; a
/// position it holds with at least 9 pieces placed is answered (the best move and every move's
/// value) even when the book's values are wrong, without a panic, the best move a legal one.
pub fn quarto_book(data: &[u8]) {
    let Ok(book) = quarto::Book::read(data) else {
        return;
    };
    let bytes = book.to_bytes();
    assert_eq!(
        quarto::Book::from_bytes(&bytes).expect("its own bytes"),
        book
    );
    assert_eq!(
        quarto::Book::parse(&book.to_text()).expect("its own text"),
        book
    );
    let hand = quarto::Piece::new(0);
    for (c, _) in book
        .entries()
        .filter(|(c, _)| c.occupied.count_ones() >= 9)
        .take(2)
    {
        let position = quarto::Position {
            board: c.board(),
            hand,
        };
        // With wrong values the two may disagree; each must still name legal moves.
        let best = quarto::best_move_with_book(&position, &book);
        let lines = quarto::move_values_with_book(&position, &book);
        assert!(lines.iter().any(|l| l.mv == best.best), "{c:?}");
    }
}

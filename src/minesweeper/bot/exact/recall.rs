//! The outcomes of the last exact searches on this thread, so that a region searched again
//! unchanged (a guess elsewhere left it as it was) costs nothing the second time.
//!
//! A search's outcome depends only on the region's cells, its arrangements and the limit, so a
//! recalled outcome is the one the search would give again, and the bot plays the same games with
//! or without it. Outcomes are kept only while the thread has no deadline (see
//! `bot::set_deadline`): past a deadline a search gives up for a reason the region does not hold.
//! Regions of more than [`KEPT_ARRANGEMENTS`] arrangements are searched every time.

use std::cell::RefCell;

use super::arrangements::{Mask, Region};
use super::ExactClick;
use crate::minesweeper::bot::calls::has_deadline;
use crate::minesweeper::Pos;

/// The most outcomes kept per thread.
const KEPT: usize = 16;

/// The most arrangements of a region whose outcome is kept (the default limit is 4,000; a larger
/// `endgame` limit may make regions of up to a million): at most 2 MiB per thread in all.
const KEPT_ARRANGEMENTS: usize = 8_192;

/// One search's question and answer.
struct Outcome {
    cells: Vec<Pos>,
    arrangements: Vec<Mask>,
    max: usize,
    click: Option<ExactClick>,
}

thread_local! {
    /// The last [`KEPT`] outcomes on this thread, oldest first.
    static KEPT_OUTCOMES: RefCell<Vec<Outcome>> = const { RefCell::new(Vec::new()) };
}

/// The outcome of `search` on `region` with the limit `max`: recalled if this thread searched the
/// same region with the same limit among its last [`KEPT`] searches, else computed (and kept).
pub(super) fn recall_or(
    region: &Region,
    max: usize,
    search: impl FnOnce() -> Option<ExactClick>,
) -> Option<ExactClick> {
    if has_deadline() || region.arrangements.len() > KEPT_ARRANGEMENTS {
        return search();
    }
    let same = |o: &Outcome| {
        o.max == max && o.arrangements == region.arrangements && o.cells == region.cells
    };
    if let Some(click) =
        KEPT_OUTCOMES.with(|k| k.borrow().iter().find(|o| same(o)).map(|o| o.click))
    {
        return click;
    }
    let click = search();
    KEPT_OUTCOMES.with(|k| {
        let mut kept = k.borrow_mut();
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push(Outcome {
            cells: region.cells.clone(),
            arrangements: region.arrangements.clone(),
            max,
            click,
        });
    });
    click
}

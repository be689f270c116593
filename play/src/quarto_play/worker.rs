//! The computer's thinking off the interface's thread: jobs go to a worker thread, answers come
//! back on a channel, so the screen keeps taking keys while a search runs.
//!
//! Every job carries the generation it was asked in; [`Worker::invalidate`] starts a new one
//! (after a move, an undo or a new game), and answers of an older generation are dropped. The
//! worker skips jobs that are stale before they start, and stops valuing the moves for the
//! values panel when the position it values is gone, between one move's search and the next.
//! It values them on every core, and sends the lines valued so far at most every
//! [`PROGRESS_EVERY`], so that the panel fills in as they come.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{Cell, Move, MoveValue, Outcome, Position};

use super::book::Book;
use super::players::{annotate_with_progress, choose, hint, hint_at, Level};

/// The least time between two partial answers to [`Task::Annotate`]: positions valued sooner
/// get their values in one answer.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(50);

/// What to think about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Task {
    /// The move of a computer player of this level.
    Move(Level),
    /// Perfect's move and its outcome, for the human.
    Hint,
    /// Once the human has chosen this cell for the piece in hand: the best move that places it
    /// there and its outcome ([`hint_at`]).
    HintAt(Cell),
    /// Every legal move's outcome (the lines of `quarto --values`).
    Annotate,
}

/// An answer to a [`Task`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Answer {
    Move(Move),
    Hint(Move, Outcome),
    Annotations(Vec<MoveValue>),
    /// The lines valued so far, in the solver's move order, each final (see
    /// [`cp_puzzles::quarto::move_values_with_progress`]): a partial answer to
    /// [`Task::Annotate`], before its [`Answer::Annotations`].
    SomeAnnotations(Vec<MoveValue>),
}

struct Job {
    generation: u64,
    task: Task,
    position: Position,
}

struct Done {
    generation: u64,
    answer: Answer,
}

/// The worker thread and its channels. Dropping it closes the job channel; a worker still in a
/// search ends with the process.
pub struct Worker {
    jobs: Sender<Job>,
    done: Receiver<Done>,
    /// The current generation, shared with the worker.
    generation: Arc<AtomicU64>,
}

impl Worker {
    /// Starts the worker with its own copy of `book`, and a generator seeded with `seed` for the
    /// computer players' random choices.
    #[must_use]
    pub fn start(book: Book, seed: u64) -> Worker {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel();
        let generation = Arc::new(AtomicU64::new(0));
        let current = Arc::clone(&generation);
        thread::spawn(move || {
            let mut rng = Rng::new(seed);
            for job in inbox {
                let live = || current.load(Ordering::Relaxed) == job.generation;
                if !live() {
                    continue;
                }
                let answer = match job.task {
                    Task::Move(level) => {
                        Answer::Move(choose(level, &job.position, &book, &mut rng))
                    }
                    Task::Hint => {
                        let (mv, outcome) = hint(&job.position, &book);
                        Answer::Hint(mv, outcome)
                    }
                    Task::HintAt(cell) => match hint_at(&job.position, cell, &book) {
                        Some((mv, outcome)) => Answer::Hint(mv, outcome),
                        None => continue,
                    },
                    Task::Annotate => {
                        let mut last = (Instant::now(), 0);
                        let threads = thread::available_parallelism().map_or(1, usize::from);
                        let values =
                            annotate_with_progress(&job.position, &book, threads, |so_far| {
                                if so_far.len() > last.1 && last.0.elapsed() >= PROGRESS_EVERY {
                                    last = (Instant::now(), so_far.len());
                                    let _ = outbox.send(Done {
                                        generation: job.generation,
                                        answer: Answer::SomeAnnotations(so_far.to_vec()),
                                    });
                                }
                                live()
                            });
                        match values {
                            Some(values) => Answer::Annotations(values),
                            None => continue,
                        }
                    }
                };
                let done = Done {
                    generation: job.generation,
                    answer,
                };
                if outbox.send(done).is_err() {
                    return;
                }
            }
        });
        Worker {
            jobs,
            done,
            generation,
        }
    }

    /// Asks for `task` in `position`, in the current generation.
    pub fn ask(&self, task: Task, position: Position) {
        let job = Job {
            generation: self.generation.load(Ordering::Relaxed),
            task,
            position,
        };
        // The worker only stops when this side is dropped.
        let _ = self.jobs.send(job);
    }

    /// Makes every job asked so far stale.
    pub fn invalidate(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// An answer of the current generation, if one has come.
    pub fn answer(&self) -> Option<Answer> {
        while let Ok(done) = self.done.try_recv() {
            if done.generation == self.generation.load(Ordering::Relaxed) {
                return Some(done.answer);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quarto_play::game::Game;

    /// The next answer of the current generation, waiting for it.
    fn next(worker: &Worker) -> Answer {
        loop {
            if let Some(answer) = worker.answer() {
                return answer;
            }
            thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn answers_come_back_and_stale_ones_are_dropped() {
        let worker = Worker::start(Book::default(), 1);
        let position = Game::new(1).position();
        worker.ask(Task::Move(Level::Random), position);
        assert!(matches!(next(&worker), Answer::Move(_)));
        // A hint asked before the position changed never shows: the next answer is the values.
        worker.ask(Task::Hint, position);
        worker.invalidate();
        worker.ask(Task::Annotate, position);
        match next(&worker) {
            Answer::Annotations(values) => assert_eq!(values.len(), 16),
            other => panic!("expected the values, got {other:?}"),
        }
    }
}

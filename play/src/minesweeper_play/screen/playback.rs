//! A replay played back: which of its actions comes next, and when, at the game's pace or one
//! per key.

use std::time::{Duration, Instant};

use crate::minesweeper_play::Move;

/// The actions of a replay not yet played, and the pace they are played at.
#[derive(Clone, Debug)]
pub struct Playback {
    /// The replay's actions, each with its time on the game clock (never decreasing).
    actions: Vec<(Duration, Move)>,
    /// The index of the next action to play.
    next: usize,
    pace: Pace,
}

/// How the next actions come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pace {
    /// At the game's pace: the game clock reads `from` at the wall clock's `at` (read at the next
    /// [`Playback::due`], `None` until then), and an action is due once the game clock reaches
    /// its time.
    Game { at: Option<Instant>, from: Duration },
    /// One action per [`Playback::step`].
    Step,
}

impl Playback {
    /// The playback of `actions` from the first, at the game's pace from the next call of
    /// [`Playback::due`].
    #[must_use]
    pub fn new(actions: Vec<(Duration, Move)>) -> Playback {
        Playback {
            actions,
            next: 0,
            pace: Pace::Game {
                at: None,
                from: Duration::ZERO,
            },
        }
    }

    /// How many actions have been played, and how many there are.
    #[must_use]
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.actions.len())
    }

    /// Whether every action has been played.
    #[must_use]
    pub fn done(&self) -> bool {
        self.next == self.actions.len()
    }

    /// Whether the actions come one per [`Playback::step`] rather than at the game's pace.
    #[must_use]
    pub fn stepping(&self) -> bool {
        self.pace == Pace::Step
    }

    /// The next action at once, if there is one; one per call from then on.
    pub fn step(&mut self) -> Option<(Duration, Move)> {
        self.pace = Pace::Step;
        self.take()
    }

    /// Back to the game's pace, from the next action, which is due at once.
    pub fn resume(&mut self) {
        if let Some(&(from, _)) = self.actions.get(self.next) {
            self.pace = Pace::Game { at: None, from };
        }
    }

    /// The next action if it is due at `now` at the game's pace (the pace's wall clock starts at
    /// the first call after [`Playback::new`] or [`Playback::resume`]); `None` while stepping.
    pub fn due(&mut self, now: Instant) -> Option<(Duration, Move)> {
        let Pace::Game { at, from } = &mut self.pace else {
            return None;
        };
        let start = *at.get_or_insert(now);
        let clock = *from + now.saturating_duration_since(start);
        let &(time, _) = self.actions.get(self.next)?;
        if time <= clock {
            self.take()
        } else {
            None
        }
    }

    fn take(&mut self) -> Option<(Duration, Move)> {
        let action = *self.actions.get(self.next)?;
        self.next += 1;
        Some(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cp_puzzles::minesweeper::Pos;

    fn playback() -> Playback {
        let reveal = |x| Move::Reveal(Pos::new(x, 0));
        Playback::new(vec![
            (Duration::ZERO, reveal(0)),
            (Duration::from_secs(1), reveal(1)),
            (Duration::from_secs(3), reveal(2)),
            (Duration::from_secs(4), reveal(3)),
        ])
    }

    #[test]
    fn actions_come_at_the_games_pace_or_one_per_step() {
        let t0 = Instant::now();
        let at = |s: f64| t0 + Duration::from_secs_f64(s);
        let mut p = playback();
        assert_eq!(p.due(at(0.0)).map(|a| a.0), Some(Duration::ZERO));
        assert_eq!(p.due(at(0.5)), None);
        assert_eq!(p.due(at(1.0)).map(|a| a.0), Some(Duration::from_secs(1)));
        // Stepping: the next at once, then nothing comes by itself.
        assert_eq!(p.step().map(|a| a.0), Some(Duration::from_secs(3)));
        assert!(p.stepping());
        assert_eq!(p.due(at(10.0)), None);
        assert_eq!(p.progress(), (3, 4));
        // The game's pace again: the next action at once, the clock from its time.
        p.resume();
        assert!(!p.stepping());
        assert_eq!(p.due(at(20.0)).map(|a| a.0), Some(Duration::from_secs(4)));
        assert!(p.done());
        assert_eq!((p.due(at(30.0)), p.step()), (None, None));
    }
}

//! Replays: a finished (or unfinished) game as text, the layout and then each action with its
//! time, which `minesweeper-play --replay FILE` plays back.
//!
//! The format (one item per line, `#` comments and blank lines skipped):
//! ```text
//! minesweeper-play replay 1
//! board 9x9/10
//! first-click safe
//! no-guess no
//! layout
//! ..*......          H rows of W cells: `*` a mine, `.` a safe cell
//! ...
//! actions
//! 0.000 reveal 4 4   the seconds since the first click (3 decimals), the move, x then y
//! 1.250 flag 3 3
//! 2.031 chord 4 3
//! ```
//! The first action is the first click (a `reveal`), on a cell the rule keeps free of mines
//! (and its neighbours too under `first-click opening`); a replay that breaks its own rule is
//! refused when read. `no-guess` is the setting the game was played with (a board it could not
//! make is uniform), not checked. `minesweeper-bot --show --save-replay FILE`
//! writes its game in this format too ([`Replay::of_bot`]).

use std::fmt;
use std::time::Duration;

use cp_puzzles::minesweeper::game::{Config, FirstClick, Layout};
use cp_puzzles::minesweeper::Pos;

use super::moves::Move;
use crate::minesweeper_bot::{self as bot, Event, Run};

/// The first line of every replay.
pub const HEADER: &str = "minesweeper-play replay 1";

/// The most actions a replay file may hold (a game has at most a few per cell).
pub const MAX_ACTIONS: usize = 1_000_000;

/// A game to play back: its layout and rule, and the actions in order with their times.
///
/// Invariant (checked by [`Replay::parse`]): the times never decrease, and the first action, if
/// any, is a first click that the rule allows on the layout (a reveal of a cell the rule keeps
/// free of mines).
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    pub layout: Layout,
    pub rule: FirstClick,
    pub no_guess: bool,
    pub actions: Vec<(Duration, Move)>,
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = self.layout.config();
        writeln!(f, "{HEADER}")?;
        writeln!(f, "board {config}")?;
        writeln!(f, "first-click {}", self.rule)?;
        writeln!(f, "no-guess {}", if self.no_guess { "yes" } else { "no" })?;
        writeln!(f, "layout")?;
        for y in 0..config.height() {
            let row: String = (0..config.width())
                .map(|x| {
                    if self.layout.is_mine(Pos::new(x, y)) {
                        '*'
                    } else {
                        '.'
                    }
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        writeln!(f, "actions")?;
        for (t, m) in &self.actions {
            let (word, p) = match *m {
                Move::Reveal(p) => ("reveal", p),
                Move::Flag(p) => ("flag", p),
                Move::Chord(p) => ("chord", p),
            };
            writeln!(
                f,
                "{}.{:03} {word} {} {}",
                t.as_secs(),
                t.subsec_millis(),
                p.x,
                p.y
            )?;
        }
        Ok(())
    }
}

/// The time between two of the bot's moves in a replay of its game ([`Replay::of_bot`]).
pub const BOT_PACE: Duration = Duration::from_millis(100);

impl Replay {
    /// The game that `minesweeper-bot --show` played (`shown`, game `shown.index` of `run`) as a
    /// replay: its layout, and each of the bot's moves (its first click, safe clicks and guesses
    /// as `reveal`, its flags as `flag`) [`BOT_PACE`] after the one before, from 0.
    #[must_use]
    pub fn of_bot(run: &Run, shown: &bot::Replay) -> Replay {
        let actions = shown
            .moves
            .iter()
            .zip(0u32..)
            .map(|((event, _), n)| {
                let m = match *event {
                    Event::First(p) | Event::Safe(p) | Event::Guess(p, _) => Move::Reveal(p),
                    Event::Flag(p) => Move::Flag(p),
                };
                (BOT_PACE * n, m)
            })
            .collect();
        Replay {
            layout: shown.layout.clone(),
            rule: run.rule,
            no_guess: run.no_guess,
            actions,
        }
    }

    /// Reads a replay's text.
    ///
    /// # Errors
    /// One line naming the line number and what was expected there.
    pub fn parse(text: &str) -> Result<Replay, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let mut next = |what: &str| {
            lines
                .next()
                .ok_or_else(|| format!("expected {what}, found the end of the file"))
        };
        let at = |n: usize, what: &str, found: &str| {
            format!("line {n}: expected {what}, found \"{found}\"")
        };
        let (n, line) = next("the header")?;
        if line != HEADER {
            return Err(at(n, &format!("\"{HEADER}\""), line));
        }
        let (n, line) = next("board WxH/M")?;
        let config = line
            .strip_prefix("board ")
            .and_then(parse_config)
            .ok_or_else(|| at(n, "board WxH/M (a valid board)", line))?;
        let (n, line) = next("first-click safe|opening")?;
        let rule = match line {
            "first-click safe" => FirstClick::Safe,
            "first-click opening" => FirstClick::Opening,
            _ => return Err(at(n, "first-click safe or first-click opening", line)),
        };
        let (n, line) = next("no-guess yes|no")?;
        let no_guess = match line {
            "no-guess yes" => true,
            "no-guess no" => false,
            _ => return Err(at(n, "no-guess yes or no-guess no", line)),
        };
        let (n, line) = next("layout")?;
        if line != "layout" {
            return Err(at(n, "layout", line));
        }
        let mut mine = Vec::with_capacity(config.cells());
        for _ in 0..config.height() {
            let (n, line) = next("a row of the layout")?;
            let row = format!("a row of {} cells, each * or .", config.width());
            if line.chars().count() != config.width() || line.chars().any(|c| c != '*' && c != '.')
            {
                return Err(at(n, &row, line));
            }
            mine.extend(line.chars().map(|c| c == '*'));
        }
        let mines = mine.iter().filter(|&&m| m).count();
        if mines != config.mines() {
            return Err(format!(
                "the layout has {mines} mines, expected {} as its board says",
                config.mines()
            ));
        }
        let layout = Layout::from_mines(config, mine);
        let (n, line) = next("actions")?;
        if line != "actions" {
            return Err(at(n, "actions", line));
        }
        let mut actions: Vec<(Duration, Move)> = Vec::new();
        for (n, line) in lines {
            let action = parse_action(line, config)
                .ok_or_else(|| at(n, "SECONDS reveal|flag|chord X Y, on the board", line))?;
            if actions.is_empty() {
                check_first_click(&layout, rule, action.1).map_err(|what| at(n, &what, line))?;
            }
            if actions.last().is_some_and(|&(t, _)| action.0 < t) {
                return Err(at(n, "a time no earlier than the one before", line));
            }
            if actions.len() == MAX_ACTIONS {
                return Err(format!("line {n}: more than {MAX_ACTIONS} actions"));
            }
            actions.push(action);
        }
        Ok(Replay {
            layout,
            rule,
            no_guess,
            actions,
        })
    }
}

/// Checks that `first`, a replay's first action, is a first click its rule allows on `layout`:
/// a reveal of a cell without a mine, and under `first-click opening` without one next to it.
/// Else what was expected.
fn check_first_click(layout: &Layout, rule: FirstClick, first: Move) -> Result<(), String> {
    let Move::Reveal(p) = first else {
        return Err("the first click, a reveal".to_string());
    };
    if layout.allows_first_click(rule, p) {
        return Ok(());
    }
    Err(match rule {
        FirstClick::Safe => "a first click on a cell without a mine (first-click safe)",
        FirstClick::Opening => {
            "a first click with no mine on it or next to it (first-click opening)"
        }
    }
    .to_string())
}

/// `WxH/M` as a checked config.
fn parse_config(text: &str) -> Option<Config> {
    let (w, rest) = text.split_once('x')?;
    let (h, m) = rest.split_once('/')?;
    Config::new(w.parse().ok()?, h.parse().ok()?, m.parse().ok()?).ok()
}

/// `1.250 flag 3 3` as its time and move, on a board of `config`.
fn parse_action(line: &str, config: Config) -> Option<(Duration, Move)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [time, word, x, y] = words[..] else {
        return None;
    };
    let (secs, millis) = time.split_once('.')?;
    if millis.len() != 3 {
        return None;
    }
    let time =
        Duration::from_secs(secs.parse().ok()?) + Duration::from_millis(millis.parse().ok()?);
    let p = Pos::new(x.parse().ok()?, y.parse().ok()?);
    if p.x >= config.width() || p.y >= config.height() {
        return None;
    }
    let m = match word {
        "reveal" => Move::Reveal(p),
        "flag" => Move::Flag(p),
        "chord" => Move::Chord(p),
        _ => return None,
    };
    Some((time, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Replay {
        let config = Config::new(3, 2, 1).unwrap();
        Replay {
            layout: Layout::from_mines(config, vec![false, false, true, false, false, false]),
            rule: FirstClick::Opening,
            no_guess: true,
            actions: vec![
                (Duration::ZERO, Move::Reveal(Pos::new(0, 0))),
                (Duration::from_millis(1_250), Move::Flag(Pos::new(2, 0))),
                (Duration::from_millis(61_007), Move::Chord(Pos::new(1, 1))),
            ],
        }
    }

    #[test]
    fn round_trips_through_its_text() {
        let text = sample().to_string();
        assert_eq!(
            text,
            "minesweeper-play replay 1\nboard 3x2/1\nfirst-click opening\nno-guess yes\nlayout\n\
             ..*\n...\nactions\n0.000 reveal 0 0\n1.250 flag 2 0\n61.007 chord 1 1\n"
        );
        assert_eq!(Replay::parse(&text).unwrap(), sample());
    }

    #[test]
    fn bad_lines_are_named() {
        let text = sample().to_string();
        let bad = |from: &str, to: &str| Replay::parse(&text.replacen(from, to, 1)).unwrap_err();
        assert!(bad("replay 1", "replay 2").starts_with("line 1: expected"));
        assert!(bad("3x2/1", "3x2/9").starts_with("line 2: expected board"));
        assert!(bad("opening", "corner").starts_with("line 3:"));
        assert!(bad("..*", "..x").starts_with("line 6: expected a row of 3 cells"));
        assert!(bad("..*", "...").starts_with("the layout has 0 mines"));
        assert!(bad("1.250 flag", "1.25 flag").starts_with("line 10:"));
        assert!(bad("flag 2 0", "flag 3 0").starts_with("line 10:"));
        assert!(bad("61.007", "1.007").starts_with("line 11: expected a time no earlier"));
        assert!(Replay::parse("").unwrap_err().contains("end of the file"));
    }

    /// The first action is a first click that the replay's rule allows on its layout.
    #[test]
    fn the_first_click_is_checked_against_the_rule() {
        let text = sample().to_string();
        let bad = |from: &str, to: &str| Replay::parse(&text.replacen(from, to, 1)).unwrap_err();
        // Under `opening`, (1, 1) is next to the mine at (2, 0); under `safe` it is allowed.
        assert_eq!(
            bad("0.000 reveal 0 0", "0.000 reveal 1 1"),
            "line 9: expected a first click with no mine on it or next to it (first-click \
             opening), found \"0.000 reveal 1 1\""
        );
        let safe = text.replacen("opening", "safe", 1);
        let moved = safe.replacen("0.000 reveal 0 0", "0.000 reveal 1 1", 1);
        assert!(Replay::parse(&moved).is_ok());
        assert_eq!(
            Replay::parse(&safe.replacen("0.000 reveal 0 0", "0.000 reveal 2 0", 1)).unwrap_err(),
            "line 9: expected a first click on a cell without a mine (first-click safe), found \
             \"0.000 reveal 2 0\""
        );
        assert_eq!(
            bad("0.000 reveal 0 0", "0.000 flag 0 0"),
            "line 9: expected the first click, a reveal, found \"0.000 flag 0 0\""
        );
        assert_eq!(
            bad("0.000 reveal 0 0", "0.000 chord 0 0"),
            "line 9: expected the first click, a reveal, found \"0.000 chord 0 0\""
        );
    }
}

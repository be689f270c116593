//! The keys of each screen, as the [`Action`]s they ask for.
//!
//! Each [`Mode`] has one table of [`Binding`]s: the key handler dispatches on it and the key bar
//! is drawn from it, so the bar lists every key that works on the screen shown, and no other.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::state::{Action, Mode};

/// A key as the tables name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A character typed without Ctrl (its case is part of it: `a` and `A` differ).
    Char(char),
    /// A character typed with Ctrl held, in lower case.
    Ctrl(char),
    Enter,
    Left,
    Right,
    Up,
    Down,
    /// Any key no other variant names (Esc, Tab, the function keys, ...).
    Other,
}

impl Key {
    /// The key of a key event (Shift and Alt are part of the character, or ignored).
    #[must_use]
    pub fn of(event: &KeyEvent) -> Key {
        match event.code {
            KeyCode::Char(c) if event.modifiers.contains(KeyModifiers::CONTROL) => {
                Key::Ctrl(c.to_ascii_lowercase())
            }
            KeyCode::Char(c) => Key::Char(c),
            KeyCode::Enter => Key::Enter,
            KeyCode::Left => Key::Left,
            KeyCode::Right => Key::Right,
            KeyCode::Up => Key::Up,
            KeyCode::Down => Key::Down,
            _ => Key::Other,
        }
    }

    /// How a label names the key: `space`, `Enter`, `Ctrl-C`, `arrows` (each of the four), `?`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Key::Char(' ') => "space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Enter => "Enter".into(),
            Key::Left | Key::Right | Key::Up | Key::Down => "arrows".into(),
            Key::Other => "any key".into(),
        }
    }
}

/// Which keys a binding takes.
#[derive(Clone, Copy, Debug)]
pub enum Keys {
    /// These keys, each with its action.
    These(&'static [(Key, Action)]),
    /// Every key that no other binding of the table takes.
    AnyOther(Action),
}

/// Some keys of a screen and what they do, as the key bar shows them: `f flag`.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub keys: Keys,
    /// The keys' names, `/` between them (single letters may run together: `hjkl`).
    pub label: &'static str,
    /// What they do, in a word or two.
    pub what: &'static str,
}

impl Binding {
    /// The binding as the key bar shows it: `f flag`.
    #[must_use]
    pub fn text(&self) -> String {
        format!("{} {}", self.label, self.what)
    }
}

const MOVE: Binding = Binding {
    keys: Keys::These(&[
        (Key::Left, Action::Cursor(-1, 0)),
        (Key::Right, Action::Cursor(1, 0)),
        (Key::Up, Action::Cursor(0, -1)),
        (Key::Down, Action::Cursor(0, 1)),
        (Key::Char('h'), Action::Cursor(-1, 0)),
        (Key::Char('j'), Action::Cursor(0, 1)),
        (Key::Char('k'), Action::Cursor(0, -1)),
        (Key::Char('l'), Action::Cursor(1, 0)),
    ]),
    label: "arrows/hjkl",
    what: "move",
};
const REVEAL: Binding = Binding {
    keys: Keys::These(&[
        (Key::Char(' '), Action::Reveal),
        (Key::Enter, Action::Reveal),
    ]),
    label: "space/Enter",
    what: "reveal",
};
const FLAG: Binding = Binding {
    keys: Keys::These(&[(Key::Char('f'), Action::Flag)]),
    label: "f",
    what: "flag",
};
const CHORD: Binding = Binding {
    keys: Keys::These(&[(Key::Char('c'), Action::Chord)]),
    label: "c",
    what: "chord",
};
const HINT: Binding = Binding {
    keys: Keys::These(&[(Key::Char('H'), Action::Hint)]),
    label: "H",
    what: "hint",
};
const BOT: Binding = Binding {
    keys: Keys::These(&[
        (Key::Char('a'), Action::Bot),
        (Key::Char('A'), Action::BotAll),
    ]),
    label: "a/A",
    what: "bot",
};
const SAVE: Binding = Binding {
    keys: Keys::These(&[(Key::Char('s'), Action::Save)]),
    label: "s",
    what: "save view",
};
const SAVE_REPLAY: Binding = Binding {
    keys: Keys::These(&[(Key::Char('w'), Action::SaveReplay)]),
    label: "w",
    what: "save replay",
};
const NEW: Binding = Binding {
    keys: Keys::These(&[(Key::Char('r'), Action::Restart)]),
    label: "r",
    what: "next game",
};
const HELP: Binding = Binding {
    keys: Keys::These(&[(Key::Char('?'), Action::Help)]),
    label: "?",
    what: "help",
};
const QUIT: Binding = Binding {
    keys: Keys::These(&[
        (Key::Char('q'), Action::Quit),
        (Key::Ctrl('c'), Action::Quit),
    ]),
    label: "q/Ctrl-C",
    what: "quit",
};
const CLOSE_HELP: Binding = Binding {
    keys: Keys::AnyOther(Action::Dismiss),
    label: "any other key",
    what: "closes the help",
};
const STOP_BOT: Binding = Binding {
    keys: Keys::AnyOther(Action::Dismiss),
    label: "any other key",
    what: "stops the bot",
};
const NEXT: Binding = Binding {
    keys: Keys::These(&[(Key::Char('n'), Action::Next)]),
    label: "n",
    what: "next action",
};
const PACE: Binding = Binding {
    keys: Keys::These(&[(Key::Char('p'), Action::Pace)]),
    label: "p",
    what: "the game's pace",
};

/// The keys of `mode`, in the key bar's order.
#[must_use]
pub fn bindings(mode: Mode) -> &'static [Binding] {
    match mode {
        Mode::Start => &[MOVE, REVEAL, HINT, BOT, SAVE, NEW, HELP, QUIT],
        Mode::Playing => &[
            MOVE,
            REVEAL,
            FLAG,
            CHORD,
            HINT,
            BOT,
            SAVE,
            SAVE_REPLAY,
            NEW,
            HELP,
            QUIT,
        ],
        Mode::Bot => &[QUIT, STOP_BOT],
        Mode::Over => &[SAVE, SAVE_REPLAY, NEW, HELP, QUIT],
        Mode::Help => &[QUIT, CLOSE_HELP],
        Mode::Replay => &[NEXT, QUIT],
        Mode::Stepping => &[NEXT, PACE, QUIT],
        Mode::ReplayOver => &[QUIT],
    }
}

/// The action of `key` in `mode`: the binding that names it, else the one that takes any other
/// key; `None` if the mode has neither.
#[must_use]
pub fn key_action(mode: Mode, key: Key) -> Option<Action> {
    let table = bindings(mode);
    let named = table.iter().find_map(|b| match b.keys {
        Keys::These(keys) => keys.iter().find(|(k, _)| *k == key).map(|&(_, a)| a),
        Keys::AnyOther(_) => None,
    });
    named.or_else(|| {
        table.iter().find_map(|b| match b.keys {
            Keys::AnyOther(a) => Some(a),
            Keys::These(_) => None,
        })
    })
}

/// The key bar of `mode` in lines of at most `width` columns: each binding's text, two spaces
/// apart, a binding split only when it is wider than a line (then between its words).
#[must_use]
pub fn bar(mode: Mode, width: u16) -> Vec<String> {
    let width = usize::from(width);
    let fits = |line: &str, more: &str, sep: usize| {
        line.chars().count() + sep + more.chars().count() <= width
    };
    let mut lines: Vec<String> = Vec::new();
    for text in bindings(mode).iter().map(Binding::text) {
        match lines.last_mut() {
            Some(line) if fits(line, &text, 2) => {
                *line += "  ";
                *line += &text;
            }
            _ if fits("", &text, 0) => lines.push(text),
            _ => {
                lines.push(String::new());
                for word in text.split(' ') {
                    match lines.last_mut() {
                        Some(line) if line.is_empty() || fits(line, word, 1) => {
                            if !line.is_empty() {
                                line.push(' ');
                            }
                            *line += word;
                        }
                        _ => lines.push(word.to_string()),
                    }
                }
            }
        }
    }
    lines
}

//! From the terminal's events to [`Action`]s.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::state::Action;

/// The action of a terminal event, if it has one (key presses only).
#[must_use]
pub fn action(event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => key_action(key),
        _ => None,
    }
}

/// The action of a key: arrows (and `k`, `j`, `l` for up, down, right: `h` is the hint) move the
/// cursor, Enter confirms, `h` hint, `a` values, `u` undo, `n` new game, `?` help, `q` or Ctrl-C
/// quit. Any other key with Ctrl held does nothing.
#[must_use]
pub fn key_action(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == KeyCode::Char('c')).then_some(Action::Quit);
    }
    Some(match key.code {
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Up | KeyCode::Char('k') => Action::Cursor(-1, 0),
        KeyCode::Down | KeyCode::Char('j') => Action::Cursor(1, 0),
        KeyCode::Left => Action::Cursor(0, -1),
        KeyCode::Right | KeyCode::Char('l') => Action::Cursor(0, 1),
        KeyCode::Enter => Action::Confirm,
        KeyCode::Char('h') => Action::Hint,
        KeyCode::Char('a') => Action::Values,
        KeyCode::Char('u') => Action::Undo,
        KeyCode::Char('n') => Action::NewGame,
        KeyCode::Char('?') => Action::Help,
        _ => return None,
    })
}

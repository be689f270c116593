//! From the terminal's events to [`Action`]s.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use super::draw::cell_at;
use super::state::Action;
use crate::minesweeper_play::Setup;

/// The action of a terminal event on a screen of `area`, if it has one.
#[must_use]
pub fn action(event: &Event, area: Rect, setup: &Setup) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(key),
        Event::Mouse(mouse) => mouse_action(mouse, area, setup),
        _ => None,
    }
}

/// The action of a key.
#[must_use]
pub fn key_action(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == KeyCode::Char('c')).then_some(Action::Quit);
    }
    Some(match key.code {
        KeyCode::Left | KeyCode::Char('h') => Action::Cursor(-1, 0),
        KeyCode::Right | KeyCode::Char('l') => Action::Cursor(1, 0),
        KeyCode::Up | KeyCode::Char('k') => Action::Cursor(0, -1),
        KeyCode::Down | KeyCode::Char('j') => Action::Cursor(0, 1),
        KeyCode::Char(' ') | KeyCode::Enter => Action::Reveal,
        KeyCode::Char('f') => Action::Flag,
        KeyCode::Char('c') => Action::Chord,
        KeyCode::Char('H') => Action::Hint,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('a') => Action::Bot,
        KeyCode::Char('A') => Action::BotAll,
        KeyCode::Char('s') => Action::Save,
        KeyCode::Char('w') => Action::SaveReplay,
        KeyCode::Char('r') => Action::Restart,
        KeyCode::Char('q') => Action::Quit,
        _ => Action::Dismiss,
    })
}

/// A left click reveals (or chords), a right click flags.
fn mouse_action(mouse: &MouseEvent, area: Rect, setup: &Setup) -> Option<Action> {
    let p = cell_at(area, setup, mouse.column, mouse.row)?;
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(p)),
        MouseEventKind::Down(MouseButton::Right) => Some(Action::FlagAt(p)),
        _ => None,
    }
}

//! The action of a terminal event: a key as its screen's table says (see [`super::keys`]), a
//! mouse click on the board's cells as they are drawn (see [`super::draw`]).

use crossterm::event::{Event, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use super::draw::cell_at;
use super::keys::{key_action, Key};
use super::state::{Action, Mode, State};

/// The action of a terminal event on the screen of `state`, drawn on `area`, if it has one: a
/// key as its screen's table says (presses and repeats, not releases); a left click reveals (or
/// chords) and a right click flags while a game can be played, and closes the help or stops the
/// bot like a key.
#[must_use]
pub fn action(event: &Event, area: Rect, state: &State) -> Option<Action> {
    let mode = state.mode();
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(mode, Key::of(key)),
        Event::Mouse(mouse) => match mode {
            Mode::Start | Mode::Playing => mouse_action(mouse, area, state),
            Mode::Help | Mode::Bot if is_click(mouse) => Some(Action::Dismiss),
            _ => None,
        },
        _ => None,
    }
}

fn is_click(mouse: &MouseEvent) -> bool {
    matches!(mouse.kind, MouseEventKind::Down(_))
}

/// A left click reveals (or chords), a right click flags.
fn mouse_action(mouse: &MouseEvent, area: Rect, state: &State) -> Option<Action> {
    let p = cell_at(area, &state.play.setup(), mouse.column, mouse.row)?;
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(p)),
        MouseEventKind::Down(MouseButton::Right) => Some(Action::FlagAt(p)),
        _ => None,
    }
}

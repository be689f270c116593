//! Drawing the screen from the [`State`], and finding the cell under a mouse click: pure
//! functions of the state and the terminal's size.

use cp_puzzles::minesweeper::game::Status;
use cp_puzzles::minesweeper::{Cell, Pos};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::keys::bar;
use super::state::{Mode, Overlay, State};
use crate::minesweeper_play::Setup;

/// Rows above the board (the title and the status); below it come the message and the key bar.
const ABOVE: u16 = 2;

/// The board's frame on a screen of `area`: each cell is 2 columns wide inside a border,
/// centred across, below the title and the status lines.
#[must_use]
pub fn board_rect(area: Rect, setup: &Setup) -> Rect {
    let width = 2 * setup.config.width() as u16 + 3;
    let height = setup.config.height() as u16 + 2;
    let x = area.x + area.width.saturating_sub(width) / 2;
    Rect::new(x, area.y + ABOVE, width, height)
}

/// The cell drawn at the terminal's `column` and `row`, if any.
#[must_use]
pub fn cell_at(area: Rect, setup: &Setup, column: u16, row: u16) -> Option<Pos> {
    let r = board_rect(area, setup);
    let x = usize::from(column.checked_sub(r.x + 1)? / 2);
    let y = usize::from(row.checked_sub(r.y + 1)?);
    (x < setup.config.width() && y < setup.config.height()).then_some(Pos::new(x, y))
}

/// Draws the whole screen: the title and the status, the board, the message, and the key bar of
/// the screen's [mode](super::state::Mode) (the keys that work on it, and only those).
pub fn draw(state: &State, frame: &mut Frame) {
    let area = frame.area();
    let setup = state.play.setup();
    let board = board_rect(area, &setup);
    // The key bar wraps: it takes more rows on a narrower screen. Its room is that of the longest
    // bar, so that no screen needs a larger terminal than another.
    let width = area.width.max(board.width);
    let keys = bar(state.mode(), width);
    let room = Mode::ALL.map(|m| bar(m, width).len()).into_iter().max();
    let need = (
        board.width,
        board.height + ABOVE + 1 + room.unwrap_or(0) as u16,
    );
    if area.width < need.0 || area.height < need.1 {
        // The rows needed depend on the width: the key bar wraps.
        let text = format!(
            "the board needs a terminal of at least {} columns, and {} rows at {} columns; \
             this one is {} x {}; q quits",
            need.0,
            need.1,
            area.width.max(need.0),
            area.width,
            area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let line = |y: u16| Rect::new(area.x, y, area.width, 1);
    frame.render_widget(Paragraph::new(title(state)), line(area.y));
    frame.render_widget(Paragraph::new(status(state)), line(area.y + 1));
    let block = Block::default().borders(Borders::ALL);
    frame.render_widget(Paragraph::new(rows(state)).block(block), board);
    let below = board.y + board.height;
    frame.render_widget(Paragraph::new(message(state)), line(below));
    for (y, keys) in (below + 1..).zip(keys) {
        let keys = Span::styled(keys, Style::default().fg(Color::DarkGray));
        frame.render_widget(Paragraph::new(keys), line(y));
    }
    if state.help {
        help(frame, area);
    }
}

/// `Minesweeper  expert 30x16/99  first click safe  seed 7  game 0` (`replay` in place of the
/// seed and game for a replay), then `  no guess` for no-guess boards.
fn title(state: &State) -> Line<'static> {
    let setup = state.play.setup();
    let board = setup.board_name();
    let shape = if board.contains('/') {
        String::new()
    } else {
        format!(" {}", setup.config)
    };
    Line::from(vec![
        Span::styled("Minesweeper", Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(if state.play.is_replay() {
            format!("  {board}{shape}  first click {}  replay", setup.rule)
        } else {
            format!(
                "  {board}{shape}  first click {}  seed {}  game {}",
                setup.rule,
                setup.seed,
                state.play.index()
            )
        }),
        Span::styled(
            if setup.no_guess { "  no guess" } else { "" },
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
        ),
    ])
}

/// The mine counter, the face and status word, and the timer.
fn status(state: &State) -> Line<'static> {
    let play = &state.play;
    let (face, word, colour) = match play.status() {
        Status::Playing => (":)", "playing", Color::Yellow),
        Status::Won => ("B)", "won", Color::Green),
        Status::Lost => ("X(", "lost", Color::Red),
    };
    let mut spans = vec![
        Span::styled(
            format!("mines {:>3}", play.mines_left()),
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        ),
        Span::raw("   "),
        Span::styled(
            format!("{face} {word}"),
            Style::default().fg(colour).add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!("   time {:>3} s", play.elapsed().as_secs())),
    ];
    if state.hint {
        spans.push(Span::styled("   hint", Style::default().fg(Color::Cyan)));
    }
    if let Some((p, q)) = state.last_guess {
        spans.push(Span::raw(format!(
            "   bot's last guess ({}, {}) p = {q:.4}",
            p.x, p.y
        )));
    }
    if state.auto {
        spans.push(Span::styled(
            "   bot playing",
            Style::default().fg(Color::Magenta),
        ));
    }
    Line::from(spans)
}

/// The message, or with the overlay on, the probability of the cell under the cursor and the
/// analyzer's recommended cell.
fn message(state: &State) -> Line<'static> {
    if !state.message.is_empty() || !state.hint || state.play.status() != Status::Playing {
        return Line::raw(state.message.clone());
    }
    let Some(overlay) = &state.overlay else {
        return Line::raw("");
    };
    let analysis = match &overlay.analysis {
        Ok(a) => a,
        Err(e) => return Line::raw(format!("no hint: {e}")),
    };
    let c = state.cursor;
    let here = match overlay.probability(c) {
        Some(p) => format!("({}, {}) mine {:.2}%", c.x, c.y, 100.0 * p),
        None => format!("({}, {}) not hidden", c.x, c.y),
    };
    let best = match analysis.best {
        Some((b, p)) => format!("best ({}, {}) {:.2}%", b.x, b.y, 100.0 * p),
        None => "best none".to_string(),
    };
    Line::raw(format!(
        "{here}   safe {}  mines {}  {best}",
        analysis.safe.len(),
        analysis.mines.len()
    ))
}

/// The board's rows: each cell a space and a glyph.
fn rows(state: &State) -> Vec<Line<'static>> {
    let view = state.play.view();
    let playing = state.play.status() == Status::Playing;
    let overlay = state.overlay.as_ref().filter(|_| state.hint && playing);
    (0..view.height())
        .map(|y| {
            let mut spans: Vec<Span> = (0..view.width())
                .map(|x| {
                    let p = Pos::new(x, y);
                    let (glyph, mut style) = glyph(state, overlay, p);
                    if p == state.cursor {
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    Span::styled(format!(" {glyph}"), style)
                })
                .collect();
            spans.push(Span::raw(" "));
            Line::from(spans)
        })
        .collect()
}

/// A cell's glyph and style. Hidden `·`, flag `F`, numbers in the classic colours; at the end,
/// mines `*` (the one hit on red) and wrong flags `x`; under the overlay, safe `o`, certain mine
/// `!`, the recommended cell `+`, and every hidden cell's probability as a colour.
fn glyph(state: &State, overlay: Option<&Overlay>, p: Pos) -> (char, Style) {
    let play = &state.play;
    let status = play.status();
    let mine = play.game().is_some_and(|g| g.layout().is_mine(p));
    let plain = Style::default();
    match play.view().get(p) {
        Cell::Revealed(0) => (' ', plain),
        Cell::Revealed(n) => (char::from(b'0' + n), number_style(n)),
        Cell::Flagged if status == Status::Lost && !mine => ('x', plain.fg(Color::Red)),
        Cell::Flagged => ('F', plain.fg(Color::Red).add_modifier(Modifier::BOLD)),
        Cell::Hidden if play.hit() == Some(p) => ('*', plain.bg(Color::Red).fg(Color::White)),
        Cell::Hidden if status == Status::Lost && mine => ('*', plain.add_modifier(Modifier::BOLD)),
        Cell::Hidden if status == Status::Won => ('F', plain.fg(Color::Red)),
        Cell::Hidden => match overlay {
            Some(o) => hinted(o, p),
            None => ('·', plain.fg(Color::DarkGray)),
        },
    }
}

/// A hidden cell under the overlay.
fn hinted(overlay: &Overlay, p: Pos) -> (char, Style) {
    let Some(q) = overlay.probability(p) else {
        return ('·', Style::default().fg(Color::DarkGray));
    };
    let best = overlay
        .analysis
        .as_ref()
        .is_ok_and(|a| a.best.is_some_and(|(b, _)| b == p));
    let glyph = if q == 0.0 {
        'o'
    } else if q == 1.0 {
        '!'
    } else if best {
        '+'
    } else {
        '·'
    };
    let style = Style::default().bg(heat(q)).fg(Color::Black);
    let style = if best {
        style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    } else {
        style
    };
    (glyph, style)
}

/// A mine probability as a colour: green at 0, yellow at 1/2, red at 1.
#[must_use]
pub fn heat(q: f64) -> Color {
    let q = q.clamp(0.0, 1.0);
    let red = (2.0 * q).min(1.0);
    let green = (2.0 * (1.0 - q)).min(1.0);
    Color::Rgb((220.0 * red) as u8, (200.0 * green) as u8, 40)
}

/// The classic colours of the numbers (4 and 5, navy and maroon, are lightened to stay readable
/// on a dark terminal).
fn number_style(n: u8) -> Style {
    let colour = match n {
        1 => Color::Blue,
        2 => Color::Green,
        3 => Color::Red,
        4 => Color::Rgb(64, 64, 200),
        5 => Color::Rgb(176, 48, 48),
        6 => Color::Cyan,
        7 => Color::Magenta,
        _ => Color::Gray,
    };
    Style::default().fg(colour).add_modifier(Modifier::BOLD)
}

/// The help, in a box over the middle of the screen.
fn help(frame: &mut Frame, area: Rect) {
    let text = [
        "arrows, hjkl   move the cursor",
        "Space, Enter   reveal (the first click goes anywhere)",
        "f              flag or unflag",
        "c              chord: reveal around a number whose flags are placed",
        "H              hint overlay: exact mine probabilities",
        "               o safe, ! mine, + the recommended cell,",
        "               colour from green (safe) to red (mine)",
        "a              one bot move (first click: (0, 0) safe, (3, 3) opening)",
        "A              the bot plays to the end (any key stops it)",
        "s, w           save the view (.mine), the game as a replay",
        "r              next game",
        "q              quit",
        "mouse          left reveals (on a number: chords), right flags",
        "any other key closes this help",
    ];
    let width = (text.iter().map(|l| l.len()).max().unwrap_or(0) as u16 + 4).min(area.width);
    let height = (text.len() as u16 + 2).min(area.height);
    let r = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let block = Block::default().borders(Borders::ALL).title(" help ");
    let lines: Vec<Line> = text.iter().map(|l| Line::raw(format!(" {l}"))).collect();
    frame.render_widget(Clear, r);
    frame.render_widget(Paragraph::new(lines).block(block), r);
}

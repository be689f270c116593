//! Drawing the screen from the [`State`]: a pure function of the state and the terminal's size.
//!
//! One notation throughout: a piece is its symbol (see [`symbol`]) in its colour, and wherever a
//! piece stands outside the board (the pieces left, the piece in hand, a move in the message) its
//! four bits follow the symbol, `[O]1111`, the notation of the line mode and of `quarto`.

use cp_puzzles::quarto::book::moves;
use cp_puzzles::quarto::{Cell, Outcome, Piece};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::state::{symbol, Message, Part, Stage, State};

/// The widths of the board, of the pieces left and of the values, and the height of the three.
const BOARD_WIDTH: u16 = 22;
const PIECES_WIDTH: u16 = 38;
const VALUES_WIDTH: u16 = 18;
const TOP: u16 = 8;

/// The help, two lines that fit under the board and the pieces.
const HELP: [&str; 2] = [
    "arrows/jkl move, Enter confirm, h hint, a values,",
    "u undo, n new game, ? help, q quit",
];

/// The smallest terminal (columns, rows) that shows `state` whole.
#[must_use]
pub fn needed(state: &State) -> (u16, u16) {
    (width(state), TOP + bottom(state).len() as u16)
}

fn width(state: &State) -> u16 {
    let values = if state.annotate { VALUES_WIDTH } else { 0 };
    BOARD_WIDTH + PIECES_WIDTH + values
}

/// Draws the whole screen, or a notice if the terminal is too small for it.
pub fn draw(state: &State, frame: &mut Frame) {
    let area = frame.area();
    let need = needed(state);
    if area.width < need.0 || area.height < need.1 {
        let text = format!(
            "the game needs a terminal of at least {} x {} (columns x rows), this one is {} x {}; q quits",
            need.0, need.1, area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let (x, y) = (area.x, area.y);
    let block = |title: &'static str| Block::default().borders(Borders::ALL).title(title);
    frame.render_widget(
        Paragraph::new(board(state)).block(block("board")),
        Rect::new(x, y, BOARD_WIDTH, TOP),
    );
    frame.render_widget(
        Paragraph::new(pieces(state)).block(block("pieces left")),
        Rect::new(x + BOARD_WIDTH, y, PIECES_WIDTH, TOP),
    );
    if state.annotate {
        let title = match state.stage {
            _ if state.game.outcome().is_some() => "values",
            Stage::Place => "values by cell",
            Stage::Give(_) => "values by piece",
        };
        frame.render_widget(
            Paragraph::new(values(state)).block(block(title)),
            Rect::new(x + BOARD_WIDTH + PIECES_WIDTH, y, VALUES_WIDTH, TOP),
        );
    }
    let lines = bottom(state);
    let height = lines.len() as u16;
    frame.render_widget(
        Paragraph::new(lines),
        Rect::new(x, y + TOP, area.width, height),
    );
}

/// A piece's symbol in its colour (bit 3: cyan 0, yellow 1).
fn glyph(p: Piece) -> Span<'static> {
    let color = if p.index() >> 3 & 1 == 1 {
        Color::Yellow
    } else {
        Color::Cyan
    };
    Span::styled(symbol(p), Style::default().fg(color))
}

/// A piece's symbol and its four bits: `[O]1111`.
fn named(p: Piece) -> [Span<'static>; 2] {
    [glyph(p), Span::raw(p.to_string())]
}

/// The board with its row and column labels, and the piece in hand (none once it stands on the
/// cell chosen for it).
fn board(state: &State) -> Vec<Line<'static>> {
    let game = &state.game;
    let win: Vec<Cell> = game.winning_cells();
    let mut lines = vec![Line::from("     0   1   2   3")];
    for r in 0..4u8 {
        let mut spans = vec![Span::raw(format!(" {r}  "))];
        for c in 0..4u8 {
            let cell = Cell::new(r, c).expect("in range");
            let pending = state.stage == Stage::Give(Some(cell));
            let shown = game.board().get(cell).or(game.hand().filter(|_| pending));
            let mut span = shown.map_or(Span::raw(" . "), glyph);
            if win.contains(&cell) {
                span = span.add_modifier(Modifier::REVERSED);
            }
            if state.stage == Stage::Place && state.cell == cell.index() || pending {
                span = span.add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
            }
            spans.push(span);
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    let mut hand = vec![Span::raw(" in hand: ")];
    match state.in_hand() {
        Some(p) => hand.extend(named(p)),
        None => hand.push(Span::raw("-")),
    }
    lines.push(Line::from(hand));
    lines
}

/// The pieces left to give, 4 by 4 in the order of their bits, then what the bits mean.
fn pieces(state: &State) -> Vec<Line<'static>> {
    let free = state.free_pieces();
    let giving = matches!(state.stage, Stage::Give(_));
    let mut lines = Vec::new();
    for r in 0..4u8 {
        let mut spans = vec![Span::raw(" ")];
        for c in 0..4u8 {
            let p = Piece::new(r * 4 + c).expect("below 16");
            let mut entry: Vec<Span> = if free >> p.index() & 1 == 1 {
                named(p).into()
            } else {
                vec![Span::raw("       ")]
            };
            if giving && state.piece == p.index() {
                for span in &mut entry {
                    *span = span
                        .clone()
                        .add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
                }
            }
            spans.extend(entry);
            if c < 3 {
                spans.push(Span::raw("  "));
            }
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(" bits: colour yellow=1xxx, X/O=x1xx"));
    lines.push(Line::from("       [ ]=xx1x, O/o hollow=xxx1"));
    lines
}

/// The grid of values: by cell while placing, by piece while giving.
fn values(state: &State) -> Vec<Line<'static>> {
    if state.game.outcome().is_some() {
        return vec![Line::from("game over")];
    }
    if state.values.is_none() && state.partial.is_empty() {
        return vec![Line::from("computing…")];
    }
    let grid = state.value_grid();
    let mut lines: Vec<Line> = (0..4)
        .map(|r| {
            let spans: Vec<Span> = (0..4)
                .map(|c| {
                    grid[r * 4 + c].map_or(Span::raw("  · "), |o| {
                        let color = match o {
                            Outcome::Win(_) => Color::Green,
                            Outcome::Draw => Color::Reset,
                            Outcome::Loss(_) => Color::Red,
                        };
                        Span::styled(format!("{:>3} ", short(o)), Style::default().fg(color))
                    })
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    if state.values.is_none() {
        let total = state
            .game
            .hand()
            .map_or(0, |hand| moves(&state.game.board(), hand).len());
        lines.push(Line::from(format!(
            "valued {}/{total}…",
            state.partial.len()
        )));
    }
    lines
}

/// An outcome in a grid's cell: `W3` (win in 3), `D` (draw), `L2` (loss in 2).
fn short(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(n) => format!("W{n}"),
        Outcome::Draw => "D".into(),
        Outcome::Loss(n) => format!("L{n}"),
    }
}

/// The lines under the board: who plays (or how the game ended), the message, what the values
/// mean when they are shown, and the help when asked for.
fn bottom(state: &State) -> Vec<Line<'static>> {
    let status = match state.result() {
        Some(result) => format!("game over: {result} (n: new game, q: quit)"),
        None => format!(
            "player 1: {}  player 2: {}  to move: player {}",
            state.players[0],
            state.players[1],
            state.game.to_move()
        ),
    };
    let mut lines = vec![Line::from(status), message(&state.message)];
    if state.annotate {
        lines.push(Line::from(
            "values for you: W3 win in 3, D draw, L2 loss in 2",
        ));
    }
    if state.help {
        lines.extend(HELP.map(Line::from));
    }
    lines
}

/// The message, each piece it names drawn as its symbol and bits.
fn message(m: &Message) -> Line<'static> {
    let spans: Vec<Span> = m
        .parts()
        .flat_map(|part| match part {
            Part::Text(text) => vec![Span::raw(text.to_string())],
            Part::Piece(p) => named(p).into(),
        })
        .collect();
    Line::from(spans)
}

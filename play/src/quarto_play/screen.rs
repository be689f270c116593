//! The full-screen mode: the state of the screen, what the keys do, and how it is drawn.

use cp_puzzles::quarto::{Cell, Move, Piece, Value};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::distance::Outlook;
use super::game::Game;
use super::players::Level;

/// What the human is choosing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// A cell for the piece in hand.
    Place,
    /// A piece to give (after placing on `Some(cell)`, or at the start).
    Give(Option<Cell>),
}

/// The screen's state.
#[derive(Clone, Debug)]
pub struct Screen {
    pub game: Game,
    pub players: [Level; 2],
    /// The cursor on the board, row-major 0 to 15.
    pub cell: u8,
    /// The cursor in the piece panel, 0 to 15.
    pub piece: u8,
    pub stage: Stage,
    /// One line for the player: a hint, an error, the result.
    pub message: String,
    pub help: bool,
    /// Whether every legal move's value is shown (the `a` key).
    pub annotate: bool,
    /// The values of the legal moves in this position, once computed.
    pub values: Option<Vec<(Move, Outlook)>>,
}

impl Screen {
    /// A screen for a new game.
    #[must_use]
    pub fn new(game: Game, players: [Level; 2]) -> Screen {
        let stage = if game.hand().is_some() {
            Stage::Place
        } else {
            Stage::Give(None)
        };
        Screen {
            game,
            players,
            cell: 0,
            piece: 0,
            stage,
            message: "arrows choose, Enter confirms, ? help".into(),
            help: false,
            annotate: false,
            values: None,
        }
    }

    /// Moves the cursor of the current stage by `(dr, dc)`.
    pub fn cursor(&mut self, dr: i8, dc: i8) {
        let step = |v: u8| {
            let (r, c) = ((v / 4) as i8, (v % 4) as i8);
            (((r + dr).rem_euclid(4)) * 4 + (c + dc).rem_euclid(4)) as u8
        };
        match self.stage {
            Stage::Place => self.cell = step(self.cell),
            Stage::Give(_) => self.piece = step(self.piece),
        }
    }

    /// Confirms the cursor's cell or piece; plays the move once it is complete.
    pub fn confirm(&mut self) {
        let mv = match self.stage {
            Stage::Place => {
                let cell = Cell::from_index(self.cell);
                let lone = Move {
                    place: Some(cell),
                    give: None,
                };
                if self.game.play(lone).is_ok() {
                    self.after_move();
                    return;
                }
                if self.game.board().get(cell).is_some() {
                    self.message = "that cell is taken".into();
                    return;
                }
                self.stage = Stage::Give(Some(cell));
                self.message = "now choose a piece to give".into();
                return;
            }
            Stage::Give(place) => Move {
                place,
                give: Piece::new(self.piece),
            },
        };
        match self.game.play(mv) {
            Ok(()) => self.after_move(),
            Err(why) => self.message = why,
        }
    }

    fn after_move(&mut self) {
        self.stage = if self.game.hand().is_some() {
            Stage::Place
        } else {
            Stage::Give(None)
        };
        self.message.clear();
    }

    /// The values to show in the grid: by cell (the best gift's) while placing, by piece while
    /// giving; `None` where there is nothing to show.
    #[must_use]
    pub fn value_grid(&self) -> [Option<Outlook>; 16] {
        let mut grid = [None; 16];
        let Some(values) = &self.values else {
            return grid;
        };
        for (mv, outlook) in values {
            let slot = match self.stage {
                Stage::Place => mv.place.map(Cell::index),
                Stage::Give(place) if mv.place == place => mv.give.map(Piece::index),
                Stage::Give(_) => None,
            };
            if let Some(i) = slot {
                let best = &mut grid[usize::from(i)];
                if best.is_none_or(|b: Outlook| outlook.rank() > b.rank()) {
                    *best = Some(*outlook);
                }
            }
        }
        grid
    }
}

fn glyph(p: Piece) -> Span<'static> {
    // Bit 3: colour; bit 2: letter case; bit 1: brackets; bit 0: hollow or solid.
    let i = p.index();
    let core = match (i >> 2 & 1, i & 1) {
        (1, 1) => "O",
        (1, _) => "X",
        (_, 1) => "o",
        _ => "x",
    };
    let text = if i >> 1 & 1 == 1 {
        format!("[{core}]")
    } else {
        format!("({core})")
    };
    let color = if i >> 3 & 1 == 1 {
        Color::Yellow
    } else {
        Color::Cyan
    };
    Span::styled(text, Style::default().fg(color))
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, s: &Screen) {
    let [top, bottom] =
        Layout::vertical([Constraint::Length(9), Constraint::Min(4)]).areas(frame.area());
    let values_width = if s.annotate { 18 } else { 0 };
    let [board_area, panel_area, values_area] = Layout::horizontal([
        Constraint::Length(26),
        Constraint::Min(20),
        Constraint::Length(values_width),
    ])
    .areas(top);
    if s.annotate {
        draw_values(frame, s, values_area);
    }
    let win: Vec<Cell> = s.game.winning_cells();
    let mut lines = vec![Line::from("     0   1   2   3")];
    for r in 0..4u8 {
        let mut spans = vec![Span::raw(format!(" {r}  "))];
        for c in 0..4u8 {
            let cell = Cell::new(r, c).expect("in range");
            let pending = s.stage == Stage::Give(Some(cell));
            let shown = s
                .game
                .board()
                .get(cell)
                .or(s.game.hand().filter(|_| pending));
            let mut span = shown.map_or(Span::raw(" . "), glyph);
            if win.contains(&cell) {
                span = span.add_modifier(Modifier::REVERSED);
            }
            if s.stage == Stage::Place && s.cell == cell.index()
                || s.stage == Stage::Give(Some(cell))
            {
                span = span.add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
            }
            spans.push(span);
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    let hand = s.game.hand().map_or(Span::raw("-"), glyph);
    lines.push(Line::from(vec![Span::raw(" in hand: "), hand]));
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title("board")),
        board_area,
    );
    let unused = s.game.board().unused();
    let mut panel = Vec::new();
    for r in 0..4u8 {
        let mut spans = Vec::new();
        for c in 0..4u8 {
            let p = Piece::new(r * 4 + c).expect("below 16");
            let mut span = if unused.contains(p) && Some(p) != s.game.hand() {
                glyph(p)
            } else {
                Span::raw("   ")
            };
            if matches!(s.stage, Stage::Give(_)) && s.piece == p.index() {
                span = span.add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
            }
            spans.push(span);
            spans.push(Span::raw(" "));
        }
        panel.push(Line::from(spans));
    }
    panel.push(Line::from("bits: colour yellow=1xxx, X/O=x1xx"));
    panel.push(Line::from("      [ ]=xx1x, O/o hollow=xxx1"));
    frame.render_widget(
        Paragraph::new(panel).block(Block::default().borders(Borders::ALL).title("pieces left")),
        panel_area,
    );
    let to_move = s.game.to_move();
    let status = match s.game.outcome() {
        Some(_) => format!("game over: {}", s.message),
        None => format!(
            "player 1: {}  player 2: {}  to move: player {to_move}",
            s.players[0], s.players[1]
        ),
    };
    let mut text = vec![Line::from(status), Line::from(s.message.clone())];
    if s.annotate {
        text.push(Line::from(
            "values for you: W3 win in 3, D draw, L2 loss in 2 (W, L: too far to count)",
        ));
    }
    if s.help {
        text.push(Line::from(
            "arrows/jkl move, Enter confirm, h hint, a values, u undo, n new, q quit",
        ));
    }
    frame.render_widget(Paragraph::new(text), bottom);
}

/// The grid of values: by cell while placing, by piece while giving.
fn draw_values(frame: &mut Frame, s: &Screen, area: ratatui::layout::Rect) {
    let grid = s.value_grid();
    let mut lines = Vec::new();
    if s.values.is_none() {
        lines.push(Line::from("computing…"));
    } else {
        for r in 0..4 {
            let spans: Vec<Span> = (0..4)
                .map(|c| {
                    grid[r * 4 + c].map_or(Span::raw("  · "), |o| {
                        let color = match o.value {
                            Value::Win => Color::Green,
                            Value::Draw => Color::Reset,
                            Value::Loss => Color::Red,
                        };
                        Span::styled(format!("{:>3} ", o.short()), Style::default().fg(color))
                    })
                })
                .collect();
            lines.push(Line::from(spans));
        }
    }
    let title = match s.stage {
        Stage::Place => "values by cell",
        Stage::Give(_) => "values by piece",
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

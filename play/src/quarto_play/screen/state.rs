//! The full-screen mode's state and its transitions: no drawing, no terminal and no threads
//! here. The state says what it needs computed as [`Request`]s; the terminal loop carries them
//! out on the workers and hands their answers back as [`Action::Answer`].

use std::fmt;

use cp_puzzles::quarto::book::moves;
use cp_puzzles::quarto::Outcome as MoveOutcome;
use cp_puzzles::quarto::{Cell, Move, MoveValue, Piece, Position};

use super::super::game::{Game, Outcome};
use super::super::players::Level;
use super::super::worker::{Answer, Task};

/// What the human is choosing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// A cell for the piece in hand.
    Place,
    /// A piece to give (after placing on `Some(cell)`, or at the start).
    Give(Option<Cell>),
}

/// What the player asks for (from a key), or what a worker answered.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// Moves the cursor of the current stage by rows and columns.
    Cursor(i8, i8),
    /// Confirms the cell or the piece under the cursor.
    Confirm,
    Hint,
    /// Shows or hides the value of every legal move.
    Values,
    /// Takes back moves up to the last human move.
    Undo,
    NewGame,
    Help,
    Quit,
    /// A worker's answer about the current position.
    Answer(Answer),
}

/// What the state needs from the workers, in order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Request {
    /// The position changed: every answer asked for before is stale.
    Forget,
    /// Think about a task in a position ([`Task::Annotate`] on the values' worker, the rest on
    /// the computer's).
    Think(Task, Position),
}

/// The message line: a hint, an error, the computer's last move.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Message {
    text: String,
    /// The pieces named in the message, each at a byte offset of `text`: ascending, each on a
    /// character boundary.
    pieces: Vec<(usize, Piece)>,
}

/// A part of a [`Message`]: text, or a piece (shown as its symbol and its bits).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part<'a> {
    Text(&'a str),
    Piece(Piece),
}

impl Message {
    /// A message of plain text.
    #[must_use]
    pub fn plain(text: impl Into<String>) -> Message {
        Message {
            text: text.into(),
            pieces: Vec::new(),
        }
    }

    /// `prefix`, the move (its gift named as a piece), then `suffix`.
    #[must_use]
    pub fn with_move(prefix: &str, mv: Move, suffix: &str) -> Message {
        let mut m = Message::plain(prefix);
        if let Some(cell) = mv.place {
            m.text += &format!("place {} {}", cell.row(), cell.col());
        }
        if let Some(gift) = mv.give {
            if mv.place.is_some() {
                m.text.push(' ');
            }
            m.text += "give ";
            m.pieces.push((m.text.len(), gift));
        }
        m.text += suffix;
        m
    }

    /// The message's parts in order.
    pub fn parts(&self) -> impl Iterator<Item = Part<'_>> {
        let mut at = 0;
        let mut parts = Vec::new();
        for &(offset, piece) in &self.pieces {
            parts.push(Part::Text(&self.text[at..offset]));
            parts.push(Part::Piece(piece));
            at = offset;
        }
        parts.push(Part::Text(&self.text[at..]));
        parts.into_iter().filter(|p| *p != Part::Text(""))
    }
}

/// The message as plain text, each piece as its symbol and bits (`[O]1111`).
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in self.parts() {
            match part {
                Part::Text(text) => f.write_str(text)?,
                Part::Piece(p) => write!(f, "{}{p}", symbol(p))?,
            }
        }
        Ok(())
    }
}

/// A piece's symbol, three characters: bit 2 the letter's case (`X O` or `x o`), bit 1 the
/// brackets (`[ ]` or `( )`), bit 0 solid `x` or hollow `o`; bit 3 is the colour, which the
/// drawing adds (cyan 0, yellow 1).
#[must_use]
pub fn symbol(p: Piece) -> String {
    let i = p.index();
    let core = match (i >> 2 & 1, i & 1) {
        (1, 1) => 'O',
        (1, _) => 'X',
        (_, 1) => 'o',
        _ => 'x',
    };
    if i >> 1 & 1 == 1 {
        format!("[{core}]")
    } else {
        format!("({core})")
    }
}

/// What has been asked of the workers and not yet answered.
#[derive(Clone, Copy, Default, Debug)]
struct Waiting {
    computer: bool,
    hint: bool,
    values: bool,
}

/// Everything the screen shows, and what it waits for.
#[derive(Clone, Debug)]
pub struct State {
    pub game: Game,
    pub players: [Level; 2],
    /// The cursor on the board, row-major 0 to 15.
    pub cell: u8,
    /// The cursor in the piece panel, 0 to 15; on a free piece whenever a piece is to be given.
    pub piece: u8,
    pub stage: Stage,
    pub message: Message,
    pub help: bool,
    /// Whether every legal move's value is shown.
    pub annotate: bool,
    /// The values of the legal moves in this position, once computed (best first).
    pub values: Option<Vec<MoveValue>>,
    /// While they are computed, the lines valued so far, in the solver's move order (cell, then
    /// gift), each final: a run of whole cells and maybe the first moves of the next.
    pub partial: Vec<MoveValue>,
    pub quit: bool,
    waiting: Waiting,
    /// The requests not yet taken by the terminal loop.
    requests: Vec<Request>,
}

impl State {
    /// The screen of a new `game` between `players`, asking for the computer's move if it is
    /// the computer's turn.
    #[must_use]
    pub fn new(game: Game, players: [Level; 2]) -> State {
        let mut s = State {
            game,
            players,
            cell: 0,
            piece: 0,
            stage: Stage::Place,
            message: Message::default(),
            help: false,
            annotate: false,
            values: None,
            partial: Vec::new(),
            quit: false,
            waiting: Waiting::default(),
            requests: Vec::new(),
        };
        s.position_changed();
        // Nothing was asked before: nothing to forget.
        s.requests.clear();
        s.ask();
        s
    }

    /// The requests made since the last call, in order.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// Whether the human is to move in a game not over.
    #[must_use]
    pub fn humans_turn(&self) -> bool {
        self.game.outcome().is_none() && !self.computer_to_move()
    }

    fn computer_to_move(&self) -> bool {
        self.level(self.game.to_move()) != Level::Human
    }

    fn level(&self, player: u8) -> Level {
        self.players[usize::from(player) - 1]
    }

    /// Applies `action`, then asks for what the new state needs.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Quit => self.quit = true,
            Action::Cursor(dr, dc) => self.move_cursor(dr, dc),
            Action::Confirm if self.humans_turn() => self.confirm(),
            Action::Hint if self.humans_turn() && !self.waiting.hint => self.hint(),
            Action::Confirm | Action::Hint => {}
            Action::Values => self.annotate = !self.annotate,
            Action::Undo => {
                while self.game.undo() && self.computer_to_move() {}
                self.position_changed();
                self.message = Message::plain("undone");
            }
            Action::NewGame => {
                self.game = Game::new(self.game.first);
                self.position_changed();
            }
            Action::Help => self.help = !self.help,
            Action::Answer(answer) => self.receive(answer),
        }
        self.ask();
    }

    /// The hint for the stage: the best move while placing; once a cell is chosen, the best move
    /// that places there (its gift is the hint). Answered at once from the values when they are
    /// shown (their first line, or the first placing on the chosen cell), else asked for.
    fn hint(&mut self) {
        let chosen = self.chosen_cell();
        let shown = self.values.as_ref().and_then(|values| {
            values
                .iter()
                .find(|line| chosen.is_none() || line.mv.place == chosen)
        });
        if let Some(line) = shown {
            let outcome = format!(" ({})", line.outcome);
            self.message = Message::with_move("hint: ", line.mv, &outcome);
            return;
        }
        let task = chosen.map_or(Task::Hint, Task::HintAt);
        self.message = Message::plain("hint: thinking…");
        self.requests
            .push(Request::Think(task, self.game.position()));
        self.waiting.hint = true;
    }

    /// The cell chosen for the piece in hand while the gift is chosen, if any.
    fn chosen_cell(&self) -> Option<Cell> {
        match self.stage {
            Stage::Give(cell) => cell,
            Stage::Place => None,
        }
    }

    /// Moves the cell cursor (wrapping around the board), or the piece cursor to a free piece.
    fn move_cursor(&mut self, dr: i8, dc: i8) {
        match self.stage {
            Stage::Place => {
                let (r, c) = ((self.cell / 4) as i8, (self.cell % 4) as i8);
                self.cell = ((r + dr).rem_euclid(4) * 4 + (c + dc).rem_euclid(4)) as u8;
            }
            Stage::Give(_) => self.piece = step_piece(self.free_pieces(), self.piece, dr, dc),
        }
    }

    /// The piece in the mover's hand as the screen shows it: the game's, until a cell is chosen
    /// for it; from then on it stands on that cell (drawn there), and the hand is empty while the
    /// gift is chosen.
    #[must_use]
    pub fn in_hand(&self) -> Option<Piece> {
        match self.stage {
            Stage::Give(Some(_)) => None,
            Stage::Place | Stage::Give(None) => self.game.hand(),
        }
    }

    /// The pieces that may be given: not on the board, not in hand.
    #[must_use]
    pub fn free_pieces(&self) -> u16 {
        let unused = self.game.board().unused();
        (0..16u8)
            .filter_map(Piece::new)
            .filter(|&p| unused.contains(p) && Some(p) != self.game.hand())
            .fold(0, |set, p| set | 1 << p.index())
    }

    /// Confirms the cursor's cell or piece; plays the move once it is complete.
    fn confirm(&mut self) {
        let mv = match self.stage {
            Stage::Place => {
                let cell = Cell::from_index(self.cell);
                let lone = Move {
                    place: Some(cell),
                    give: None,
                };
                if self.game.play(lone).is_ok() {
                    self.position_changed();
                    return;
                }
                if self.game.board().get(cell).is_some() {
                    self.message = Message::plain("that cell is taken");
                    return;
                }
                self.stage = Stage::Give(Some(cell));
                self.piece = first_free(self.free_pieces());
                self.message = Message::plain("now choose a piece to give");
                // A hint asked while placing may name another cell: `h` asks anew.
                self.waiting.hint = false;
                return;
            }
            Stage::Give(place) => Move {
                place,
                give: Piece::new(self.piece),
            },
        };
        match self.game.play(mv) {
            Ok(()) => self.position_changed(),
            Err(why) => self.message = Message::plain(why),
        }
    }

    /// A fresh screen for the position (keeping the help and the values toggle), every pending
    /// answer made stale. Once the game is over the news line keeps the move that ended it,
    /// whoever made it (`player 1: place 0 3`).
    fn position_changed(&mut self) {
        self.requests.push(Request::Forget);
        self.waiting = Waiting::default();
        self.values = None;
        self.partial.clear();
        self.cell = 0;
        self.stage = if self.game.hand().is_some() {
            Stage::Place
        } else {
            Stage::Give(None)
        };
        self.piece = first_free(self.free_pieces());
        self.message = match (self.game.outcome(), self.game.moves().last()) {
            (Some(_), Some(&last)) => {
                Message::with_move(&format!("player {}: ", self.game.to_move()), last, "")
            }
            _ => Message::plain("arrows choose, Enter confirms, ? help"),
        };
    }

    /// Asks for what the screen needs: the computer's move on its turn, the values on the
    /// human's turn when they are shown; nothing once the game is over.
    fn ask(&mut self) {
        if self.game.outcome().is_some() {
            return;
        }
        if self.computer_to_move() {
            if !self.waiting.computer {
                let player = self.game.to_move();
                let level = self.level(player);
                self.message = Message::plain(format!("player {player} ({level}) thinking…"));
                self.requests
                    .push(Request::Think(Task::Move(level), self.game.position()));
                self.waiting.computer = true;
            }
        } else if self.annotate && self.values.is_none() && !self.waiting.values {
            self.requests
                .push(Request::Think(Task::Annotate, self.game.position()));
            self.waiting.values = true;
        }
    }

    /// Takes in a worker's answer about the current position (a move that is not legal here
    /// is stale, and dropped).
    fn receive(&mut self, answer: Answer) {
        match answer {
            Answer::Move(mv) => {
                let player = self.game.to_move();
                if !self.computer_to_move() || self.game.play(mv).is_err() {
                    return;
                }
                self.position_changed();
                self.message = Message::with_move(&format!("player {player}: "), mv, "");
            }
            Answer::Hint(mv, outcome) => {
                // A hint asked before a cell was chosen is stale unless it places there.
                if self
                    .chosen_cell()
                    .is_some_and(|cell| mv.place != Some(cell))
                {
                    return;
                }
                self.waiting.hint = false;
                self.message = Message::with_move("hint: ", mv, &format!(" ({outcome})"));
            }
            Answer::Annotations(values) => {
                self.waiting.values = false;
                self.values = Some(values);
                self.partial.clear();
            }
            Answer::SomeAnnotations(lines) => {
                if self.values.is_none() {
                    self.partial = lines;
                }
            }
        }
    }

    /// How the game ended, in words, if it has.
    #[must_use]
    pub fn result(&self) -> Option<String> {
        self.game.outcome().map(|o| match o {
            Outcome::Win(p) => format!("player {p} wins"),
            Outcome::Draw => "draw".to_string(),
        })
    }

    /// The values to show in the grid: by cell (the best gift's) while placing, by piece while
    /// giving; `None` where there is nothing to show. While the values are computed, a cell shows
    /// once all its moves are valued and a piece once its move is.
    #[must_use]
    pub fn value_grid(&self) -> [Option<MoveOutcome>; 16] {
        let mut grid = [None; 16];
        let (lines, done) = match &self.values {
            Some(values) => (values, true),
            None => (&self.partial, false),
        };
        // While placing, a cell shows once as many of its moves are in as it has.
        let (mut moves_of, mut valued) = ([0u8; 16], [0u8; 16]);
        if let (false, Some(hand)) = (done, self.game.hand()) {
            for mv in moves(&self.game.board(), hand) {
                moves_of[usize::from(mv.place.map_or(0, Cell::index))] += 1;
            }
            for line in lines {
                valued[usize::from(line.mv.place.map_or(0, Cell::index))] += 1;
            }
        }
        for MoveValue { mv, outcome } in lines {
            let slot = match self.stage {
                Stage::Place => mv
                    .place
                    .map(Cell::index)
                    .filter(|&i| done || valued[usize::from(i)] == moves_of[usize::from(i)]),
                Stage::Give(place) if mv.place == place => mv.give.map(Piece::index),
                Stage::Give(_) => None,
            };
            if let Some(i) = slot {
                let best = &mut grid[usize::from(i)];
                if best.is_none_or(|b| rank(*outcome) > rank(b)) {
                    *best = Some(*outcome);
                }
            }
        }
        grid
    }
}

/// An order of outcomes from worst to best for the mover: losses (later is better), draws, wins
/// (sooner is better).
fn rank(outcome: MoveOutcome) -> i32 {
    match outcome {
        MoveOutcome::Win(n) => 1000 - n as i32,
        MoveOutcome::Draw => 0,
        MoveOutcome::Loss(n) => -1000 + n as i32,
    }
}

/// The first free piece of the set `free` (bit i for piece i), or 0 if none is free.
fn first_free(free: u16) -> u8 {
    if free == 0 {
        0
    } else {
        free.trailing_zeros() as u8
    }
}

/// Where the piece cursor goes from `at` among the `free` pieces (bit i for piece i, laid out
/// 4 by 4): across, the next free piece in reading order (wrapping around); up or down, the
/// free piece nearest in column in the next row that has one (wrapping around); it stays if
/// there is none.
#[must_use]
pub fn step_piece(free: u16, at: u8, dr: i8, dc: i8) -> u8 {
    let is_free = |i: i8| free >> i.rem_euclid(16) & 1 == 1;
    let at = at as i8;
    if dc != 0 {
        let step = dc.signum();
        return (1..=16)
            .map(|k| (at + step * k).rem_euclid(16))
            .find(|&i| is_free(i))
            .unwrap_or(at) as u8;
    }
    if dr == 0 {
        return at as u8;
    }
    let (row, col) = (at / 4, at % 4);
    for k in 1..4 {
        let r = (row + dr.signum() * k).rem_euclid(4);
        let nearest = (0..4)
            .filter(|&c| is_free(r * 4 + c))
            .min_by_key(|&c| ((c - col).abs(), c));
        if let Some(c) = nearest {
            return (r * 4 + c) as u8;
        }
    }
    at as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces reached from `at` by repeating one step, in order, until it comes back.
    fn walk(free: u16, at: u8, dr: i8, dc: i8) -> Vec<u8> {
        let mut seen = vec![at];
        let mut p = at;
        for _ in 0..20 {
            p = step_piece(free, p, dr, dc);
            if p == at {
                break;
            }
            seen.push(p);
        }
        seen
    }

    #[test]
    fn the_piece_cursor_steps_between_free_pieces_only() {
        // Every subset of a few shapes: the step always lands on a free piece, and across it
        // visits every free piece once before coming back.
        for free in [
            0b1u16, 0x8001, 0x0f0f, 0xa5a5, 0x1248, 0xfffe, 0x00f0, 0xffff,
        ] {
            let start = first_free(free);
            for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                for p in walk(free, start, dr, dc) {
                    assert_eq!(free >> p & 1, 1, "{free:#06x} {dr},{dc} lands on {p}");
                }
            }
            let mut across = walk(free, start, 0, 1);
            across.sort_unstable();
            let all: Vec<u8> = (0..16).filter(|i| free >> i & 1 == 1).collect();
            assert_eq!(across, all, "{free:#06x}");
        }
        // Down from piece 1 when row 1 holds pieces 4 and 7 only: the nearest, 4.
        assert_eq!(step_piece(0b1001_0010, 1, 1, 0), 4);
        // Up from piece 1 wraps to the last row that has a free piece (row 2: 11).
        assert_eq!(step_piece(0b1000_0000_0010, 1, -1, 0), 11);
    }

    #[test]
    fn a_message_names_a_move_in_symbols_and_bits() {
        let mv = Move {
            place: Cell::new(1, 2),
            give: Piece::new(0b0101),
        };
        let m = Message::with_move("player 2: ", mv, " (draw)");
        assert_eq!(m.to_string(), "player 2: place 1 2 give (O)0101 (draw)");
        let first = Move {
            place: None,
            give: Piece::new(0b1110),
        };
        assert_eq!(
            Message::with_move("", first, "").to_string(),
            "give [X]1110"
        );
        let last = Move {
            place: Cell::new(3, 3),
            give: None,
        };
        assert_eq!(Message::with_move("", last, "").to_string(), "place 3 3");
        assert_eq!(
            m.parts().collect::<Vec<_>>(),
            [
                Part::Text("player 2: place 1 2 give "),
                Part::Piece(Piece::new(0b0101).expect("a piece")),
                Part::Text(" (draw)")
            ]
        );
    }
}

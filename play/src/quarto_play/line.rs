//! Line mode: games driven through stdin, one command a line, every computer move printed
//! (in a run of several computer-only games, only each result and the tally unless
//! [`Setup::moves`] asks for the moves).

use std::io::{self, BufRead, Write};

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{Cell, Move};

use super::book::Book;
use super::game::{parse_move, Game, Outcome};
use super::players::{choose, hint, hint_at, Level};
use crate::input::{read_line, Read, MAX_LINE};

/// Who starts a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum First {
    /// Player 1 or 2.
    Player(u8),
    /// A coin flip from the game's seed.
    Random,
}

/// A run's settings.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The levels of players 1 and 2.
    pub players: [Level; 2],
    /// Who gives the first piece.
    pub first: First,
    /// Game `i` (from 0) uses seed `seed + i`.
    pub seed: u64,
    /// The number of games.
    pub games: u64,
    /// The opening book of the perfect player.
    pub book: Book,
    /// Whether every move and each game's `moves:` line are printed in a run of several games
    /// (a single game, or a run with a human, prints the computer's moves anyway).
    pub moves: bool,
}

impl Setup {
    /// Whether the computer's moves are printed as they are played.
    fn prints_moves(&self) -> bool {
        self.moves || self.games == 1 || self.players.contains(&Level::Human)
    }

    /// Whether each game ends with its `moves:` line.
    fn prints_moves_line(&self) -> bool {
        self.moves || self.games == 1
    }
}

/// The commands, for the message on a line that is none of them.
const COMMANDS: &str =
    "give PPPP, place R C give PPPP, place R C, hint, undo, board, save FILE or quit";

/// Plays the run's games, reading human moves from `input` and writing to `output`.
///
/// # Errors
/// A write error; a read error ends the run like the end of input.
pub fn run<R: BufRead, W: Write>(setup: &Setup, mut input: R, mut output: W) -> io::Result<()> {
    let mut tally = [0u64; 3];
    for i in 0..setup.games {
        let mut rng = Rng::new(setup.seed.wrapping_add(i));
        let first = match setup.first {
            First::Player(p) => p,
            First::Random => 1 + rng.below(2) as u8,
        };
        let mut game = Game::new(first);
        let Some(outcome) = play(setup, &mut game, &mut rng, &mut input, &mut output)? else {
            return output.flush();
        };
        let result = match outcome {
            Outcome::Win(p) => {
                tally[usize::from(p) - 1] += 1;
                format!("player {p} wins")
            }
            Outcome::Draw => {
                tally[2] += 1;
                "draw".to_string()
            }
        };
        writeln!(output, "result: {result}")?;
        if setup.prints_moves_line() {
            let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
            writeln!(output, "moves: {}", moves.join(", "))?;
        }
    }
    if setup.games > 1 {
        writeln!(
            output,
            "tally: player 1 wins {}, player 2 wins {}, draws {}",
            tally[0], tally[1], tally[2]
        )?;
    }
    output.flush()
}

/// Plays one game to its end (`Some`), or until the input ends or `quit` (`None`).
fn play<R: BufRead, W: Write>(
    setup: &Setup,
    game: &mut Game,
    rng: &mut Rng,
    input: &mut R,
    output: &mut W,
) -> io::Result<Option<Outcome>> {
    let mut pending: Option<Cell> = None;
    let mut line = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            return Ok(Some(outcome));
        }
        let player = game.to_move();
        let level = setup.players[usize::from(player) - 1];
        if level != Level::Human {
            let mv = choose(level, &game.position(), &setup.book, rng);
            game.play(mv).expect("computer moves are legal");
            if setup.prints_moves() {
                writeln!(output, "player {player}: {mv}")?;
            }
            continue;
        }
        write!(output, "player {player}> ")?;
        output.flush()?;
        // A read error ends the run like the end of the input.
        match read_line(input, &mut line, MAX_LINE).unwrap_or(Read::End) {
            Read::End => return Ok(None),
            Read::TooLong => {
                writeln!(output, "line too long: over {MAX_LINE} bytes, skipped")?;
                continue;
            }
            Read::Line => {}
        }
        // Bytes that are not UTF-8 read as U+FFFD, which no command has: a bad command.
        let text = String::from_utf8_lossy(&line);
        match command(setup, game, &mut pending, text.trim(), output)? {
            Flow::Continue => {}
            Flow::Quit => return Ok(None),
        }
    }
}

enum Flow {
    Continue,
    Quit,
}

/// Carries out one human command.
fn command<W: Write>(
    setup: &Setup,
    game: &mut Game,
    pending: &mut Option<Cell>,
    line: &str,
    output: &mut W,
) -> io::Result<Flow> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    match words.as_slice() {
        [] => {}
        ["quit"] => return Ok(Flow::Quit),
        ["board"] => write!(output, "{}", show_board(game, *pending))?,
        ["hint"] => {
            // After a lone placement, the best gift for it: the best move placing there.
            match *pending {
                None => {
                    let (mv, value) = hint(&game.position(), &setup.book);
                    writeln!(output, "hint: {mv} ({value})")?;
                }
                Some(cell) => match hint_at(&game.position(), cell, &setup.book) {
                    Some((mv, value)) => writeln!(output, "hint: {mv} ({value})")?,
                    None => writeln!(
                        output,
                        "no hint: cell {} {} is no placement here",
                        cell.row(),
                        cell.col()
                    )?,
                },
            }
        }
        ["undo"] => {
            *pending = None;
            if undo(setup, game) {
                writeln!(output, "undone")?;
            } else {
                writeln!(output, "nothing to undo")?;
            }
        }
        ["save", file] => match std::fs::write(file, game.to_quarto_input()) {
            Ok(()) => writeln!(output, "saved to {file}")?,
            Err(e) => writeln!(output, "cannot save to {file}: {e}")?,
        },
        ["save", ..] => writeln!(output, "expected `save FILE`")?,
        [word @ ("quit" | "board" | "hint" | "undo"), rest @ ..] => {
            writeln!(
                output,
                "expected nothing after {word}, found \"{}\"",
                rest.join(" ")
            )?;
        }
        [word, ..] if !matches!(*word, "give" | "place") => {
            writeln!(output, "expected {COMMANDS}, found \"{word}\"")?;
        }
        _ => {
            let mv = parse_move(line).map(|mv| match (*pending, mv.place) {
                (Some(cell), None) => Move {
                    place: Some(cell),
                    give: mv.give,
                },
                _ => mv,
            });
            match mv {
                Err(why) => writeln!(output, "{why}")?,
                Ok(mv) => try_move(game, pending, mv, output)?,
            }
        }
    }
    Ok(Flow::Continue)
}

/// Plays `mv`, or keeps a lone placement until its gift comes, or says why it is illegal.
fn try_move<W: Write>(
    game: &mut Game,
    pending: &mut Option<Cell>,
    mv: Move,
    output: &mut W,
) -> io::Result<()> {
    match game.play(mv) {
        Ok(()) => *pending = None,
        Err(why) => {
            let needs_gift = mv.give.is_none()
                && mv.place.is_some()
                && game
                    .illegal(Move {
                        place: mv.place,
                        give: game
                            .board()
                            .unused()
                            .into_iter()
                            .find(|&p| Some(p) != game.hand()),
                    })
                    .is_none();
            if needs_gift {
                *pending = mv.place;
                writeln!(output, "now give a piece: give PPPP")?;
            } else {
                writeln!(output, "{why}")?;
            }
        }
    }
    Ok(())
}

/// Takes back moves up to and including the last human move.
fn undo(setup: &Setup, game: &mut Game) -> bool {
    let human = |g: &Game| setup.players[usize::from(g.to_move()) - 1] == Level::Human;
    let mut undone = false;
    while game.undo() {
        undone = true;
        if human(game) {
            break;
        }
    }
    undone
}

/// The board with row and column labels, then the piece in hand.
///
/// Every cell is 4 characters wide, one space apart: a piece's 4 digits fill it, and an empty
/// cell's `.` and the column's label stand in its second character, so that each label is over
/// its column's dots and pieces; the cell of a lone placement awaiting its gift is `[  ]`. No
/// line ends in a space.
#[must_use]
pub fn show_board(game: &Game, pending: Option<Cell>) -> String {
    let labels: Vec<String> = (0..4).map(|col| format!(" {col}  ")).collect();
    let mut s = format!("{}\n", format!("   {}", labels.join(" ")).trim_end());
    for row in 0..4u8 {
        let cells: Vec<String> = (0..4u8)
            .map(|col| {
                let cell = Cell::new(row, col).expect("in range");
                match game.board().get(cell) {
                    Some(p) => p.to_string(),
                    None if pending == Some(cell) => "[  ]".to_string(),
                    None => " .  ".to_string(),
                }
            })
            .collect();
        s += format!("{row}  {}", cells.join(" ")).trim_end();
        s.push('\n');
    }
    match game.hand() {
        Some(p) => s += &format!("in hand: {p}\n"),
        None => s += "in hand: - (give a piece)\n",
    }
    s
}

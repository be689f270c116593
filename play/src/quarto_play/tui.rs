//! The full-screen loop: keys in, screens out. The computer's moves and the hint are computed by
//! one [`Worker`] thread, the values of every move (slow with 3 or 4 pieces placed) by another,
//! so that neither waits for the other; the loop polls the keyboard and the workers' answers, so
//! `q`, `?` and the cursor keys work while the computer thinks.

use std::io;
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::DefaultTerminal;

use super::book::Book;
use super::game::{Game, Outcome};
use super::players::Level;
use super::screen::{draw, Screen};
use super::worker::{Answer, Task, Worker};

/// How long the loop waits for a key before it looks for the worker's answers.
const POLL: Duration = Duration::from_millis(40);

/// Plays in the terminal until `q`. The terminal is restored on every exit path (ratatui's
/// `init` also restores it on a panic).
///
/// # Errors
/// A terminal error.
pub fn run(players: [Level; 2], first: u8, seed: u64, book: &Book) -> io::Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, players, first, seed, book);
    ratatui::restore();
    result
}

/// The two worker threads: one for the computer's moves and the hint, one for the values.
struct Workers {
    thinker: Worker,
    annotator: Worker,
}

/// What the interface has asked the worker and not yet heard back.
#[derive(Default)]
struct Waiting {
    computer: bool,
    hint: bool,
    values: bool,
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    players: [Level; 2],
    first: u8,
    seed: u64,
    book: &Book,
) -> io::Result<()> {
    let workers = Workers {
        thinker: Worker::start(book.clone(), seed),
        annotator: Worker::start(book.clone(), seed),
    };
    let worker = &workers;
    let mut s = Screen::new(Game::new(first), players);
    let mut waiting = Waiting::default();
    loop {
        while let Some(answer) = worker
            .thinker
            .answer()
            .or_else(|| worker.annotator.answer())
        {
            receive(&mut s, &mut waiting, worker, answer);
        }
        ask(&mut s, &mut waiting, worker);
        terminal.draw(|f| draw(f, &s))?;
        if !event::poll(POLL)? {
            continue;
        }
        let Event::Key(key) = event::read()? else {
            continue;
        };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        let humans_turn = s.game.outcome().is_none() && !computer_to_move(&s);
        match key.code {
            KeyCode::Char('q') => return Ok(()),
            KeyCode::Up | KeyCode::Char('k') => s.cursor(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => s.cursor(1, 0),
            KeyCode::Left => s.cursor(0, -1),
            KeyCode::Right | KeyCode::Char('l') => s.cursor(0, 1),
            KeyCode::Enter if humans_turn => {
                let before = s.game.moves().len();
                s.confirm();
                if s.game.moves().len() != before {
                    changed(&mut s, &mut waiting, worker);
                }
            }
            KeyCode::Char('h') if humans_turn && !waiting.hint => {
                s.message = "hint: thinking…".into();
                worker.thinker.ask(Task::Hint, s.game.position());
                waiting.hint = true;
            }
            KeyCode::Char('a') => s.annotate = !s.annotate,
            KeyCode::Char('u') => {
                while s.game.undo() && players[usize::from(s.game.to_move()) - 1] != Level::Human {}
                changed(&mut s, &mut waiting, worker);
                s.message = "undone".into();
            }
            KeyCode::Char('n') => {
                s.game = Game::new(first);
                changed(&mut s, &mut waiting, worker);
            }
            KeyCode::Char('?') => s.help = !s.help,
            _ => {}
        }
    }
}

fn computer_to_move(s: &Screen) -> bool {
    s.players[usize::from(s.game.to_move()) - 1] != Level::Human
}

/// After the position changed: a fresh screen for it (keeping the help and the values toggle),
/// and every pending answer made stale.
fn changed(s: &mut Screen, waiting: &mut Waiting, worker: &Workers) {
    worker.thinker.invalidate();
    worker.annotator.invalidate();
    *waiting = Waiting::default();
    *s = Screen {
        help: s.help,
        annotate: s.annotate,
        ..Screen::new(s.game.clone(), s.players)
    };
}

/// Asks the worker for what the screen needs: the computer's move on its turn, the values on
/// the human's turn when they are shown.
fn ask(s: &mut Screen, waiting: &mut Waiting, worker: &Workers) {
    if let Some(o) = s.game.outcome() {
        s.message = match o {
            Outcome::Win(p) => format!("player {p} wins (n: new game, q: quit)"),
            Outcome::Draw => "draw (n: new game, q: quit)".into(),
        };
        return;
    }
    if computer_to_move(s) {
        if !waiting.computer {
            let player = s.game.to_move();
            let level = s.players[usize::from(player) - 1];
            s.message = format!("player {player} ({level}) thinking…");
            worker.thinker.ask(Task::Move(level), s.game.position());
            waiting.computer = true;
        }
    } else if s.annotate && s.values.is_none() && !waiting.values {
        worker.annotator.ask(Task::Annotate, s.game.position());
        waiting.values = true;
    }
}

/// Takes in an answer of the worker.
fn receive(s: &mut Screen, waiting: &mut Waiting, worker: &Workers, answer: Answer) {
    match answer {
        Answer::Move(mv) => {
            let player = s.game.to_move();
            s.game.play(mv).expect("computer moves are legal");
            changed(s, waiting, worker);
            s.message = format!("player {player}: {mv}");
        }
        Answer::Hint(mv, outlook) => {
            waiting.hint = false;
            s.message = format!("hint: {mv} ({outlook})");
        }
        Answer::Annotations(values) => {
            waiting.values = false;
            s.values = Some(values);
        }
    }
}

//! The full-screen loop: keys in, screens out, computer moves in between.

use std::io;

use cp_puzzles::minesweeper::game::Rng;
use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::DefaultTerminal;

use super::book::Book;
use super::game::{Game, Outcome};
use super::players::{choose, Level};
use super::screen::{draw, Screen};

/// Plays in the terminal until `q`.
///
/// # Errors
/// A terminal error.
pub fn run(players: [Level; 2], first: u8, seed: u64, book: &Book) -> io::Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, players, first, seed, book);
    ratatui::restore();
    result
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    players: [Level; 2],
    first: u8,
    seed: u64,
    book: &Book,
) -> io::Result<()> {
    let mut rng = Rng::new(seed);
    let mut s = Screen::new(Game::new(first), players);
    loop {
        computer_moves(terminal, &mut s, book, &mut rng)?;
        terminal.draw(|f| draw(f, &s))?;
        let Event::Key(key) = event::read()? else {
            continue;
        };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        match key.code {
            KeyCode::Char('q') => return Ok(()),
            KeyCode::Up | KeyCode::Char('k') => s.cursor(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => s.cursor(1, 0),
            KeyCode::Left => s.cursor(0, -1),
            KeyCode::Right | KeyCode::Char('l') => s.cursor(0, 1),
            KeyCode::Enter if s.game.outcome().is_none() => s.confirm(),
            KeyCode::Char('h') if s.game.outcome().is_none() => {
                s.message = "thinking…".into();
                terminal.draw(|f| draw(f, &s))?;
                s.hint(book);
            }
            KeyCode::Char('u') => {
                while s.game.undo() && players[usize::from(s.game.to_move()) - 1] != Level::Human {}
                s = Screen {
                    message: "undone".into(),
                    ..Screen::new(s.game.clone(), players)
                };
            }
            KeyCode::Char('n') => s = Screen::new(Game::new(first), players),
            KeyCode::Char('?') => s.help = !s.help,
            _ => {}
        }
    }
}

/// Plays the computer's moves, drawing "thinking…" before each.
fn computer_moves(
    terminal: &mut DefaultTerminal,
    s: &mut Screen,
    book: &Book,
    rng: &mut Rng,
) -> io::Result<()> {
    while s.game.outcome().is_none() {
        let player = s.game.to_move();
        let level = s.players[usize::from(player) - 1];
        if level == Level::Human {
            break;
        }
        s.message = format!("player {player} ({level}) thinking…");
        terminal.draw(|f| draw(f, s))?;
        let mv = choose(level, &s.game.position(), book, rng);
        s.game.play(mv).expect("computer moves are legal");
        *s = Screen {
            message: format!("player {player}: {mv}"),
            ..Screen::new(s.game.clone(), s.players)
        };
    }
    if let Some(o) = s.game.outcome() {
        s.message = match o {
            Outcome::Win(p) => format!("player {p} wins (n: new game, q: quit)"),
            Outcome::Draw => "draw (n: new game, q: quit)".into(),
        };
    }
    Ok(())
}

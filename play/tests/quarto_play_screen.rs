//! `quarto-play`'s full screen: its state's transitions driven by [`Action`]s, the workers'
//! requests answered in the test's thread, the keys, and its drawings on ratatui's TestBackend
//! (insta snapshots).

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{move_values_with_progress, Cell, MoveValue};
use cp_puzzles_play::quarto_play::book;
use cp_puzzles_play::quarto_play::game::{parse_move, Game, Outcome};
use cp_puzzles_play::quarto_play::players::{annotate, choose, hint, hint_at, Level};
use cp_puzzles_play::quarto_play::screen::{self, Action, Request, Stage, State};
use cp_puzzles_play::quarto_play::worker::{Answer, Task};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// Answers the state's requests as the workers would, in this thread, until it asks nothing.
fn serve(s: &mut State, rng: &mut Rng) {
    let book = book::shipped();
    loop {
        let requests = s.take_requests();
        if requests.is_empty() {
            return;
        }
        for request in requests {
            let Request::Think(task, position) = request else {
                continue;
            };
            let answer = match task {
                Task::Move(level) => Answer::Move(choose(level, &position, &book, rng)),
                Task::Hint => {
                    let (mv, outcome) = hint(&position, &book);
                    Answer::Hint(mv, outcome)
                }
                Task::HintAt(cell) => {
                    let (mv, outcome) = hint_at(&position, cell, &book).expect("a placement");
                    Answer::Hint(mv, outcome)
                }
                Task::Annotate => Answer::Annotations(annotate(&position, &book)),
            };
            s.apply(Action::Answer(answer));
        }
    }
}

/// Answers one request for `task` in the current position as the worker would.
fn serve_request(s: &mut State, task: Task) {
    let book = book::shipped();
    let position = s.game.position();
    let answer = match task {
        Task::HintAt(cell) => {
            let (mv, outcome) = hint_at(&position, cell, &book).expect("a placement");
            Answer::Hint(mv, outcome)
        }
        Task::Hint => {
            let (mv, outcome) = hint(&position, &book);
            Answer::Hint(mv, outcome)
        }
        other => panic!("not a hint: {other:?}"),
    };
    s.apply(Action::Answer(answer));
}

/// The game after the moves `moves` (the solver's notation), player 1 giving first.
fn game(moves: &[&str]) -> Game {
    let mut game = Game::new(1);
    for mv in moves {
        game.play(parse_move(mv).expect("notation")).expect("legal");
    }
    game
}

/// The screen of `s` on a `width` x `height` test terminal, as text.
fn text(s: &State, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal.draw(|f| screen::draw(s, f)).expect("drawn");
    let buffer = terminal.backend().buffer().clone();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every run of exactly four binary digits on the screen follows a piece's symbol: no piece is
/// named in binary alone.
fn assert_one_notation(screen: &str) {
    let chars: Vec<char> = screen.chars().collect();
    let binary = |c: &char| *c == '0' || *c == '1';
    for i in 0..chars.len() {
        let starts = binary(&chars[i]) && (i == 0 || !binary(&chars[i - 1]));
        let run = chars[i..].iter().take_while(|c| binary(c)).count();
        if starts && run == 4 {
            let before: String = chars[i.saturating_sub(3)..i].iter().collect();
            assert!(
                matches!(before.as_bytes(), [b'(' | b'[', _, b')' | b']']),
                "a piece in binary alone at {i}: {before}…\n{screen}"
            );
        }
    }
}

fn key(c: KeyCode) -> Event {
    Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

#[test]
fn keys_are_actions() {
    let cases = [
        (KeyCode::Up, Some(Action::Cursor(-1, 0))),
        (KeyCode::Char('k'), Some(Action::Cursor(-1, 0))),
        (KeyCode::Char('j'), Some(Action::Cursor(1, 0))),
        (KeyCode::Left, Some(Action::Cursor(0, -1))),
        (KeyCode::Char('l'), Some(Action::Cursor(0, 1))),
        (KeyCode::Enter, Some(Action::Confirm)),
        (KeyCode::Char('h'), Some(Action::Hint)),
        (KeyCode::Char('a'), Some(Action::Values)),
        (KeyCode::Char('u'), Some(Action::Undo)),
        (KeyCode::Char('n'), Some(Action::NewGame)),
        (KeyCode::Char('?'), Some(Action::Help)),
        (KeyCode::Char('q'), Some(Action::Quit)),
        (KeyCode::Char('x'), None),
    ];
    for (code, expected) in cases {
        assert_eq!(screen::action(&key(code)), expected, "{code:?}");
    }
    let ctrl = |c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    assert_eq!(
        screen::action(&ctrl('c')),
        Some(Action::Quit),
        "Ctrl-C quits"
    );
    assert_eq!(
        screen::action(&ctrl('a')),
        None,
        "Ctrl-A is not the values key"
    );
}

#[test]
fn snapshot_of_the_start_and_a_gift_after_a_placement() {
    let mut s = State::new(Game::new(1), [Level::Human, Level::Perfect]);
    assert!(
        s.take_requests().is_empty(),
        "the human starts: nothing to ask"
    );
    insta::assert_snapshot!("screen_start", text(&s, 70, 14));
    s.apply(Action::Cursor(0, 1));
    s.apply(Action::Confirm); // gives 0001
    assert_eq!(s.game.moves().len(), 1);
    // The computer's move is asked for, after forgetting what was asked before.
    assert_eq!(
        s.take_requests(),
        [
            Request::Forget,
            Request::Think(Task::Move(Level::Perfect), s.game.position())
        ]
    );
    let g = game(&["give 0001", "place 1 1 give 0110", "place 0 0 give 1111"]);
    let mut s = State::new(g, [Level::Perfect, Level::Human]);
    s.apply(Action::Cursor(1, 2));
    s.apply(Action::Confirm);
    assert_eq!(s.stage, Stage::Give(Cell::new(1, 2)));
    let screen = text(&s, 70, 14);
    assert_one_notation(&screen);
    // The piece placed stands on its cell, and no longer in hand (nor anywhere else).
    assert_eq!(s.in_hand(), None);
    assert!(screen.contains(" in hand: -"), "{screen}");
    assert!(!screen.contains("1111"), "{screen}");
    insta::assert_snapshot!("screen_give_after_place", screen);
}

/// After a placement the piece cursor starts on a free piece (piece 0000 is on the board) and
/// every step lands on a free one.
#[test]
fn the_piece_cursor_starts_on_and_moves_between_free_pieces() {
    let g = game(&["give 0000", "place 0 0 give 0001", "place 1 1 give 0011"]);
    let mut s = State::new(g, [Level::Perfect, Level::Human]);
    s.apply(Action::Cursor(0, 2));
    s.apply(Action::Confirm);
    assert_eq!(s.stage, Stage::Give(Cell::new(0, 2)));
    let free = s.free_pieces();
    assert_eq!(free.count_ones(), 13, "{free:#018b}");
    assert_eq!(free & 0b1011, 0, "0000, 0001 placed; 0011 in hand");
    assert_eq!(s.piece, 2, "the first free piece");
    let mut visited = 0u16;
    for (dr, dc, times) in [(0, 1, 20), (1, 0, 6), (0, -1, 20), (-1, 0, 6)] {
        for _ in 0..times {
            s.apply(Action::Cursor(dr, dc));
            assert_eq!(free >> s.piece & 1, 1, "piece {} is not free", s.piece);
            visited |= 1 << s.piece;
        }
    }
    assert_eq!(visited, free, "every free piece is reachable");
    s.apply(Action::Confirm);
    assert_eq!(s.game.moves().len(), 4, "{}", s.message);
}

/// With `a`, the values of the legal moves: by cell while placing (each cell's best gift), by
/// piece once a cell is chosen; a position with two pieces placed, answered from the book.
#[test]
fn snapshot_of_every_moves_value() {
    let g = game(&["give 0000", "place 0 0 give 1111", "place 1 2 give 0011"]);
    let mut s = State::new(g, [Level::Perfect, Level::Human]);
    s.apply(Action::Values);
    let asked = s.take_requests();
    assert_eq!(
        asked,
        [Request::Think(Task::Annotate, s.game.position())],
        "the values are asked for"
    );
    insta::assert_snapshot!("screen_values_computing", text(&s, 80, 14));
    // The lines valued so far, in the solver's move order: the moves of cells 0 1 to 0 3 and the
    // first of 1 0. Cells 0 1 to 0 3 show (all their moves are in), 1 0 not yet.
    let all = annotate(&s.game.position(), &book::shipped());
    let mut so_far: Vec<MoveValue> = Vec::new();
    move_values_with_progress(&s.game.position(), &book::shipped(), |lines| {
        so_far = lines.to_vec();
        lines.last().and_then(|l| l.mv.place) != Cell::new(1, 0)
    });
    assert!(so_far.iter().all(|l| all.contains(l)));
    s.apply(Action::Answer(Answer::SomeAnnotations(so_far)));
    let grid = s.value_grid();
    assert!(grid[1].is_some() && grid[3].is_some() && grid[4].is_none());
    insta::assert_snapshot!("screen_values_coming_in", text(&s, 80, 14));
    s.apply(Action::Answer(Answer::Annotations(all)));
    insta::assert_snapshot!("screen_values_by_cell", text(&s, 80, 14));
    s.apply(Action::Cursor(0, 1));
    s.apply(Action::Confirm); // cell 0 1: now the values of the gifts
    insta::assert_snapshot!("screen_values_by_piece", text(&s, 80, 14));
}

/// The game ends while the values are shown: the panel says so instead of waiting for good, and
/// the end is said once.
#[test]
fn snapshot_of_a_game_won_with_the_values_shown() {
    // Row 0 holds 0000, 0001, 0010: player 1 places 0011 on 0 3 and wins.
    let g = game(&[
        "give 0000",
        "place 0 0 give 0001",
        "place 0 1 give 0010",
        "place 0 2 give 0011",
    ]);
    let mut rng = Rng::new(1);
    let mut s = State::new(g, [Level::Human, Level::Random]);
    s.apply(Action::Values);
    serve(&mut s, &mut rng);
    assert!(s.values.is_some());
    s.apply(Action::Cursor(0, 3));
    s.apply(Action::Confirm);
    assert_eq!(s.result().as_deref(), Some("player 1 wins"));
    assert_eq!(
        s.take_requests(),
        [Request::Forget],
        "nothing more to compute"
    );
    let screen = text(&s, 80, 14);
    assert!(!screen.contains("computing"), "{screen}");
    assert_eq!(screen.matches("wins").count(), 1, "{screen}");
    // The news line keeps the winning move.
    assert_eq!(s.message.to_string(), "player 1: place 0 3");
    insta::assert_snapshot!("screen_game_won", screen);
}

/// A human's last placement that fills the board (a draw) stays in the news line too, as the
/// computer's last move does.
#[test]
fn the_news_line_keeps_the_humans_move_that_ends_the_game() {
    // A game drawn by random play, its last placement left to the human.
    let book = book::shipped();
    let mut g = (0..)
        .find_map(|seed| {
            let mut rng = Rng::new(seed);
            let mut g = Game::new(1);
            while g.outcome().is_none() {
                let mv = choose(Level::Random, &g.position(), &book, &mut rng);
                g.play(mv).expect("legal");
            }
            (g.outcome() == Some(Outcome::Draw)).then_some(g)
        })
        .expect("a drawn game");
    let last = *g.moves().last().expect("a move");
    g.undo();
    let human = g.to_move();
    let mut players = [Level::Random; 2];
    players[usize::from(human) - 1] = Level::Human;
    let mut s = State::new(g, players);
    let cell = last.place.expect("a placement").index();
    s.apply(Action::Cursor((cell / 4) as i8, (cell % 4) as i8));
    s.apply(Action::Confirm);
    assert_eq!(s.result().as_deref(), Some("draw"));
    assert_eq!(s.message.to_string(), format!("player {human}: {last}"));
    assert!(text(&s, 70, 14).contains(&format!("player {human}: {last}")));
}

/// The computer's moves and the hint name their pieces by symbol and bits.
#[test]
fn snapshot_of_a_hint_and_a_computer_move_in_one_notation() {
    let mut rng = Rng::new(4);
    let mut s = State::new(Game::new(2), [Level::Human, Level::Perfect]);
    serve(&mut s, &mut rng);
    assert_eq!(s.game.moves().len(), 1);
    let said = s.message.to_string();
    assert!(
        said.starts_with("player 2: give (x)0000"),
        "the computer's first gift: {said}"
    );
    s.apply(Action::Hint);
    assert_eq!(s.message.to_string(), "hint: thinking…");
    serve(&mut s, &mut rng);
    let said = s.message.to_string();
    assert!(said.starts_with("hint: place 0 0 give (o)0001 ("), "{said}");
    let screen = text(&s, 70, 14);
    assert_one_notation(&screen);
    insta::assert_snapshot!("screen_hint", screen);
}

/// Once a cell is chosen, the hint names that cell and the best piece to give after placing
/// there (the first line of the values placing there), whether asked of the worker or read from
/// the values shown; a hint asked before the cell was chosen, naming another cell, is dropped.
#[test]
fn snapshot_of_a_hint_once_a_cell_is_chosen() {
    let mut rng = Rng::new(1);
    let mut s = State::new(Game::new(1), [Level::Human, Level::Perfect]);
    s.apply(Action::Confirm); // gives 0000
    serve(&mut s, &mut rng);
    assert_eq!(s.message.to_string(), "player 2: place 0 0 give (o)0001");
    let values = annotate(&s.game.position(), &book::shipped());
    // The hint while placing names another cell than 1 1.
    s.apply(Action::Hint);
    let asked = s.take_requests();
    assert_eq!(asked, [Request::Think(Task::Hint, s.game.position())]);
    let (whole, outcome) = hint(&s.game.position(), &book::shipped());
    assert_ne!(whole.place, Cell::new(1, 1), "{whole}");
    s.apply(Action::Cursor(1, 1));
    s.apply(Action::Confirm);
    assert_eq!(s.stage, Stage::Give(Cell::new(1, 1)));
    // Its answer comes after the cell is chosen: stale, dropped.
    s.apply(Action::Answer(Answer::Hint(whole, outcome)));
    assert_eq!(s.message.to_string(), "now choose a piece to give");
    s.apply(Action::Hint);
    assert_eq!(
        s.take_requests(),
        [Request::Think(
            Task::HintAt(Cell::new(1, 1).expect("a cell")),
            s.game.position()
        )]
    );
    serve_request(&mut s, Task::HintAt(Cell::new(1, 1).expect("a cell")));
    let first = values
        .iter()
        .find(|l| l.mv.place == Cell::new(1, 1))
        .expect("a move on 1 1");
    let said = s.message.to_string();
    assert!(said.starts_with("hint: place 1 1 give "), "{said}");
    assert!(said.ends_with(&format!(" ({})", first.outcome)), "{said}");
    assert_eq!(
        said,
        screen::Message::with_move("hint: ", first.mv, &format!(" ({})", first.outcome))
            .to_string()
    );
    let screen = text(&s, 70, 14);
    assert_one_notation(&screen);
    insta::assert_snapshot!("screen_hint_once_a_cell_is_chosen", screen);
    // With the values shown, the same hint at once, from them.
    s.apply(Action::Values);
    s.apply(Action::Answer(Answer::Annotations(values)));
    s.take_requests();
    s.message = screen::Message::default();
    s.apply(Action::Hint);
    assert!(s.take_requests().is_empty());
    assert_eq!(s.message.to_string(), said);
}

/// A computer player wins: its move stays in the message, and the status says the result.
#[test]
fn a_computer_win_is_said_once() {
    let mut rng = Rng::new(5);
    let mut s = State::new(Game::new(1), [Level::Random, Level::Perfect]);
    s.apply(Action::Values);
    serve(&mut s, &mut rng);
    let result = s.result().expect("the game is over");
    let screen = text(&s, 80, 14);
    assert_eq!(screen.matches(&result).count(), 1, "{screen}");
    assert!(screen.contains("game over"), "{screen}");
    assert!(!screen.contains("computing"), "{screen}");
    assert!(
        s.message.to_string().starts_with("player "),
        "{}",
        s.message
    );
}

#[test]
fn undo_and_a_new_game_go_back_to_the_humans_turn() {
    let mut rng = Rng::new(2);
    let mut s = State::new(Game::new(1), [Level::Human, Level::Easy]);
    s.apply(Action::Confirm); // gives 0000
    serve(&mut s, &mut rng);
    assert_eq!(s.game.moves().len(), 2, "the computer answered");
    s.apply(Action::Undo);
    assert_eq!(s.game.moves().len(), 0);
    assert_eq!(s.message.to_string(), "undone");
    assert_eq!(s.stage, Stage::Give(None));
    s.apply(Action::Confirm);
    serve(&mut s, &mut rng);
    s.apply(Action::NewGame);
    assert!(s.game.moves().is_empty());
    assert_eq!(s.take_requests(), [Request::Forget]);
    // The human's turn only: Enter does nothing on the computer's.
    let mut s = State::new(Game::new(2), [Level::Human, Level::Easy]);
    s.apply(Action::Confirm);
    assert!(s.game.moves().is_empty());
    s.apply(Action::Help);
    assert!(s.help);
    s.apply(Action::Quit);
    assert!(s.quit);
}

/// A stale computer move (for a position that is gone) is dropped.
#[test]
fn a_stale_answer_is_dropped() {
    let mut s = State::new(Game::new(1), [Level::Human, Level::Perfect]);
    let mv = parse_move("place 0 0 give 0001").expect("notation");
    s.apply(Action::Answer(Answer::Move(mv)));
    assert!(s.game.moves().is_empty());
    assert_eq!(s.piece, 0);
}

#[test]
fn snapshot_of_a_terminal_too_small() {
    let mut s = State::new(Game::new(1), [Level::Human, Level::Perfect]);
    let (width, height) = screen::needed(&s);
    assert!(!text(&s, width, height).contains("needs a terminal"));
    assert!(text(&s, width - 1, height).contains("needs a terminal"));
    assert!(text(&s, width, height - 1).contains("needs a terminal"));
    s.apply(Action::Values);
    s.apply(Action::Help);
    let (wide, high) = screen::needed(&s);
    assert!(
        wide > width && high > height,
        "the values and the help need room"
    );
    assert!(!text(&s, wide, high).contains("needs a terminal"));
    insta::assert_snapshot!("screen_small", text(&s, 50, 12));
}

#[test]
fn snapshot_of_the_help() {
    let mut s = State::new(Game::new(1), [Level::Human, Level::Perfect]);
    s.apply(Action::Help);
    insta::assert_snapshot!("screen_help", text(&s, 70, 14));
}

/// The values panel shows what `quarto --values` says: the worker's values are its lines, and
/// each cell of the grid (by cell while placing, by piece once a cell is chosen) holds the best
/// outcome among the lines of that cell or gift, on positions with 2, 4, 6 and 8 pieces placed.
#[test]
fn the_values_panel_agrees_with_quarto_values() {
    use cp_puzzles::quarto::{self, Move};
    use cp_puzzles_play::quarto_play::worker::Worker;
    let worker = Worker::start(book::shipped(), 1);
    let mut rng = Rng::new(77);
    for placed in [2, 4, 6, 8] {
        let mut g = Game::new(1);
        while g.moves().len() <= placed {
            let mv = choose(Level::Random, &g.position(), &book::shipped(), &mut rng);
            g.play(mv).expect("legal");
        }
        if g.outcome().is_some() {
            continue;
        }
        let mut out = Vec::new();
        quarto::run_values(
            g.to_quarto_input().as_bytes(),
            &mut out,
            &quarto::Book::embedded(),
        )
        .expect("a position with moves");
        let expected = String::from_utf8(out).expect("utf-8");
        // Each line as (move, outcome text, rank: higher is better for the mover).
        let lines: Vec<(Move, String, i32)> = expected
            .lines()
            .map(|l| {
                let (mv, outcome) = l.split_once(": ").expect("<move>: <outcome>");
                let n = |s: &str| s.parse::<i32>().expect("a distance");
                let rank = match outcome.split_once(" in ") {
                    Some(("win", d)) => 100 - n(d),
                    Some(("loss", d)) => -100 + n(d),
                    _ => 0,
                };
                (parse_move(mv).expect("notation"), outcome.to_string(), rank)
            })
            .collect();
        let best = |keep: &dyn Fn(&Move) -> Option<u8>, i: u8| {
            lines
                .iter()
                .filter(|(m, _, _)| keep(m) == Some(i))
                .max_by_key(|(_, _, rank)| *rank)
                .map(|(_, text, _)| text.clone())
        };

        let mut s = State::new(g, [Level::Human, Level::Human]);
        s.apply(Action::Values);
        let asked = s.take_requests();
        let Some(Request::Think(Task::Annotate, position)) = asked.last().cloned() else {
            panic!("the values are asked for: {asked:?}")
        };
        worker.ask(Task::Annotate, position);
        // The lines valued so far may come first: each partial grid shows only final values.
        let mut partial_grids = Vec::new();
        let answer = loop {
            match worker.answer() {
                Some(Answer::SomeAnnotations(lines)) => {
                    let mut partial = s.clone();
                    partial.apply(Action::Answer(Answer::SomeAnnotations(lines)));
                    assert!(
                        text(&partial, 80, 14).contains("valued "),
                        "{placed} placed"
                    );
                    partial_grids.push(partial.value_grid());
                }
                Some(answer) => break answer,
                None => std::thread::sleep(std::time::Duration::from_millis(2)),
            }
        };
        let Answer::Annotations(values) = &answer else {
            panic!("the values, not {answer:?}")
        };
        let shown: String = values.iter().map(|v| format!("{v}\n")).collect();
        assert_eq!(shown, expected, "{placed} placed");
        s.apply(Action::Answer(answer));

        let grid = s.value_grid();
        for i in 0..16u8 {
            let by_cell = best(&|m: &Move| m.place.map(Cell::index), i);
            let cell = grid[usize::from(i)].map(|o| o.to_string());
            assert_eq!(cell, by_cell, "{placed} placed, cell {i}");
        }
        for partial in &partial_grids {
            for (shown, last) in partial.iter().zip(&grid) {
                assert!(
                    shown.is_none() || shown == last,
                    "{placed} placed: {partial:?}"
                );
            }
        }
        // The hint is the first line, at once: no search asked for.
        s.apply(Action::Hint);
        let asked = s.take_requests();
        assert!(
            !asked.contains(&Request::Think(Task::Hint, s.game.position())),
            "{asked:?}"
        );
        let hint = format!("({})", lines[0].1);
        assert!(text(&s, 80, 14).contains(&hint), "{hint}");
        // Choose the best move's cell: the grid now holds its gifts' values.
        let first = lines[0].0.place.expect("a placement");
        let (r, c) = (first.index() / 4, first.index() % 4);
        s.apply(Action::Cursor(r as i8, c as i8));
        s.apply(Action::Confirm);
        if let Stage::Give(Some(cell)) = s.stage {
            let grid = s.value_grid();
            for i in 0..16u8 {
                let keep = |m: &Move| (m.place == Some(cell)).then(|| m.give.map(|p| p.index()))?;
                let by_piece = best(&keep, i);
                let shown = grid[usize::from(i)].map(|o| o.to_string());
                assert_eq!(shown, by_piece, "{placed} placed, cell {cell:?}, piece {i}");
            }
        }
    }
}

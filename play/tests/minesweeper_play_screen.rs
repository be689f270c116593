//! `minesweeper-play`'s full screen: its state's transitions (the first click anywhere among
//! them), the mouse, and its drawings on ratatui's TestBackend (insta snapshots).

use std::time::Duration;

use cp_puzzles::minesweeper::game::{game_seed, Config, FirstClick, Game, Level, Status};
use cp_puzzles::minesweeper::{Board, Cell, Pos};
use cp_puzzles_play::minesweeper_play::replay::Replay;
use cp_puzzles_play::minesweeper_play::screen::{self, Action, State};
use cp_puzzles_play::minesweeper_play::{Clock, Play, Setup};
use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

/// Game 0 of beginner with seed 3 first clicked at (0, 0), where the cursor starts (won by the
/// bot; the mine at (2, 2) next to the first area), its clock frozen at 42 s.
fn state() -> State {
    let mut s = frozen(fresh(3));
    s.apply(Action::Reveal);
    s
}

/// Game 0 of beginner with `seed`, before its first click.
fn fresh(seed: u64) -> State {
    let setup = Setup {
        config: Config::level(Level::Beginner),
        rule: FirstClick::Safe,
        seed,
        no_guess: false,
    };
    State::new(Play::new(setup).unwrap())
}

/// `s` with its clock frozen at 42 s.
fn frozen(mut s: State) -> State {
    s.play.set_clock(Clock::frozen(Duration::from_secs(42)));
    s
}

/// The terminal event of a click with `button` on the cell `p` (on a 80 x 16 screen).
fn click(button: MouseButton, p: Pos, setup: &Setup) -> Event {
    let origin = screen::board_rect(Rect::new(0, 0, 80, 16), setup);
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(button),
        column: origin.x + 2 + 2 * p.x as u16,
        row: origin.y + 1 + p.y as u16,
        modifiers: KeyModifiers::NONE,
    })
}

/// The screen of `state` on a terminal of 80 x 16.
fn screen(state: &State) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(80, 16)).unwrap();
    terminal.draw(|f| screen::draw(state, f)).unwrap();
    terminal.backend().clone()
}

fn key(c: KeyCode) -> Event {
    Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// Applies the actions of `events` (on a 80 x 16 screen).
fn press(state: &mut State, events: &[Event]) {
    let setup = state.play.setup();
    for e in events {
        if let Some(a) = screen::action(e, Rect::new(0, 0, 80, 16), &setup) {
            state.apply(a);
        }
    }
}

#[test]
fn snapshot_of_the_start_and_a_first_click_anywhere() {
    let mut s = fresh(3);
    assert!(!s.play.opened());
    assert_eq!(s.play.elapsed(), Duration::ZERO);
    // All hidden, the clock at 0, and the message says where the first click may go.
    insta::assert_snapshot!("screen_start", screen(&s));
    // A flag before the first click does nothing, and says why.
    press(&mut s, &[key(KeyCode::Char('f'))]);
    assert!(!s.play.opened());
    assert_eq!(
        s.message,
        "nothing happened: flags come after the first click, which places the mines"
    );
    assert_eq!(s.play.elapsed(), Duration::ZERO);
    // The first click, with the mouse at (5, 2), far from the bot's (0, 0).
    let mut s = frozen(s);
    let setup = s.play.setup();
    press(&mut s, &[click(MouseButton::Left, Pos::new(5, 2), &setup)]);
    assert!(s.play.opened());
    assert_eq!(s.cursor, Pos::new(5, 2));
    assert!(matches!(
        s.play.view().get(Pos::new(5, 2)),
        Cell::Revealed(_)
    ));
    // Its layout is drawn from the seed of `minesweeper-bot --seed 3 --game 0`, for (5, 2).
    assert_layout_is_the_bots(&s, Pos::new(5, 2));
    insta::assert_snapshot!("screen_first_click", screen(&s));
}

#[test]
fn r_starts_the_next_game_all_hidden() {
    let mut s = state();
    press(&mut s, &[key(KeyCode::Char('r'))]);
    assert!(!s.play.opened());
    assert_eq!(s.play.index(), 1);
    assert_eq!(s.cursor, Pos::new(0, 0));
    assert_eq!(*s.play.view(), Board::new(9, 9, 10).unwrap());
    // Game 1's layout, first clicked at (2, 7).
    let setup = s.play.setup();
    press(&mut s, &[click(MouseButton::Left, Pos::new(2, 7), &setup)]);
    assert_layout_is_the_bots(&s, Pos::new(2, 7));
}

/// Checks that the layout of `s`'s game, first clicked at `first`, is the one
/// `minesweeper-bot --first-cell` draws: `Game::new(config, rule, first, game_seed(S, i))`.
fn assert_layout_is_the_bots(s: &State, first: Pos) {
    let setup = s.play.setup();
    let seed = game_seed(setup.seed, s.play.index());
    let bots = Game::new(setup.config, setup.rule, first, seed).unwrap();
    assert_eq!(s.play.game().unwrap().layout(), bots.layout());
}

#[test]
fn snapshot_of_a_flag() {
    let mut s = state();
    press(
        &mut s,
        &[
            key(KeyCode::Down),
            key(KeyCode::Char('j')),
            key(KeyCode::Right),
            key(KeyCode::Char('l')),
            key(KeyCode::Char('f')),
        ],
    );
    assert_eq!(s.cursor, Pos::new(2, 2));
    assert_eq!(s.play.view().get(Pos::new(2, 2)), Cell::Flagged);
    insta::assert_snapshot!("screen_flag", screen(&s));
}

#[test]
fn snapshot_of_the_hint_overlay() {
    let mut s = state();
    press(
        &mut s,
        &[
            key(KeyCode::Char('H')),
            key(KeyCode::Char('j')),
            key(KeyCode::Char('j')),
            key(KeyCode::Char('l')),
            key(KeyCode::Char('l')),
            key(KeyCode::Char('l')),
        ],
    );
    let overlay = s.overlay.as_ref().unwrap();
    assert_eq!(overlay.probability(Pos::new(2, 2)), Some(1.0));
    assert_eq!(overlay.probability(Pos::new(3, 2)), Some(0.0));
    let back = screen(&s);
    // The heat map: the certain mine red, the safe cell green.
    let bg = |x: u16, y: u16| back.buffer()[(x, y)].bg;
    let origin = screen::board_rect(Rect::new(0, 0, 80, 16), &s.play.setup());
    let at = |p: Pos| (origin.x + 2 + 2 * p.x as u16, origin.y + 1 + p.y as u16);
    let (x, y) = at(Pos::new(2, 2));
    assert_eq!(bg(x, y), screen::heat(1.0));
    let (x, y) = at(Pos::new(3, 2));
    assert_eq!(bg(x, y), screen::heat(0.0));
    insta::assert_snapshot!("screen_hint", back);
}

#[test]
fn snapshot_of_the_help() {
    let mut s = state();
    press(&mut s, &[key(KeyCode::Char('?'))]);
    insta::assert_snapshot!("screen_help", screen(&s));
    press(&mut s, &[key(KeyCode::Char('x'))]);
    assert!(!s.help);
}

#[test]
fn snapshot_of_a_lost_game() {
    let mut s = state();
    let layout = s.play.game().unwrap().layout().clone();
    let safe_hidden = s
        .play
        .view()
        .positions()
        .find(|&p| s.play.view().get(p) == Cell::Hidden && !layout.is_mine(p))
        .unwrap();
    // A wrong flag, then a click on the mine at (2, 2) with the mouse.
    s.apply(Action::FlagAt(safe_hidden));
    let setup = s.play.setup();
    press(&mut s, &[click(MouseButton::Left, Pos::new(2, 2), &setup)]);
    assert_eq!(s.play.status(), Status::Lost);
    assert_eq!(s.play.hit(), Some(Pos::new(2, 2)));
    let finished = s.finished.take().unwrap();
    assert_eq!((finished.won, finished.botted), (None, false));
    insta::assert_snapshot!("screen_lost", screen(&s));
}

#[test]
fn snapshot_of_a_game_the_bot_won() {
    let mut s = state();
    s.apply(Action::BotAll);
    assert!(s.auto);
    while s.play.status() == Status::Playing {
        s.apply(Action::Tick);
    }
    assert!(!s.auto);
    let finished = s.finished.take().unwrap();
    assert_eq!(
        (finished.won, finished.botted),
        (Some(Duration::from_secs(42)), true)
    );
    insta::assert_snapshot!("screen_won", screen(&s));
}

#[test]
fn snapshot_of_a_game_the_bot_lost_on_a_guess() {
    // Seed 11: `minesweeper-bot` loses its game 0 on the mine at (8, 0). The bot makes the first
    // click too, at (0, 0).
    let mut s = frozen(fresh(11));
    press(&mut s, &[key(KeyCode::Char('A'))]);
    while s.play.status() == Status::Playing {
        s.apply(Action::Tick);
    }
    assert_eq!(s.play.hit(), Some(Pos::new(8, 0)));
    assert_eq!(s.last_guess.map(|(p, _)| p), Some(Pos::new(8, 0)));
    insta::assert_snapshot!("screen_bot_lost", screen(&s));
}

#[test]
fn a_right_click_flags_and_a_left_click_on_a_number_chords() {
    let mut s = state();
    let area = Rect::new(0, 0, 80, 16);
    let setup = s.play.setup();
    let origin = screen::board_rect(area, &setup);
    let mouse = |kind, p: Pos| {
        Event::Mouse(MouseEvent {
            kind,
            column: origin.x + 1 + 2 * p.x as u16,
            row: origin.y + 1 + p.y as u16,
            modifiers: KeyModifiers::NONE,
        })
    };
    // (2, 3) shows 1: its mine is (2, 2), and (3, 2) is its one other hidden neighbour.
    assert_eq!(s.play.view().get(Pos::new(2, 3)), Cell::Revealed(1));
    press(
        &mut s,
        &[mouse(
            MouseEventKind::Down(MouseButton::Right),
            Pos::new(2, 2),
        )],
    );
    assert_eq!(s.play.view().get(Pos::new(2, 2)), Cell::Flagged);
    press(
        &mut s,
        &[mouse(
            MouseEventKind::Down(MouseButton::Left),
            Pos::new(2, 3),
        )],
    );
    assert_eq!(s.play.status(), Status::Playing);
    assert_eq!(s.play.view().get(Pos::new(3, 2)), Cell::Revealed(1));
    assert_eq!(s.cursor, Pos::new(2, 3));
    // A left click on a hidden cell reveals it.
    press(
        &mut s,
        &[mouse(
            MouseEventKind::Down(MouseButton::Left),
            Pos::new(3, 1),
        )],
    );
    assert!(matches!(
        s.play.view().get(Pos::new(3, 1)),
        Cell::Revealed(_)
    ));
    // A click off the board does nothing.
    assert_eq!(screen::cell_at(area, &setup, 0, 0), None);
    assert_eq!(screen::cell_at(area, &setup, origin.x, origin.y + 1), None);
}

#[test]
fn snapshot_of_a_terminal_too_small() {
    let s = state();
    let mut terminal = Terminal::new(TestBackend::new(30, 8)).unwrap();
    terminal.draw(|f| screen::draw(&s, f)).unwrap();
    insta::assert_snapshot!("screen_small", terminal.backend());
}

#[test]
fn the_cursor_stays_on_the_board_and_keys_stop_the_bot_and_close_the_help() {
    let mut s = state();
    assert_eq!(s.cursor, Pos::new(0, 0));
    press(&mut s, &[key(KeyCode::Left), key(KeyCode::Up)]);
    assert_eq!(s.cursor, Pos::new(0, 0));
    for _ in 0..12 {
        press(&mut s, &[key(KeyCode::Char('l')), key(KeyCode::Char('j'))]);
    }
    assert_eq!(s.cursor, Pos::new(8, 8));
    press(&mut s, &[key(KeyCode::Char('A'))]);
    assert!(s.auto);
    press(&mut s, &[key(KeyCode::Char('x'))]);
    assert!(!s.auto);
    press(&mut s, &[key(KeyCode::Char('?'))]);
    assert!(s.help);
    // The key that closes the help does nothing else.
    press(&mut s, &[key(KeyCode::Char('f'))]);
    assert!(!s.help);
    assert_eq!(s.play.view().get(Pos::new(8, 8)), Cell::Hidden);
    press(&mut s, &[key(KeyCode::Char('a')), key(KeyCode::Char('r'))]);
    assert_eq!(s.play.index(), 1);
    assert_eq!(s.message, "game 1 of seed 3");
    assert!(!s.play.botted());
    press(&mut s, &[key(KeyCode::Char('q'))]);
    assert!(s.quit);
}

#[test]
fn s_saves_the_view_where_minesweeper_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = state();
    s.save_dir = dir.path().to_path_buf();
    press(&mut s, &[key(KeyCode::Char('s'))]);
    let file = dir.path().join("minesweeper-3-0.mine");
    assert_eq!(s.message, format!("saved to {}", file.display()));
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(Board::parse(&text).unwrap(), *s.play.view());
}

#[test]
fn snapshot_of_a_no_guess_game_won_by_hand_with_its_score() {
    let setup = Setup {
        config: Config::level(Level::Beginner),
        rule: FirstClick::Safe,
        seed: 5,
        no_guess: true,
    };
    let mut s = frozen(State::new(Play::new(setup).unwrap()));
    s.apply(Action::Reveal);
    let layout = s.play.game().unwrap().layout().clone();
    let mut clicks = 1;
    for p in s.play.view().positions().collect::<Vec<_>>() {
        if !layout.is_mine(p) && s.play.view().get(p) == Cell::Hidden {
            press(&mut s, &[click(MouseButton::Left, p, &setup)]);
            clicks += 1;
        }
    }
    assert_eq!(s.play.status(), Status::Won);
    assert_eq!(s.play.clicks(), clicks);
    let bv = cp_puzzles::minesweeper::three_bv(&layout);
    let score = s.play.score().unwrap();
    assert_eq!(score.three_bv, bv);
    assert_eq!(score.efficiency, Some(bv as f64 / clicks as f64));
    assert_eq!(
        s.finished.take().unwrap().per_second,
        Some(bv as f64 / 42.0)
    );
    insta::assert_snapshot!("screen_no_guess_won", screen(&s));
}

#[test]
fn w_saves_a_replay_that_plays_back_to_the_same_board() {
    // A game with flags, reveals and the bot's moves, lost or won: its replay, played back
    // action by action, ends on the same view and status.
    let dir = tempfile::tempdir().unwrap();
    let mut s = fresh(4);
    s.save_dir = dir.path().to_path_buf();
    press(&mut s, &[key(KeyCode::Char('w'))]);
    assert_eq!(s.message, "no replay before the first click");
    press(&mut s, &[key(KeyCode::Char(' ')), key(KeyCode::Char('a'))]);
    press(&mut s, &[key(KeyCode::Char('j')), key(KeyCode::Char('f'))]);
    while s.play.status() == Status::Playing {
        s.apply(Action::Bot);
    }
    press(&mut s, &[key(KeyCode::Char('w'))]);
    let file = dir.path().join("minesweeper-4-0.replay");
    assert_eq!(s.message, format!("replay saved to {}", file.display()));
    let replay = Replay::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(replay.layout, *s.play.game().unwrap().layout());
    let mut back = frozen(State::new(Play::from_replay(&replay)));
    for &(_, m) in &replay.actions {
        back.apply(Action::Replayed(m));
    }
    assert_eq!(back.play.view(), s.play.view());
    assert_eq!(back.play.status(), s.play.status());
    insta::assert_snapshot!("screen_replay_end", screen(&back));
}

//! `minesweeper-play`'s full screen: its state's transitions (the first click anywhere among
//! them), the mouse, and its drawings on ratatui's TestBackend (insta snapshots).

use std::time::Duration;

use cp_puzzles::minesweeper::game::{game_seed, Config, FirstClick, Game, Level, Status};
use cp_puzzles::minesweeper::{Board, Cell, Pos};
use cp_puzzles_play::minesweeper_play::replay::Replay;
use cp_puzzles_play::minesweeper_play::screen::{self, Action, Key, Keys, Mode, State};
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
    for e in events {
        if let Some(a) = screen::action(e, Rect::new(0, 0, 80, 16), state) {
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
    // Before the first click `f` is no key (the key bar does not offer it), and a right click,
    // which flags later, does nothing and says why.
    let start = s.message.clone();
    press(&mut s, &[key(KeyCode::Char('f'))]);
    assert_eq!(s.message, start);
    let setup = s.play.setup();
    press(&mut s, &[click(MouseButton::Right, Pos::new(4, 4), &setup)]);
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
    let mut s = frozen(fresh(4));
    s.save_dir = dir.path().to_path_buf();
    // Before the first click there is no replay to save: `w` is no key yet.
    press(&mut s, &[key(KeyCode::Char('w'))]);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
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
    // Played back on the replay's screen, one action per `n`, its last key bar offers `q` alone.
    let mut back = State::replaying(&replay);
    assert_eq!(back.mode(), Mode::Replay);
    while back.mode() != Mode::ReplayOver {
        press(&mut back, &[key(KeyCode::Char('n'))]);
    }
    assert_eq!(back.play.view(), s.play.view());
    assert_eq!(back.play.status(), s.play.status());
    assert_eq!(back.finished, None, "a replay is not counted");
    insta::assert_snapshot!("screen_replay_end", screen(&back));
}

/// A screen in `mode`, saving into `dir`: beginner, seed 3, first clicked at (0, 0) where the
/// game is under way (the mine at (2, 2) flagged, so that (2, 3), a 1, chords); its replay for
/// the replay's screens.
fn in_mode(mode: Mode, dir: &std::path::Path) -> State {
    let mut s = state();
    s.save_dir = dir.to_path_buf();
    s.apply(Action::FlagAt(Pos::new(2, 2)));
    s.message.clear();
    let replay = || {
        let mut game = state();
        game.apply(Action::Bot);
        game.apply(Action::Bot);
        State::replaying(&game.play.replay().unwrap())
    };
    match mode {
        Mode::Start => s = frozen(fresh(3)),
        Mode::Playing => {}
        Mode::Bot => s.apply(Action::BotAll),
        Mode::Over => s.apply(Action::Click(Pos::new(8, 8))),
        Mode::Help => s.apply(Action::Help),
        Mode::Replay => s = replay(),
        Mode::Stepping => {
            s = replay();
            s.apply(Action::Next);
        }
        Mode::ReplayOver => {
            s = replay();
            while s.playback.as_ref().is_some_and(|p| !p.done()) {
                s.apply(Action::Next);
            }
        }
    }
    s.save_dir = dir.to_path_buf();
    if mode == Mode::Over {
        // The click at (8, 8) is on a mine, or the game goes on: then the bot ends it.
        while s.play.status() == Status::Playing {
            s.apply(Action::Bot);
        }
    }
    assert_eq!(s.mode(), mode);
    s
}

/// Everything a key may change, the message aside (a key that only says why it did nothing does
/// not work), with the files in the save directory.
fn fingerprint(s: &State) -> String {
    let mut quiet = s.clone();
    quiet.message.clear();
    let files = std::fs::read_dir(&s.save_dir).unwrap().count();
    format!("{quiet:?} files {files}")
}

/// The terminal event of `key`.
fn event_of(k: Key) -> Event {
    let (code, modifiers) = match k {
        Key::Char(c) => (KeyCode::Char(c), KeyModifiers::NONE),
        Key::Ctrl(c) => (KeyCode::Char(c), KeyModifiers::CONTROL),
        Key::Enter => (KeyCode::Enter, KeyModifiers::NONE),
        Key::Left => (KeyCode::Left, KeyModifiers::NONE),
        Key::Right => (KeyCode::Right, KeyModifiers::NONE),
        Key::Up => (KeyCode::Up, KeyModifiers::NONE),
        Key::Down => (KeyCode::Down, KeyModifiers::NONE),
        Key::Other => (KeyCode::Esc, KeyModifiers::NONE),
    };
    Event::Key(KeyEvent::new(code, modifiers))
}

/// Every key the tests try on each screen: the printable characters, with Ctrl too, Enter, the
/// arrows, and a few keys no table names.
fn every_key() -> Vec<Event> {
    let mut events: Vec<Event> = (' '..='~').map(|c| key(KeyCode::Char(c))).collect();
    events.extend(
        ('a'..='z').map(|c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))),
    );
    for code in [
        KeyCode::Enter,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::Backspace,
        KeyCode::F(1),
    ] {
        events.push(key(code));
    }
    events
}

/// The names of the keys a label (`arrows/hjkl`, `space/Enter`, `q/Ctrl-C`) names, sorted: its
/// `/`-parts, a run of single characters (`hjkl`) naming each.
fn named(label: &str) -> Vec<String> {
    let words = ["arrows", "space", "Enter", "Ctrl-C"];
    let mut names: Vec<String> = label
        .split('/')
        .flat_map(|part| {
            if words.contains(&part) {
                vec![part.to_string()]
            } else {
                part.chars().map(String::from).collect()
            }
        })
        .collect();
    names.sort();
    names
}

/// The key bar of every screen lists each key that works there, and no other: each key the
/// screen's table takes is named on the bar (or the bar says any other key works), every key it
/// names is one the table takes, and each does something on that screen beyond a message.
#[test]
fn every_screens_key_bar_lists_the_keys_that_work_there_and_no_other() {
    for mode in Mode::ALL {
        let dir = tempfile::tempdir().unwrap();
        let s = in_mode(mode, dir.path());
        let bindings = screen::bindings(mode);
        // The bar drawn is the table's: each binding's text, in order, on the rows after the
        // message.
        let bar = screen::bar(mode, 80);
        let joined: Vec<String> = bindings.iter().map(|b| b.text()).collect();
        assert_eq!(bar.join("  "), joined.join("  "), "{mode:?}");
        if mode != Mode::Help {
            let shown = screen(&s);
            let rows: Vec<String> = (0..16)
                .map(|y| {
                    (0..80)
                        .map(|x| shown.buffer()[(x, y)].symbol())
                        .collect::<String>()
                        .trim_end()
                        .to_string()
                })
                .collect();
            let at = rows
                .iter()
                .position(|r| *r == bar[0])
                .unwrap_or_else(|| panic!("{mode:?}: no bar {bar:?} in\n{}", rows.join("\n")));
            assert_eq!(rows[at..at + bar.len()], bar[..], "{mode:?}");
        }
        // Each label names exactly its binding's keys.
        let any_other = bindings.iter().any(|b| matches!(b.keys, Keys::AnyOther(_)));
        for b in bindings {
            if let Keys::These(keys) = b.keys {
                let mut bound: Vec<String> = keys.iter().map(|(k, _)| k.name()).collect();
                bound.sort();
                bound.dedup();
                assert_eq!(named(b.label), bound, "{mode:?}: {}", b.label);
            }
        }
        // Every key that does something is on the bar, or the bar says any other key works.
        for e in every_key() {
            let Event::Key(event) = e else { continue };
            let k = Key::of(&event);
            let listed = bindings.iter().any(|b| match b.keys {
                Keys::These(keys) => keys.iter().any(|&(bound, _)| bound == k),
                Keys::AnyOther(_) => false,
            });
            let handled = screen::action(&e, Rect::new(0, 0, 80, 16), &s).is_some();
            assert_eq!(handled, listed || any_other, "{mode:?}: {event:?}");
        }
        // Every key on the bar does something there.
        for b in bindings {
            let keys: Vec<Key> = match b.keys {
                Keys::These(keys) => keys.iter().map(|&(k, _)| k).collect(),
                Keys::AnyOther(_) => vec![Key::Char('x'), Key::Other, Key::Ctrl('a')],
            };
            for k in keys {
                let dir = tempfile::tempdir().unwrap();
                let mut s = in_mode(mode, dir.path());
                // Where the key has something to do: the cursor mid-board to move, on a hidden
                // cell to reveal or flag, on a 1 whose mine is flagged to chord.
                s.cursor = match screen::key_action(mode, k) {
                    Some(Action::Reveal | Action::Flag) => Pos::new(8, 0),
                    Some(Action::Chord) => Pos::new(2, 3),
                    _ => Pos::new(4, 4),
                };
                let before = fingerprint(&s);
                press(&mut s, &[event_of(k)]);
                assert!(fingerprint(&s) != before, "{mode:?}: {k:?} does nothing");
            }
        }
    }
}

/// Every screen of a game needs the same terminal at a given width (the key bars' room is the
/// longest's), so that none turns into the notice of a terminal too small when another fits.
#[test]
fn every_screen_needs_the_same_terminal() {
    let smallest = |s: &State, width: u16| {
        (10..40u16)
            .find(|&height| {
                let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
                terminal.draw(|f| screen::draw(s, f)).unwrap();
                // The notice of a terminal too small starts in the top left corner.
                let buffer = terminal.backend().buffer();
                let first: String = (0..9).map(|x| buffer[(x, 0)].symbol()).collect();
                first != "the board"
            })
            .unwrap()
    };
    for width in [21, 30, 40, 80] {
        let needs: Vec<(Mode, u16)> = Mode::ALL
            .iter()
            .map(|&mode| {
                let dir = tempfile::tempdir().unwrap();
                (mode, smallest(&in_mode(mode, dir.path()), width))
            })
            .collect();
        assert!(
            needs.iter().all(|n| n.1 == needs[0].1),
            "{width}: {needs:?}"
        );
    }
}

/// The key bar wraps between bindings into lines that fit the width, splitting a binding (between
/// its words) only when it is wider than a line.
#[test]
fn the_key_bar_wraps_between_its_keys() {
    for mode in Mode::ALL {
        let texts: Vec<String> = screen::bindings(mode).iter().map(|b| b.text()).collect();
        let words = |t: &str| t.split_whitespace().map(String::from).collect::<Vec<_>>();
        for width in [21, 30, 45, 80, 200] {
            let lines = screen::bar(mode, width);
            assert_eq!(words(&lines.join(" ")), words(&texts.join(" ")), "{mode:?}");
            for line in &lines {
                assert!(line.chars().count() <= usize::from(width), "{line}");
            }
            for text in texts
                .iter()
                .filter(|t| t.chars().count() <= usize::from(width))
            {
                let whole = lines.iter().any(|l| l.split("  ").any(|part| part == text));
                assert!(whole, "{mode:?} at {width}: {text} split in {lines:?}");
            }
        }
    }
    assert_eq!(
        screen::bar(Mode::Bot, 21),
        ["q/Ctrl-C quit", "any other key stops", "the bot"]
    );
    assert_eq!(screen::bar(Mode::Playing, 80).len(), 2);
    assert_eq!(screen::bar(Mode::Over, 80).len(), 1);
}

/// A replay's screen: at the game's pace until `n`, which plays the next action at once and steps
/// from then on, `p` back to the game's pace; its key bar says so, and `q` (or Ctrl-C) quits.
#[test]
fn snapshot_of_a_replay_stepped_through() {
    let mut game = state();
    game.apply(Action::Bot);
    let replay = game.play.replay().unwrap();
    let mut s = State::replaying(&replay);
    // The first action was made at 42 s on the game's (frozen) clock: at the game's pace it comes
    // 42 s after the start.
    let t0 = std::time::Instant::now();
    s.catch_up(t0);
    s.catch_up(t0 + Duration::from_secs(41));
    assert_eq!(s.playback.as_ref().unwrap().progress().0, 0);
    press(&mut s, &[key(KeyCode::Char('n'))]);
    assert_eq!(s.mode(), Mode::Stepping);
    assert_eq!(s.playback.as_ref().unwrap().progress().0, 1);
    s.catch_up(t0 + Duration::from_secs(100));
    assert_eq!(s.playback.as_ref().unwrap().progress().0, 1, "stepping");
    insta::assert_snapshot!("screen_replay_stepping", screen(&s));
    press(&mut s, &[key(KeyCode::Char('p'))]);
    assert_eq!(s.mode(), Mode::Replay);
    s.catch_up(t0 + Duration::from_secs(200));
    assert_eq!(s.mode(), Mode::ReplayOver, "the rest at once: all at 42 s");
    press(
        &mut s,
        &[Event::Key(KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL,
        ))],
    );
    assert!(s.quit);
}

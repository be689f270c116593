//! `quarto-play`: scripted games through stdin, and the players and the book through the library.

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{self, best_move, Cell, Move, Value};
use cp_puzzles_play::quarto_play::book::{self, Book};
use cp_puzzles_play::quarto_play::game::{parse_move, Game, Outcome};
use cp_puzzles_play::quarto_play::line::show_board;
use cp_puzzles_play::quarto_play::players::{choose, perfect, Level};

use crate::util::bin;

/// Runs `quarto-play` with `args` and `stdin`, and returns its stdout.
fn play(args: &[&str], stdin: &str) -> String {
    let out = bin("quarto-play")
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).expect("utf-8")
}

/// A game after `plies` random moves from seed `seed`, not over.
fn random_opening(seed: u64, plies: usize) -> (Game, Rng) {
    let mut rng = Rng::new(seed);
    loop {
        let mut game = Game::new(1);
        let book = Book::default();
        while game.moves().len() < plies && game.outcome().is_none() {
            let mv = choose(Level::Random, &game.position(), &book, &mut rng);
            game.play(mv).expect("legal");
        }
        if game.outcome().is_none() {
            return (game, rng);
        }
    }
}

/// Plays `game` to its end with the given levels for players 1 and 2.
fn finish(game: &mut Game, levels: [Level; 2], rng: &mut Rng) -> Outcome {
    let book = book::shipped();
    loop {
        if let Some(o) = game.outcome() {
            return o;
        }
        let level = levels[usize::from(game.to_move()) - 1];
        let mv = choose(level, &game.position(), &book, rng);
        game.play(mv).expect("legal");
    }
}

#[test]
fn perfect_against_perfect_keeps_the_solvers_value() {
    for seed in 0..6 {
        let (mut game, mut rng) = random_opening(seed, 8);
        let mover = game.to_move();
        let value = best_move(&game.position()).value;
        let outcome = finish(&mut game, [Level::Perfect; 2], &mut rng);
        let expected = match value {
            Value::Win => Outcome::Win(mover),
            Value::Draw => Outcome::Draw,
            Value::Loss => Outcome::Win(3 - mover),
        };
        assert_eq!(outcome, expected, "seed {seed}");
    }
}

#[test]
fn random_never_beats_perfect() {
    for seed in 0..12 {
        let (mut game, mut rng) = random_opening(100 + seed, 8);
        let value = best_move(&game.position()).value;
        let perfect_side = game.to_move();
        let mut levels = [Level::Random; 2];
        levels[usize::from(perfect_side) - 1] = Level::Perfect;
        let outcome = finish(&mut game, levels, &mut rng);
        match value {
            Value::Win => assert_eq!(outcome, Outcome::Win(perfect_side), "seed {seed}"),
            _ => assert_ne!(outcome, Outcome::Win(3 - perfect_side), "seed {seed}"),
        }
    }
}

#[test]
fn perfect_plays_the_solvers_move() {
    for seed in 0..6 {
        let (game, _) = random_opening(200 + seed, 7);
        let (mv, value) = perfect(&game.position(), &book::shipped());
        let a = best_move(&game.position());
        assert_eq!((mv, value), (a.best, a.value), "seed {seed}");
    }
}

#[test]
fn easy_beats_random_in_most_games() {
    let out = play(
        &[
            "--p1", "easy", "--p2", "random", "--games", "40", "--first", "random",
        ],
        "",
    );
    let tally = out.lines().last().expect("a tally");
    let wins: u32 = tally
        .strip_prefix("tally: player 1 wins ")
        .and_then(|t| t.split(',').next())
        .and_then(|n| n.parse().ok())
        .expect("the tally line");
    assert!(wins >= 30, "{tally}");
}

/// An unknown command is answered with the whole list of commands.
#[test]
fn illegal_moves_are_rejected_and_asked_again() {
    let out = play(
        &["--p1", "human", "--p2", "random"],
        "place 0 0\ngive 2222\nplace 0 0 give 0001\nbogus\nhint me\ngive 0000\nquit\n",
    );
    insta::assert_snapshot!(out);
}

/// A run of several computer games prints each result and the tally; `--moves` adds every move
/// and each game's `moves:` line.
#[test]
fn several_games_print_their_results_and_the_moves_only_when_asked() {
    let args = [
        "--p1", "easy", "--p2", "random", "--games", "3", "--seed", "4",
    ];
    let out = play(&args, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[..3].iter().all(|l| l.starts_with("result: ")),
        "{out}"
    );
    assert!(lines[3].starts_with("tally: player 1 wins "), "{out}");
    let verbose = play(&[&args[..], &["--moves"]].concat(), "");
    let results: Vec<&str> = verbose
        .lines()
        .filter(|l| l.starts_with("result: ") || l.starts_with("tally: "))
        .collect();
    assert_eq!(results, lines, "the same games");
    let count = |prefix: &str| verbose.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("moves: "), 3, "{verbose}");
    // A game has at least 5 moves: a gift, then 4 placements.
    assert!(
        count("player 1: ") + count("player 2: ") >= 3 * 5,
        "{verbose}"
    );
}

/// A line of 64 MiB is refused with one line and skipped, and the game goes on.
#[test]
fn an_over_long_line_is_refused_and_the_game_goes_on() {
    use cp_puzzles_play::quarto_play::line::{run, First, Setup};
    use std::io::Read as _;
    let setup = Setup {
        players: [Level::Human, Level::Random],
        first: First::Player(1),
        seed: 1,
        games: 1,
        book: Book::default(),
        moves: false,
    };
    let huge = std::io::repeat(b'x').take(64 << 20);
    let input = std::io::BufReader::new(huge.chain(&b"\ngive 0000\nquit\n"[..]));
    let mut output = Vec::new();
    run(&setup, input, &mut output).expect("no error");
    let text = String::from_utf8(output).expect("utf-8");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("player 1> line too long: over 4096 bytes, skipped")
    );
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("player 1> player 2: place ")),
        "{text}"
    );
}

#[test]
fn a_lone_placement_waits_for_its_gift_and_undo_takes_back_a_round() {
    let out = play(
        &["--p1", "random", "--p2", "human", "--seed", "5"],
        "place 0 0\ngive 0101\nboard\nundo\nboard\nplace 3 3 give 1111\nquit\n",
    );
    insta::assert_snapshot!(out);
}

/// The line mode's board: each column's label stands over its empty cells' dots and within its
/// pieces' digits, whatever the cells hold (pieces, empty cells, a placement awaiting its gift).
#[test]
fn the_boards_columns_line_up_with_their_labels() {
    let mut game = Game::new(1);
    for mv in ["give 0000", "place 0 0 give 0101", "place 2 2 give 1111"] {
        game.play(parse_move(mv).expect("notation")).expect("legal");
    }
    let shown = show_board(&game, Cell::new(1, 3));
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 6, "{shown}");
    let at = |line: &str, x: usize| line.chars().nth(x).unwrap_or(' ');
    for col in 0..4u8 {
        let x = lines[0]
            .find(char::from(b'0' + col))
            .unwrap_or_else(|| panic!("no label {col}:\n{shown}"));
        for row in 0..4u8 {
            let line = lines[1 + usize::from(row)];
            let cell = Cell::new(row, col).expect("in range");
            let text: String = (x - 1..x + 3).map(|i| at(line, i)).collect();
            let expected = match game.board().get(cell) {
                Some(p) => p.to_string(),
                None if Cell::new(1, 3) == Some(cell) => "[  ]".to_string(),
                None => " .  ".to_string(),
            };
            assert_eq!(text, expected, "row {row}, column {col}:\n{shown}");
        }
    }
    assert!(shown.lines().all(|l| !l.ends_with(' ')), "{shown:?}");
    insta::assert_snapshot!("board_with_a_pending_placement", shown);
}

#[test]
fn save_writes_the_position_for_quarto() {
    let dir = std::env::temp_dir().join(format!("quarto-play-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("pos.txt");
    let script = format!("give 0011\nsave {}\nquit\n", file.display());
    play(&["--p1", "human", "--p2", "random", "--seed", "2"], &script);
    let saved = std::fs::read_to_string(&file).expect("the saved file");
    let position = quarto::parse(saved.as_bytes()).expect("quarto reads it");
    assert_eq!(position.board.occupied().len(), 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_moves_line_replays_through_quarto() {
    for seed in 0..10 {
        let seed = seed.to_string();
        let out = play(&["--p1", "medium", "--p2", "easy", "--seed", &seed], "");
        let moves = out
            .lines()
            .find_map(|l| l.strip_prefix("moves: "))
            .expect("a moves line");
        let mut game = Game::new(1);
        for text in moves.split(", ") {
            if game.hand().is_some() || game.moves().is_empty() {
                quarto::parse(game.to_quarto_input().as_bytes()).expect("a valid position");
            }
            let mv: Move = parse_move(text).expect("the solver's notation");
            game.play(mv).expect("a legal move");
        }
        assert!(game.outcome().is_some());
    }
}

#[test]
fn end_of_input_ends_quietly() {
    let out = play(&[], "");
    assert_eq!(out, "player 1> ");
}

#[test]
fn a_sample_of_the_book_matches_the_solver() {
    let book = book::shipped();
    assert!(!book.is_empty(), "a book with entries");
    let deepest = book.depth();
    // The deepest positions are the cheapest to solve (a few seconds each); one piece placed
    // takes 20 to 40 s, so two entries are drawn from the deepest level only.
    let entries: Vec<_> = book
        .entries()
        .filter(|(c, _)| c.occupied.count_ones() == deepest)
        .collect();
    let mut rng = Rng::new(7);
    let mut solver = book::Solver::new(deepest);
    for _ in 0..2 {
        let (c, entry) = entries[rng.below(entries.len() as u64) as usize];
        assert_eq!(solver.solve(&c), entry, "{c:?}");
    }
}

#[test]
fn the_book_holds_every_canonical_position_up_to_its_depth() {
    use cp_puzzles::quarto::book::{EMBEDDED_DEPTH, EMBEDDED_LEVEL};
    let book = book::shipped();
    assert!(!book.is_empty(), "a book with entries");
    // Every position up to 4 placed, and the level with 5 placed by its exceptions.
    assert_eq!(
        (book.depth(), book.draws_at()),
        (EMBEDDED_LEVEL, Some(EMBEDDED_LEVEL))
    );
    let expected: usize = (1..=EMBEDDED_DEPTH)
        .map(|d| book::canonical_positions(d).len())
        .sum();
    let up_to_depth = (book.entries())
        .filter(|(c, _)| c.occupied.count_ones() <= EMBEDDED_DEPTH)
        .count();
    assert_eq!(up_to_depth, expected);
    let round_trip = Book::parse(&book.to_text()).expect("round trip");
    assert_eq!(round_trip.with_draws_at(EMBEDDED_LEVEL), book);
}

/// Near the end the values count the moves: wins and losses in N.
#[test]
fn values_count_the_moves_to_the_end() {
    use cp_puzzles_play::quarto_play::players::annotate;
    let input = "0000 0001 . .\n0011 . 1000 .\n. 1111 . 0110\n. . 1100 .\n0010\n";
    let position = quarto::parse(input.as_bytes()).expect("a position");
    let text: Vec<String> = annotate(&position, &Book::default())
        .iter()
        .map(ToString::to_string)
        .collect();
    insta::assert_snapshot!("values_near_the_end", text.join("\n"));
    let (mv, outcome) = cp_puzzles_play::quarto_play::players::hint(&position, &Book::default());
    assert_eq!(
        format!("{mv} ({outcome})"),
        "place 2 0 give 1101 (win in 3)"
    );
}

/// Every move's value in the annotations is the negated solver value of the position it leaves
/// (or a win or draw that ends the game), in won, drawn and lost positions (6 to 13 pieces placed
/// by random play, until 10 wins, 10 draws and 4 losses are seen).
#[test]
fn annotations_agree_with_the_solver_move_by_move() {
    use cp_puzzles::quarto::Position;
    use cp_puzzles_play::quarto_play::players::annotate;
    let wanted = [4, 10, 10];
    let mut seen = [0; 3];
    for seed in 0..2000 {
        let (game, _) = random_opening(300 + seed, 7 + (seed % 8) as usize);
        let position = game.position();
        let (board, hand) = (position.board, position.hand.expect("a piece in hand"));
        let v = best_move(&position).value as usize;
        if seen[v] == wanted[v] {
            continue;
        }
        seen[v] += 1;
        for quarto::MoveValue { mv, outcome } in annotate(&position, &Book::default()) {
            let (Some(cell), give) = (mv.place, mv.give) else {
                panic!("a placement")
            };
            let after = board.place(cell, hand);
            let expected = match give {
                None if after.has_winning_line() => Value::Win,
                None => Value::Draw,
                Some(gift) => {
                    -best_move(&Position {
                        board: after,
                        hand: Some(gift),
                    })
                    .value
                }
            };
            assert_eq!(outcome.value(), expected, "seed {seed}, {mv}");
        }
    }
    assert_eq!(seen, wanted, "losses, draws, wins");
}

/// `quarto --values` for `game`'s position, with the built-in book, as `quarto` prints it.
fn quarto_values(game: &Game) -> String {
    let mut out = Vec::new();
    quarto::run_values(
        game.to_quarto_input().as_bytes(),
        &mut out,
        &quarto::Book::embedded(),
    )
    .expect("a position with moves");
    String::from_utf8(out).expect("utf-8")
}

/// The line mode's `hint` is the first line of `quarto --values` (the move and its outcome), in
/// positions with 2 pieces placed (in the book), 3 (the position in the book, its moves not), 4,
/// 5, 7 and 9 placed (searched), from both players' side.
#[test]
fn the_hint_is_the_first_line_of_quarto_values() {
    let mut outcomes = Vec::new();
    for (seed, plies) in [(1, 3), (6, 4), (7, 5), (2, 6), (3, 8), (4, 10), (5, 10)] {
        let (game, _) = random_opening(900 + seed, plies);
        let mut script: String = game.moves().iter().map(|m| format!("{m}\n")).collect();
        script += "hint\nquit\n";
        let out = play(&["--p1", "human", "--p2", "human"], &script);
        let hint = out
            .split("hint: ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap_or_else(|| panic!("no hint in {out}"));
        let values = quarto_values(&game);
        let first = values.lines().next().expect("a first line");
        let (mv, outcome) = first.split_once(": ").expect("<move>: <outcome>");
        assert_eq!(hint, format!("{mv} ({outcome})"), "seed {seed}\n{values}");
        outcomes.push(outcome.to_string());
    }
    assert!(
        outcomes.iter().any(|o| o != "draw"),
        "a decided position among {outcomes:?}"
    );
}

/// After a lone `place R C`, `hint` names that cell and the best gift for it: the first line of
/// `quarto --values` that places on it, in positions with 2 to 9 pieces placed, on a cell other
/// than the whole position's hint.
#[test]
fn the_hint_after_a_lone_placement_places_there() {
    for (seed, plies) in [(1, 3), (6, 4), (2, 6), (4, 10)] {
        let (game, _) = random_opening(900 + seed, plies);
        let values = quarto_values(&game);
        let best = values.lines().next().expect("a first line");
        // The first cell that does not end the game, other than the best move's.
        let line = values
            .lines()
            .find(|l| l.contains(" give ") && !l.starts_with(&best[..9]))
            .expect("another cell");
        let cell = &line[..9];
        let mut script: String = game.moves().iter().map(|m| format!("{m}\n")).collect();
        script += &format!("{cell}\nhint\nquit\n");
        let out = play(&["--p1", "human", "--p2", "human"], &script);
        let hint = out
            .split("hint: ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap_or_else(|| panic!("no hint in {out}"));
        let first = values
            .lines()
            .find(|l| l.starts_with(cell))
            .expect("a line placing there");
        let (mv, outcome) = first.split_once(": ").expect("<move>: <outcome>");
        assert_eq!(hint, format!("{mv} ({outcome})"), "seed {seed}\n{values}");
    }
}

/// [`hint_at`] is the first of the values placing on its cell, for every empty cell of
/// positions with 1 to 11 pieces placed by random play; `None` for a taken cell.
#[test]
fn the_hint_at_a_cell_is_the_first_of_the_values_placing_there() {
    use cp_puzzles_play::quarto_play::players::{annotate, hint_at};
    let book = book::shipped();
    for seed in 0..22 {
        let (game, _) = random_opening(2_000 + seed, 2 + (seed % 11) as usize);
        let position = game.position();
        let values = annotate(&position, &book);
        for i in 0..16u8 {
            let cell = Cell::from_index(i);
            let first = values.iter().find(|l| l.mv.place == Some(cell));
            let expected = first.map(|l| (l.mv, l.outcome));
            assert_eq!(
                hint_at(&position, cell, &book),
                expected,
                "seed {seed}, cell {i}"
            );
            assert_eq!(first.is_none(), position.board.get(cell).is_some());
        }
    }
}

/// `--book` reads a file through the library's reader: what is not a regular file (an endless
/// `/dev/zero`) is refused at once (exit 2, one line naming the file), a file that is no book
/// too.
#[test]
fn a_book_that_is_no_book_is_refused() {
    let out = bin("quarto-play")
        .args(["--book", "/dev/zero", "--plain"])
        .timeout(std::time::Duration::from_secs(20))
        .write_stdin("quit\n")
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).expect("utf-8");
    assert!(
        stderr.starts_with(
            "quarto-play: --book /dev/zero: expected a regular file, found a character device"
        ) && stderr.lines().count() == 1,
        "{stderr}"
    );
    let dir = std::env::temp_dir().join(format!("quarto-play-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let file = dir.join("not-a-book.txt");
    std::fs::write(&file, "0001 0000000000000000 w\n0001 0000000000000000 l\n").expect("written");
    let out = bin("quarto-play")
        .arg("--book")
        .arg(&file)
        .write_stdin("quit\n")
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).expect("utf-8");
    assert!(stderr.contains("book line"), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// The hint (perfect's move and its distance) is the first of the values (every move valued), on
/// 80 positions with 6 to 13 pieces placed by random play, wins and losses among them.
#[test]
fn the_hint_is_the_first_of_the_values() {
    use cp_puzzles_play::quarto_play::players::{annotate, hint};
    let book = book::shipped();
    let mut decided = 0;
    for seed in 0..80 {
        let (game, _) = random_opening(1_000 + seed, 7 + (seed % 8) as usize);
        let position = game.position();
        let first = annotate(&position, &book)[0];
        let (mv, outcome) = hint(&position, &book);
        assert_eq!((mv, outcome), (first.mv, first.outcome), "seed {seed}");
        decided += usize::from(outcome != quarto::Outcome::Draw);
    }
    assert!(decided >= 10, "only {decided} decided positions");
}

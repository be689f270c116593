//! `minesweeper` game engine and bot: the engine's rules against independent checks, the bot's
//! guarantees against a brute force over every layout, and the `minesweeper-bot` command line.

use std::collections::BTreeSet;

use proptest::prelude::*;

use cp_puzzles::minesweeper::bot::{self, Run, Strategy as Guesser};
use cp_puzzles::minesweeper::game::{
    game_seed, Cell, Config, FirstClick, Game, Layout, Pos, Reveal, Status,
};

/// A layout from a picture: `*` a mine, anything else a safe cell.
fn layout(rows: &[&str]) -> Layout {
    let mine: Vec<bool> = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '*'))
        .collect();
    let mines = mine.iter().filter(|&&m| m).count();
    let config = Config::new(rows[0].len(), rows.len(), mines).unwrap();
    Layout::from_mines(config, mine)
}

fn all_cells(c: &Config) -> impl Iterator<Item = Pos> {
    let (w, h) = (c.width(), c.height());
    (0..h).flat_map(move |y| (0..w).map(move |x| Pos { x, y }))
}

fn around(c: &Config, p: Pos) -> Vec<Pos> {
    all_cells(c)
        .filter(|q| q != &p && q.x.abs_diff(p.x) <= 1 && q.y.abs_diff(p.y) <= 1)
        .collect()
}

/// The cells a click on safe `start` must reveal, by a fixed point (no stack, no recursion):
/// `start`, and every neighbour of a revealed zero.
fn expected_flood(l: &Layout, start: Pos) -> BTreeSet<Pos> {
    let c = l.config();
    let mut set = BTreeSet::from([start]);
    loop {
        let grown: BTreeSet<Pos> = set
            .iter()
            .filter(|&&p| l.count(p) == 0)
            .flat_map(|&p| around(&c, p))
            .chain(set.iter().copied())
            .collect();
        if grown.len() == set.len() {
            return set;
        }
        set = grown;
    }
}

fn revealed(game: &Game) -> BTreeSet<Pos> {
    all_cells(&game.config())
        .filter(|&p| matches!(game.view().get(p), Cell::Revealed(_)))
        .collect()
}

#[test]
fn flood_fill_opens_the_zero_area_and_its_border() {
    let l = layout(&["....*", ".....", "..*..", ".....", "*...."]);
    let mut game = Game::with_layout(l.clone());
    let start = Pos { x: 0, y: 2 };
    let expected = expected_flood(&l, start);
    assert_eq!(
        game.reveal(start),
        Reveal::Opened {
            cells: expected.len()
        }
    );
    assert_eq!(revealed(&game), expected);
    for p in &expected {
        assert_eq!(game.view().get(*p), Cell::Revealed(l.count(*p)));
    }
}

#[test]
fn a_flag_stops_a_click_and_the_flood() {
    let l = layout(&["....", "....", "...*"]);
    let mut game = Game::with_layout(l);
    assert!(game.toggle_flag(Pos { x: 3, y: 0 }));
    assert_eq!(game.reveal(Pos { x: 3, y: 0 }), Reveal::Ignored);
    game.reveal(Pos { x: 0, y: 0 });
    assert_eq!(game.view().get(Pos { x: 3, y: 0 }), Cell::Flagged);
    assert_eq!(game.status(), Status::Playing);
    assert!(game.toggle_flag(Pos { x: 3, y: 0 }));
    game.reveal(Pos { x: 3, y: 0 });
    assert_eq!(game.status(), Status::Won);
}

#[test]
fn revealing_every_safe_cell_wins_and_a_mine_loses() {
    let l = layout(&["*..", "*..", "..*"]);
    let mut game = Game::with_layout(l.clone());
    let safe: Vec<Pos> = all_cells(&l.config()).filter(|&p| !l.is_mine(p)).collect();
    for (i, &p) in safe.iter().enumerate() {
        assert_eq!(game.status(), Status::Playing);
        game.reveal(p);
        assert_eq!(game.status() == Status::Won, i + 1 == safe.len());
    }
    assert_eq!(game.status(), Status::Won);
    assert_eq!(game.reveal(Pos { x: 0, y: 0 }), Reveal::Ignored);

    let mut game = Game::with_layout(l);
    game.reveal(Pos { x: 1, y: 0 });
    assert_eq!(game.reveal(Pos { x: 2, y: 2 }), Reveal::Exploded);
    assert_eq!(game.status(), Status::Lost);
    assert_eq!(game.reveal(Pos { x: 1, y: 1 }), Reveal::Ignored);
}

#[test]
fn a_mine_under_the_first_click_moves_to_a_uniformly_random_cell() {
    // 3x3 with one mine, first click in the centre: each of the 8 other cells holds the mine
    // about 1/8 of the time.
    let config = Config::new(3, 3, 1).unwrap();
    let mut counts = [0u32; 9];
    for i in 0..8000 {
        let mut game = Game::new(config, FirstClick::Safe, game_seed(5, i)).unwrap();
        game.reveal(Pos { x: 1, y: 1 });
        let l = game.layout().unwrap();
        let at = all_cells(&config).position(|p| l.is_mine(p)).unwrap();
        counts[at] += 1;
    }
    assert_eq!(counts[4], 0);
    for (i, &n) in counts.iter().enumerate().filter(|&(i, _)| i != 4) {
        assert!((850..1150).contains(&n), "cell {i}: {counts:?}");
    }
}

fn arb_game() -> impl Strategy<Value = (usize, usize, usize, Pos, u64, bool)> {
    (1usize..=12, 1usize..=12, any::<u64>(), any::<bool>()).prop_flat_map(
        |(w, h, seed, opening)| {
            let room = if opening {
                w * h - 9.min(w * h)
            } else {
                w * h - 1
            };
            (0..=room, 0..w, 0..h).prop_map(move |(m, x, y)| (w, h, m, Pos { x, y }, seed, opening))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The first click never loses; under `opening` it shows 0 and so opens its whole block.
    #[test]
    fn the_first_click_never_loses((w, h, m, first, seed, opening) in arb_game()) {
        let config = Config::new(w, h, m).unwrap();
        let rule = if opening { FirstClick::Opening } else { FirstClick::Safe };
        // Under `opening` near an edge the block is smaller than 9, so more mines may fit than
        // `arb_game` allows: fine. The rule is checked against the real block.
        prop_assume!(config.check_rule(rule).is_ok());
        let mut game = Game::new(config, rule, seed).unwrap();
        let result = game.reveal(first);
        let opened = matches!(result, Reveal::Opened { .. });
        prop_assert!(opened);
        let l = game.layout().unwrap();
        prop_assert_eq!(all_cells(&config).filter(|&p| l.is_mine(p)).count(), m);
        if opening {
            prop_assert_eq!(l.count(first), 0);
            let block = around(&config, first).len() + 1;
            let opened_block = matches!(result, Reveal::Opened { cells } if cells >= block);
            prop_assert!(opened_block);
        }
        prop_assert_eq!(revealed(&game), expected_flood(l, first));
        if game.hidden_safe() == 0 {
            prop_assert_eq!(game.status(), Status::Won);
        }
    }

    /// The same seed gives the same layout.
    #[test]
    fn the_same_seed_gives_the_same_game(seed in any::<u64>(), opening in any::<bool>()) {
        let config = Config::new(30, 16, 99).unwrap();
        let rule = if opening { FirstClick::Opening } else { FirstClick::Safe };
        let draw = || {
            let mut g = Game::new(config, rule, seed).unwrap();
            g.reveal(Pos { x: 3, y: 3 });
            g.layout().unwrap().clone()
        };
        prop_assert_eq!(draw(), draw());
    }
}

#[test]
fn layouts_are_pinned_to_the_seed() {
    // A change of generator or of seed derivation changes every recorded win rate: this test
    // says so. The string is the first row of game 0 of seed 1 on expert, first click (0, 0).
    let mut game = Game::new(
        Config::new(30, 16, 99).unwrap(),
        FirstClick::Safe,
        game_seed(1, 0),
    )
    .unwrap();
    game.reveal(Pos { x: 0, y: 0 });
    let l = game.layout().unwrap();
    let row: String = (0..30)
        .map(|x| if l.is_mine(Pos { x, y: 0 }) { '*' } else { '.' })
        .collect();
    assert_eq!(row, PINNED_ROW);
}

const PINNED_ROW: &str = "..........*..*....*.....*..*..";

#[test]
fn totals_do_not_depend_on_the_number_of_threads() {
    let run = |threads| {
        let job = Run {
            config: Config::new(9, 9, 10).unwrap(),
            rule: FirstClick::Safe,
            strategy: Guesser::Lowest,
            games: 300,
            seed: 11,
            threads,
        };
        let mut s = bot::run(&job, &|_| {}).unwrap();
        s.seconds = 0.0;
        s
    };
    assert_eq!(run(1), run(2));
    assert_eq!(run(1), run(3));
}

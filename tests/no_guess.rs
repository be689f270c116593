//! No-guess layouts (`cp_puzzles::minesweeper::no_guess`), each proved by a replay written here
//! apart from the generator: the game engine plays the layout from the first click, and at every
//! step the public analyzer must name a safe cell or an unflagged certain mine, which is played
//! one at a time, until the game is won.

use cp_puzzles::minesweeper::game::{Config, FirstClick, Game, Layout, Reveal, Status};
use cp_puzzles::minesweeper::no_guess::{generate, Effort, NoGuessError};
use cp_puzzles::minesweeper::{analyze, Pos};
use proptest::prelude::*;

/// Plays `layout` from `first` with the analyzer's certain moves only; `Err` names the first
/// position where no move is certain, or a move that went wrong.
fn replay(layout: &Layout, first: Pos) -> Result<usize, String> {
    let mut game = Game::with_layout(layout.clone());
    if game.reveal(first) == Reveal::Exploded {
        return Err(format!("the first click {first:?} is a mine"));
    }
    let mut steps = 0;
    while game.status() == Status::Playing {
        let analysis = analyze(game.view()).map_err(|e| format!("analyzer: {e}"))?;
        if let Some(&p) = analysis.safe.first() {
            if game.reveal(p) == Reveal::Exploded {
                return Err(format!("the safe cell {p:?} is a mine"));
            }
        } else if let Some(&p) = analysis.mines.first() {
            assert!(layout.is_mine(p), "the certain mine {p:?} is no mine");
            game.toggle_flag(p);
        } else {
            return Err(format!("a guess is needed at:\n{}", game.view()));
        }
        steps += 1;
    }
    assert_eq!(game.status(), Status::Won);
    Ok(steps)
}

/// Checks everything promised of `generate(config, rule, first, seed, ..)`'s layout.
fn check(config: Config, rule: FirstClick, first: Pos, seed: u64, layout: &Layout) {
    assert_eq!(layout.config(), config);
    let mines = (0..config.height())
        .flat_map(|y| (0..config.width()).map(move |x| Pos::new(x, y)))
        .filter(|&p| layout.is_mine(p))
        .count();
    assert_eq!(mines, config.mines());
    let radius = if rule == FirstClick::Opening { 1 } else { 0 };
    for y in first.y.saturating_sub(radius)..=(first.y + radius).min(config.height() - 1) {
        for x in first.x.saturating_sub(radius)..=(first.x + radius).min(config.width() - 1) {
            assert!(
                !layout.is_mine(Pos::new(x, y)),
                "the first click's area has a mine"
            );
        }
    }
    if let Err(why) = replay(layout, first) {
        panic!("{config} {rule:?} first {first:?} seed {seed}: {why}");
    }
}

fn made(config: Config, rule: FirstClick, first: Pos, seed: u64) -> Layout {
    let made = generate(config, rule, first, seed, Effort::default_for(config))
        .unwrap_or_else(|e| panic!("{config} seed {seed}: {e}"));
    check(config, rule, first, seed, &made.layout);
    made.layout
}

#[test]
fn expert_boards_are_no_guess_on_many_seeds() {
    let config = Config::new(30, 16, 99).unwrap();
    for seed in 0..150 {
        made(config, FirstClick::Opening, Pos::new(14, 7), seed);
    }
}

#[test]
fn dense_boards_are_no_guess() {
    for (w, h, m, seeds) in [(30, 16, 130, 40), (30, 16, 150, 10), (16, 16, 60, 60)] {
        let config = Config::new(w, h, m).unwrap();
        for seed in 0..seeds {
            made(config, FirstClick::Opening, Pos::new(w / 2, h / 2), seed);
        }
    }
}

#[test]
fn the_classic_safe_first_click_works_too() {
    for (w, h, m) in [(9, 9, 10), (16, 16, 40), (30, 16, 99)] {
        let config = Config::new(w, h, m).unwrap();
        for seed in 0..30 {
            made(config, FirstClick::Safe, Pos::new(0, 0), seed);
        }
    }
}

#[test]
fn same_seed_same_layout_and_seeds_differ() {
    let config = Config::new(30, 16, 99).unwrap();
    let first = Pos::new(3, 3);
    let a = made(config, FirstClick::Opening, first, 5);
    assert_eq!(a, made(config, FirstClick::Opening, first, 5));
    assert_ne!(a, made(config, FirstClick::Opening, first, 6));
}

#[test]
fn an_impossible_board_gives_up_saying_how_far_it_got() {
    // 2x2 with 2 mines, first click in a corner: it shows 2, and the other three cells are alike.
    let config = Config::new(2, 2, 2).unwrap();
    let err = generate(
        config,
        FirstClick::Safe,
        Pos::new(0, 0),
        1,
        Effort::default_for(config),
    )
    .unwrap_err();
    assert!(matches!(err, NoGuessError::GaveUp { .. }));
    assert_eq!(
        err.to_string(),
        "no no-guess board of 2x2/2 found in 50 layouts and 0 repairs (at most 8 per layout): \
         the best play revealed 1 of 2 safe cells"
    );
}

#[test]
fn a_too_dense_board_gives_up_within_its_effort() {
    let config = Config::new(30, 16, 300).unwrap();
    let effort = Effort {
        layouts: 3,
        repairs: 40,
        work: u64::MAX,
    };
    let err = generate(config, FirstClick::Opening, Pos::new(14, 7), 1, effort).unwrap_err();
    let NoGuessError::GaveUp {
        repairs,
        best_revealed,
        safe,
        layouts,
        spent,
        ..
    } = err
    else {
        panic!("{err}");
    };
    assert!(repairs <= 3 * 40);
    assert!(best_revealed < safe);
    assert_eq!((layouts, spent), (3, false));
}

#[test]
fn the_work_budget_bounds_a_big_dense_board() {
    // 100x100 with 3,500 mines: hopeless within a budget of 2 million cells (200 analyses).
    let config = Config::new(100, 100, 3_500).unwrap();
    let effort = Effort {
        work: 2_000_000,
        ..Effort::default_for(config)
    };
    let err = generate(config, FirstClick::Opening, Pos::new(50, 50), 1, effort).unwrap_err();
    assert!(
        matches!(err, NoGuessError::GaveUp { spent: true, .. }),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains(", its work budget spent: the best play"),
        "{text}"
    );
}

#[test]
fn a_bad_first_click_is_a_clear_error() {
    let config = Config::new(9, 9, 10).unwrap();
    let effort = Effort::default_for(config);
    let off = generate(config, FirstClick::Safe, Pos::new(9, 0), 1, effort).unwrap_err();
    assert!(matches!(off, NoGuessError::Config(_)), "{off}");
    let full = Config::new(3, 3, 8).unwrap();
    let err = generate(full, FirstClick::Opening, Pos::new(1, 1), 1, effort).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected at most 0 mines for this board and first click, found 8"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any size and density: a layout, if made, is no-guess, and the generator stops. On boards
    /// of at least 5x5 with at most a fifth of the cells mines, a layout is made (thinner boards
    /// can be impossible: on two rows, a column holding one mine is a 50/50 whatever the numbers).
    #[test]
    fn every_layout_made_is_no_guess(
        w in 1usize..=30,
        h in 1usize..=20,
        density in 0.0f64..0.3,
        fx in 0usize..30,
        fy in 0usize..20,
        opening in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let cells = w * h;
        let rule = if opening { FirstClick::Opening } else { FirstClick::Safe };
        let first = Pos::new(fx % w, fy % h);
        let free = if opening { (fx % w).min(1) + 1 + usize::from(fx % w + 1 < w) } else { 1 };
        let free = if opening { free * ((fy % h).min(1) + 1 + usize::from(fy % h + 1 < h)) } else { free };
        let mines = ((cells as f64 * density) as usize).min(cells - free);
        let config = Config::new(w, h, mines).unwrap();
        match generate(config, rule, first, seed, Effort::default_for(config)) {
            Ok(made) => check(config, rule, first, seed, &made.layout),
            Err(e) => {
                prop_assert!(matches!(e, NoGuessError::GaveUp { .. }), "{}", e);
                prop_assert!(density > 0.2 || w < 5 || h < 5, "{config}: {e}");
            }
        }
    }
}

#[test]
fn the_replay_catches_layouts_that_need_a_guess() {
    // Plain uniform expert layouts: most need a guess somewhere, and the replay must say so.
    use cp_puzzles::minesweeper::game::Rng;
    let config = Config::new(30, 16, 99).unwrap();
    let first = Pos::new(14, 7);
    let guessing = (0..20)
        .map(|seed| Layout::generate(config, FirstClick::Opening, first, &mut Rng::new(seed)))
        .filter(|layout| replay(layout.as_ref().unwrap(), first).is_err())
        .count();
    assert!(
        guessing >= 5,
        "only {guessing} of 20 uniform layouts need a guess"
    );
}

//! The bot's games (`cp_puzzles_play::minesweeper_bot`): runs whose totals do not depend on the
//! threads, shards that add up to the whole run, reports that read back from their JSON, the
//! pinned strength on fixed seeds, the strategies' syntax, and every move of small
//! games against a brute force over their arrangements.

use proptest::prelude::*;

use cp_puzzles::minesweeper::game::{self, Config, FirstClick, Game, Level, Reveal, Status};
use cp_puzzles::minesweeper::{analyze, Cell, Pos};
use cp_puzzles_play::minesweeper_bot::{
    self as bot, Forced, Pool, Run, Spelled, Strategy as Guesser,
};

use test_support::minesweeper_brute::{all_cells, arrangements};

#[test]
fn totals_do_not_depend_on_the_number_of_threads() {
    let run = |threads| {
        let job = Run {
            config: Config::new(9, 9, 10).unwrap(),
            rule: FirstClick::Safe,
            first: None,
            no_guess: false,
            strategy: Guesser::Lowest,
            first_game: 0,
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

/// A run of `games` games of 9x9/10 from `first_game`, seed 7, with the lowest-probability
/// guess (fast) on `threads` threads.
fn shard(first_game: u64, games: u64, threads: usize) -> Run {
    Run {
        config: Config::new(9, 9, 10).unwrap(),
        rule: FirstClick::Safe,
        first: None,
        no_guess: false,
        strategy: Guesser::Lowest,
        first_game,
        games,
        seed: 7,
        threads,
    }
}

/// Game i's result, played alone: the reference the shards are checked against.
fn alone(index: u64) -> (u64, u64, u64) {
    let played = bot::play_one(&shard(0, 1, 1), index).unwrap();
    (
        u64::from(played.won),
        u64::from(played.guesses),
        u64::from(played.analyses),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Cut games 0..60 anywhere into shards, run them on any threads and merge them in any order:
    /// the totals are those of the games played one by one, and the merged run is games 0..60.
    #[test]
    fn shards_add_up_to_the_games_played_one_by_one(
        cuts in proptest::collection::vec(0u64..=60, 0..4),
        threads in proptest::collection::vec(1usize..=3, 5),
        rotate in 0usize..5,
    ) {
        let mut bounds = [&[0u64, 60][..], &cuts].concat();
        bounds.sort_unstable();
        let mut shards = Vec::new();
        for (i, pair) in bounds.windows(2).enumerate() {
            let run = shard(pair[0], pair[1] - pair[0], threads[i]);
            let report = bot::Report::new(run, bot::run(&run, &|_| {}).unwrap());
            shards.push((format!("shard{i}.json"), report));
        }
        let turn = rotate % shards.len();
        shards.rotate_left(turn);
        let merged = bot::merge(&shards).unwrap();
        let (wins, guesses, analyses) = (0..60).map(alone).fold((0, 0, 0), |a, b| {
            (a.0 + b.0, a.1 + b.1, a.2 + b.2)
        });
        let s = merged.summary;
        prop_assert_eq!((s.games, s.wins, s.guesses, s.analyses), (60, wins, guesses, analyses));
        prop_assert_eq!((merged.run.first_game, merged.run.games), (0, 60));
        let used = &threads[..shards.len()];
        prop_assert_eq!(merged.run.threads, *used.iter().min().unwrap());
        prop_assert_eq!(merged.most_threads, *used.iter().max().unwrap());
    }

    /// Shards merge only if their sources agree (all the same fingerprint, or all unknown), into a
    /// report of those sources; otherwise the error names the first shard (in the given order)
    /// whose sources differ from the first one's, with both values.
    #[test]
    fn shards_merge_only_when_their_sources_agree(
        sources in proptest::collection::vec(proptest::option::of(0u64..3), 1..5),
    ) {
        let shards: Vec<(String, bot::Report)> = sources
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let games = 10;
                let summary = bot::Summary { games, wins: i as u64, ..bot::Summary::default() };
                let mut report = bot::Report::new(shard(games * i as u64, games, 1), summary);
                report.sources = s.map(bot::Sources);
                (format!("shard{i}.json"), report)
            })
            .collect();
        let first = sources[0];
        match sources.iter().position(|&s| s != first) {
            None => {
                let merged = bot::merge(&shards).unwrap();
                prop_assert_eq!(merged.sources, first.map(bot::Sources));
                prop_assert_eq!(merged.summary.games, 10 * sources.len() as u64);
            }
            Some(i) => {
                let err = bot::merge(&shards).unwrap_err();
                prop_assert_eq!(&err.file, &format!("shard{i}.json"));
                let name = |s: Option<u64>| s.map_or("no sources".to_string(), |v| format!("{v:016x}"));
                prop_assert!(err.what.contains(&name(first)), "{}", err);
                prop_assert!(err.what.contains(&name(sources[i])), "{}", err);
                prop_assert!(err.what.contains("as in shard0.json"), "{}", err);
            }
        }
    }

    /// A report reads back from its JSON as the same report.
    #[test]
    fn a_report_reads_back_from_its_json(
        strategy in arb_strategy(),
        level in 0usize..3,
        opening in any::<bool>(),
        cell in proptest::option::of((0usize..9, 0usize..9)),
        (first_game, games, wins) in (0u64..1 << 40, 0u64..1 << 40)
            .prop_flat_map(|(k, n)| (Just(k), Just(n), 0..=n)),
        (guesses, analyses) in (any::<u32>(), any::<u64>()),
        seconds in 0.0..1e6f64,
        (threads, more) in (1usize..64, 0usize..64),
        (no_guess, worst) in (any::<bool>(), 5u32..20),
        sources in proptest::option::of(any::<u64>()),
    ) {
        let config = Config::level([Level::Beginner, Level::Intermediate, Level::Expert][level]);
        let rule = if opening { FirstClick::Opening } else { FirstClick::Safe };
        let first = cell
            .map(|(x, y)| Pos::new(x, y))
            .filter(|&c| c != rule.cell(&config));
        let run = Run { config, rule, first, no_guess, strategy, first_game, games, seed: games ^ 5, threads };
        // Every board made in the same time, a bucket's lower bound.
        let generation = if no_guess {
            let (worst, histogram) = (1u64 << worst, [(1u64 << worst, games)]);
            let histogram = if games == 0 { &histogram[..0] } else { &histogram[..] };
            bot::Generation::from_parts(games, worst * games, worst, histogram).unwrap()
        } else {
            bot::Generation::default()
        };
        let summary = bot::Summary { games, wins, guesses: guesses.into(), analyses, seconds, generation };
        let sources = sources.map(bot::Sources);
        let report = bot::Report { run, summary, most_threads: threads + more, sources };
        let text = bot::to_json(&report);
        prop_assert_eq!(bot::from_json(&text).unwrap(), report, "{}", text);
    }
}

/// The pinned figures: one line per run (see the file's header).
const PINNED_WINS: &str = include_str!("minesweeper_bot_wins.txt");

#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn the_bot_wins_the_pinned_games() {
    let mut failures = Vec::new();
    for line in PINNED_WINS.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [level, games, strategy, rule, wins, guesses] = fields[..] else {
            panic!("6 fields expected: {line}");
        };
        let job = Run {
            config: Config::level(level.parse::<Level>().unwrap()),
            rule: rule.parse().unwrap(),
            first: None,
            no_guess: false,
            strategy: bot::parse_strategy(strategy).unwrap(),
            first_game: 0,
            games: games.parse().unwrap(),
            seed: 1,
            threads: 2,
        };
        let s = bot::run(&job, &|_| {}).unwrap();
        let found = format!("{} {}", s.wins, s.guesses);
        if found != format!("{wins} {guesses}") {
            failures.push(format!("{line}\n  found wins, guesses {found}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_run_with_a_first_click_off_the_board_is_an_error() {
    let job = Run {
        config: Config::new(9, 9, 10).unwrap(),
        rule: FirstClick::Opening,
        first: Some(Pos { x: 0, y: 9 }),
        no_guess: false,
        strategy: Guesser::Lowest,
        first_game: 0,
        games: 1,
        seed: 1,
        threads: 1,
    };
    assert!(matches!(
        bot::run(&job, &|_| {}),
        Err(bot::RunError::Config(game::Error::OffBoard { .. }))
    ));
    assert!(bot::replay(&job, 0).is_err());
}

/// Any strategy, its parameters within the ranges the syntax accepts.
fn arb_strategy() -> impl proptest::strategy::Strategy<Value = Guesser> {
    let unit = 0.0..=1.0f64;
    let forced = prop_oneof![
        Just(Forced::None),
        Just(Forced::Dead),
        Just(Forced::Pseudo),
        Just(Forced::Sets)
    ];
    let pool = (1usize..50, 1usize..20, 0usize..5).prop_flat_map(|(candidates, interior, deep)| {
        (0..interior, 0usize..10).prop_map(move |(near, extra)| Pool {
            candidates,
            interior,
            near,
            deep,
            extra,
        })
    });
    let secondary = (
        unit.clone(),
        unit.clone(),
        unit.clone(),
        0usize..100_000,
        any::<bool>(),
        pool,
        forced,
        prop_oneof![Just(0.0), unit.clone()],
    )
        .prop_map(
            |(window, blend, lone, endgame, regions, pool, forced, influence)| Guesser::Secondary {
                window,
                blend,
                lone,
                endgame,
                regions,
                pool,
                forced,
                influence,
            },
        );
    prop_oneof![
        Just(Guesser::Lowest),
        Just(Guesser::Analyzer),
        unit.clone()
            .prop_map(|next_risk| Guesser::Progress { next_risk }),
        unit.clone()
            .prop_map(|next_risk| Guesser::Endgame { next_risk }),
        unit.prop_map(|window| Guesser::Survival { window }),
        secondary,
    ]
}

proptest! {
    /// A strategy's text reads back as the same strategy.
    #[test]
    fn a_strategy_reads_back_from_its_text(s in arb_strategy()) {
        let text = Spelled(s).to_string();
        prop_assert_eq!(bot::parse_strategy(&text), Ok(s), "{}", text);
    }
}

/// The strategy a small game is played with: each in turn, by seed.
fn guesser(seed: u64) -> Guesser {
    [
        bot::PROGRESS,
        bot::ENDGAME,
        bot::SURVIVAL,
        PLAIN_SECONDARY,
        Guesser::REGIONS,
        Guesser::Lowest,
        DEEP_LOOKAHEAD,
    ][(seed % 7) as usize]
}

/// The exact-weight lookahead with the endgame search up to 1,000 arrangements, and none of the
/// later additions (a lone safe cell's weight, forced 50/50s, the 50/50 influence).
const PLAIN_SECONDARY: Guesser = Guesser::Secondary {
    window: 0.1,
    blend: 0.2,
    lone: 0.0,
    endgame: 1000,
    regions: false,
    pool: Pool {
        candidates: 12,
        interior: 4,
        near: 0,
        deep: 0,
        extra: 0,
    },
    forced: Forced::None,
    influence: 0.0,
};

/// The two-move lookahead on every guess (no exact search to take the small boards first), after
/// the forced 50/50s.
const DEEP_LOOKAHEAD: Guesser = Guesser::Secondary {
    window: 0.1,
    blend: 0.2,
    lone: 0.0,
    endgame: 0,
    regions: false,
    pool: Pool {
        candidates: 12,
        interior: 4,
        near: 0,
        deep: 3,
        extra: 0,
    },
    forced: Forced::Pseudo,
    influence: 0.0,
};

/// Small games: the board and its first-click rule.
fn arb_small_game() -> impl proptest::strategy::Strategy<Value = (usize, usize, usize, u64, bool)> {
    (2usize..=5, 2usize..=4, any::<u64>(), any::<bool>())
        .prop_filter("at most 16 cells", |(w, h, _, _)| w * h <= 16)
        .prop_flat_map(|(w, h, seed, opening)| {
            (1..=(w * h / 3)).prop_map(move |m| (w, h, m, seed, opening))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Before every move, the brute force agrees: a safe click is a mine in no arrangement, a
    /// flag a mine in every one, and a guess is never a cell that is a mine in every one.
    #[test]
    fn the_bot_never_clicks_a_proved_mine((w, h, m, seed, opening) in arb_small_game()) {
        let config = Config::new(w, h, m).unwrap();
        let rule = if opening { FirstClick::Opening } else { FirstClick::Safe };
        prop_assume!(config.check_rule(rule).is_ok());
        let mut game = Game::new(config, rule, rule.cell(&config), seed).unwrap();
        let mut before = game.view().clone();
        let mut failures = Vec::new();
        bot::play(&mut game, rule.cell(&config), guesser(seed), &mut |event, g| {
            let all = arrangements(&before);
            // The analyzer's arrangement count, which the lookahead compares across boards.
            if let Ok(a) = analyze(&before) {
                let expected = (all.len() as f64).ln();
                if (a.ln_arrangements - expected).abs() > 1e-9 {
                    failures.push(format!("ln count {} for {} arrangements", a.ln_arrangements, all.len()));
                }
            }
            let is_mine_in = |p: Pos| all.iter().filter(|a| a.contains(&p)).count();
            match event {
                bot::Event::First(_) => {}
                bot::Event::Safe(p) if is_mine_in(p) > 0 => failures.push(format!("{event:?}")),
                bot::Event::Flag(p) if is_mine_in(p) < all.len() => failures.push(format!("{event:?}")),
                bot::Event::Guess(p, _) if is_mine_in(p) == all.len() => failures.push(format!("{event:?}")),
                _ => {}
            }
            before = g.view().clone();
        }).unwrap();
        prop_assert!(failures.is_empty(), "{failures:?}");
    }

    /// A game that a perfect deducer wins without a guess, the bot wins without a guess; one where
    /// the deducer must guess, the bot guesses too.
    #[test]
    fn the_bot_never_loses_a_game_that_needs_no_guess((w, h, m, seed, opening) in arb_small_game()) {
        let config = Config::new(w, h, m).unwrap();
        let rule = if opening { FirstClick::Opening } else { FirstClick::Safe };
        prop_assume!(config.check_rule(rule).is_ok());
        let first = rule.cell(&config);
        let mut game = Game::new(config, rule, first, seed).unwrap();
        game.reveal(first);
        let layout = game.layout().clone();
        let needs_no_guess = deduces_to_the_end(game);
        let mut bot_game = Game::with_layout(layout);
        let played = bot::play(&mut bot_game, first, guesser(seed), &mut |_, _| {}).unwrap();
        if needs_no_guess {
            prop_assert!(played.won);
            prop_assert_eq!(played.guesses, 0);
        } else {
            prop_assert!(played.guesses > 0);
        }
    }
}

/// Plays on with the brute force only: clicks every cell that is a mine in no arrangement, until
/// the game is won (true) or nothing is provably safe (false).
fn deduces_to_the_end(mut game: Game) -> bool {
    while game.status() == Status::Playing {
        let all = arrangements(game.view());
        let safe: Vec<Pos> = all_cells(&game.config())
            .filter(|&p| game.view().get(p) == Cell::Hidden && all.iter().all(|a| !a.contains(&p)))
            .collect();
        if safe.is_empty() {
            return false;
        }
        for p in safe {
            assert_ne!(game.reveal(p), Reveal::Exploded);
        }
    }
    game.status() == Status::Won
}

/// 200 no-guess games of `level`, seed 5, with the lowest-probability guess on `threads` threads.
fn no_guess_run(level: Level, no_guess: bool, threads: usize) -> Run {
    Run {
        config: Config::level(level),
        rule: FirstClick::Safe,
        first: None,
        no_guess,
        strategy: Guesser::Lowest,
        first_game: 0,
        games: 200,
        seed: 5,
        threads,
    }
}

/// On no-guess boards the bot never meets a position without a proved-safe cell, so it wins every
/// game without a guess; on the uniform boards of the same seed it must guess (so the check
/// bites). The totals, but for the time, do not depend on the threads.
#[test]
fn no_guess_runs_are_won_without_a_guess() {
    for level in [Level::Beginner, Level::Intermediate] {
        let s = bot::run(&no_guess_run(level, true, 2), &|_| {}).unwrap();
        assert_eq!((s.games, s.wins, s.guesses), (200, 200, 0), "{level}");
        let g = &s.generation;
        assert_eq!(g.boards, 200, "{level}");
        let counted: u64 = g.histogram().iter().map(|&(_, n)| n).sum();
        assert_eq!(counted, 200);
        assert!(g.worst_ns > 0 && g.worst_ms() >= g.median_ms() && g.total_ns >= g.worst_ns);
        let one = bot::run(&no_guess_run(level, true, 1), &|_| {}).unwrap();
        assert_eq!(
            (one.games, one.wins, one.guesses, one.analyses),
            (s.games, s.wins, s.guesses, s.analyses)
        );
        let uniform = bot::run(&no_guess_run(level, false, 2), &|_| {}).unwrap();
        assert!(uniform.guesses > 0 && uniform.wins < 200, "{level}");
        assert_eq!(uniform.generation, bot::Generation::default());
    }
}

/// A no-guess game's layout is the one the generator makes for the bot's first click from the
/// game's seed, and the analyzer replayed on it from that click never lacks a safe cell.
#[test]
fn a_no_guess_game_is_the_generators_board() {
    use cp_puzzles::minesweeper::game::game_seed;
    use cp_puzzles::minesweeper::no_guess::{self, Effort};
    let run = Run {
        rule: FirstClick::Opening,
        ..no_guess_run(Level::Expert, true, 1)
    };
    for index in [0, 7] {
        let shown = bot::replay(&run, index).unwrap();
        let made = no_guess::generate(
            run.config,
            run.rule,
            run.first_click(),
            game_seed(run.seed, index),
            Effort::default_for(run.config),
        )
        .unwrap();
        assert_eq!(shown.layout, made.layout);
        assert_eq!(shown.lost_on, None);
        assert!(!shown
            .moves
            .iter()
            .any(|(e, _)| matches!(e, bot::Event::Guess(..))));
    }
}

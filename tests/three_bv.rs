//! 3BV (`cp_puzzles::minesweeper::three_bv`) against a brute force, the fewest clicks whose
//! reveals cover every safe cell, found over every set of clicks; and against ms_toollib's
//! `cal_bbbv` where it is installed (an ignored test, run on its own).

use std::io::Write;
use std::process::{Command, Stdio};

use cp_puzzles::minesweeper::game::{Config, Layout, Rng};
use cp_puzzles::minesweeper::{three_bv, Pos};
use proptest::prelude::*;

fn positions(config: Config) -> Vec<Pos> {
    (0..config.height())
        .flat_map(|y| (0..config.width()).map(move |x| Pos::new(x, y)))
        .collect()
}

/// The cells a click on the safe cell `p` reveals, as a bit set over `positions`: `p`, and if it
/// shows 0, its neighbours, and theirs through every 0 (written as a fixpoint, not a flood).
fn reveal_set(layout: &Layout, cells: &[Pos], p: Pos) -> u32 {
    let bit = |q: Pos| 1u32 << cells.iter().position(|&c| c == q).unwrap();
    let mut set = bit(p);
    loop {
        let mut next = set;
        for (i, &c) in cells.iter().enumerate() {
            if set & (1 << i) != 0 && layout.count(c) == 0 {
                for &d in cells {
                    if c.x.abs_diff(d.x) <= 1 && c.y.abs_diff(d.y) <= 1 {
                        next |= bit(d);
                    }
                }
            }
        }
        if next == set {
            return set;
        }
        set = next;
    }
}

/// The fewest clicks that reveal every safe cell, over every set of safe cells.
fn brute_force(layout: &Layout) -> usize {
    let cells = positions(layout.config());
    let safe: Vec<Pos> = cells
        .iter()
        .copied()
        .filter(|&p| !layout.is_mine(p))
        .collect();
    let all: u32 = safe
        .iter()
        .map(|&p| 1u32 << cells.iter().position(|&c| c == p).unwrap())
        .sum();
    let reveals: Vec<u32> = safe
        .iter()
        .map(|&p| reveal_set(layout, &cells, p))
        .collect();
    // covered[choice]: the cells the clicks in `choice` reveal, built from the choice without
    // its lowest click.
    let mut covered = vec![0u32; 1 << safe.len()];
    let mut best = safe.len();
    for choice in 1..covered.len() {
        covered[choice] =
            covered[choice & (choice - 1)] | reveals[choice.trailing_zeros() as usize];
        if covered[choice] == all {
            best = best.min(choice.count_ones() as usize);
        }
    }
    best
}

fn random_layout(w: usize, h: usize, mines: usize, seed: u64) -> Layout {
    let config = Config::new(w, h, mines).unwrap();
    let mut rng = Rng::new(seed);
    let mut mine = vec![false; w * h];
    let mut placed = 0;
    while placed < mines {
        let i = rng.below((w * h) as u64) as usize;
        if !mine[i] {
            mine[i] = true;
            placed += 1;
        }
    }
    Layout::from_mines(config, mine)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn matches_the_fewest_clicks_found_by_brute_force(
        w in 1usize..=6,
        h in 1usize..=4,
        mines_per_16 in 0usize..8,
        seed in any::<u64>(),
    ) {
        // At most 18 safe cells, so that every set of clicks can be tried.
        let mines = (w * h * mines_per_16 / 16).max((w * h).saturating_sub(18)).min(w * h - 1);
        let layout = random_layout(w, h, mines, seed);
        prop_assert_eq!(three_bv(&layout), brute_force(&layout));
    }
}

#[test]
fn known_boards() {
    let board = |rows: &[&str]| {
        let config = Config::new(
            rows[0].len(),
            rows.len(),
            rows.concat().matches('*').count(),
        );
        let mine = rows.concat().chars().map(|c| c == '*').collect();
        Layout::from_mines(config.unwrap(), mine)
    };
    // No mine: one opening.
    assert_eq!(three_bv(&board(&["....", "...."])), 1);
    // Two openings apart, and the numbers between them each revealed by one of them.
    assert_eq!(three_bv(&board(&["...*...", "...*...", "...*..."])), 2);
    // A checkerboard of mines: every safe cell is a click of its own.
    assert_eq!(three_bv(&board(&["*.*", ".*.", "*.*"])), 4);
}

/// The Python that has ms_toollib (`pip install ms-toollib`): `MS_TOOLLIB_PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("MS_TOOLLIB_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

#[test]
#[ignore = "needs a python with ms_toollib (pip install ms-toollib, MS_TOOLLIB_PYTHON=its python): \
            cargo test --test integration three_bv -- --ignored"]
fn matches_ms_toollib_on_thousands_of_random_boards() {
    const SCRIPT: &str = "import sys, ms_toollib\n\
        for line in sys.stdin:\n    \
            w, h, cells = line.split()\n    \
            w, h = int(w), int(h)\n    \
            mine = [[c == '*' for c in cells[y*w:(y+1)*w]] for y in range(h)]\n    \
            board = [[-1 if mine[y][x] else sum(mine[j][i] for j in range(max(0,y-1), min(h,y+2)) \
                for i in range(max(0,x-1), min(w,x+2))) for x in range(w)] for y in range(h)]\n    \
            print(ms_toollib.cal_bbbv(board))\n";
    let sizes = [
        (9, 9, 10),
        (16, 16, 40),
        (30, 16, 99),
        (30, 16, 150),
        (8, 8, 20),
        (5, 7, 3),
    ];
    let mut layouts = Vec::new();
    for seed in 0..3000u64 {
        let (w, h, m) = sizes[seed as usize % sizes.len()];
        layouts.push(random_layout(w, h, m, seed));
    }
    let mut input = String::new();
    for l in &layouts {
        let cells: String = positions(l.config())
            .iter()
            .map(|&p| if l.is_mine(p) { '*' } else { '.' })
            .collect();
        input += &format!("{} {} {cells}\n", l.config().width(), l.config().height());
    }
    let mut child = Command::new(python())
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    // A Python without ms_toollib stops at the import, and the writer then meets a closed pipe:
    // the status says why, so it is checked first.
    assert!(
        out.status.success(),
        "ms_toollib is not usable (pip install ms-toollib, or set MS_TOOLLIB_PYTHON): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    written.expect("the boards written to ms_toollib's script");
    let theirs: Vec<usize> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(theirs.len(), layouts.len());
    for (l, &t) in layouts.iter().zip(&theirs) {
        assert_eq!(three_bv(l), t, "{}", l.config());
    }
}

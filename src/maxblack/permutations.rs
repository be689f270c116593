//! K = N on a square of side N >= 3, counted in closed form.
//!
//! Every row, every column and both long diagonals (the only lines of N cells) need a white cell,
//! so at least N cells are white, and N white cells covering every row and every column are a
//! permutation σ (row i white at column σ(i)). The optima are the permutations with a cell on the
//! diagonal (σ(i) = i for some i) and one on the other diagonal (σ(j) = N - 1 - j for some j),
//! which exist for every N >= 3: the maximum is N^2 - N. They are counted by inclusion and
//! exclusion, and the orbits by Burnside's lemma: each symmetry's fixed permutations are counted
//! apart (none for the two mirrors, pairs of rows for the half turn, involutions for the two
//! diagonal mirrors, and the quarter turns in closed form).

/// The maximum, the number of orbits and the total for K = N = `n`, `3 <= n <= 20`.
#[must_use]
pub fn answer(n: usize) -> (u32, u128, u128) {
    let total = both_diagonals(n, &|allowed| permutations(n, allowed));
    // σ is fixed by the transpose when it is an involution; by the other diagonal mirror when
    // r∘σ is one (r(x) = n - 1 - x), which swaps the two diagonals: the same count.
    let diagonal_mirror = both_diagonals(n, &|allowed| involutions(n, allowed));
    let fixed = total + half_turn(n) + 2 * diagonal_mirror + 2 * quarter_turn(n);
    ((n * n - n) as u32, fixed / 8, total)
}

/// Which cells `(row, column)` a permutation may use.
type Allowed<'a> = &'a dyn Fn(usize, usize) -> bool;

/// The count of those counted by `count` (given the allowed cells) that use a cell of each
/// diagonal, by inclusion and exclusion.
fn both_diagonals(n: usize, count: &dyn Fn(Allowed) -> u128) -> u128 {
    let main = |i: usize, j: usize| i == j;
    let other = |i: usize, j: usize| i + j == n - 1;
    let all = count(&|_, _| true);
    let no_main = count(&|i, j| !main(i, j));
    let no_other = count(&|i, j| !other(i, j));
    let neither = count(&|i, j| !main(i, j) && !other(i, j));
    all + neither - no_main - no_other
}

/// Permutations of `n` using allowed cells only: a dynamic program over the set of columns used
/// by the first rows.
fn permutations(n: usize, allowed: Allowed) -> u128 {
    let mut ways = vec![0u128; 1 << n];
    ways[0] = 1;
    for used in 0..1usize << n {
        let w = ways[used];
        if w == 0 {
            continue;
        }
        let row = used.count_ones() as usize;
        for col in (0..n).filter(|&c| used >> c & 1 == 0 && allowed(row, c)) {
            ways[used | 1 << col] += w;
        }
    }
    ways[(1 << n) - 1]
}

/// Involutions of `n` (σ = σ^-1: fixed points and swapped pairs) using allowed cells only: the
/// smallest element not yet placed is fixed or swapped with a larger one.
fn involutions(n: usize, allowed: Allowed) -> u128 {
    let mut ways = vec![0u128; 1 << n];
    ways[(1 << n) - 1] = 1;
    // Larger sets of placed elements first: `ways[used]` counts the ways to place the rest.
    for used in (0..(1usize << n) - 1).rev() {
        let i = (!used).trailing_zeros() as usize;
        let mut w = 0;
        if allowed(i, i) {
            w += ways[used | 1 << i];
        }
        for j in (i + 1..n).filter(|&j| used >> j & 1 == 0 && allowed(i, j) && allowed(j, i)) {
            w += ways[used | 1 << i | 1 << j];
        }
        ways[used] = w;
    }
    ways[0]
}

/// Optimal grids fixed by the half turn: σ(n - 1 - i) = n - 1 - σ(i). The rows pair up as
/// `{i, n - 1 - i}` and so do the columns; a pair of rows goes to a pair of columns, straight or
/// crossed. A pair sent to its own pair covers the main diagonal straight, the other crossed. An
/// odd side's middle cell is fixed and covers both.
fn half_turn(n: usize) -> u128 {
    let h = n / 2;
    if n % 2 == 1 {
        return factorial(h) * (1u128 << h);
    }
    (2..=h)
        .map(|f| binomial(h, f) * derangements(h - f) * (1u128 << (h - f)) * ((1u128 << f) - 2))
        .sum()
}

/// Optimal grids fixed by a quarter turn. A white cell off the middle shares its row with its
/// image when it lies on a diagonal, so only the middle cell covers the diagonals: the side is odd
/// and the middle is white. The other cells come in orbits of four, which exist when `n - 1` is a
/// multiple of 4: `(2m)! / m!` ways for `n = 4m + 1`.
fn quarter_turn(n: usize) -> u128 {
    if n % 4 != 1 {
        return 0;
    }
    let m = n / 4;
    factorial(2 * m) / factorial(m)
}

fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

fn binomial(n: usize, k: usize) -> u128 {
    factorial(n) / (factorial(k) * factorial(n - k))
}

/// Permutations of `n` with no fixed point.
fn derangements(n: usize) -> u128 {
    let (mut a, mut b) = (1u128, 0u128); // D(0), D(1)
    for i in 2..=n {
        (a, b) = (b, (i as u128 - 1) * (a + b));
    }
    if n == 0 {
        a
    } else {
        b
    }
}

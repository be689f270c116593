#!/usr/bin/env python3
"""Independent reference for the `minesweeper` analyzer, and the generator of testcases/minesweeper/.

    python3 scripts/minesweeper_cases.py            # (re)write testcases/minesweeper/NN.{in,out,exit}
    python3 scripts/minesweeper_cases.py --check    # recompute every .out and compare, write nothing
    python3 scripts/minesweeper_cases.py FILE.in    # print the reference answer for one board
    python3 scripts/minesweeper_cases.py --fuzz N   # compare target/release/minesweeper with the
                                                    # reference on N random game positions

Two methods, both written apart from the Rust code and sharing nothing with it:
- brute force: every subset of the hidden cells with the right mine count (boards with <= 20 hidden
  cells);
- frontier: per-cell backtracking over each independent component of the frontier (no groups, no
  deductions), combined with the cells off the frontier through Python's exact math.comb.
Both use exact integers; a probability is printed rounded to 6 decimals, half up.
"""

import itertools
import math
import os
import random
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "testcases", "minesweeper")
NEAR_TIE = Fraction(1, 10**9)


class Inconsistent(Exception):
    pass


def parse(text):
    lines = [l.rstrip(" \t\r") for l in text.split("\n")]
    lines = [l for l in lines if l]
    w, h, m = (int(t) for t in lines[0].lower().split("x"))
    grid = []
    for row in lines[1 : 1 + h]:
        assert len(row) == w, row
        grid.append(["0" if c == "." else "H" if c == "?" else c for c in row])
    assert len(grid) == h
    return w, h, m, grid


def around(w, h, x, y):
    for ny in range(y - 1, y + 2):
        for nx in range(x - 1, x + 2):
            if (nx, ny) != (x, y) and 0 <= nx < w and 0 <= ny < h:
                yield nx, ny


def setup(w, h, m, grid):
    hidden = [(x, y) for y in range(h) for x in range(w) if grid[y][x] == "H"]
    flags = sum(row.count("F") for row in grid)
    left = m - flags
    if left < 0:
        raise Inconsistent
    constraints = []
    for y in range(h):
        for x in range(w):
            c = grid[y][x]
            if c.isdigit():
                nb = list(around(w, h, x, y))
                need = int(c) - sum(grid[b][a] == "F" for a, b in nb)
                cells = [(a, b) for a, b in nb if grid[b][a] == "H"]
                if need < 0 or need > len(cells):
                    raise Inconsistent
                constraints.append((cells, need))
    return hidden, left, constraints


def brute(w, h, m, grid):
    """Every subset: {cell: mines count} and the total."""
    hidden, left, constraints = setup(w, h, m, grid)
    counts = {c: 0 for c in hidden}
    total = 0
    if 0 <= left <= len(hidden):
        for subset in itertools.combinations(hidden, left):
            s = set(subset)
            if all(sum(c in s for c in cells) == need for cells, need in constraints):
                total += 1
                for c in subset:
                    counts[c] += 1
    if total == 0:
        raise Inconsistent
    return {c: Fraction(counts[c], total) for c in hidden}


def component_counts(cells, cons):
    """Per-cell backtracking: ways[k] and per cell mines[cell][k], k the mines in the component."""
    index = {c: i for i, c in enumerate(cells)}
    cons_of = [[] for _ in cells]
    for j, (cs, _) in enumerate(cons):
        for c in cs:
            cons_of[index[c]].append(j)
    need = [n for _, n in cons]
    room = [len(cs) for cs, _ in cons]
    n = len(cells)
    ways = [0] * (n + 1)
    mines = [[0] * (n + 1) for _ in cells]
    chosen = [0] * n

    def go(i, k):
        if i == n:
            ways[k] += 1
            for a in range(n):
                if chosen[a]:
                    mines[a][k] += 1
            return
        for v in (0, 1):
            ok = True
            for j in cons_of[i]:
                need[j] -= v
                room[j] -= 1
                if need[j] < 0 or need[j] > room[j]:
                    ok = False
            if ok:
                chosen[i] = v
                go(i + 1, k + v)
            for j in cons_of[i]:
                need[j] += v
                room[j] += 1

    sys.setrecursionlimit(10000)
    go(0, 0)
    return ways, mines


def frontier(w, h, m, grid):
    hidden, left, constraints = setup(w, h, m, grid)
    constraints = [(cs, n) for cs, n in constraints if cs]
    # Components: cells linked through shared constraints (BFS over cells).
    cons_of = {}
    for j, (cs, _) in enumerate(constraints):
        for c in cs:
            cons_of.setdefault(c, []).append(j)
    front = [c for c in hidden if c in cons_of]
    off = [c for c in hidden if c not in cons_of]
    seen = set()
    comps = []
    for start in front:
        if start in seen:
            continue
        order, queue, cset = [], [start], set()
        seen.add(start)
        while queue:
            c = queue.pop(0)
            order.append(c)
            for j in cons_of[c]:
                for d in constraints[j][0]:
                    if d not in seen:
                        seen.add(d)
                        queue.append(d)
        js = sorted({j for c in order for j in cons_of[c]})
        comps.append((order, [constraints[j] for j in js]))
    tables = [component_counts(cells, cons) for cells, cons in comps]

    def mul(a, b):
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out

    def comb(n, k):
        return math.comb(n, k) if 0 <= k <= n else 0

    allp = [1]
    for ways, _ in tables:
        allp = mul(allp, ways)
    total = sum(c * comb(len(off), left - k) for k, c in enumerate(allp))
    if total == 0:
        raise Inconsistent
    prob = {}
    for i, ((cells, _), (ways, mines)) in enumerate(zip(comps, tables)):
        others = [1]
        for j, (w2, _) in enumerate(tables):
            if j != i:
                others = mul(others, w2)
        rest = [sum(o * comb(len(off), left - k - q) for q, o in enumerate(others)) for k in range(len(ways))]
        for a, c in enumerate(cells):
            prob[c] = Fraction(sum(x * r for x, r in zip(mines[a], rest)), total)
    if off:
        num = sum(c * comb(len(off) - 1, left - k - 1) for k, c in enumerate(allp))
        for c in off:
            prob[c] = Fraction(num, total)
    return prob


def round6(p):
    q, r = divmod(p.numerator * 10**6, p.denominator)
    if 2 * r >= p.denominator:
        q += 1
    return f"{q // 10**6}.{q % 10**6:06d}"


def answer(text, method=None):
    """The expected stdout, or None if the board is inconsistent."""
    w, h, m, grid = parse(text)
    hidden = sum(row.count("H") for row in grid)
    if method is None:
        method = "brute" if hidden <= 20 else "frontier"
    try:
        prob = (brute if method == "brute" else frontier)(w, h, m, grid)
    except Inconsistent:
        return None
    cells = sorted(prob, key=lambda c: (c[1], c[0]))
    safe = [c for c in cells if prob[c] == 0]
    mines = [c for c in cells if prob[c] == 1]
    out = [f"safe {len(safe)}"] + [f"{x} {y}" for x, y in safe]
    out += [f"mines {len(mines)}"] + [f"{x} {y}" for x, y in mines]
    # A certain mine is never recommended: "best none" when no hidden cell can be safe.
    can_be_safe = [c for c in cells if prob[c] < 1]
    if safe:
        best = safe[0]
    elif can_be_safe:
        low = min(prob[c] for c in can_be_safe)
        near = [c for c in can_be_safe if prob[c] - low <= NEAR_TIE]
        hidden_around = lambda c: sum(grid[b][a] == "H" for a, b in around(w, h, *c))
        best = min(near, key=lambda c: (hidden_around(c), c[1], c[0]))
    else:
        best = None
    out.append(f"best {best[0]} {best[1]} {round6(prob[best])}" if best else "best none")
    out += [f"cells {len(cells)}"] + [f"{x} {y} {round6(prob[c])}" for c in cells for x, y in [c]]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- positions from random games


def play(w, h, m, seed, steps, keep_flags=True):
    """A position after `steps` moves of a game: the first click opens an area; then each move
    plays every trivially safe cell and flags every trivial mine, or, when stuck, clicks a random
    safe frontier cell (a lucky guess)."""
    rng = random.Random(seed)
    fx, fy = rng.randrange(w), rng.randrange(h)
    near = {(fx, fy)} | set(around(w, h, fx, fy))
    spots = [(x, y) for y in range(h) for x in range(w) if (x, y) not in near]
    mine = set(rng.sample(spots, m))
    grid = [["H"] * w for _ in range(h)]

    def click(x, y):
        stack = [(x, y)]
        while stack:
            a, b = stack.pop()
            if grid[b][a] != "H":
                continue
            n = sum((c, d) in mine for c, d in around(w, h, a, b))
            grid[b][a] = str(n)
            if n == 0:
                stack.extend(around(w, h, a, b))

    click(fx, fy)
    for _ in range(steps):
        progress = False
        for y in range(h):
            for x in range(w):
                c = grid[y][x]
                if not c.isdigit():
                    continue
                nb = list(around(w, h, x, y))
                hid = [(a, b) for a, b in nb if grid[b][a] == "H"]
                fl = sum(grid[b][a] == "F" for a, b in nb)
                if hid and int(c) == fl:
                    for a, b in hid:
                        click(a, b)
                    progress = True
                elif hid and int(c) == fl + len(hid):
                    for a, b in hid:
                        grid[b][a] = "F"
                    progress = True
        if not progress:
            front = [
                (x, y)
                for y in range(h)
                for x in range(w)
                if grid[y][x] == "H" and (x, y) not in mine and any(grid[b][a].isdigit() for a, b in around(w, h, x, y))
            ]
            if not front:
                break
            click(*rng.choice(front))
    if not keep_flags:
        grid = [["H" if c == "F" else c for c in row] for row in grid]
    return f"{w}x{h}x{m}\n" + "\n".join("".join(r) for r in grid) + "\n"


SMALL = [
    "3x3x1\nHHH\nH1H\nHHH\n",  # every cell 1/8: the best-guess tie-break picks a corner
    "4x2x2\n1HH1\n1HH1\n",
    "5x2x3\nHHHHH\n12321\n",
    "4x4x3\nHHHH\nH21H\nH12H\nHHHH\n",  # inconsistent with 3 mines (both references agree)
    "3x3x2\n1F1\nHHH\nHHH\n",
    "3x1x0\n.?.\n",  # '.' and '?'
    "8x1x3\nHH1H1HHH\n",
    "6x6x7\nHHHHHH\nH1111H\nH1..1H\nH1..1H\nH1111H\nHHHHHH\n",  # inconsistent with 7 mines (both references agree)
]

EDGE = [
    "4x4x1\nFFHH\nHHHH\nHHHH\nHHHH\n",  # inconsistent: more flags than mines
    "4x4x2\n3HHH\nHHHH\nHHHH\nHHHH\n",  # inconsistent: the corner 3 needs 3 mines, the board has 2
    "5x3x3\nHHHHH\nH2H0H\nHHHHH\n",  # inconsistent: the 0 clears cells the 2 needs
    "5x1x1\n1H1H1\n",  # inconsistent: each 1 fine alone, together they need 2 mines
    "9x9x10\n" + "\n".join(["HHHHHHHHH"] * 4 + ["HHHH8HHHH"] + ["HHHHHHHHH"] * 4) + "\n",  # an 8: consistent
]


def cases():
    out = list(SMALL)
    out.append(play(9, 9, 10, 1, 0))
    out.append(play(9, 9, 10, 2, 2))
    out.append(play(9, 9, 10, 3, 6, keep_flags=False))
    out.append(play(16, 16, 40, 4, 0))
    out.append(play(16, 16, 40, 5, 4))
    out.append(play(16, 16, 40, 6, 10, keep_flags=False))
    out.append(play(30, 16, 99, 7, 0))
    out.append(play(30, 16, 99, 8, 3))
    out.append(play(30, 16, 99, 9, 6, keep_flags=False))
    out.append(play(30, 16, 99, 10, 10))
    out.append(play(30, 16, 99, 11, 15, keep_flags=False))
    out.append(play(30, 16, 99, 12, 30))
    out.append("30x16x99\n" + "\n".join(["H" * 30] * 16) + "\n")
    out += EDGE
    return out


def fuzz(n):
    """Runs the release binary on `n` positions from random games and compares with `answer`."""
    import subprocess

    binary = os.path.join(HERE, "..", "target", "release", "minesweeper")
    sizes = [(9, 9, 10), (16, 16, 40), (30, 16, 99)]
    bad = 0
    for seed in range(n):
        rng = random.Random(seed)
        w, h, m = rng.choice(sizes)
        text = play(w, h, m, 1000 + seed, rng.randrange(12), keep_flags=rng.random() < 0.5)
        expected = answer(text)
        run = subprocess.run([binary], input=text.encode(), capture_output=True)
        got = run.stdout.decode() if run.returncode == 0 else None
        if got != expected:
            bad += 1
            print(f"seed {seed}: differs\n{text}")
    print(f"{n} positions, {bad} differ")
    return bad


def main():
    args = sys.argv[1:]
    if args[:1] == ["--fuzz"]:
        sys.exit(1 if fuzz(int(args[1])) else 0)
    if args and args[0] != "--check":
        sys.stdout.write(answer(open(args[0]).read()) or "inconsistent\n")
        return
    check = args == ["--check"]
    os.makedirs(CASES, exist_ok=True)
    bad = 0
    for i, text in enumerate(cases(), 1):
        base = os.path.join(CASES, f"{i:02d}")
        expected = answer(text)
        if check:
            text = open(base + ".in").read()
            expected = answer(text)
            if text.count("H") + text.count("?") <= 20 and answer(text, "frontier") != expected:
                print(f"{base}: the two reference methods disagree")
                bad += 1
            have = open(base + ".out").read()
            if (expected or "") != have:
                print(f"{base}.out differs")
                bad += 1
            continue
        with open(base + ".in", "w") as f:
            f.write(text)
        with open(base + ".out", "w") as f:
            f.write(expected or "")
        if expected is None:
            with open(base + ".exit", "w") as f:
                f.write("1\n")
        elif os.path.exists(base + ".exit"):
            os.remove(base + ".exit")
        print(base, "inconsistent" if expected is None else f"{text.count('H')} hidden")
    if check:
        print(f"{len(cases())} cases checked, {bad} bad")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

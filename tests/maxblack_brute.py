#!/usr/bin/env python3
"""Brute force for maxblack's recorded rectangle cases, written apart from the solver.

Usage: python3 tests/maxblack_brute.py ROWS COLS K > expected.out

Tries every grid of ROWS x COLS cells (at most 24 cells), keeps those with no K black cells in a
row along a row, a column or a diagonal, and prints maxblack's output: the maximum, the number of
optimal grids up to the rectangle's symmetries and in all, then each orbit's canonical grid (the
image whose rows, concatenated, form the smallest string), sorted.
"""
import sys


def lines(rows, cols, k):
    """Every run of K cells along a row, a column or a diagonal, as a bit mask."""
    out = []
    for i in range(rows):
        for j in range(cols):
            for di, dj in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(i + s * di, j + s * dj) for s in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    out.append(sum(1 << (a * cols + b) for a, b in cells))
    return out


def main():
    rows, cols, k = map(int, sys.argv[1:4])
    runs = lines(rows, cols, k)
    best, optimal = -1, []
    for g in range(1 << (rows * cols)):
        c = bin(g).count("1")
        if c < best or any(g & r == r for r in runs):
            continue
        if c > best:
            best, optimal = c, []
        optimal.append(g)
    r, c = rows - 1, cols - 1
    maps = [lambda i, j: (i, j), lambda i, j: (r - i, j), lambda i, j: (i, c - j),
            lambda i, j: (r - i, c - j)]
    if rows == cols:
        maps += [lambda i, j: (j, i), lambda i, j: (r - j, i), lambda i, j: (j, c - i),
                 lambda i, j: (r - j, c - i)]

    def text(g, m):
        out = ["."] * (rows * cols)
        for i in range(rows):
            for j in range(cols):
                if g >> (i * cols + j) & 1:
                    a, b = m(i, j)
                    out[a * cols + b] = "#"
        return "".join(out)

    canon = sorted({min(text(g, m) for m in maps) for g in optimal})
    print(best)
    print(len(canon), len(optimal))
    for s in canon:
        print()
        for i in range(rows):
            print(s[i * cols:(i + 1) * cols])


if __name__ == "__main__":
    main()

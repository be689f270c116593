#!/usr/bin/env python3
"""Writes testcases/minimax/NN.in and NN.out.

The .out files come from the plain recursive alpha-beta below, written independently of the Rust
solver (no streaming, the whole leaf list in memory). Run from the package root:
    python3 scripts/minimax_cases.py
"""
import random
import sys

sys.setrecursionlimit(10000)


def alpha_beta(leaves, b, d):
    nodes = 0

    def node(level, index, alpha, beta, maximizing):
        nonlocal nodes
        nodes += 1
        if level == d:
            return leaves[index]
        best = float("-inf") if maximizing else float("inf")
        for i in range(b):
            v = node(level + 1, index * b + i, alpha, beta, not maximizing)
            if maximizing:
                best = max(best, v)
                if best >= beta:
                    break
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                if best <= alpha:
                    break
                beta = min(beta, best)
        return best

    value = node(0, 0, float("-inf"), float("inf"), True)
    return value, nodes


def case(d, b, leaves, one_line=True):
    sep = " " if one_line else "\n"
    text = f"{d} {b}\n" + sep.join(map(str, leaves)) + "\n"
    value, nodes = alpha_beta(leaves, b, d)
    return text, f"{value} {nodes}\n"


def main():
    rng = random.Random(20261121)
    cases = [
        case(1, 4, [2, -1, 3, 0]),
        case(2, 2, [1, 2, 3, 4]),
        case(2, 2, [1, 2, 0, 4]),
        case(14, 1, [7]),
        case(1, 1, [-999]),
        case(1, 14, [rng.randint(-999, 999) for _ in range(14)]),
        case(3, 3, [5] * 27),
        case(4, 2, [0] * 16),
        case(3, 4, [rng.randint(-1, 1) for _ in range(64)]),
        case(5, 3, [rng.randint(-2, 2) for _ in range(243)]),
        case(11, 2, [rng.randint(-999, 999) for _ in range(2048)]),  # deepest binary < 3500 leaves
        case(3, 14, [rng.randint(-999, 999) for _ in range(14**3)][:2744]),  # widest, 2744 leaves
        case(2, 14, list(range(196))),  # increasing leaves: little pruning
        case(2, 14, list(range(196, 0, -1))),  # decreasing leaves: much pruning
        case(7, 3, [rng.randint(-999, 999) for _ in range(3**7)], one_line=False),
        case(5, 5, [rng.randint(-999, 999) for _ in range(5**5)]),
        case(6, 2, [rng.randint(-999, 999) for _ in range(64)], one_line=False),
        case(2, 3, [-(2**63), 2**63 - 1, 0, 5, -5, 3, 2**63 - 1, -(2**63), 1]),
        case(4, 4, [rng.randint(-10**12, 10**12) for _ in range(256)]),
        case(8, 2, [rng.randint(-999, 999) for _ in range(256)]),
        case(3, 6, [rng.randint(-3, 3) for _ in range(216)]),
        case(10, 2, [rng.choice([-1, 1]) for _ in range(1024)]),
    ]
    for i, (inp, out) in enumerate(cases, start=1):
        with open(f"testcases/minimax/{i:02}.in", "w") as f:
            f.write(inp)
        with open(f"testcases/minimax/{i:02}.out", "w") as f:
            f.write(out)


if __name__ == "__main__":
    main()

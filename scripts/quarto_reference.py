#!/usr/bin/env python3
"""An independent reference for `quarto`, written from the rules (no symmetry, no table).

    python3 scripts/quarto_reference.py FILE.in...        # print each answer
    python3 scripts/quarto_reference.py --write FILE.in... # write FILE.out next to each
    python3 scripts/quarto_reference.py --check FILE.in... # compare with FILE.out
    python3 scripts/quarto_reference.py --values FILE.in... # every move's value, as `quarto --values`

Plain negamax with alpha-beta over (placement, gift) moves; a position is won at once when the
piece in hand completes a line. The root values every move in the order cell (row-major), then
gift (ascending), exactly, and prints the first with the highest value (win > draw > loss); a
winning or last placement is a move without a gift. Practical up to about 9 empty cells.
The start (`-` on the empty board) is answered as the Rust solver does, by symmetry and the
known value of the game: `give 0000`, `draw`.

`--values` prints every legal move with `win in N`, `draw` or `loss in N` for the mover (N: the
winner's placements from the position on, the winning one included; the winner wins soonest, the
loser loses latest), sorted by value and otherwise in the move order above, by exhaustive
negamax with memoization (no pruning). Practical up to about 7 empty cells.
"""
import sys

LINES = [
    [0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15],
    [0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15],
    [0, 5, 10, 15], [3, 6, 9, 12],
]
LINES_AT = [[l for l in LINES if c in l] for c in range(16)]


def wins_at(cells, c, piece):
    """Whether `piece` on the empty cell `c` completes a line sharing an attribute."""
    for line in LINES_AT[c]:
        others = [cells[x] for x in line if x != c]
        if None in others:
            continue
        both = piece & others[0] & others[1] & others[2]
        neither = ~(piece | others[0] | others[1] | others[2]) & 15
        if both or neither:
            return True
    return False


def negamax(cells, hand, unused, alpha, beta):
    empty = [c for c in range(16) if cells[c] is None]
    for c in empty:
        if wins_at(cells, c, hand):
            return 1
    if len(empty) == 1:
        return 0
    best = -2
    gifts = [q for q in unused if q != hand]
    for c in empty:
        cells[c] = hand
        for q in gifts:
            v = -negamax(cells, q, [x for x in gifts if x != q], -beta, -alpha)
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                cells[c] = None
                return best
        cells[c] = None
    return best


def outcome(cells, hand, memo):
    """The exact signed distance for the player placing `hand`: +N win in N, -N loss in N, 0 draw."""
    key = (tuple(cells), hand)
    if key in memo:
        return memo[key]
    empty = [c for c in range(16) if cells[c] is None]
    best = None
    for c in empty:
        if wins_at(cells, c, hand):
            v = 1
        elif len(empty) == 1:
            v = 0
        else:
            cells[c] = hand
            v = max((before(outcome(cells, q, memo)) for q in range(16)
                     if q != hand and q not in cells), key=rank)
            cells[c] = None
        if best is None or rank(v) > rank(best):
            best = v
    memo[key] = best
    return best


def before(theirs):
    """The mover's outcome of a move leaving the opponent the outcome `theirs`."""
    return -theirs if theirs > 0 else (1 - theirs if theirs < 0 else 0)


def rank(v):
    """Sooner wins are better, later losses too."""
    return 1000 - v if v > 0 else (-1000 - v if v < 0 else 0)


def values(text):
    cells, hand = parse(text)
    if hand is None:
        return "".join(f"give {q:04b}: draw\n" for q in range(16))
    memo = {}
    empty = [c for c in range(16) if cells[c] is None]
    lines = []
    for c in empty:
        r, k = divmod(c, 4)
        if wins_at(cells, c, hand):
            lines.append((1, f"place {r} {k}"))
        elif len(empty) == 1:
            lines.append((0, f"place {r} {k}"))
        else:
            cells[c] = hand
            for q in range(16):
                if q != hand and q not in cells:
                    v = before(outcome(cells, q, memo))
                    lines.append((v, f"place {r} {k} give {q:04b}"))
            cells[c] = None
    lines.sort(key=lambda l: -((l[0] > 0) - (l[0] < 0)))
    text = ""
    for v, m in lines:
        o = f"win in {v}" if v > 0 else (f"loss in {-v}" if v < 0 else "draw")
        text += f"{m}: {o}\n"
    return text


def parse(text):
    lines = text.split("\n")
    cells = []
    for r in range(4):
        tokens = lines[r].split()
        assert len(tokens) == 4, f"line {r + 1}"
        cells += [None if t == "." else int(t, 2) for t in tokens]
    hand = lines[4].split()[0]
    return cells, None if hand == "-" else int(hand, 2)


def answer(text):
    cells, hand = parse(text)
    if hand is None:
        return "give 0000\ndraw\n"
    empty = [c for c in range(16) if cells[c] is None]
    unused = [p for p in range(16) if p not in cells and p != hand]
    best = None
    for c in empty:
        r, k = divmod(c, 4)
        if wins_at(cells, c, hand):
            moves = [(1, f"place {r} {k}")]
        elif len(empty) == 1:
            moves = [(0, f"place {r} {k}")]
        else:
            cells[c] = hand
            moves = []
            for q in unused:
                v = -negamax(cells, q, [x for x in unused if x != q], -1, 1)
                moves.append((v, f"place {r} {k} give {q:04b}"))
                if v == 1:
                    break
            cells[c] = None
        for v, m in moves:
            if best is None or v > best[0]:
                best = (v, m)
        if best[0] == 1:
            break
    return f"{best[1]}\n{['loss', 'draw', 'win'][best[0] + 1]}\n"


def main(args):
    mode = None
    if args and args[0] in ("--write", "--check", "--values"):
        mode, args = args[0], args[1:]
    bad = 0
    for path in args:
        with open(path) as f:
            got = (values if mode == "--values" else answer)(f.read())
        out = path[: -len(".in")] + ".out"
        if mode == "--write":
            with open(out, "w") as f:
                f.write(got)
        elif mode == "--check":
            with open(out) as f:
                want = f.read()
            status = "ok" if want == got else "DIFFERS"
            bad += want != got
            print(f"{status} {path}")
        else:
            print(f"# {path}\n{got}", end="")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

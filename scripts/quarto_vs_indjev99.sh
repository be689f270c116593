#!/usr/bin/env bash
# Side by side: quarto's search against indjev99's Quarto-Solver on the same positions.
#
#   scripts/quarto_vs_indjev99.sh INDJEV99_DIR [bench arguments...]
#
# INDJEV99_DIR is a clone of https://github.com/indjev99/Quarto-Solver (kept outside this
# repository). Its src/main.cpp is copied to a temporary folder, patched to the standard Quarto
# lines (4 rows, 4 columns, the 2 diagonals: no 2x2 squares, no torus, as quarto plays) and built
# with g++ -O3 together with scripts/quarto_indjev99_driver.cpp, which times its search alone on
# one position. Then `cargo bench --bench quarto -- --versus DRIVER ...` gives both programs the
# same positions (seeded pseudo-random games; without bench arguments --games 5 --levels 2-7),
# alternating which runs first, and prints per pieces placed the medians of the search time alone
# and of the whole process, and their ratios (see docs/quarto.md). Without INDJEV99_DIR, or when the source does
# not have the expected shape, it says so and exits 0 (skipped).
set -euo pipefail

dir="${1:-}"
if [[ -z "$dir" || ! -f "$dir/src/main.cpp" ]]; then
    echo "skipped: no indjev99 source (give the path of a Quarto-Solver clone: $0 DIR)" >&2
    exit 0
fi
shift
here="$(cd "$(dirname "$0")" && pwd)"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
cp "$dir/src/main.cpp" "$build/main.cpp"
# Each patch must apply exactly once.
patch_once() {
    local from="$1" to="$2"
    if [[ "$(grep -cF -- "$from" "$build/main.cpp")" != 1 ]]; then
        echo "skipped: indjev99's src/main.cpp does not have the expected line: $from" >&2
        exit 0
    fi
    FROM="$from" TO="$to" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$build/main.cpp"
}
# The standard lines: rows, columns and diagonals only.
patch_once "winMasks = computeTorusWinMasks();" "winMasks = computeRegWinMasks();"
patch_once "if (row + WIN_SQ_SIDE <= NUM_ROWS && col + WIN_SQ_SIDE <= NUM_COLS)" "if (false)"
cp "$here/quarto_indjev99_driver.cpp" "$build/driver.cpp"
driver="${INDJEV99_DRIVER:-$here/../target/quarto_indjev99_driver}"
mkdir -p "$(dirname "$driver")"
g++ -std=c++20 -O3 -o "$driver" "$build/driver.cpp"
echo "built $driver (g++ -std=c++20 -O3)" >&2
cd "$here/.."
if [[ $# -eq 0 ]]; then
    set -- --games 5 --levels 2-7
fi
exec cargo bench --bench quarto -- --versus "$driver" "$@"

#!/bin/sh
# The win-rate table of docs/minesweeper-bot.md: every standard level under both
# first-click rules with the default strategy, expert first, one run at a time (the machine is
# shared). Usage:
#   scripts/minesweeper_bot_table.sh [EXPERT_GAMES] [OTHER_GAMES] [THREADS]   (defaults 100000 100000 2)
# Each run's full report goes to stdout, preceded by its command.
set -e
expert=${1:-100000}
other=${2:-100000}
threads=${3:-2}
cargo build --release --bin minesweeper-bot >/dev/null 2>&1
bin=target/release/minesweeper-bot
for level in expert intermediate beginner; do
  for rule in safe opening; do
    games=$other
    [ "$level" = expert ] && games=$expert
    cmd="$bin --level $level --first-click $rule --games $games --seed 1 --threads $threads"
    echo "\$ $cmd"
    $cmd 2>/dev/null
  done
done

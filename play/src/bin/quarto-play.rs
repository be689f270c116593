//! `quarto-play`: play Quarto against the computer, from a random opponent to a perfect one
//! (the game, the players and the line mode live in `cp_puzzles_play::quarto_play`).

use std::io::{self, ErrorKind, IsTerminal};
use std::process::ExitCode;

use clap::Parser;
use cp_puzzles_play::quarto_play::book::Book;
use cp_puzzles_play::quarto_play::line::{run, First, Setup};
use cp_puzzles_play::quarto_play::players::Level;

/// Play Quarto against the computer: human, random, easy, medium or perfect players.
#[derive(Debug, Parser)]
#[command(name = "quarto-play", version)]
struct Args {
    /// Player 1: human, random, easy, medium or perfect.
    #[arg(long, default_value = "human")]
    p1: Level,
    /// Player 2: human, random, easy, medium or perfect.
    #[arg(long, default_value = "perfect")]
    p2: Level,
    /// Who gives the first piece: 1, 2 or random (a coin flip from the seed).
    #[arg(long, default_value = "1", value_parser = parse_first)]
    first: First,
    /// The seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The number of games (for computer against computer).
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// With several games, print every move and each game's `moves:` line too (a single game,
    /// or a run with a human player, prints the computer's moves anyway).
    #[arg(long)]
    moves: bool,
    /// Line mode even in a terminal (it is the mode whenever stdin or stdout is not a terminal).
    #[arg(long)]
    plain: bool,
    /// An opening book file (binary or text, as made by quarto-book) instead of the built-in one.
    #[arg(long)]
    book: Option<std::path::PathBuf>,
}

fn parse_first(s: &str) -> Result<First, String> {
    match s {
        "1" => Ok(First::Player(1)),
        "2" => Ok(First::Player(2)),
        "random" => Ok(First::Random),
        _ => Err(format!("expected 1, 2 or random, found \"{s}\"")),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let book = match &args.book {
        None => cp_puzzles_play::quarto_play::book::shipped(),
        Some(path) => match Book::read_file(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("quarto-play: --book {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
    if !args.plain && io::stdin().is_terminal() && io::stdout().is_terminal() {
        let first = match args.first {
            First::Player(p) => p,
            First::Random => 1 + (args.seed % 2) as u8,
        };
        return match cp_puzzles_play::quarto_play::screen::run(
            [args.p1, args.p2],
            first,
            args.seed,
            &book,
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("quarto-play: terminal error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let setup = Setup {
        players: [args.p1, args.p2],
        first: args.first,
        seed: args.seed,
        games: args.games,
        book,
        moves: args.moves,
    };
    match run(&setup, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarto-play: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

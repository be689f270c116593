//! `minesweeper-play`: Minesweeper in the terminal, with the exact analyzer as a hint and the bot
//! to watch (the game lives in `cp_puzzles_play::minesweeper_play`).

use std::fmt::Display;
use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::Parser;
use cp_puzzles_play::minesweeper_play::replay::Replay;
use cp_puzzles_play::minesweeper_play::{lines, screen, stats, Args, Play, Setup};

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Err(e) if !e.use_stderr() => {
            // --help or --version: a failed write has nowhere to be reported.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(2, cp_puzzles_play::one_line(&e.to_string())),
        Ok(args) => args,
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => fail(code, message),
    }
}

fn fail(code: u8, message: impl Display) -> ExitCode {
    eprintln!("minesweeper-play: {message}");
    ExitCode::from(code)
}

/// Runs the mode the arguments ask for; an error is an exit code (2 for a setup error, 1 for a
/// failure while playing) and a message.
fn run(args: &Args) -> Result<(), (u8, String)> {
    if args.stats {
        let path = stats::default_path().ok_or((
            2,
            "no data directory: set XDG_DATA_HOME or HOME".to_string(),
        ))?;
        let table = stats::Stats::load(&path).map_err(|e| (1, e))?;
        print!("{table}");
        return Ok(());
    }
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    if let Some(file) = &args.replay {
        let text = std::fs::read_to_string(file)
            .map_err(|e| (2, format!("cannot read {}: {e}", file.display())))?;
        let replay = Replay::parse(&text).map_err(|e| (2, format!("{}: {e}", file.display())))?;
        let result = if args.plain || !terminal {
            lines::play_back(&replay, io::stdout().lock())
        } else {
            screen::play_back(&replay)
        };
        return result.map_err(|e| (1, e.to_string()));
    }
    let setup = Setup::from_args(args).map_err(|e| (2, e.to_string()))?;
    let mut play = Play::new(setup).map_err(|e| (2, e.to_string()))?;
    let result = if args.plain || !terminal {
        lines::run(&mut play, io::stdin().lock(), io::stdout().lock())
    } else {
        screen::run(play, stats::default_path())
    };
    result.map_err(|e| (1, e.to_string()))
}

//! `puzzles-web [--addr HOST:PORT]`: serves the games and the solvers in the browser (see
//! `docs/web.md`), and prints the address to open.

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use puzzles_web::{router, Limits, State};

/// Serves Minesweeper, Quarto and the solvers as one web app, on this machine by default.
#[derive(Debug, Parser)]
#[command(name = "puzzles-web", version)]
struct Args {
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The most games of each kind kept at once (the one untouched longest goes first).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_games: u32,
    /// Minutes a game is kept after its last move.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    game_minutes: u32,
    /// Solver jobs run at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    workers: Option<u32>,
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) if !e.use_stderr() => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("puzzles-web: {}", cp_puzzles_play::one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let mut limits = Limits {
        games: args.max_games as usize,
        ttl: Duration::from_secs(60 * u64::from(args.game_minutes)),
        ..Limits::default()
    };
    if let Some(w) = args.workers {
        limits.workers = w as usize;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("puzzles-web: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args.addr, limits)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("puzzles-web: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(addr: SocketAddr, limits: Limits) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address: {e}"))?;
    let app = router(Arc::new(State::new(limits)));
    println!("puzzles-web: open http://{bound}/");
    let _ = std::io::stdout().flush();
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("the server stopped: {e}"))
}

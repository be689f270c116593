//! `quarto [--values [--threads T]] [--book FILE]`: reads a position on stdin, prints the
//! perfect-play move and its value, or every move with its outcome (see `cp_puzzles::quarto`).
//! The bundle for online judges answers the best move alone: it has no `--values` (nor
//! `--threads`) and no built-in book.

mod cli;

use std::process::ExitCode;

use cp_puzzles::quarto::{Book, Error, Position};

const PROGRAM: cli::Program = cli::Program {
    name: "quarto",
    usage: USAGE,
    help: "Reads a Quarto position on stdin: 4 lines of 4 cells (`.` or a piece as 4 binary \
           digits), then\nthe piece in hand (4 binary digits, or `-` on the empty board). Prints \
           the first optimal move\n(`place R C give PPPP`, `place R C` or `give PPPP`) and its \
           value for the player to move\n(`win`, `draw` or `loss`), each on its own line. With \
           --values it prints every legal move\ninstead, one `<move>: <outcome>` line each \
           (`win in N`, `draw` or `loss in N` for the mover),\nsorted by value; the first line \
           is the move printed without --values.\n",
    options: OPTIONS,
};

#[cfg(not(bundle))]
const USAGE: &str = "quarto [--values [--threads T]] [--book FILE] < input";
#[cfg(not(bundle))]
const OPTIONS: &str = "  --values       every legal move with its value and distance, best first\n  \
              --threads T    threads for --values, 1 to 1024 (default: one per core); the same \
              lines for any T;\n                 the best move alone is one search\n  --book FILE    \
              another opening book (game values of early positions, binary or text, as made by\n                 \
              quarto-book) instead of the built-in one: the same answer, at once for the\n                 \
              positions it covers\n";

/// The bundle for online judges, which ask for the best move alone, has no `--values`.
#[cfg(bundle)]
const USAGE: &str = "quarto [--book FILE] < input";
#[cfg(bundle)]
const OPTIONS: &str =
    "  --book FILE    an opening book (game values of early positions, binary or text, as \
              made by\n                 quarto-book): the same answer, at once for the positions \
              it covers\n  (--values and --threads are not in this build, made for online judges)\n";

/// The flags of `--values`: none in the bundle for online judges.
#[cfg(not(bundle))]
const VALUES_FLAGS: [&str; 2] = ["--values", "--threads"];
#[cfg(bundle)]
const VALUES_FLAGS: [&str; 0] = [];

/// A flag that takes a value in the next argument.
#[derive(Clone, Copy)]
enum Pending {
    Book,
    Threads,
}

/// The command line's flags, and the first bad value seen (refused after the arguments).
#[derive(Default)]
struct Flags {
    book: Option<String>,
    values: bool,
    /// `None`: one per core.
    threads: Option<usize>,
    pending: Option<Pending>,
    bad: Option<String>,
}

impl Flags {
    /// Takes `--values`, `--threads T`, `--book FILE` (or `--threads=T`, `--book=FILE`), or the
    /// value of the flag before; false for any other argument.
    fn take(&mut self, arg: &str) -> bool {
        match self.pending.take() {
            Some(Pending::Book) => self.book = Some(arg.to_string()),
            Some(Pending::Threads) => self.threads(arg),
            None => match arg.split_once('=') {
                Some(("--book", file)) => self.book = Some(file.to_string()),
                Some(("--threads", t)) if VALUES_FLAGS.contains(&"--threads") => self.threads(t),
                _ => match arg {
                    "--book" => self.pending = Some(Pending::Book),
                    "--values" if VALUES_FLAGS.contains(&arg) => self.values = true,
                    "--threads" if VALUES_FLAGS.contains(&arg) => {
                        self.pending = Some(Pending::Threads);
                    }
                    _ => return false,
                },
            },
        }
        true
    }

    fn threads(&mut self, value: &str) {
        match value.parse::<usize>() {
            Ok(t) if (1..=1024).contains(&t) => self.threads = Some(t),
            _ => {
                self.bad.get_or_insert(format!(
                    "expected --threads to be a whole number in 1..=1024, found {value:?}"
                ));
            }
        }
    }

    /// The usage error of the arguments, if any: a bad value, or a flag without its value.
    fn error(&self) -> Option<String> {
        let missing = match self.pending {
            Some(Pending::Book) => Some("--book needs a file".to_string()),
            Some(Pending::Threads) => Some("--threads needs a number".to_string()),
            None => None,
        };
        self.bad.clone().or(missing)
    }
}

/// The part of the opening book built into the program that can serve `position` (decoded
/// only then, see [`Book::embedded_for`]); none in the bundle for online judges.
#[cfg(not(bundle))]
fn built_in_book(position: &Position) -> Book {
    Book::embedded_for(position)
}

/// The opening book built into the program; none in the bundle for online judges.
#[cfg(bundle)]
fn built_in_book(_: &Position) -> Book {
    Book::default()
}

/// Answers the position on `input` with the book that `book` gives for it: every move's value
/// (on `threads` threads) if `values`, else the best move.
#[cfg(not(bundle))]
fn answer(
    input: impl std::io::Read,
    output: impl std::io::Write,
    flags: &Flags,
    book: impl FnOnce(&Position) -> Book,
) -> Result<(), Error> {
    if flags.values {
        let threads = flags.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        cp_puzzles::quarto::run_values_with_book_for(input, output, threads, book)
    } else {
        cp_puzzles::quarto::run_with_book_for(input, output, book)
    }
}

/// Answers the position on `input` with the book that `book` gives for it: the best move (the
/// bundle for online judges takes no `--values`).
#[cfg(bundle)]
fn answer(
    input: impl std::io::Read,
    output: impl std::io::Write,
    flags: &Flags,
    book: impl FnOnce(&Position) -> Book,
) -> Result<(), Error> {
    debug_assert!(
        !flags.values && flags.threads.is_none(),
        "no --values in the bundle"
    );
    cp_puzzles::quarto::run_with_book_for(input, output, book)
}

fn main() -> ExitCode {
    let mut flags = Flags::default();
    if let Err(code) = PROGRAM.args(cli::args(), |arg| flags.take(arg)) {
        return code;
    }
    if let Some(message) = flags.error() {
        return PROGRAM.usage_error(&message);
    }
    let given = match &flags.book {
        None => None,
        Some(file) => match Book::read_file(std::path::Path::new(file)) {
            Ok(book) => Some(book),
            Err(e) => return PROGRAM.setup_error(&format!("--book {file}: {e}")),
        },
    };
    PROGRAM.solve(|input, output| {
        answer(input, output, &flags, |position| {
            given.unwrap_or_else(|| built_in_book(position))
        })
    })
}

//! `quarto [--values] [--book FILE]`: reads a position on stdin, prints the perfect-play move and
//! its value, or every move with its outcome (see `cp_puzzles::quarto`). The bundle for online
//! judges answers the best move alone: it has no `--values` and no built-in book.

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
const USAGE: &str = "quarto [--values] [--book FILE] < input";
#[cfg(not(bundle))]
const OPTIONS: &str = "  --values       every legal move with its value and distance, best first\n  --book FILE    \
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
              it covers\n  (--values is not in this build, made for online judges)\n";

/// The `--book` flag: `Some(None)` once `--book` is seen, `Some(Some(file))` with its value.
type BookFlag = Option<Option<String>>;

/// The command line's flags.
#[derive(Default)]
struct Flags {
    book: BookFlag,
    values: bool,
}

/// Takes `--values`, `--book FILE` or `--book=FILE` into `flags`; false for any other argument.
fn flag(flags: &mut Flags, arg: &str) -> bool {
    if is_values_flag(arg) && !matches!(flags.book, Some(None)) {
        flags.values = true;
        return true;
    }
    let book = &mut flags.book;
    match (book.as_ref(), arg.strip_prefix("--book=")) {
        (Some(None), _) => *book = Some(Some(arg.to_string())),
        (_, Some(file)) => *book = Some(Some(file.to_string())),
        _ if arg == "--book" => *book = Some(None),
        _ => return false,
    }
    true
}

/// Whether `arg` is `--values` (never in the bundle for online judges).
#[cfg(not(bundle))]
fn is_values_flag(arg: &str) -> bool {
    arg == "--values"
}

/// Whether `arg` is `--values` (never in the bundle for online judges).
#[cfg(bundle)]
fn is_values_flag(_: &str) -> bool {
    false
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
/// if `values`, else the best move.
#[cfg(not(bundle))]
fn answer(
    input: impl std::io::Read,
    output: impl std::io::Write,
    values: bool,
    book: impl FnOnce(&Position) -> Book,
) -> Result<(), Error> {
    if values {
        cp_puzzles::quarto::run_values_with_book_for(input, output, book)
    } else {
        cp_puzzles::quarto::run_with_book_for(input, output, book)
    }
}

/// Answers the position on `input` with the book that `book` gives for it: the best move
/// (`values` is never set in the bundle for online judges).
#[cfg(bundle)]
fn answer(
    input: impl std::io::Read,
    output: impl std::io::Write,
    _values: bool,
    book: impl FnOnce(&Position) -> Book,
) -> Result<(), Error> {
    cp_puzzles::quarto::run_with_book_for(input, output, book)
}

fn main() -> ExitCode {
    let mut flags = Flags::default();
    if let Err(code) = PROGRAM.args(cli::args(), |arg| flag(&mut flags, arg)) {
        return code;
    }
    let values = flags.values;
    let given = match flags.book {
        None => None,
        Some(None) => return PROGRAM.usage_error("--book needs a file"),
        Some(Some(file)) => match Book::read_file(std::path::Path::new(&file)) {
            Ok(book) => Some(book),
            Err(e) => return PROGRAM.setup_error(&format!("--book {file}: {e}")),
        },
    };
    PROGRAM.solve(|input, output| {
        answer(input, output, values, |position| {
            given.unwrap_or_else(|| built_in_book(position))
        })
    })
}

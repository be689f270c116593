//! The line mode: one command per line on the input; after each, the board in the `.mine`
//! letters and one status line. Scripts and tests drive the game through it.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use cp_puzzles::minesweeper::game::Status;
use cp_puzzles::minesweeper::Pos;

use super::clock::Clock;
use super::moves::Move;
use super::play::{event_text, Play, Said};
use super::replay::Replay;
use crate::input::{read_line, Read, MAX_LINE};

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Move(Move),
    /// What `minesweeper` prints for the current view.
    Hint,
    /// One bot move.
    Auto,
    /// The bot plays to the end.
    AutoAll,
    /// Save the view as a `.mine` file.
    Save(String),
    /// Save the game so far as a replay.
    SaveReplay(String),
    Board,
    /// The next game of the run.
    Restart,
    Quit,
}

/// The commands, for the message on a line that is none of them.
const COMMANDS: &str = "reveal X Y, flag X Y, chord X Y, hint, auto, auto all, save FILE, \
     replay FILE, board, restart or quit";

impl Command {
    /// Reads one line: `None` for a blank line or a `#` comment.
    ///
    /// # Errors
    /// A one-line message saying what was expected.
    pub fn parse(line: &str) -> Result<Option<Command>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let none = |c: Command| {
            if rest.is_empty() {
                Ok(Some(c))
            } else {
                Err(format!("expected nothing after {word}, found \"{rest}\""))
            }
        };
        match word {
            "reveal" => cell(word, rest).map(|p| Some(Command::Move(Move::Reveal(p)))),
            "flag" => cell(word, rest).map(|p| Some(Command::Move(Move::Flag(p)))),
            "chord" => cell(word, rest).map(|p| Some(Command::Move(Move::Chord(p)))),
            "hint" => none(Command::Hint),
            "auto" if rest == "all" => Ok(Some(Command::AutoAll)),
            "auto" => none(Command::Auto),
            "save" if rest.is_empty() => Err("expected a file name after save".into()),
            "save" => Ok(Some(Command::Save(rest.to_string()))),
            "replay" if rest.is_empty() => Err("expected a file name after replay".into()),
            "replay" => Ok(Some(Command::SaveReplay(rest.to_string()))),
            "board" => none(Command::Board),
            "restart" => none(Command::Restart),
            "quit" => none(Command::Quit),
            _ => Err(format!("expected {COMMANDS}, found \"{word}\"")),
        }
    }
}

/// The cell after `word`: two whole numbers, the column then the row.
fn cell(word: &str, rest: &str) -> Result<Pos, String> {
    let numbers: Vec<Option<usize>> = rest.split_whitespace().map(|w| w.parse().ok()).collect();
    match numbers[..] {
        [Some(x), Some(y)] => Ok(Pos::new(x, y)),
        _ => Err(format!(
            "expected {word} X Y, X the column and Y the row from 0, found \"{rest}\""
        )),
    }
}

/// Plays `play` from the commands on `input`, writing to `output`, until `quit` or the end of
/// the input. First prints the board and the status line. A line longer than [`MAX_LINE`] bytes
/// is skipped with an error line, in bounded memory.
///
/// # Errors
/// If writing fails (a reader that closed the pipe ends the game quietly instead) or reading
/// fails.
pub fn run<R: BufRead, W: Write>(play: &mut Play, input: R, mut output: W) -> io::Result<()> {
    let result = (|| {
        board(play, &mut output)?;
        let mut input = input;
        let mut bytes = Vec::new();
        loop {
            match read_line(&mut input, &mut bytes, MAX_LINE)? {
                Read::End => break,
                Read::TooLong => {
                    writeln!(output, "error: {}", too_long())?;
                    output.flush()?;
                    continue;
                }
                Read::Line => {}
            }
            // Bytes that are not UTF-8 read as U+FFFD, which no command has: a bad command.
            match Command::parse(&String::from_utf8_lossy(&bytes)) {
                Ok(None) => {}
                Ok(Some(Command::Quit)) => break,
                // Off the board is an error while the game is on; once it is over, every move
                // is told so (by `Play::play`).
                Ok(Some(Command::Move(m)))
                    if play.status() == Status::Playing
                        && !play.view().grid().contains(m.cell()) =>
                {
                    let (p, v) = (m.cell(), play.view());
                    writeln!(
                        output,
                        "error: ({}, {}) is off the {}x{} board",
                        p.x,
                        p.y,
                        v.width(),
                        v.height()
                    )?;
                }
                Ok(Some(command)) => {
                    execute(play, &command, &mut output)?;
                    board(play, &mut output)?;
                }
                Err(why) => writeln!(output, "error: {why}")?,
            }
            output.flush()?;
        }
        output.flush()
    })();
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Plays `replay` back: the all-hidden board, then per action `at 1.250 s: flag 3 3`, what it
/// said if anything, the board and the status line (its time the action's).
///
/// # Errors
/// If writing fails (a reader that closed the pipe ends the playback quietly instead).
pub fn play_back<W: Write>(replay: &Replay, mut output: W) -> io::Result<()> {
    let result = (|| {
        let mut play = Play::from_replay(replay);
        play.set_clock(Clock::frozen(Duration::ZERO));
        board(&play, &mut output)?;
        for &(time, m) in &replay.actions {
            play.set_clock(Clock::frozen(time));
            let (word, p) = match m {
                Move::Reveal(p) => ("reveal", p),
                Move::Flag(p) => ("flag", p),
                Move::Chord(p) => ("chord", p),
            };
            writeln!(
                output,
                "at {}.{:03} s: {word} {} {}",
                time.as_secs(),
                time.subsec_millis(),
                p.x,
                p.y
            )?;
            say(&play.play(m), &mut output)?;
            board(&play, &mut output)?;
        }
        output.flush()
    })();
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// What a line longer than [`MAX_LINE`] gets (it is skipped, never held whole).
fn too_long() -> String {
    format!("line too long: over {MAX_LINE} bytes, skipped")
}

/// Writes the view in the `.mine` format and the status line.
fn board(play: &Play, output: &mut dyn Write) -> io::Result<()> {
    write!(output, "{}", play.view())?;
    writeln!(output, "{}", play.status_line())
}

/// Carries out one command (not `quit`), writing what it says, then the game's notice if it has
/// one (a no-guess board that could not be made).
fn execute(play: &mut Play, command: &Command, output: &mut dyn Write) -> io::Result<()> {
    carry_out(play, command, output)?;
    match play.take_notice() {
        Some(notice) => writeln!(output, "{notice}"),
        None => Ok(()),
    }
}

/// Carries out one command (not `quit`), writing what it says.
fn carry_out(play: &mut Play, command: &Command, output: &mut dyn Write) -> io::Result<()> {
    match command {
        Command::Move(m) => say(&play.play(*m), output),
        Command::Hint => match play.hint() {
            Ok(answer) => write!(output, "{answer}"),
            Err(e) => writeln!(output, "error: cannot analyze the board: {e}"),
        },
        Command::Auto => bot_move(play, output).map(|_| ()),
        // Once the game is over, one bot move, which says so.
        Command::AutoAll if play.status() != Status::Playing => bot_move(play, output).map(|_| ()),
        Command::AutoAll => {
            while play.status() == Status::Playing && bot_move(play, output)? {}
            Ok(())
        }
        Command::Save(file) => match std::fs::write(file, play.view().to_string()) {
            Ok(()) => writeln!(output, "saved to {file}"),
            Err(e) => writeln!(output, "error: cannot write {file}: {e}"),
        },
        Command::SaveReplay(file) => match play.replay() {
            None => writeln!(output, "error: no replay before the first click"),
            Some(replay) => match std::fs::write(file, replay.to_string()) {
                Ok(()) => writeln!(output, "replay saved to {file}"),
                Err(e) => writeln!(output, "error: cannot write {file}: {e}"),
            },
        },
        Command::Board | Command::Quit => Ok(()),
        Command::Restart => {
            play.restart();
            let setup = play.setup();
            writeln!(output, "game {}, seed {}", play.index(), setup.seed)
        }
    }
}

/// Writes what a move said, if anything.
fn say(said: &Said, output: &mut dyn Write) -> io::Result<()> {
    match said {
        Said::Nothing => Ok(()),
        said => writeln!(output, "{said}"),
    }
}

/// One bot move, each of its events on a line; returns whether the bot could move.
fn bot_move(play: &mut Play, output: &mut dyn Write) -> io::Result<bool> {
    let mut events = Vec::new();
    let said = match play.bot_step(&mut |e| events.push(e)) {
        Ok(said) => said,
        Err(e) => {
            writeln!(output, "error: the bot cannot move: {}", e.analyzer())?;
            return Ok(false);
        }
    };
    for e in events {
        writeln!(output, "{}", event_text(e))?;
    }
    say(&said, output)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper_play::Setup;
    use cp_puzzles::minesweeper::game::{Config, FirstClick, Level};
    use std::io::Read as _;

    /// A line of 64 MiB gets one error line and is skipped; the next command is played.
    #[test]
    fn an_over_long_line_is_refused_and_the_game_goes_on() {
        let setup = Setup {
            config: Config::level(Level::Beginner),
            rule: FirstClick::Safe,
            seed: 3,
            no_guess: false,
        };
        let mut play = Play::new(setup).expect("a game");
        let huge = io::repeat(b'x').take(64 << 20);
        let input = io::BufReader::new(huge.chain(&b"\nreveal 0 0\n"[..]));
        let mut output = Vec::new();
        run(&mut play, input, &mut output).expect("no error");
        let text = String::from_utf8(output).expect("utf-8");
        let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(
            errors,
            ["error: line too long: over 4096 bytes, skipped"],
            "{text}"
        );
        assert!(play.opened(), "the reveal after it was played");
    }

    #[test]
    fn commands_parse_and_bad_ones_say_why() {
        assert_eq!(
            Command::parse(" reveal 3  4 "),
            Ok(Some(Command::Move(Move::Reveal(Pos::new(3, 4)))))
        );
        assert_eq!(Command::parse("auto all"), Ok(Some(Command::AutoAll)));
        assert_eq!(
            Command::parse("save a b.mine"),
            Ok(Some(Command::Save("a b.mine".into())))
        );
        assert_eq!(Command::parse("# note"), Ok(None));
        for (bad, message) in [
            (
                "reveal 3",
                "expected reveal X Y, X the column and Y the row from 0, found \"3\"",
            ),
            (
                "flag -1 2",
                "expected flag X Y, X the column and Y the row from 0, found \"-1 2\"",
            ),
            ("hint now", "expected nothing after hint, found \"now\""),
            ("auto some", "expected nothing after auto, found \"some\""),
            ("save", "expected a file name after save"),
            ("dig 1 1", "found \"dig\""),
        ] {
            let e = Command::parse(bad).unwrap_err();
            assert!(e.ends_with(message), "{bad}: {e}");
        }
    }
}

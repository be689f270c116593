//! Reading the files a judged program's referee writes (an interactor's or output validator's
//! `judgemessage.txt`, `score.txt`, a testlib interactor's output file) with a cap on what is
//! read and kept: such a file can be as large as the disk allows, and only its start (a score)
//! or its end (the last lines of a message) is ever shown.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Bytes read from the start of a file that holds a score.
pub const HEAD: u64 = 4096;

/// Bytes read from the end of a message file.
pub const TAIL: u64 = 16 * 1024;

/// Characters kept of one line of a message; a longer line is cut and ends with ` …`.
pub const LINE_CHARS: usize = 200;

/// The mark at the end of a cut file or line.
const CUT: &str = " …";

/// The mark at the start of a file read from its middle.
const CUT_START: &str = "… ";

/// The first `max` bytes of the file at `path`, followed by ` …` if the file goes on (so that a
/// score line cut there is malformed rather than misread). Empty if the file does not exist or
/// cannot be read.
#[must_use]
pub fn head(path: &Path, max: u64) -> Vec<u8> {
    let Ok(file) = File::open(path) else {
        return Vec::new();
    };
    let mut bytes = Vec::new();
    if file.take(max + 1).read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    if bytes.len() as u64 > max {
        bytes.truncate(usize::try_from(max).unwrap_or(usize::MAX));
        bytes.extend_from_slice(CUT.as_bytes());
    }
    bytes
}

/// The end of the message file at `path` as text: at most its last [`TAIL`] bytes (after `… `
/// when the file is longer), invalid UTF-8 replaced, each line cut to [`LINE_CHARS`]
/// characters. Empty if the file does not exist or cannot be read.
#[must_use]
pub fn message(path: &Path) -> String {
    let bytes = tail(path, TAIL).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let mut out = String::new();
    for line in text.lines() {
        out += &cut_line(line, LINE_CHARS);
        out.push('\n');
    }
    out
}

/// The last `n` lines of `text` that are not blank, joined by newlines: what a failure shows of
/// a referee's message.
#[must_use]
pub fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The last `max` bytes of the file at `path`, after `… ` when the file is longer.
fn tail(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let from = len.saturating_sub(max);
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    file.take(max).read_to_end(&mut bytes)?;
    if from > 0 {
        bytes.splice(0..0, CUT_START.bytes());
    }
    Ok(bytes)
}

/// `line` cut to `max` characters, ending with ` …` if it was longer.
fn cut_line(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        None => line.to_owned(),
        Some((i, _)) => format!("{}{CUT}", &line[..i]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("a temporary file");
        std::io::Write::write_all(&mut f, bytes).expect("written");
        f
    }

    #[test]
    fn head_reads_the_start_and_marks_a_cut() {
        assert_eq!(head(file(b"score 1\n").path(), 8), b"score 1\n");
        assert_eq!(
            head(file(b"score 1\nmore").path(), 8),
            b"score 1\n \xe2\x80\xa6"
        );
        assert_eq!(head(Path::new("/nonexistent/score.txt"), 8), b"");
    }

    #[test]
    fn message_keeps_whole_last_lines_each_cut() {
        let mut text = Vec::new();
        for i in 0..10_000 {
            text.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        text.extend_from_slice(&[b'x'; 1000]);
        text.push(b'\n');
        let said = message(file(&text).path());
        assert!(said.len() <= TAIL as usize + 10, "{}", said.len());
        let lines: Vec<&str> = said.lines().collect();
        assert!(lines[0].starts_with("… "), "{}", lines[0]);
        assert!(lines[1].starts_with("line "), "{}", lines[1]);
        assert_eq!(lines[lines.len() - 2], "line 9999");
        assert_eq!(
            lines[lines.len() - 1],
            format!("{} …", "x".repeat(LINE_CHARS))
        );
        let one_line = message(file(&vec![0xff; 100_000]).path());
        assert_eq!(one_line.chars().count(), LINE_CHARS + 3);
        assert!(one_line.starts_with("… \u{FFFD}"), "{one_line}");
        assert_eq!(message(Path::new("/nonexistent/judgemessage.txt")), "");
    }
}

//! The last lines an interactor and a program sent each other, shown with a failure.

use std::collections::VecDeque;
use std::sync::Mutex;

/// Lines of the transcript shown with a failure.
pub const TRANSCRIPT_LINES: usize = 10;

/// Characters of one transcript line shown.
pub const LINE_CHARS: usize = 120;

/// Who wrote a line of the transcript.
#[derive(Clone, Copy)]
pub enum Side {
    Program,
    Interactor,
}

/// The last lines exchanged, in the order the judge relayed them.
#[derive(Default)]
pub struct Transcript(Mutex<VecDeque<(Side, String)>>);

impl Transcript {
    /// Adds `line` (its end of line dropped, cut to [`LINE_CHARS`]), forgetting the oldest past
    /// [`TRANSCRIPT_LINES`].
    pub fn push(&self, side: Side, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let mut text: String = text.trim_end_matches(['\n', '\r']).to_string();
        if text.chars().count() > LINE_CHARS {
            text = text.chars().take(LINE_CHARS).collect::<String>() + "...";
        }
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() == TRANSCRIPT_LINES {
            lines.pop_front();
        }
        lines.push_back((side, text));
    }

    /// `last lines exchanged:` and the lines, each after its writer's name, or
    /// `nothing was exchanged`.
    pub fn render(&self) -> String {
        let lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            return "nothing was exchanged".to_string();
        }
        let mut text = String::from("last lines exchanged:");
        for (side, line) in lines.iter() {
            let who = match side {
                Side::Program => "program>   ",
                Side::Interactor => "interactor>",
            };
            text += &format!("\n  {who} {line}");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_keeps_the_last_lines_cut_short() {
        let t = Transcript::default();
        for i in 0..15 {
            t.push(Side::Program, format!("{i}\n").as_bytes());
        }
        t.push(Side::Interactor, "x".repeat(200).as_bytes());
        let text = t.render();
        assert!(!text.contains("program>    5\n"));
        assert!(text.contains("program>    6\n"));
        assert!(text.ends_with(&format!("interactor> {}...", "x".repeat(LINE_CHARS))));
    }
}

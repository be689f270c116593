//! Reports for machines: `--format json` on stdout and `--junit FILE`.

use std::fmt::Write;

use serde::Serialize;

use crate::verdict::SuiteReport;
use crate::verdict::Verdict;

/// The whole session, as `--format json` prints it.
#[derive(Serialize)]
pub struct Session<'a> {
    pub passed: usize,
    pub failed: usize,
    /// Cases run at once (`-j`); above 1 the times were taken in parallel.
    pub jobs: usize,
    pub suites: &'a [SuiteReport],
}

/// The JSON report, pretty-printed, with a final newline.
#[must_use]
pub fn json(session: &Session) -> String {
    let mut text = serde_json::to_string_pretty(session).unwrap_or_else(|e| {
        // Serializing plain structs of numbers and strings cannot fail.
        format!("{{\"error\": {:?}}}", e.to_string())
    });
    text.push('\n');
    text
}

/// A JUnit XML report: one `testsuite` per suite, one `testcase` per case, a `failure` (its
/// `type` the verdict) for every case that is not AC, and a `score` property where an
/// interactor gave scores (`S/N` on the suite).
#[must_use]
pub fn junit(session: &Session) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total_time: f64 = session.suites.iter().map(|s| s.time).sum();
    let _ = writeln!(
        x,
        "<testsuites name=\"judge\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{total_time:.6}\">",
        session.passed + session.failed,
        session.failed
    );
    for s in session.suites {
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.6}\">",
            escape(&s.name),
            s.cases.len(),
            s.failed,
            s.time
        );
        if let Some(score) = s.score {
            let _ = writeln!(
                x,
                "    <properties><property name=\"score\" value=\"{score}/{}\"/></properties>",
                s.cases.len()
            );
        }
        for c in &s.cases {
            let case = c.name.rsplit('/').next().unwrap_or(&c.name);
            let _ = write!(
                x,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.6}\"",
                escape(case),
                escape(&s.name),
                c.time
            );
            if let Some(score) = c.score {
                let _ = write!(
                    x,
                    ">\n      <properties><property name=\"score\" value=\"{score}\"/></properties>\n    </testcase>\n"
                );
                continue;
            }
            if c.verdict == Verdict::Accepted {
                x += "/>\n";
                continue;
            }
            let detail = c.detail.as_deref().unwrap_or("");
            let first = detail.lines().next().unwrap_or("");
            let _ = writeln!(
                x,
                ">\n      <failure type=\"{}\" message=\"{}: {}\">{}</failure>\n    </testcase>",
                c.verdict.name(),
                c.verdict.name(),
                escape(first),
                escape(detail)
            );
        }
        x += "  </testsuite>\n";
    }
    x += "</testsuites>\n";
    x
}

/// `s` escaped for XML text and attributes; characters XML 1.0 forbids become U+FFFD.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&apos;",
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_forbidden_characters() {
        assert_eq!(
            escape("a<b>&\"c'\x01"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{fffd}"
        );
    }
}

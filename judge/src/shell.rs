//! Words for `sh`: every command the judge builds is a shell command line, and every path put
//! into one goes through [`quote()`].

use std::path::Path;

/// `p` quoted for `sh`.
#[must_use]
pub fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// Whether `path` is a file the shell can run: a regular file with an execute bit.
#[must_use]
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The words of `command` when it is a simple command that `sh` would run as these words alone:
/// plain words (letters, digits and `/._-+,:@%`), single-quoted parts and backslash escapes,
/// separated by spaces or tabs, whose first word is not one of the shell's own commands or
/// keywords. `None` for anything else (a variable, a redirection, a pipe, a glob, an
/// assignment, `cd`, `exec`...), which is left to `sh -c`. The judge runs such a command
/// directly, without a shell's start-up in the time measured.
#[must_use]
pub fn simple_words(command: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let part = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        q => part.push(q),
                    }
                }
            }
            '\\' => match chars.next()? {
                '\n' => return None,
                e => word.get_or_insert_with(String::new).push(e),
            },
            c if c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c) => {
                word.get_or_insert_with(String::new).push(c);
            }
            _ => return None,
        }
    }
    words.extend(word);
    let first = words.first()?;
    (!first.is_empty() && !SHELL_OWN.contains(&first.as_str())).then_some(words)
}

/// The commands and keywords of `sh` that are not (or not only) programs on `PATH`, or that act on
/// the shell itself.
const SHELL_OWN: [&str; 40] = [
    ".", ":", "alias", "bg", "break", "case", "cd", "command", "continue", "do", "done", "elif",
    "else", "esac", "eval", "exec", "exit", "export", "fc", "fg", "fi", "for", "getopts", "hash",
    "if", "jobs", "local", "read", "readonly", "return", "set", "shift", "source", "then", "times",
    "trap", "type", "ulimit", "umask", "unset",
];

#[cfg(test)]
mod tests {
    use super::simple_words;

    fn words(c: &str) -> Option<Vec<String>> {
        simple_words(c)
    }

    #[test]
    fn plain_and_quoted_words_are_split_as_sh_splits_them() {
        assert_eq!(words("./sum"), Some(vec!["./sum".to_string()]));
        assert_eq!(
            words("  python3\t'/a b/c'\\''d.py' x  "),
            Some(vec!["python3".into(), "/a b/c'd.py".into(), "x".into()])
        );
        assert_eq!(words("a''b \\ "), Some(vec!["ab".into(), " ".into()]));
    }

    #[test]
    fn anything_the_shell_would_read_otherwise_is_left_to_it() {
        for c in [
            "",
            "  ",
            "a | b",
            "a > f",
            "a $X",
            "A=1 a",
            "a *",
            "cd x && ./run",
            "exec a",
            "a;b",
            "'open",
            "a \\",
            "~/a",
            "a \"b\"",
            "''",
            "a #c",
            "a\nb",
            "a\\\nb",
            "{ a; }",
        ] {
            assert_eq!(words(c), None, "{c:?}");
        }
    }
}

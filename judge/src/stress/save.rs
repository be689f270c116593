//! `--save SUITE`: the minimal input becomes the suite's next case, `NN.in` with `NN.out` from
//! the reference.

use std::path::{Path, PathBuf};

use crate::out;

/// A suite folder to add a case to, checked before any round runs.
pub struct Target {
    dir: PathBuf,
    name: String,
}

impl Target {
    /// # Errors
    /// `suite` is not a plain folder name; the suite's folder does not exist and cannot be made
    /// (its parent is missing).
    pub fn new(root: &Path, suite: &str) -> Result<Target, String> {
        let plain = !suite.is_empty()
            && suite != "."
            && suite != ".."
            && !suite.contains('/')
            && !suite.contains('\0');
        if !plain {
            return Err(format!(
                "--save {suite:?}: a suite is a folder name under --testcases (no '/', not . or ..)"
            ));
        }
        let dir = root.join(suite);
        if !dir.is_dir() && !root.is_dir() {
            return Err(format!(
                "--save {suite}: no folder {} to add the suite to (--testcases DIR)",
                root.display()
            ));
        }
        Ok(Target {
            dir,
            name: suite.to_string(),
        })
    }

    /// Writes `NN.in` and, when there is an answer, `NN.out`; returns what it says it wrote.
    ///
    /// # Errors
    /// A file or the folder cannot be written.
    pub fn write(&self, input: &[u8], answer: Option<&[u8]>) -> Result<String, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let stem = self.next_stem()?;
        let path = |ext: &str| self.dir.join(format!("{stem}.{ext}"));
        out::write_file(&path("in"), input)?;
        let label = format!("{}/{stem}", self.name);
        match answer {
            Some(a) => {
                out::write_file(&path("out"), a)?;
                Ok(format!("saved {label}.in and {label}.out\n"))
            }
            None => Ok(format!(
                "saved {label}.in; without --ref it has no answer yet: \
                 judge record {} --cmd 'REFERENCE'\n",
                self.name
            )),
        }
    }

    /// One more than the largest numbered file of the suite (`NN.in`, and also an orphan `NN.out`
    /// or `NN.exit`, which the new case must not take over), with as many digits (at least two).
    fn next_stem(&self) -> Result<String, String> {
        let entries =
            std::fs::read_dir(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let stems: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                let (stem, ext) = name.rsplit_once('.')?;
                ["in", "out", "exit"]
                    .contains(&ext)
                    .then(|| stem.to_string())
            })
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        let next = stems
            .iter()
            .filter_map(|s| s.parse::<u64>().ok())
            .max()
            .map_or(1, |m| m + 1);
        let width = stems.iter().map(String::len).max().unwrap_or(2).max(2);
        Ok(format!("{next:0width$}"))
    }
}

//! `problem.yaml` and `testdata.yaml`, read with `yaml-rust2` into a tree, and typed getters whose
//! errors name the file and the key.
//!
//! A file is read only if it is a regular file of at most [`crate::regular::CONFIG_MAX`] bytes,
//! and its events are counted before the tree is built: a document whose aliases would expand
//! it beyond [`MAX_NODES`] nodes (an alias bomb: each level's list repeating the one below) or
//! that nests deeper than [`MAX_DEPTH`] is refused, so that the tree never takes more than a
//! few MiB.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{Yaml, YamlLoader};

/// The most nodes (scalars, lists and mappings) of a document once its aliases are expanded.
pub const MAX_NODES: u64 = 100_000;

/// The deepest nesting of lists and mappings.
pub const MAX_DEPTH: usize = 64;

/// A YAML mapping read from a file (an empty file is an empty mapping).
pub struct Doc {
    pub path: PathBuf,
    pub root: Yaml,
}

impl Doc {
    /// Reads `path`.
    ///
    /// # Errors
    /// The file cannot be read, is not YAML (the message has the line and column), or its top
    /// level is not a mapping.
    pub fn load(path: &Path) -> Result<Doc, String> {
        let text = super::files::text(path)?;
        expanded_size(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let docs = YamlLoader::load_from_str(&text).map_err(|e| {
            let m = e.marker();
            format!(
                "{}:{}:{}: not YAML: {}",
                path.display(),
                m.line(),
                m.col() + 1,
                e.info()
            )
        })?;
        let root = match docs.into_iter().next() {
            None | Some(Yaml::Null) => Yaml::Hash(yaml_rust2::yaml::Hash::new()),
            Some(h @ Yaml::Hash(_)) => h,
            Some(_) => return Err(format!("{}: expected a mapping of keys", path.display())),
        };
        Ok(Doc {
            path: path.to_path_buf(),
            root,
        })
    }

    /// An empty document, for a file that is not there.
    #[must_use]
    pub fn empty(path: &Path) -> Doc {
        Doc {
            path: path.to_path_buf(),
            root: Yaml::Hash(yaml_rust2::yaml::Hash::new()),
        }
    }

    /// Reads `path` if it exists.
    ///
    /// # Errors
    /// As [`Doc::load`].
    pub fn optional(path: &Path) -> Result<Option<Doc>, String> {
        if path.exists() {
            Doc::load(path).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The node at `keys` (`["limits", "memory"]`), if present and not null.
    #[must_use]
    pub fn get(&self, keys: &[&str]) -> Option<&Yaml> {
        let mut node = &self.root;
        for key in keys {
            node = &node[*key];
        }
        match node {
            Yaml::BadValue | Yaml::Null => None,
            n => Some(n),
        }
    }

    fn wrong(&self, keys: &[&str], expected: &str) -> String {
        format!(
            "{}: {} must be {expected}",
            self.path.display(),
            keys.join(".")
        )
    }

    /// A text value (numbers are read as their text).
    ///
    /// # Errors
    /// The value is a list or a mapping.
    pub fn string(&self, keys: &[&str]) -> Result<Option<String>, String> {
        match self.get(keys) {
            None => Ok(None),
            Some(Yaml::String(s) | Yaml::Real(s)) => Ok(Some(s.clone())),
            Some(Yaml::Integer(i)) => Ok(Some(i.to_string())),
            Some(Yaml::Boolean(b)) => Ok(Some(b.to_string())),
            Some(_) => Err(self.wrong(keys, "text")),
        }
    }

    /// A number.
    ///
    /// # Errors
    /// The value is not a finite number.
    pub fn number(&self, keys: &[&str]) -> Result<Option<f64>, String> {
        let n = match self.get(keys) {
            None => return Ok(None),
            Some(Yaml::Integer(i)) => *i as f64,
            Some(Yaml::Real(s) | Yaml::String(s)) => s.trim().parse::<f64>().unwrap_or(f64::NAN),
            Some(_) => f64::NAN,
        };
        if n.is_finite() {
            Ok(Some(n))
        } else {
            Err(self.wrong(keys, "a number"))
        }
    }

    /// Whitespace-separated words given as one text or as a list.
    ///
    /// # Errors
    /// The value is a mapping, or a list of non-scalars.
    pub fn words(&self, keys: &[&str]) -> Result<Vec<String>, String> {
        match self.get(keys) {
            None => Ok(Vec::new()),
            Some(Yaml::Array(items)) => items
                .iter()
                .map(|i| match i {
                    Yaml::String(s) | Yaml::Real(s) => Ok(s.clone()),
                    Yaml::Integer(n) => Ok(n.to_string()),
                    _ => Err(self.wrong(keys, "a text or a list of words")),
                })
                .collect(),
            Some(_) => Ok(self
                .string(keys)?
                .unwrap_or_default()
                .split_whitespace()
                .map(String::from)
                .collect()),
        }
    }
}

/// Checks that the YAML `text` expands to at most [`MAX_NODES`] nodes (every alias counted as
/// the nodes it stands for) and nests at most [`MAX_DEPTH`] deep, from the parser's events
/// alone, stopping at the first event past a bound. Syntax errors are left to the loader.
///
/// # Errors
/// A bound is passed: the line and what was passed.
fn expanded_size(text: &str) -> Result<(), String> {
    let mut parser = Parser::new_from_str(text);
    let mut total: u64 = 0;
    // The anchor and the count at the start of each open list or mapping.
    let mut open: Vec<(usize, u64)> = Vec::new();
    let mut anchored: HashMap<usize, u64> = HashMap::new();
    loop {
        let Ok((event, mark)) = parser.next_token() else {
            return Ok(());
        };
        match event {
            Event::StreamEnd => return Ok(()),
            Event::Scalar(_, _, anchor, _) => {
                total += 1;
                if anchor > 0 {
                    anchored.insert(anchor, 1);
                }
            }
            Event::Alias(anchor) => {
                total = total.saturating_add(anchored.get(&anchor).copied().unwrap_or(1));
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                total += 1;
                open.push((anchor, total));
                if open.len() > MAX_DEPTH {
                    return Err(format!(
                        "{}:{}: lists and mappings nested more than {MAX_DEPTH} deep",
                        mark.line(),
                        mark.col() + 1
                    ));
                }
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, start)) = open.pop() {
                    if anchor > 0 {
                        anchored.insert(anchor, total - start + 1);
                    }
                }
            }
            _ => {}
        }
        if total > MAX_NODES {
            return Err(format!(
                "{}:{}: more than {MAX_NODES} values once its aliases (*name) are expanded",
                mark.line(),
                mark.col() + 1
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document whose aliases double it `levels` times.
    fn bomb(levels: usize) -> String {
        let mut text = "a0: &a0 [x, x]\n".to_string();
        for i in 1..levels {
            let j = i - 1;
            text += &format!("a{i}: &a{i} [*a{j}, *a{j}]\n");
        }
        text
    }

    #[test]
    fn aliases_are_counted_as_what_they_expand_to() {
        assert!(expanded_size(&bomb(10)).is_ok());
        let e = expanded_size(&bomb(40)).expect_err("a bomb");
        assert!(e.contains("more than 100000 values"), "{e}");
        let deep = "[".repeat(100) + &"]".repeat(100);
        let e = expanded_size(&deep).expect_err("too deep");
        assert!(e.contains("nested more than 64 deep"), "{e}");
        assert!(expanded_size("a: [1, 2, {b: c}]\nd: &x e\nf: *x\n").is_ok());
    }
}

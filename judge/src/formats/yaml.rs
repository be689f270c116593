//! `problem.yaml` and `testdata.yaml`, read with `yaml-rust2` into a tree, and typed getters whose
//! errors name the file and the key.

use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

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

//! The parts of a pass of the final walk found empty, as a tree of child numbers, and their
//! text on a checkpoint's `done` line (` 0-15 17 31.0-4 31.5.0-2`).

use std::collections::BTreeMap;

/// The parts of a pass found empty: a tree of child numbers. Each node is wholly done, or holds
/// ranges of children wholly done and the children partly done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// Whether the whole part is done.
    all: bool,
    /// The children wholly done, as ranges: first to last.
    whole: BTreeMap<u32, u32>,
    /// The children partly done (none of them wholly).
    sub: BTreeMap<u32, Done>,
}

/// The deepest path a `done` line may name (the grid has at most 20 rows).
const MAX_PATH: usize = 24;

impl Done {
    /// Whether nothing is done.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.all && self.whole.is_empty() && self.sub.is_empty()
    }

    /// Whether child `i` is wholly done.
    fn has_whole(&self, i: u32) -> bool {
        self.all
            || self
                .whole
                .range(..=i)
                .next_back()
                .is_some_and(|(_, &last)| last >= i)
    }

    /// Marks the children `a..=b` wholly done.
    fn add_whole(&mut self, a: u32, b: u32) {
        if self.all {
            return;
        }
        let (mut first, mut last) = (a, b);
        if let Some((&s, &e)) = self.whole.range(..=a).next_back() {
            if e.saturating_add(1) >= a {
                (first, last) = (s, last.max(e));
            }
        }
        let joined: Vec<u32> = self
            .whole
            .range(first..=last.saturating_add(1))
            .map(|(&s, _)| s)
            .collect();
        for s in joined {
            last = last.max(self.whole.remove(&s).unwrap_or(s));
        }
        self.whole.insert(first, last);
        let inside: Vec<u32> = self.sub.range(a..=b).map(|(&i, _)| i).collect();
        for i in inside {
            self.sub.remove(&i);
        }
    }

    /// Whether the part at `path` is done (itself or a part holding it).
    #[must_use]
    pub fn contains(&self, path: &[u32]) -> bool {
        match self.node(path) {
            Ok(d) => d.all,
            Err(done) => done,
        }
    }

    /// The node of the part at `path`; `Err(true)` if a part holding it is done, `Err(false)`
    /// if nothing inside it is recorded.
    fn node(&self, path: &[u32]) -> Result<&Done, bool> {
        let mut d = self;
        for &i in path {
            if d.has_whole(i) {
                return Err(true);
            }
            d = d.sub.get(&i).ok_or(false)?;
        }
        Ok(d)
    }

    /// What is done inside the part at `path` (`None` if nothing, or if all of it is).
    #[must_use]
    pub fn below(&self, path: &[u32]) -> Option<&Done> {
        self.node(path).ok().filter(|d| !d.all)
    }

    /// The node of the part holding the children `path`'s last names, created if need be;
    /// `None` if a part holding it is done.
    fn parent_mut(&mut self, path: &[u32]) -> Option<&mut Done> {
        let mut d = self;
        for &i in &path[..path.len().saturating_sub(1)] {
            if d.has_whole(i) {
                return None;
            }
            d = d.sub.entry(i).or_default();
        }
        Some(d)
    }

    /// Marks the part at `path` done.
    pub fn insert(&mut self, path: &[u32]) {
        match path.last() {
            None => {
                *self = Done {
                    all: true,
                    ..Done::default()
                }
            }
            Some(&i) => {
                if let Some(d) = self.parent_mut(path) {
                    d.add_whole(i, i);
                }
            }
        }
    }

    /// Marks the part at `path` done if its children `0..children` (at least one) all are;
    /// whether it is done.
    pub fn close(&mut self, path: &[u32], children: u32) -> bool {
        let whole = match self.node(path) {
            Err(done) => return done,
            Ok(d) => d.all || d.whole.get(&0).is_some_and(|&last| last + 1 >= children),
        };
        if whole {
            self.insert(path);
        }
        whole
    }

    /// The highest unit number named.
    #[cfg(not(bundle))]
    pub(super) fn last_unit(&self) -> Option<u32> {
        let whole = self.whole.values().next_back().copied();
        let sub = self.sub.keys().next_back().copied();
        whole.max(sub)
    }

    /// ` 0-15 17 31.0-4 31.5.0-2`: the done parts, in order.
    #[must_use]
    #[cfg(not(bundle))]
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut String::new(), &mut out);
        out
    }

    #[cfg(not(bundle))]
    fn write(&self, prefix: &mut String, out: &mut String) {
        let mut whole = self.whole.iter().peekable();
        let mut sub = self.sub.iter().peekable();
        loop {
            let next_whole = whole.peek().map(|(&a, _)| a);
            let next_sub = sub.peek().map(|(&i, _)| i);
            let take_whole = match (next_whole, next_sub) {
                (None, None) => return,
                (Some(a), Some(i)) => a < i,
                (w, _) => w.is_some(),
            };
            if take_whole {
                let (&a, &b) = whole.next().expect("a range");
                out.push(' ');
                out.push_str(prefix);
                out.push_str(&if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                });
            } else {
                let (&i, d) = sub.next().expect("a part");
                let len = prefix.len();
                prefix.push_str(&format!("{i}."));
                d.write(prefix, out);
                prefix.truncate(len);
            }
        }
    }

    /// The inverse of [`Done::text`] on a `done ...` line; on error, what is wrong.
    #[cfg(not(bundle))]
    pub(super) fn read(line: &str) -> Result<Done, String> {
        let mut done = Done::default();
        for part in line.split_whitespace().skip(1) {
            let bad = || format!("bad part of a unit {part:?}");
            let mut steps: Vec<&str> = part.split('.').collect();
            let last = steps.pop().unwrap_or_default();
            let mut path = steps
                .iter()
                .map(|step| step.parse::<u32>().map_err(|_| bad()))
                .collect::<Result<Vec<u32>, String>>()?;
            let (a, b) = match last.split_once('-') {
                Some((a, b)) => (a.parse::<u32>(), b.parse::<u32>()),
                None => (last.parse(), last.parse()),
            };
            let (Ok(a), Ok(b)) = (a, b) else {
                return Err(bad());
            };
            if a > b || path.len() >= MAX_PATH {
                return Err(bad());
            }
            path.push(a);
            if let Some(d) = done.parent_mut(&path) {
                d.add_whole(a, b);
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_round_trip() {
        let mut done = Done::default();
        for path in [
            &[0][..],
            &[1],
            &[3],
            &[6],
            &[7],
            &[8],
            &[9, 0],
            &[9, 1],
            &[9, 2, 4],
        ] {
            done.insert(path);
        }
        let text = done.text();
        assert_eq!(text, " 0-1 3 6-8 9.0-1 9.2.4");
        assert_eq!(Done::read(&format!("done{text}")), Ok(done.clone()));
        assert!(done.contains(&[9, 1, 5]) && !done.contains(&[9, 2]) && !done.contains(&[2]));
        assert!(done.below(&[9]).is_some() && done.below(&[9, 0]).is_none());
        assert!(!done.close(&[9, 2], 5));
        assert!(!done.close(&[9], 3));
        done.insert(&[9, 2]);
        assert!(done.close(&[9], 3));
        assert_eq!(done.text(), " 0-1 3 6-9");
        assert!(Done::read("done 1.x").is_err() && Done::read("done 5-2").is_err());
        let mut ranges = Done::read("done 0-3 5 7-9 12.1").expect("reads");
        ranges.insert(&[4]);
        ranges.insert(&[11]);
        assert_eq!(ranges.text(), " 0-5 7-9 11 12.1");
        ranges.insert(&[10]);
        ranges.insert(&[6]);
        assert_eq!(ranges.text(), " 0-11 12.1");
        ranges.insert(&[12]);
        assert_eq!(ranges.text(), " 0-12");
        assert_eq!(ranges.last_unit(), Some(12));
    }
}

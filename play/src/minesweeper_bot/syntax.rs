//! The strategies as the command line writes them: `NAME[:key=value,...]`, e.g.
//! `regions:endgame=1000,blend=0.3`. [`parse_strategy`] reads them; [`Spelled`] writes the same
//! syntax with only the parameters that differ from the name's defaults, so that
//! `parse_strategy(&Spelled(s).to_string()) == Ok(s)`.
//!
//! Names and their defaults:
//! - `lowest`, `analyzer`: no parameter;
//! - `progress`, `endgame`: `next-risk=0.1`;
//! - `survival`: `window=0.1`;
//! - `secondary` and `regions` (the default strategy; `secondary` is it without the regions
//!   search): `window=0.1`, `blend=0.2`, `lone=0.2`, `endgame=4000`, `candidates=12`,
//!   `interior=4`, `near=0`, `deep=0`, `forced=sets`, `influence=0.9`, `extra=8`.
//!
//! `window` and `next-risk` name the same parameter. Numbers are from 0 to 1; the pool must keep
//! a cell to examine (`candidates` and `interior` at least 1, `near` below `interior`). Counts are
//! bounded: `endgame` by [`MAX_ENDGAME`], the others by [`MAX_POOL`].

use std::fmt;

use cp_puzzles::minesweeper::bot::{Forced, Strategy};
use cp_puzzles::minesweeper::game::{by_name, name_of, NameError};

/// Why a strategy's text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyError {
    /// The name is not a strategy's.
    Name(NameError),
    /// A parameter is not `key=value`.
    Pair { found: String },
    /// The strategy has no parameter of that name.
    Key {
        strategy: &'static str,
        keys: String,
        found: String,
    },
    /// The same parameter is given twice.
    Repeated { key: String },
    /// A value is out of its range or not a number.
    Value {
        key: String,
        expected: String,
        found: String,
    },
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrategyError::Name(e) => write!(f, "{e}"),
            StrategyError::Pair { found } => write!(f, "expected key=value, found \"{found}\""),
            StrategyError::Key {
                strategy,
                keys,
                found,
            } => write!(
                f,
                "expected a parameter of {strategy} ({keys}), found \"{found}\""
            ),
            StrategyError::Repeated { key } => write!(f, "expected {key} at most once"),
            StrategyError::Value {
                key,
                expected,
                found,
            } => write!(f, "expected {key} to be {expected}, found \"{found}\""),
        }
    }
}

impl std::error::Error for StrategyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StrategyError::Name(e) => Some(e),
            _ => None,
        }
    }
}

const FORCED: [(Forced, &str); 4] = [
    (Forced::None, "none"),
    (Forced::Dead, "dead"),
    (Forced::Pseudo, "pseudo"),
    (Forced::Sets, "sets"),
];

/// The strategies by name, each with its defaults.
const STRATEGIES: [(Strategy, &str); 7] = [
    (Strategy::Lowest, "lowest"),
    (Strategy::Analyzer, "analyzer"),
    (PROGRESS, "progress"),
    (ENDGAME, "endgame"),
    (SURVIVAL, "survival"),
    (SECONDARY, "secondary"),
    (Strategy::REGIONS, "regions"),
];

/// `progress`: the one-move lookahead with its default parameter.
pub const PROGRESS: Strategy = Strategy::Progress { next_risk: 0.1 };
/// `endgame`: the `progress` lookahead, and the exact search in the endgame.
pub const ENDGAME: Strategy = Strategy::Endgame { next_risk: 0.1 };
/// `survival`: the two-click survival lookahead with approximate weights.
pub const SURVIVAL: Strategy = Strategy::Survival { window: 0.1 };

/// `secondary`: the default strategy without the regions search.
const SECONDARY: Strategy = match Strategy::REGIONS {
    Strategy::Secondary {
        window,
        blend,
        lone,
        endgame,
        pool,
        forced,
        influence,
        ..
    } => Strategy::Secondary {
        window,
        blend,
        lone,
        endgame,
        regions: false,
        pool,
        forced,
        influence,
    },
    other => other,
};

/// A strategy's parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Window,
    Blend,
    Lone,
    Endgame,
    Candidates,
    Interior,
    Near,
    Deep,
    Forced,
    Influence,
    Extra,
}

const KEYS: [Key; 11] = [
    Key::Window,
    Key::Blend,
    Key::Lone,
    Key::Endgame,
    Key::Candidates,
    Key::Interior,
    Key::Near,
    Key::Deep,
    Key::Forced,
    Key::Influence,
    Key::Extra,
];

/// One parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Number(f64),
    Count(usize),
    Forced(Forced),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(x) => write!(f, "{x}"),
            Value::Count(n) => write!(f, "{n}"),
            Value::Forced(forced) => f.write_str(name_of(forced, &FORCED)),
        }
    }
}

/// Where a parameter lives in a strategy.
enum Slot<'a> {
    Number(&'a mut f64),
    Count(&'a mut usize),
    Forced(&'a mut Forced),
}

/// The field of `s` that `key` sets, if `s` has that parameter.
fn slot(s: &mut Strategy, key: Key) -> Option<Slot<'_>> {
    let slot = match (s, key) {
        (
            Strategy::Progress { next_risk: x }
            | Strategy::Endgame { next_risk: x }
            | Strategy::Survival { window: x }
            | Strategy::Secondary { window: x, .. },
            Key::Window,
        )
        | (Strategy::Secondary { blend: x, .. }, Key::Blend)
        | (Strategy::Secondary { lone: x, .. }, Key::Lone)
        | (Strategy::Secondary { influence: x, .. }, Key::Influence) => Slot::Number(x),
        (Strategy::Secondary { endgame: n, .. }, Key::Endgame) => Slot::Count(n),
        (Strategy::Secondary { pool, .. }, Key::Candidates) => Slot::Count(&mut pool.candidates),
        (Strategy::Secondary { pool, .. }, Key::Interior) => Slot::Count(&mut pool.interior),
        (Strategy::Secondary { pool, .. }, Key::Near) => Slot::Count(&mut pool.near),
        (Strategy::Secondary { pool, .. }, Key::Deep) => Slot::Count(&mut pool.deep),
        (Strategy::Secondary { pool, .. }, Key::Extra) => Slot::Count(&mut pool.extra),
        (Strategy::Secondary { forced, .. }, Key::Forced) => Slot::Forced(forced),
        _ => return None,
    };
    Some(slot)
}

/// The value of `key` in `s`, if `s` has that parameter.
fn value(mut s: Strategy, key: Key) -> Option<Value> {
    Some(match slot(&mut s, key)? {
        Slot::Number(x) => Value::Number(*x),
        Slot::Count(n) => Value::Count(*n),
        Slot::Forced(f) => Value::Forced(*f),
    })
}

/// The name of `key` in `s`: `window` is `next-risk` for the strategies whose field is so named.
fn key_name(s: Strategy, key: Key) -> &'static str {
    match key {
        Key::Window if matches!(s, Strategy::Progress { .. } | Strategy::Endgame { .. }) => {
            "next-risk"
        }
        Key::Window => "window",
        Key::Blend => "blend",
        Key::Lone => "lone",
        Key::Endgame => "endgame",
        Key::Candidates => "candidates",
        Key::Interior => "interior",
        Key::Near => "near",
        Key::Deep => "deep",
        Key::Forced => "forced",
        Key::Influence => "influence",
        Key::Extra => "extra",
    }
}

/// The key named `word` (either name of the window).
fn key_of(word: &str) -> Option<Key> {
    match word {
        "next-risk" => Some(Key::Window),
        _ => KEYS
            .into_iter()
            .find(|&k| key_name(Strategy::REGIONS, k) == word),
    }
}

/// The name of `s`'s kind.
fn name(s: Strategy) -> &'static str {
    match s {
        Strategy::Lowest => "lowest",
        Strategy::Analyzer => "analyzer",
        Strategy::Progress { .. } => "progress",
        Strategy::Endgame { .. } => "endgame",
        Strategy::Survival { .. } => "survival",
        Strategy::Secondary { regions: false, .. } => "secondary",
        Strategy::Secondary { regions: true, .. } => "regions",
    }
}

/// `s`'s parameters with their values, in the order of [`KEYS`].
fn parameters(s: Strategy) -> impl Iterator<Item = (Key, Value)> {
    KEYS.into_iter()
        .filter_map(move |k| value(s, k).map(|v| (k, v)))
}

/// A strategy as the command line writes it: `NAME`, then `:key=value,...` for the parameters
/// that differ from the name's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spelled(pub Strategy);

impl fmt::Display for Spelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let strategy = self.0;
        let name = name(strategy);
        let defaults = by_name(name, &STRATEGIES).unwrap_or(strategy);
        f.write_str(name)?;
        let mut separator = ':';
        for (key, v) in parameters(strategy).filter(|&(k, v)| value(defaults, k) != Some(v)) {
            write!(f, "{separator}{}={v}", key_name(strategy, key))?;
            separator = ',';
        }
        Ok(())
    }
}

/// Reads a strategy written `NAME[:key=value,...]` (see the module's documentation for the names
/// and keys).
///
/// # Errors
/// [`StrategyError`]: an unknown name or key, a parameter that is not `key=value` or is given
/// twice, a value out of its range, or a pool that leaves no cell to examine.
pub fn parse_strategy(text: &str) -> Result<Strategy, StrategyError> {
    let (name, list) = match text.split_once(':') {
        Some((name, list)) => (name, Some(list)),
        None => (text, None),
    };
    let mut strategy = by_name(name, &STRATEGIES).map_err(StrategyError::Name)?;
    let mut given = Vec::new();
    for pair in list.into_iter().flat_map(|list| list.split(',')) {
        let key = set(&mut strategy, pair)?;
        if given.contains(&key) {
            return Err(StrategyError::Repeated {
                key: key_name(strategy, key).to_string(),
            });
        }
        given.push(key);
    }
    check_pool(strategy)?;
    Ok(strategy)
}

/// Sets the parameter that `pair` (`key=value`) gives; returns its key.
fn set(strategy: &mut Strategy, pair: &str) -> Result<Key, StrategyError> {
    let (word, text) = pair.split_once('=').ok_or_else(|| StrategyError::Pair {
        found: pair.to_string(),
    })?;
    let current = *strategy;
    let unknown = || StrategyError::Key {
        strategy: name(current),
        keys: keys_of(current),
        found: word.to_string(),
    };
    let key = key_of(word).ok_or_else(unknown)?;
    let bad = |expected: &str| StrategyError::Value {
        key: word.to_string(),
        expected: expected.to_string(),
        found: text.to_string(),
    };
    match slot(strategy, key).ok_or_else(unknown)? {
        Slot::Number(x) => {
            *x = text
                .parse()
                .ok()
                .filter(|x| (0.0..=1.0).contains(x))
                .ok_or_else(|| bad("a number from 0 to 1"))?;
        }
        Slot::Count(n) => {
            let most = most(key);
            *n = text
                .parse()
                .ok()
                .filter(|n| *n <= most)
                .ok_or_else(|| bad(&format!("a whole number up to {most}")))?;
        }
        Slot::Forced(f) => *f = by_name(text, &FORCED).map_err(|e: NameError| bad(&e.expected))?,
    }
    Ok(key)
}

/// The largest endgame search accepted (`endgame=`): its tables grow with it.
pub const MAX_ENDGAME: usize = 1_000_000;

/// The largest count accepted for the lookahead's pool (`candidates`, `interior`, `near`, `deep`).
pub const MAX_POOL: usize = 100_000;

/// The largest value of a count parameter: beyond it, a value would only allocate or search
/// without end.
fn most(key: Key) -> usize {
    if key == Key::Endgame {
        MAX_ENDGAME
    } else {
        MAX_POOL
    }
}

/// The names of `s`'s parameters, as a phrase: `"window, blend, ..."` or `"none"`.
fn keys_of(s: Strategy) -> String {
    let keys: Vec<&str> = parameters(s).map(|(k, _)| key_name(s, k)).collect();
    if keys.is_empty() {
        "none".to_string()
    } else {
        keys.join(", ")
    }
}

/// Checks that the lookahead's pool always keeps a cell to examine: at least one candidate, and
/// at least one off-frontier slot not reserved for cells next to the frontier.
fn check_pool(s: Strategy) -> Result<(), StrategyError> {
    let Strategy::Secondary { pool, .. } = s else {
        return Ok(());
    };
    let bad = |key: &str, expected: &str, found: usize| StrategyError::Value {
        key: key.to_string(),
        expected: expected.to_string(),
        found: found.to_string(),
    };
    if pool.candidates == 0 {
        return Err(bad("candidates", "at least 1", pool.candidates));
    }
    if pool.interior == 0 {
        return Err(bad("interior", "at least 1", pool.interior));
    }
    if pool.near >= pool.interior {
        return Err(bad("near", "below interior", pool.near));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_print_as_their_names() {
        for (s, name) in STRATEGIES {
            assert_eq!(Spelled(s).to_string(), name);
            assert_eq!(parse_strategy(name), Ok(s));
        }
    }

    #[test]
    fn parameters_print_in_a_fixed_order() {
        let s = parse_strategy("regions:forced=none,endgame=1000,next-risk=0.25").unwrap();
        assert_eq!(
            Spelled(s).to_string(),
            "regions:window=0.25,endgame=1000,forced=none"
        );
        let plain = parse_strategy("secondary:lone=0,endgame=1000,forced=none,influence=0,extra=0");
        assert!(
            matches!(plain, Ok(Strategy::Secondary { lone, endgame: 1000, forced: Forced::None, influence, pool, regions: false, .. })
            if lone == 0.0 && influence == 0.0 && pool.extra == 0)
        );
        let i = parse_strategy("regions:extra=2,influence=0.5,lone=0").unwrap();
        assert_eq!(
            Spelled(i).to_string(),
            "regions:lone=0,influence=0.5,extra=2"
        );
        assert!(
            matches!(i, Strategy::Secondary { influence, pool, lone, .. }
            if influence == 0.5 && pool.extra == 2 && lone == 0.0)
        );
        let p = parse_strategy("progress:window=0.3").unwrap();
        assert_eq!(p, Strategy::Progress { next_risk: 0.3 });
        assert_eq!(Spelled(p).to_string(), "progress:next-risk=0.3");
    }

    #[test]
    fn bad_text_says_what_was_expected() {
        let error = |s: &str| parse_strategy(s).unwrap_err().to_string();
        assert_eq!(
            error("best"),
            "expected lowest, analyzer, progress, endgame, survival, secondary or regions, \
             found \"best\""
        );
        assert_eq!(
            error("lowest:blend=0.1"),
            "expected a parameter of lowest (none), found \"blend\""
        );
        assert_eq!(
            error("survival:blend=0.1"),
            "expected a parameter of survival (window), found \"blend\""
        );
        assert_eq!(
            error("regions:blend"),
            "expected key=value, found \"blend\""
        );
        assert_eq!(error("regions:"), "expected key=value, found \"\"");
        assert_eq!(
            error("regions:blend=0.1,"),
            "expected key=value, found \"\""
        );
        assert_eq!(
            error("regions:blend=2"),
            "expected blend to be a number from 0 to 1, found \"2\""
        );
        assert_eq!(
            error("regions:window=NaN"),
            "expected window to be a number from 0 to 1, found \"NaN\""
        );
        assert_eq!(
            error("regions:deep=-1"),
            "expected deep to be a whole number up to 100000, found \"-1\""
        );
        assert_eq!(
            error("regions:endgame=18446744073709551615"),
            "expected endgame to be a whole number up to 1000000, found \"18446744073709551615\""
        );
        assert_eq!(
            error("regions:deep=100001"),
            "expected deep to be a whole number up to 100000, found \"100001\""
        );
        assert!(parse_strategy("regions:endgame=1000000,candidates=100000").is_ok());
        assert_eq!(
            error("regions:forced=all"),
            "expected forced to be none, dead, pseudo or sets, found \"all\""
        );
        assert_eq!(
            error("regions:near=4"),
            "expected near to be below interior, found \"4\""
        );
        assert_eq!(error("regions:deep=1,deep=2"), "expected deep at most once");
        assert_eq!(
            error("regions:window=0.1,next-risk=0.2"),
            "expected window at most once"
        );
    }

    #[test]
    fn forced_names_read_back() {
        for (forced, name) in FORCED {
            assert_eq!(name_of(&forced, &FORCED), name);
            assert_eq!(by_name(name, &FORCED), Ok(forced));
        }
    }
}

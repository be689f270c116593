//! The games in play: each under an unguessable id, bounded in number, and dropped once untouched
//! for the time to live.
//!
//! A game is behind its own lock, so that the store's lock is held only to find it: a long move
//! (the bot's, the computer's) blocks that game alone.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A game's id: 32 hex digits drawn from the process's random hash keys and a counter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameId(String);

impl GameId {
    /// The id as the client sends it back.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id a client sent, if it has the shape of one (else no game can have it).
    #[must_use]
    pub fn parse(text: &str) -> Option<GameId> {
        (text.len() == 32
            && text
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()))
        .then(|| GameId(text.to_string()))
    }

    /// A fresh id, different from every earlier one of this process.
    fn fresh() -> GameId {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        // Each `RandomState` has keys of its own, seeded from the operating system's randomness.
        let high = RandomState::new().hash_one(n);
        let low = RandomState::new().hash_one(n ^ high);
        GameId(format!("{high:016x}{low:016x}"))
    }
}

/// A game in the store, shared with the request that works on it.
pub type Shared<G> = Arc<Mutex<G>>;

struct Slot<G> {
    game: Shared<G>,
    touched: Instant,
}

/// The games of one kind.
///
/// Invariant: at most `limit` games; none untouched for longer than `ttl` survives an insert.
pub struct Store<G> {
    games: Mutex<HashMap<GameId, Slot<G>>>,
    limit: usize,
    ttl: Duration,
}

impl<G> Store<G> {
    /// An empty store of at most `limit` (at least 1) games, each kept `ttl` after its last use.
    #[must_use]
    pub fn new(limit: usize, ttl: Duration) -> Store<G> {
        Store {
            games: Mutex::new(HashMap::new()),
            limit: limit.max(1),
            ttl,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Slot<G>>> {
        self.games.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `game` under a fresh id, first dropping the games past their time to live and, if
    /// the store is still full, the one untouched for longest.
    pub fn insert(&self, game: G) -> (GameId, Shared<G>) {
        self.insert_at(game, Instant::now())
    }

    fn insert_at(&self, game: G, now: Instant) -> (GameId, Shared<G>) {
        let mut games = self.lock();
        games.retain(|_, slot| now.saturating_duration_since(slot.touched) <= self.ttl);
        while games.len() >= self.limit {
            let oldest = games
                .iter()
                .min_by_key(|(_, slot)| slot.touched)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => games.remove(&id),
                None => break,
            };
        }
        let id = GameId::fresh();
        let game = Arc::new(Mutex::new(game));
        games.insert(
            id.clone(),
            Slot {
                game: Arc::clone(&game),
                touched: now,
            },
        );
        (id, game)
    }

    /// The game under `id`, touched now; `None` if there is none or it is past its time to live
    /// (it is then dropped).
    pub fn get(&self, id: &GameId) -> Option<Shared<G>> {
        self.get_at(id, Instant::now())
    }

    fn get_at(&self, id: &GameId, now: Instant) -> Option<Shared<G>> {
        let mut games = self.lock();
        let slot = games.get_mut(id)?;
        if now.saturating_duration_since(slot.touched) > self.ttl {
            games.remove(id);
            return None;
        }
        slot.touched = now;
        Some(Arc::clone(&slot.game))
    }

    /// The number of games kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no game is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_fresh_and_parse_back() {
        let store = Store::new(10, Duration::from_secs(60));
        let (a, _) = store.insert(1);
        let (b, _) = store.insert(2);
        assert_ne!(a, b);
        assert_eq!(GameId::parse(a.as_str()), Some(a.clone()));
        assert_eq!(GameId::parse("xyz"), None);
        assert_eq!(GameId::parse(&a.as_str().to_uppercase()), None);
        assert_eq!(*store.get(&b).unwrap().lock().unwrap(), 2);
    }

    #[test]
    fn a_full_store_drops_the_game_untouched_longest() {
        let store = Store::new(2, Duration::from_secs(3600));
        let t0 = Instant::now();
        let (a, _) = store.insert_at('a', t0);
        let (b, _) = store.insert_at('b', t0 + Duration::from_secs(1));
        // Touching `a` makes `b` the oldest.
        assert!(store.get_at(&a, t0 + Duration::from_secs(2)).is_some());
        let (c, _) = store.insert_at('c', t0 + Duration::from_secs(3));
        assert_eq!(store.len(), 2);
        assert!(store.get_at(&b, t0 + Duration::from_secs(4)).is_none());
        assert!(store.get_at(&a, t0 + Duration::from_secs(4)).is_some());
        assert!(store.get_at(&c, t0 + Duration::from_secs(4)).is_some());
    }

    #[test]
    fn a_game_untouched_past_its_time_is_dropped() {
        let store = Store::new(10, Duration::from_secs(60));
        let t0 = Instant::now();
        let (a, _) = store.insert_at(1, t0);
        let (b, _) = store.insert_at(2, t0);
        assert!(store.get_at(&a, t0 + Duration::from_secs(60)).is_some());
        assert!(store.get_at(&b, t0 + Duration::from_secs(61)).is_none());
        // An insert sweeps the others out too.
        store.insert_at(3, t0 + Duration::from_secs(200));
        assert_eq!(store.len(), 1);
    }
}

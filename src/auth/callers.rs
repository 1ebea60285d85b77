//! The per-call check of a signed-in caller (user active, session live, roles, the
//! coordinator block) kept between calls, so a read answers without that query.
//!
//! Only where this process is the only writer of the database (SQLite: one server owns the
//! file; the console's `user` commands add users and links, never change a live session).
//! On PostgreSQL several instances share the database, so every call asks it (the cache is
//! off there). Decision: docs/decisions-identity.md.
//!
//! An entry is good only while no write has run since it was loaded and none is running:
//! every request that may write (any method but GET/HEAD/OPTIONS, and the hourly purge)
//! holds a [`Writing`] token from before its handler runs until after its transaction has
//! ended, and returning it moves the generation on; and only on the UTC day it was loaded
//! (what it read of time away is near that day). A deactivation, a sign-out or a role
//! change therefore empties the cache before its own answer leaves, and the next call of
//! the user is checked against the database again. Writes are rare next to reads in an
//! office, so a cleared cache refills at once.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst},
        Arc, RwLock,
    },
};

use chrono::NaiveDate;

use super::principal::CurrentUser;

/// Callers by session (a session is one user's: its entry serves only that user's token).
type BySession = HashMap<Box<str>, Arc<CurrentUser>>;

/// More sessions than an office has at once: past it the cache starts over rather than grow.
const MAX_ENTRIES: usize = 10_000;

#[derive(Debug, Default)]
pub struct CallerCache {
    enabled: bool,
    writes_running: AtomicUsize,
    generation: AtomicU64,
    /// The generation and the day every entry was loaded at, and the entries.
    entries: RwLock<(Ticket, BySession)>,
}

/// A write in progress; dropping it ends the write and invalidates every entry.
#[must_use]
pub struct Writing<'a>(&'a CallerCache);

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        // The generation first: a reader that then sees no write running also sees it moved.
        self.0.generation.fetch_add(1, SeqCst);
        self.0.writes_running.fetch_sub(1, SeqCst);
    }
}

/// The state a caller check started from (the write generation, the UTC day it asks about):
/// it may be kept only if nothing wrote since, and serves that day only.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64, NaiveDate);

impl CallerCache {
    pub fn new(enabled: bool) -> Self {
        Self { enabled, ..Self::default() }
    }

    pub fn writing(&self) -> Writing<'_> {
        self.writes_running.fetch_add(1, SeqCst);
        Writing(self)
    }

    /// The current generation when no write is running (and the cache is on), for a check
    /// of `today`.
    pub fn ticket(&self, today: NaiveDate) -> Option<Ticket> {
        let generation = self.generation.load(SeqCst);
        (self.enabled && self.writes_running.load(SeqCst) == 0).then_some(Ticket(generation, today))
    }

    /// Whether nothing has written since `ticket` was taken (checked in that order, the
    /// reverse of [`Writing::drop`]).
    fn still(&self, ticket: Ticket) -> bool {
        self.writes_running.load(SeqCst) == 0 && self.generation.load(SeqCst) == ticket.0
    }

    pub fn get(&self, user_id: i32, session: &str, today: NaiveDate) -> Option<Arc<CurrentUser>> {
        let ticket = self.ticket(today)?;
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        if entries.0 != ticket {
            return None;
        }
        entries.1.get(session).filter(|me| me.id() == user_id).cloned()
    }

    /// Keeps what the database said for a check that started at `ticket`, unless a write
    /// began or ended in between (the answer may predate it).
    pub fn put(&self, ticket: Option<Ticket>, session: &str, me: &CurrentUser) {
        let Some(ticket) = ticket else { return };
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if !self.still(ticket) {
            return;
        }
        if entries.0 != ticket || entries.1.len() >= MAX_ENTRIES {
            *entries = (ticket, HashMap::new());
        }
        entries.1.insert(Box::from(session), Arc::new(me.clone()));
    }
}

/// One more read kept under the callers' rule: good while nothing has written since it was
/// read, on the day it was read, and never while the cache is off.
pub struct Kept<V>(RwLock<Option<(Ticket, Arc<V>)>>);

impl<V> Default for Kept<V> {
    fn default() -> Self {
        Self(RwLock::new(None))
    }
}

impl<V> Kept<V> {
    pub fn get(&self, callers: &CallerCache, today: NaiveDate) -> Option<Arc<V>> {
        let ticket = callers.ticket(today)?;
        let kept = self.0.read().unwrap_or_else(|e| e.into_inner());
        kept.as_ref().filter(|(t, _)| *t == ticket).map(|(_, v)| v.clone())
    }

    /// Keeps what a read that started at `ticket` found, unless a write began or ended since.
    pub fn put(&self, callers: &CallerCache, ticket: Option<Ticket>, value: Arc<V>) {
        let Some(ticket) = ticket else { return };
        let mut kept = self.0.write().unwrap_or_else(|e| e.into_inner());
        if callers.still(ticket) {
            *kept = Some((ticket, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::{auth::Permission, entities::user};

    fn someone(id: i32) -> CurrentUser {
        let now = chrono::Utc::now();
        let user = user::Model {
            id,
            email: format!("u{id}@example.org"),
            first_name: "A".into(),
            last_name: "B".into(),
            password_hash: None,
            is_active: true,
            participant_id: None,
            last_login_at: None,
            created_at: now,
            updated_at: now,
            notification_mode: Default::default(),
            digest_sent_on: None,
        };
        CurrentUser {
            user,
            roles: vec!["Administrator".into()],
            permissions: BTreeSet::from([Permission::FundRead]),
            ip: None,
            may_stand_in: false,
        }
    }

    fn day(n: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2027, 3, n).unwrap()
    }

    #[test]
    fn an_entry_serves_until_a_write_ends() {
        let cache = CallerCache::new(true);
        let me = someone(1);
        cache.put(cache.ticket(day(1)), "s1", &me);
        assert_eq!(cache.get(1, "s1", day(1)).map(|m| m.id()), Some(1));
        assert!(cache.get(1, "s2", day(1)).is_none(), "another session is checked on its own");
        assert!(cache.get(2, "s1", day(1)).is_none(), "a session serves only its own user");
        let w = cache.writing();
        assert!(cache.get(1, "s1", day(1)).is_none(), "while a write runs the database answers");
        drop(w);
        assert!(cache.get(1, "s1", day(1)).is_none(), "an ended write invalidates every entry");
    }

    #[test]
    fn an_entry_serves_only_the_day_it_was_checked_for() {
        let cache = CallerCache::new(true);
        cache.put(cache.ticket(day(1)), "s1", &someone(1));
        assert!(cache.get(1, "s1", day(1)).is_some());
        assert!(cache.get(1, "s1", day(2)).is_none(), "the next day asks the database again");
        cache.put(cache.ticket(day(2)), "s2", &someone(2));
        assert!(cache.get(1, "s1", day(1)).is_none(), "a new day's entry starts over");
        assert!(cache.get(2, "s2", day(2)).is_some());
    }

    #[test]
    fn a_check_that_overlapped_a_write_is_not_kept() {
        let cache = CallerCache::new(true);
        let me = someone(1);
        // Started, then a write ran to its end before the answer came back.
        let ticket = cache.ticket(day(1));
        drop(cache.writing());
        cache.put(ticket, "s1", &me);
        assert!(cache.get(1, "s1", day(1)).is_none());
        // Started, then a write began and is still running.
        let ticket = cache.ticket(day(1));
        let w = cache.writing();
        cache.put(ticket, "s1", &me);
        drop(w);
        assert!(cache.get(1, "s1", day(1)).is_none());
        // Started while a write ran: nothing to keep.
        let w = cache.writing();
        assert!(cache.ticket(day(1)).is_none());
        drop(w);
    }

    #[test]
    fn a_kept_read_follows_the_same_rule() {
        let cache = CallerCache::new(true);
        let kept = Kept::<u32>::default();
        kept.put(&cache, cache.ticket(day(1)), Arc::new(7));
        assert_eq!(kept.get(&cache, day(1)).as_deref(), Some(&7));
        assert!(kept.get(&cache, day(2)).is_none(), "another day");
        let ticket = cache.ticket(day(1));
        drop(cache.writing());
        assert!(kept.get(&cache, day(1)).is_none(), "a write ended since");
        kept.put(&cache, ticket, Arc::new(8));
        assert!(kept.get(&cache, day(1)).is_none(), "read across a write: not kept");
        let off = CallerCache::new(false);
        kept.put(&off, off.ticket(day(1)), Arc::new(9));
        assert!(kept.get(&off, day(1)).is_none());
    }

    #[test]
    fn off_keeps_nothing() {
        let cache = CallerCache::new(false);
        cache.put(cache.ticket(day(1)), "s1", &someone(1));
        assert!(cache.get(1, "s1", day(1)).is_none());
    }
}

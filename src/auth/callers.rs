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
//! ended, and returning it moves the generation on. A deactivation, a sign-out or a role
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
    /// The generation every entry was loaded at, and the entries.
    entries: RwLock<(u64, BySession)>,
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

/// The state a caller check started from: it may be kept only if nothing wrote since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64);

impl CallerCache {
    pub fn new(enabled: bool) -> Self {
        Self { enabled, ..Self::default() }
    }

    pub fn writing(&self) -> Writing<'_> {
        self.writes_running.fetch_add(1, SeqCst);
        Writing(self)
    }

    /// The current generation when no write is running (and the cache is on).
    pub fn ticket(&self) -> Option<Ticket> {
        let generation = self.generation.load(SeqCst);
        (self.enabled && self.writes_running.load(SeqCst) == 0).then_some(Ticket(generation))
    }

    /// Whether nothing has written since `ticket` was taken (checked in that order, the
    /// reverse of [`Writing::drop`]).
    fn still(&self, ticket: Ticket) -> bool {
        self.writes_running.load(SeqCst) == 0 && self.generation.load(SeqCst) == ticket.0
    }

    pub fn get(&self, user_id: i32, session: &str) -> Option<Arc<CurrentUser>> {
        let ticket = self.ticket()?;
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        if entries.0 != ticket.0 {
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
        if entries.0 != ticket.0 || entries.1.len() >= MAX_ENTRIES {
            *entries = (ticket.0, HashMap::new());
        }
        entries.1.insert(Box::from(session), Arc::new(me.clone()));
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
        }
    }

    #[test]
    fn an_entry_serves_until_a_write_ends() {
        let cache = CallerCache::new(true);
        let me = someone(1);
        cache.put(cache.ticket(), "s1", &me);
        assert_eq!(cache.get(1, "s1").map(|m| m.id()), Some(1));
        assert!(cache.get(1, "s2").is_none(), "another session is checked on its own");
        assert!(cache.get(2, "s1").is_none(), "a session serves only its own user");
        let w = cache.writing();
        assert!(cache.get(1, "s1").is_none(), "while a write runs the database answers");
        drop(w);
        assert!(cache.get(1, "s1").is_none(), "an ended write invalidates every entry");
    }

    #[test]
    fn a_check_that_overlapped_a_write_is_not_kept() {
        let cache = CallerCache::new(true);
        let me = someone(1);
        // Started, then a write ran to its end before the answer came back.
        let ticket = cache.ticket();
        drop(cache.writing());
        cache.put(ticket, "s1", &me);
        assert!(cache.get(1, "s1").is_none());
        // Started, then a write began and is still running.
        let ticket = cache.ticket();
        let w = cache.writing();
        cache.put(ticket, "s1", &me);
        drop(w);
        assert!(cache.get(1, "s1").is_none());
        // Started while a write ran: nothing to keep.
        let w = cache.writing();
        assert!(cache.ticket().is_none());
        drop(w);
    }

    #[test]
    fn off_keeps_nothing() {
        let cache = CallerCache::new(false);
        cache.put(cache.ticket(), "s1", &someone(1));
        assert!(cache.get(1, "s1").is_none());
    }
}

//! Roles and permissions of the users who call, kept between calls. An entry is used only
//! while the database's auth version (migration 000080, moved by triggers on every change
//! of user roles, role permissions and roles) still equals the one it was loaded at; every
//! call reads that version in its one per-call query, so a change made by any instance
//! counts from the next call. Loading a caller's grants is a join of role × permission
//! rows (sixty for an Administrator); keeping them makes a signed-in call one small query.

use std::{
    collections::{BTreeSet, HashMap},
    sync::{Arc, RwLock},
};

use super::permissions::Permission;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grants {
    /// In the user's order (the first decides administrator status).
    pub roles: Vec<String>,
    pub permissions: BTreeSet<Permission>,
}

/// More users than an office has: past it, the cache starts over rather than grow.
const MAX_ENTRIES: usize = 10_000;

#[derive(Debug, Default)]
pub struct GrantsCache {
    entries: RwLock<HashMap<i32, (i64, Arc<Grants>)>>,
}

impl GrantsCache {
    /// The grants loaded for `user_id` at exactly `version`.
    pub fn get(&self, user_id: i32, version: i64) -> Option<Arc<Grants>> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        entries.get(&user_id).filter(|(v, _)| *v == version).map(|(_, g)| g.clone())
    }

    pub fn put(&self, user_id: i32, version: i64, grants: Arc<Grants>) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES && !entries.contains_key(&user_id) {
            entries.clear();
        }
        // A slower call that read an older version must not replace a newer entry.
        if entries.get(&user_id).is_none_or(|(v, _)| *v <= version) {
            entries.insert(user_id, (version, grants));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants(role: &str) -> Arc<Grants> {
        Arc::new(Grants {
            roles: vec![role.into()],
            permissions: BTreeSet::from([Permission::FundRead]),
        })
    }

    #[test]
    fn an_entry_serves_only_its_version() {
        let cache = GrantsCache::default();
        assert!(cache.get(1, 1).is_none());
        cache.put(1, 1, grants("Coordinator"));
        assert_eq!(cache.get(1, 1).unwrap().roles, ["Coordinator"]);
        assert!(cache.get(1, 2).is_none(), "a moved version reloads");
        assert!(cache.get(2, 1).is_none());
    }

    #[test]
    fn an_older_load_never_replaces_a_newer_one() {
        let cache = GrantsCache::default();
        cache.put(1, 5, grants("Auditor"));
        cache.put(1, 4, grants("Administrator"));
        assert_eq!(cache.get(1, 5).unwrap().roles, ["Auditor"]);
        assert!(cache.get(1, 4).is_none());
        cache.put(1, 6, grants("Coordinator"));
        assert_eq!(cache.get(1, 6).unwrap().roles, ["Coordinator"]);
    }
}

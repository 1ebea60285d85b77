//! The audit trail: who changed what, when, from where, as an append-only, hash-chained
//! table (entities::audit_log). Every command appends its entries with [`record`] inside
//! its own write transaction, so an entry exists exactly when its change was committed.
//!
//! The chain cannot fork: every write transaction holds the database's one write lock
//! (`crate::db::write`: BEGIN IMMEDIATE on SQLite, an advisory lock on PostgreSQL), and
//! each entry's id is the previous entry's id plus one, its primary key, so a writer that
//! somehow appended after the same entry as another would fail on that key instead.

pub mod chain;
pub mod fields;

use chrono::{DateTime, SubsecRound, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, EntityTrait, QueryOrder, QuerySelect, Set};
use serde_json::Value;

use crate::{
    auth::CurrentUser,
    entities::{audit_log, user},
    error::ApiError,
};

/// Who acted: a signed-in user, someone not signed in (a failed sign-in: only the address),
/// or the system itself (nothing at all).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Actor {
    pub id: Option<i32>,
    pub email: Option<String>,
    pub full_name: Option<String>,
    pub ip: Option<String>,
}

impl Actor {
    pub fn user(u: &user::Model, ip: Option<String>) -> Self {
        Self {
            id: Some(u.id),
            email: Some(u.email.clone()),
            full_name: Some(format!("{} {}", u.first_name, u.last_name).trim().to_owned()),
            ip,
        }
    }

    /// Someone who is not signed in, calling from `ip`.
    pub fn anonymous(ip: Option<String>) -> Self {
        Self { ip, ..Self::default() }
    }

    /// The application itself (start-up, scheduled work).
    pub fn system() -> Self {
        Self::default()
    }
}

impl From<&CurrentUser> for Actor {
    fn from(me: &CurrentUser) -> Self {
        Self::user(&me.user, me.ip.clone())
    }
}

/// One change: `action` on the record `entity_type`/`entity_id`, with the fields it changed
/// as they were (`before`) and are (`after`). Secrets are dropped when it is recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub entity_type: String,
    pub entity_id: Option<i32>,
    pub action: String,
    pub before: Value,
    pub after: Value,
}

impl Change {
    pub fn new(entity_type: &str, entity_id: impl Into<Option<i32>>, action: &str) -> Self {
        Self {
            entity_type: entity_type.to_owned(),
            entity_id: entity_id.into(),
            action: action.to_owned(),
            before: Value::Null,
            after: Value::Null,
        }
    }

    /// Keeps only the fields that differ between the two objects.
    pub fn diff(mut self, before: &Value, after: &Value) -> Self {
        (self.before, self.after) = fields::changed(before, after);
        self
    }

    pub fn before(mut self, before: Value) -> Self {
        self.before = before;
        self
    }

    pub fn after(mut self, after: Value) -> Self {
        self.after = after;
        self
    }
}

/// Appends one entry by `actor` in `txn`, a transaction from `crate::db::write`.
pub async fn record(
    txn: &impl ConnectionTrait,
    actor: &Actor,
    change: Change,
) -> Result<(), ApiError> {
    record_many(txn, actor, vec![change], crate::clock::now()).await
}

/// Appends `changes` by `actor` at `at`, in order, in `txn` (a transaction from
/// `crate::db::write`), in a few statements.
pub async fn record_many(
    txn: &impl ConnectionTrait,
    actor: &Actor,
    changes: Vec<Change>,
    at: DateTime<Utc>,
) -> Result<(), ApiError> {
    if changes.is_empty() {
        return Ok(());
    }
    let at = at.trunc_subsecs(6);
    let last = audit_log::Entity::find()
        .select_only()
        .column(audit_log::Column::Id)
        .column(audit_log::Column::Hash)
        .order_by_desc(audit_log::Column::Id)
        .into_tuple::<(i32, String)>()
        .one(txn)
        .await?;
    let (mut id, mut previous) = last.unwrap_or_default();
    let mut rows = Vec::with_capacity(changes.len());
    for change in changes {
        id += 1;
        let text = |v: Value| match fields::without_secrets(v) {
            Value::Null => None,
            Value::Object(map) if map.is_empty() => None,
            v => Some(chain::canonical(&v)),
        };
        let mut row = audit_log::Model {
            id,
            at,
            actor_id: actor.id,
            actor_email: actor.email.clone(),
            actor_name: actor.full_name.clone(),
            ip: actor.ip.clone(),
            entity_type: change.entity_type,
            entity_id: change.entity_id,
            action: change.action,
            before: text(change.before),
            after: text(change.after),
            hash: String::new(),
        };
        row.hash = chain::hash(&previous, &row)
            .ok_or_else(|| ApiError::Internal("an audit entry is not JSON".into()))?;
        previous = row.hash.clone();
        rows.push(audit_log::ActiveModel {
            id: Set(row.id),
            at: Set(row.at),
            actor_id: Set(row.actor_id),
            actor_email: Set(row.actor_email),
            actor_name: Set(row.actor_name),
            ip: Set(row.ip),
            entity_type: Set(row.entity_type),
            entity_id: Set(row.entity_id),
            action: Set(row.action),
            before: Set(row.before),
            after: Set(row.after),
            hash: Set(row.hash),
        });
    }
    // 12 values a row: 40 rows stay far below every backend's parameter limit.
    for chunk in rows.chunks(40) {
        audit_log::Entity::insert_many(chunk.to_vec()).exec(txn).await?;
    }
    Ok(())
}

/// An event that changes nothing else (a refused sign-in): its entry in a write transaction
/// of its own.
pub async fn record_alone(
    db: &DatabaseConnection,
    actor: &Actor,
    change: Change,
) -> Result<(), ApiError> {
    let txn = crate::db::write(db).await?;
    record(&txn, actor, change).await?;
    txn.commit().await?;
    Ok(())
}

/// The whole trail checked against its chain, in pages (memory stays flat however long it is).
pub async fn verify(db: &impl ConnectionTrait) -> Result<chain::Verifier, ApiError> {
    use sea_orm::{ColumnTrait, QueryFilter};
    const PAGE: u64 = 2_000;
    let mut verifier = chain::Verifier::default();
    let mut after = 0;
    loop {
        let page = audit_log::Entity::find()
            .filter(audit_log::Column::Id.gt(after))
            .order_by_asc(audit_log::Column::Id)
            .limit(PAGE)
            .all(db)
            .await?;
        page.iter().for_each(|e| verifier.check(e));
        match page.last() {
            Some(last) if page.len() as u64 == PAGE => after = last.id,
            _ => return Ok(verifier),
        }
    }
}

//! The activity log: every state change writes one entry, in the same transaction. Its audit
//! entry is written by the same call (`record_many`), so the readable history of a record and
//! the audit trail can never disagree about what happened.

use sea_orm::{ConnectionTrait, EntityTrait, Set};
use serde_json::{json, Value};

use crate::{
    audit::{self, Actor},
    entities::activity_log,
    error::ApiError,
};

#[derive(Debug, Default)]
pub struct Entry<'a> {
    pub entity_type: &'a str,
    pub entity_id: i32,
    pub action: &'a str,
    pub from_status: Option<String>,
    pub to_status: Option<String>,
    pub comment: Option<String>,
    pub data: Option<Value>,
    /// The changed fields (before, after) for the audit trail. Without them, the audit
    /// entry holds the status before, and the status after with the comment and the data.
    pub change: Option<(Value, Value)>,
}

impl Entry<'_> {
    fn audit_change(&self) -> audit::Change {
        let change = audit::Change::new(self.entity_type, self.entity_id, self.action);
        if let Some((before, after)) = &self.change {
            return change.before(before.clone()).after(after.clone());
        }
        let before = self.from_status.as_ref().map_or(Value::Null, |s| json!({"status": s}));
        let mut after = match &self.data {
            Some(Value::Object(map)) => map.clone(),
            Some(Value::Null) | None => serde_json::Map::new(),
            Some(other) => serde_json::Map::from_iter([("data".to_owned(), other.clone())]),
        };
        if let Some(to) = &self.to_status {
            after.insert("status".into(), json!(to));
        }
        if let Some(comment) = &self.comment {
            after.insert("comment".into(), json!(comment));
        }
        change.before(before).after(Value::Object(after))
    }
}

pub async fn record(
    db: &impl ConnectionTrait,
    actor: &Actor,
    entry: Entry<'_>,
) -> Result<(), ApiError> {
    record_many(db, actor, vec![entry], crate::clock::now()).await
}

/// An entry without a status change: `action` on one record by `actor`, with its data.
pub async fn note(
    db: &impl ConnectionTrait,
    entity_type: &str,
    entity_id: i32,
    action: &str,
    actor: &Actor,
    data: Value,
) -> Result<(), ApiError> {
    let entry = Entry { entity_type, entity_id, action, data: Some(data), ..Default::default() };
    record(db, actor, entry).await
}

/// An entry whose audit side holds exactly the fields that differ between `before` and
/// `after`: the record's fields as objects, `null` on the side where it does not exist (a
/// creation keeps all of `after`, a deletion all of `before`). The activity side keeps `data`.
pub async fn note_change(
    db: &impl ConnectionTrait,
    (entity_type, entity_id): (&str, i32),
    action: &str,
    actor: &Actor,
    (before, after): (&Value, &Value),
    data: Value,
) -> Result<(), ApiError> {
    let entry = Entry {
        entity_type,
        entity_id,
        action,
        data: Some(data),
        change: Some(audit::fields::changed(before, after)),
        ..Default::default()
    };
    record(db, actor, entry).await
}

/// Many entries by `actor` at `at` in a few statements (a report that moves thousands of
/// requests), with their audit entries.
pub async fn record_many(
    db: &impl ConnectionTrait,
    actor: &Actor,
    entries: Vec<Entry<'_>>,
    at: chrono::DateTime<chrono::Utc>,
) -> Result<(), ApiError> {
    let changes: Vec<audit::Change> = entries.iter().map(Entry::audit_change).collect();
    let models: Vec<activity_log::ActiveModel> = entries
        .into_iter()
        .map(|entry| activity_log::ActiveModel {
            entity_type: Set(entry.entity_type.to_owned()),
            entity_id: Set(entry.entity_id),
            action: Set(entry.action.to_owned()),
            actor_user_id: Set(actor.id),
            from_status: Set(entry.from_status),
            to_status: Set(entry.to_status),
            comment: Set(entry.comment),
            data: Set(entry.data.map(|d| d.to_string())),
            created_at: Set(at),
            ..Default::default()
        })
        .collect();
    // 9 values a row: 50 rows stay far below every backend's parameter limit.
    for chunk in models.chunks(50) {
        activity_log::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    audit::record_many(db, actor, changes, at).await
}

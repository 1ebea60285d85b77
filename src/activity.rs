//! The activity log: every state change writes one entry, in the same transaction.

use sea_orm::{ConnectionTrait, EntityTrait, Set};

use crate::{entities::activity_log, error::ApiError};

#[derive(Debug, Default)]
pub struct Entry<'a> {
    pub entity_type: &'a str,
    pub entity_id: i32,
    pub action: &'a str,
    pub actor_user_id: Option<i32>,
    pub from_status: Option<String>,
    pub to_status: Option<String>,
    pub comment: Option<String>,
    pub data: Option<serde_json::Value>,
}

pub async fn record(db: &impl ConnectionTrait, entry: Entry<'_>) -> Result<(), ApiError> {
    record_many(db, vec![entry], chrono::Utc::now()).await
}

/// An entry without a status change: `action` on one record by `actor`, with its data.
pub async fn note(
    db: &impl ConnectionTrait,
    entity_type: &str,
    entity_id: i32,
    action: &str,
    actor: i32,
    data: serde_json::Value,
) -> Result<(), ApiError> {
    record(
        db,
        Entry {
            entity_type,
            entity_id,
            action,
            actor_user_id: Some(actor),
            data: Some(data),
            ..Default::default()
        },
    )
    .await
}

/// Many entries at `at` in a few statements (a report that moves thousands of requests).
pub async fn record_many(
    db: &impl ConnectionTrait,
    entries: Vec<Entry<'_>>,
    at: chrono::DateTime<chrono::Utc>,
) -> Result<(), ApiError> {
    let models: Vec<activity_log::ActiveModel> = entries
        .into_iter()
        .map(|entry| activity_log::ActiveModel {
            entity_type: Set(entry.entity_type.to_owned()),
            entity_id: Set(entry.entity_id),
            action: Set(entry.action.to_owned()),
            actor_user_id: Set(entry.actor_user_id),
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
    Ok(())
}

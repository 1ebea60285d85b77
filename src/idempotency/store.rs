//! The kept answers, one row per (user, key).

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::Expr, ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, Set,
    TryInsertResult,
};

use super::KEPT;
use crate::entities::idempotency_key as ik;

/// What a key's claim found.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// The key is this request's now: run it, then `keep` or `release`.
    Claimed,
    /// The first request with this key and body was answered: this answer.
    Replay(Kept),
    /// The first request with this key is still running.
    InFlight,
    /// The key was used with another request.
    Mismatch,
}

/// A kept answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Claims `key` for `user` and the request hashed `hash`: insert first, so of requests at the
/// same moment exactly one inserts; the others read its row. A row older than [`KEPT`] no
/// longer counts (the cleanup pass may not have run yet).
pub async fn claim(
    db: &DatabaseConnection,
    user: i32,
    key: &str,
    hash: &str,
    now: DateTime<Utc>,
) -> Result<Claim, DbErr> {
    ik::Entity::delete_many()
        .filter(ik::Column::UserId.eq(user))
        .filter(ik::Column::Key.eq(key))
        .filter(ik::Column::CreatedAt.lt(now - KEPT))
        .exec(db)
        .await?;
    let row = ik::ActiveModel {
        user_id: Set(user),
        key: Set(key.to_owned()),
        request_hash: Set(hash.to_owned()),
        response_status: Set(None),
        response_headers: Set(None),
        response_body: Set(None),
        created_at: Set(now),
    };
    let inserted =
        ik::Entity::insert(row).on_conflict_do_nothing().exec_without_returning(db).await?;
    if matches!(inserted, TryInsertResult::Inserted(n) if n > 0) {
        return Ok(Claim::Claimed);
    }
    let Some(found) = ik::Entity::find_by_id((user, key.to_owned())).one(db).await? else {
        // Released between the two statements: the first request failed; this one may retry.
        return Ok(Claim::InFlight);
    };
    Ok(verdict(&found, hash))
}

/// What a found row means for a request hashed `hash`.
fn verdict(found: &ik::Model, hash: &str) -> Claim {
    if found.request_hash != hash {
        return Claim::Mismatch;
    }
    match found.response_status {
        None => Claim::InFlight,
        Some(status) => Claim::Replay(Kept {
            status: u16::try_from(status).unwrap_or(500),
            headers: found
                .response_headers
                .as_deref()
                .and_then(|h| serde_json::from_str(h).ok())
                .unwrap_or_default(),
            body: found.response_body.clone().unwrap_or_default(),
        }),
    }
}

/// Keeps the answer of the request that claimed `key`.
pub async fn keep(db: &DatabaseConnection, user: i32, key: &str, kept: &Kept) -> Result<(), DbErr> {
    let headers = serde_json::to_string(&kept.headers).unwrap_or_else(|_| "[]".into());
    ik::Entity::update_many()
        .col_expr(ik::Column::ResponseStatus, Expr::value(i32::from(kept.status)))
        .col_expr(ik::Column::ResponseHeaders, Expr::value(headers))
        .col_expr(ik::Column::ResponseBody, Expr::value(kept.body.clone()))
        .filter(ik::Column::UserId.eq(user))
        .filter(ik::Column::Key.eq(key))
        .exec(db)
        .await?;
    Ok(())
}

/// Gives the key up (the request failed without an effect): a retry runs afresh.
pub async fn release(db: &DatabaseConnection, user: i32, key: &str) -> Result<(), DbErr> {
    ik::Entity::delete_many()
        .filter(ik::Column::UserId.eq(user))
        .filter(ik::Column::Key.eq(key))
        .filter(ik::Column::ResponseStatus.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// The cleanup pass: drops every answer kept longer than [`KEPT`]; how many.
pub async fn purge_expired(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<u64, DbErr> {
    Ok(ik::Entity::delete_many()
        .filter(ik::Column::CreatedAt.lt(now - KEPT))
        .exec(db)
        .await?
        .rows_affected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(hash: &str, status: Option<i32>) -> ik::Model {
        ik::Model {
            user_id: 1,
            key: "k".into(),
            request_hash: hash.into(),
            response_status: status,
            response_headers: Some(r#"[["content-type","application/json"]]"#.into()),
            response_body: Some(b"{}".to_vec()),
            created_at: Utc::now(),
        }
    }

    #[test]
    fn a_found_key_replays_waits_or_refuses() {
        assert_eq!(verdict(&row("h", None), "h"), Claim::InFlight);
        assert_eq!(verdict(&row("h", None), "other"), Claim::Mismatch);
        assert_eq!(verdict(&row("h", Some(201)), "other"), Claim::Mismatch);
        assert_eq!(
            verdict(&row("h", Some(201)), "h"),
            Claim::Replay(Kept {
                status: 201,
                headers: vec![("content-type".into(), "application/json".into())],
                body: b"{}".to_vec(),
            })
        );
    }
}

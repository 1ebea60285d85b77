//! The rows of passkeys: each user's credentials, and the ceremonies between a start and
//! its finish (taken once: a delete that removes nothing lost a race). Callers pass a
//! connection or a transaction.

use chrono::{DateTime, Utc};
use sea_orm::{
    prelude::Expr, ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, Set,
};

use super::passkey_rules::{CEREMONY_TTL, REGISTER, SIGN_IN};
use crate::{
    entities::{passkey, passkey_ceremony},
    error::ApiResult,
};

pub async fn passkeys_of(
    db: &impl ConnectionTrait,
    user_id: i32,
) -> ApiResult<Vec<passkey::Model>> {
    Ok(passkey::Entity::find()
        .filter(passkey::Column::UserId.eq(user_id))
        .order_by_asc(passkey::Column::CreatedAt)
        .order_by_asc(passkey::Column::Id)
        .all(db)
        .await?)
}

pub async fn count(db: &impl ConnectionTrait, user_id: i32) -> ApiResult<u64> {
    Ok(passkey::Entity::find().filter(passkey::Column::UserId.eq(user_id)).count(db).await?)
}

pub async fn credential_taken(db: &impl ConnectionTrait, credential_id: &str) -> ApiResult<bool> {
    Ok(passkey::Entity::find()
        .filter(passkey::Column::CredentialId.eq(credential_id))
        .count(db)
        .await?
        > 0)
}

pub async fn insert(
    db: &impl ConnectionTrait,
    user_id: i32,
    credential_id: &str,
    name: &str,
    credential: &str,
    now: DateTime<Utc>,
) -> ApiResult<passkey::Model> {
    Ok(passkey::ActiveModel {
        user_id: Set(user_id),
        credential_id: Set(credential_id.to_owned()),
        name: Set(name.to_owned()),
        credential: Set(credential.to_owned()),
        created_at: Set(now),
        last_used_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// The credential after a sign-in (its counter moved) and when it was used.
pub async fn record_use(
    db: &impl ConnectionTrait,
    id: i32,
    credential: Option<&str>,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let mut update = passkey::Entity::update_many()
        .col_expr(passkey::Column::LastUsedAt, Expr::value(now))
        .filter(passkey::Column::Id.eq(id));
    if let Some(credential) = credential {
        update = update.col_expr(passkey::Column::Credential, Expr::value(credential));
    }
    update.exec(db).await?;
    Ok(())
}

pub async fn rename(
    db: &impl ConnectionTrait,
    user_id: i32,
    id: i32,
    name: &str,
) -> ApiResult<bool> {
    let result = passkey::Entity::update_many()
        .col_expr(passkey::Column::Name, Expr::value(name))
        .filter(passkey::Column::Id.eq(id))
        .filter(passkey::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

/// Removes passkey `id` of `user_id`; its name when there was one to remove.
pub async fn delete(db: &impl ConnectionTrait, user_id: i32, id: i32) -> ApiResult<Option<String>> {
    let Some(found) =
        passkey::Entity::find_by_id(id).filter(passkey::Column::UserId.eq(user_id)).one(db).await?
    else {
        return Ok(None);
    };
    let result = passkey::Entity::delete_by_id(found.id).exec(db).await?;
    Ok((result.rows_affected == 1).then_some(found.name))
}

pub async fn delete_all(db: &impl ConnectionTrait, user_id: i32) -> ApiResult<u64> {
    passkey_ceremony::Entity::delete_many()
        .filter(passkey_ceremony::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(passkey::Entity::delete_many()
        .filter(passkey::Column::UserId.eq(user_id))
        .exec(db)
        .await?
        .rows_affected)
}

// ---- ceremonies ----

/// Opens a ceremony in place of the earlier open one of the same user (registration) or
/// mfa challenge (sign-in): only the newest start may be finished.
pub async fn open_ceremony(
    db: &impl ConnectionTrait,
    user_id: i32,
    challenge_id: Option<i32>,
    state: &str,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let kind = if challenge_id.is_some() { SIGN_IN } else { REGISTER };
    let mut earlier = passkey_ceremony::Entity::delete_many()
        .filter(passkey_ceremony::Column::UserId.eq(user_id))
        .filter(passkey_ceremony::Column::Kind.eq(kind));
    if let Some(c) = challenge_id {
        earlier = earlier.filter(passkey_ceremony::Column::ChallengeId.eq(c));
    }
    earlier.exec(db).await?;
    passkey_ceremony::ActiveModel {
        user_id: Set(user_id),
        kind: Set(kind.to_owned()),
        challenge_id: Set(challenge_id),
        state: Set(state.to_owned()),
        expires_at: Set(now + CEREMONY_TTL),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Takes (deletes) the open ceremony of `user_id` (registration) or of `challenge_id`
/// (sign-in): its state, once; `None` when there is none, it expired, or a concurrent
/// finish took it first.
pub async fn take_ceremony(
    db: &impl ConnectionTrait,
    user_id: i32,
    challenge_id: Option<i32>,
    now: DateTime<Utc>,
) -> ApiResult<Option<String>> {
    let kind = if challenge_id.is_some() { SIGN_IN } else { REGISTER };
    let mut find = passkey_ceremony::Entity::find()
        .filter(passkey_ceremony::Column::UserId.eq(user_id))
        .filter(passkey_ceremony::Column::Kind.eq(kind));
    if let Some(c) = challenge_id {
        find = find.filter(passkey_ceremony::Column::ChallengeId.eq(c));
    }
    let Some(found) = find.order_by_desc(passkey_ceremony::Column::Id).one(db).await? else {
        return Ok(None);
    };
    let taken = passkey_ceremony::Entity::delete_by_id(found.id).exec(db).await?.rows_affected == 1;
    Ok((taken && found.expires_at > now).then_some(found.state))
}

/// Drops ceremonies that can no longer be finished.
pub async fn purge_ceremonies(db: &impl ConnectionTrait, cutoff: DateTime<Utc>) -> ApiResult<()> {
    passkey_ceremony::Entity::delete_many()
        .filter(passkey_ceremony::Column::ExpiresAt.lt(cutoff))
        .exec(db)
        .await?;
    Ok(())
}

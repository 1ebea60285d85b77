//! The rows of the second factor: TOTP secrets, recovery codes and sign-in challenges
//! (passkeys' own rows are in `passkey_store`).
//! Callers pass a connection or a transaction.

use chrono::{DateTime, Utc};
use sea_orm::{
    prelude::Expr, sea_query::ExprTrait, ActiveModelTrait, ColumnTrait, ConnectionTrait,
    EntityTrait, PaginatorTrait, QueryFilter, Set,
};

use super::second_factor::{self as rules, CHALLENGE_TTL, MAX_FAILURES};
use crate::{
    auth::tokens::{hash_token, random_token},
    entities::{mfa_challenge, recovery_code, user_totp},
    error::ApiResult,
};

/// What factors a user holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Factors {
    pub totp: bool,
    pub passkeys: u64,
    pub recovery_left: u64,
}

impl Factors {
    pub fn any(&self) -> bool {
        self.totp || self.passkeys > 0
    }
}

pub async fn factors(db: &impl ConnectionTrait, user_id: i32) -> ApiResult<Factors> {
    let totp = confirmed_totp(db, user_id).await?.is_some();
    let recovery_left = recovery_code::Entity::find()
        .filter(recovery_code::Column::UserId.eq(user_id))
        .filter(recovery_code::Column::UsedAt.is_null())
        .count(db)
        .await?;
    let passkeys = super::passkey_store::count(db, user_id).await?;
    Ok(Factors { totp, passkeys, recovery_left })
}

pub async fn totp_of(
    db: &impl ConnectionTrait,
    user_id: i32,
) -> ApiResult<Option<user_totp::Model>> {
    Ok(user_totp::Entity::find_by_id(user_id).one(db).await?)
}

pub async fn confirmed_totp(
    db: &impl ConnectionTrait,
    user_id: i32,
) -> ApiResult<Option<user_totp::Model>> {
    Ok(totp_of(db, user_id).await?.filter(|t| t.confirmed_at.is_some()))
}

/// A new, unconfirmed secret in place of any earlier unconfirmed one.
pub async fn put_pending_totp(
    db: &impl ConnectionTrait,
    user_id: i32,
    secret: &str,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    delete_totp(db, user_id).await?;
    user_totp::ActiveModel {
        user_id: Set(user_id),
        secret: Set(secret.to_owned()),
        confirmed_at: Set(None),
        last_step: Set(None),
        created_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Records `step` as the last one accepted, unless it (or a later one) was already: false
/// then, so a code racing its own replay is accepted once. Confirms a pending secret.
pub async fn accept_step(
    db: &impl ConnectionTrait,
    user_id: i32,
    step: i64,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let result = user_totp::Entity::update_many()
        .col_expr(user_totp::Column::LastStep, Expr::value(step))
        .col_expr(
            user_totp::Column::ConfirmedAt,
            Expr::col(user_totp::Column::ConfirmedAt).if_null(now),
        )
        .filter(user_totp::Column::UserId.eq(user_id))
        .filter(user_totp::Column::LastStep.is_null().or(user_totp::Column::LastStep.lt(step)))
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

pub async fn delete_totp(db: &impl ConnectionTrait, user_id: i32) -> ApiResult<()> {
    user_totp::Entity::delete_many().filter(user_totp::Column::UserId.eq(user_id)).exec(db).await?;
    Ok(())
}

/// Ten new recovery codes in place of the old ones; the codes themselves, to show once.
pub async fn replace_recovery_codes(
    db: &impl ConnectionTrait,
    user_id: i32,
    now: DateTime<Utc>,
) -> ApiResult<Vec<String>> {
    delete_recovery_codes(db, user_id).await?;
    let codes = rules::new_recovery_codes();
    for code in &codes {
        let salt = rules::new_salt();
        recovery_code::ActiveModel {
            user_id: Set(user_id),
            code_hash: Set(rules::hash_recovery(&salt, code)),
            salt: Set(salt),
            used_at: Set(None),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(codes)
}

pub async fn delete_recovery_codes(db: &impl ConnectionTrait, user_id: i32) -> ApiResult<()> {
    recovery_code::Entity::delete_many()
        .filter(recovery_code::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Spends the user's unused recovery code that matches `code`; false when none does (or a
/// concurrent call spent it first).
pub async fn spend_recovery_code(
    db: &impl ConnectionTrait,
    user_id: i32,
    code: &str,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let unused = recovery_code::Entity::find()
        .filter(recovery_code::Column::UserId.eq(user_id))
        .filter(recovery_code::Column::UsedAt.is_null())
        .all(db)
        .await?;
    let Some(found) = unused.iter().find(|c| rules::hash_recovery(&c.salt, code) == c.code_hash)
    else {
        return Ok(false);
    };
    let result = recovery_code::Entity::update_many()
        .col_expr(recovery_code::Column::UsedAt, Expr::value(now))
        .filter(recovery_code::Column::Id.eq(found.id))
        .filter(recovery_code::Column::UsedAt.is_null())
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

// ---- sign-in challenges ----

/// A new challenge for `user_id`: the token to hand out (only its hash is kept).
pub async fn issue_challenge(
    db: &impl ConnectionTrait,
    user_id: i32,
    purpose: &str,
    now: DateTime<Utc>,
) -> ApiResult<String> {
    let token = random_token();
    mfa_challenge::ActiveModel {
        token_hash: Set(hash_token(&token)),
        user_id: Set(user_id),
        purpose: Set(purpose.to_owned()),
        failures: Set(0),
        expires_at: Set(now + CHALLENGE_TTL),
        used_at: Set(None),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(token)
}

pub async fn find_challenge(
    db: &impl ConnectionTrait,
    token: &str,
) -> ApiResult<Option<mfa_challenge::Model>> {
    Ok(mfa_challenge::Entity::find()
        .filter(mfa_challenge::Column::TokenHash.eq(hash_token(token)))
        .one(db)
        .await?)
}

/// Counts a wrong code; the last allowed one ends the challenge.
pub async fn fail_challenge(
    db: &impl ConnectionTrait,
    c: &mfa_challenge::Model,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let failures = c.failures + 1;
    let mut update = mfa_challenge::Entity::update_many()
        .col_expr(
            mfa_challenge::Column::Failures,
            Expr::col(mfa_challenge::Column::Failures).add(1),
        )
        .filter(mfa_challenge::Column::Id.eq(c.id));
    if failures >= MAX_FAILURES {
        update = update.col_expr(mfa_challenge::Column::UsedAt, Expr::value(now));
    }
    update.exec(db).await?;
    Ok(())
}

/// Spends the challenge once; false when it was spent or ended meanwhile.
pub async fn spend_challenge(
    db: &impl ConnectionTrait,
    c: &mfa_challenge::Model,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let result = mfa_challenge::Entity::update_many()
        .col_expr(mfa_challenge::Column::UsedAt, Expr::value(now))
        .filter(mfa_challenge::Column::Id.eq(c.id))
        .filter(mfa_challenge::Column::UsedAt.is_null())
        .filter(mfa_challenge::Column::Failures.lt(MAX_FAILURES))
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

/// Drops challenges that can no longer be answered.
pub async fn purge_challenges(db: &impl ConnectionTrait, cutoff: DateTime<Utc>) -> ApiResult<()> {
    mfa_challenge::Entity::delete_many()
        .filter(mfa_challenge::Column::ExpiresAt.lt(cutoff))
        .exec(db)
        .await?;
    Ok(())
}

//! The short-lived tickets of single sign-on, in the database so several instances share
//! them: the `state` of a sign-in under way at the provider (10 minutes) and the one-time
//! `handoff` code that gives the finished sign-in to the single-page app (60 seconds). Each
//! is taken once: taking deletes it, and of two instances taking it at once only one wins.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::{
    auth::tokens::{hash_token, random_token},
    entities::sso_ticket,
    error::ApiResult,
};

pub const STATE: &str = "state";
pub const HANDOFF: &str = "handoff";

pub fn lifetime(kind: &str) -> Duration {
    if kind == STATE {
        Duration::minutes(10)
    } else {
        Duration::seconds(60)
    }
}

/// What a ticket carries besides its value.
#[derive(Debug, Default, Clone)]
pub struct Carried {
    pub nonce: Option<String>,
    pub pkce_verifier: Option<String>,
    pub next_path: Option<String>,
    pub user_id: Option<i32>,
}

/// Stores a ticket of `kind` under `value` (the caller's random value, e.g. the OIDC state).
pub async fn put(
    db: &impl ConnectionTrait,
    kind: &str,
    value: &str,
    carried: Carried,
) -> ApiResult<()> {
    let now = crate::clock::now();
    sso_ticket::ActiveModel {
        kind: Set(kind.to_owned()),
        ticket_hash: Set(hash_token(value)),
        nonce: Set(carried.nonce),
        pkce_verifier: Set(carried.pkce_verifier),
        next_path: Set(carried.next_path),
        user_id: Set(carried.user_id),
        expires_at: Set(now + lifetime(kind)),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

/// A new one-time code handing `user_id`'s sign-in to the app.
pub async fn issue_handoff(
    db: &impl ConnectionTrait,
    user_id: i32,
    next_path: Option<String>,
) -> ApiResult<String> {
    let code = random_token();
    put(db, HANDOFF, &code, Carried { user_id: Some(user_id), next_path, ..Default::default() })
        .await?;
    Ok(code)
}

/// Takes the live ticket of `kind` with that value: what it carried, or None when it never
/// existed, expired or was taken already.
pub async fn take(
    db: &impl ConnectionTrait,
    kind: &str,
    value: &str,
    now: DateTime<Utc>,
) -> ApiResult<Option<Carried>> {
    let Some(found) = sso_ticket::Entity::find()
        .filter(sso_ticket::Column::Kind.eq(kind))
        .filter(sso_ticket::Column::TicketHash.eq(hash_token(value)))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let deleted = sso_ticket::Entity::delete_many()
        .filter(sso_ticket::Column::Id.eq(found.id))
        .exec(db)
        .await?
        .rows_affected;
    if deleted != 1 || found.expires_at <= now {
        return Ok(None);
    }
    Ok(Some(Carried {
        nonce: found.nonce,
        pkce_verifier: found.pkce_verifier,
        next_path: found.next_path,
        user_id: found.user_id,
    }))
}

/// Drops the tickets nobody used.
pub async fn purge_expired(db: &impl ConnectionTrait, now: DateTime<Utc>) -> ApiResult<()> {
    sso_ticket::Entity::delete_many()
        .filter(sso_ticket::Column::ExpiresAt.lt(now))
        .exec(db)
        .await?;
    Ok(())
}

/// `next` when it is a path of this site (`/…`, not `//host` nor `/\host`), else none.
pub fn local_path(next: Option<&str>) -> Option<String> {
    let next = next?.trim();
    let local = next.starts_with('/')
        && !next.starts_with("//")
        && !next.starts_with("/\\")
        && !next.chars().any(|c| c.is_control() || c == '\\');
    local.then(|| next.to_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_paths_of_this_site() {
        for (next, kept) in [
            (Some("/payment-requests?status=Submitted"), true),
            (Some("/"), true),
            (Some("//evil.example/x"), false),
            (Some("/\\evil.example"), false),
            (Some("https://evil.example/"), false),
            (Some("javascript:alert(1)"), false),
            (Some("/a\nb"), false),
            (None, false),
        ] {
            assert_eq!(super::local_path(next).is_some(), kept, "{next:?}");
        }
    }
}

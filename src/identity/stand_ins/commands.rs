//! The commands of time away: set or clear a person's window and stand-in. Each owns its
//! transaction and writes its activity and audit entries there; the rules see the stand-in
//! and every window as they stand under the write lock, so two saves that would make a
//! chain of stand-ins cannot both pass.

use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::{json, Value};

use super::{
    dto::{OutOfOfficeDto, OutOfOfficeRequest},
    rules::{self, Candidate, Standing, Window},
    store,
};
use crate::{
    activity,
    auth::{
        load_principal, permissions::ADMINISTRATOR, stand_in::office_today, CurrentUser, Permission,
    },
    entities::{out_of_office as ooo, user},
    error::{ApiError, ApiResult},
    identity::{commands::granter, rules as identity_rules, store as users},
    settings::dto::UserRefDto,
};

fn user_ref(u: &user::Model) -> UserRefDto {
    UserRefDto {
        id: u.id,
        email: u.email.clone(),
        full_name: format!("{} {}", u.first_name, u.last_name).trim().to_owned(),
    }
}

async fn dto(db: &impl ConnectionTrait, m: &ooo::Model) -> ApiResult<OutOfOfficeDto> {
    let stand_in = users::get_user(db, m.stand_in_user_id).await?;
    Ok(OutOfOfficeDto { from: m.from_day, to: m.to_day, stand_in: user_ref(&stand_in) })
}

fn trail(m: Option<&ooo::Model>) -> Value {
    match m {
        Some(m) => json!({"from": m.from_day, "to": m.to_day, "standInUserId": m.stand_in_user_id}),
        None => Value::Null,
    }
}

/// Someone else's time away is set by an editor of users; an Administrator's only by an
/// Administrator (her stand-in takes what she may approve).
async fn owner(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    owner_id: i32,
) -> ApiResult<user::Model> {
    let owner = users::get_user(db, owner_id).await?;
    if owner_id != me.id() {
        let is_admin = users::first_role(db, owner_id).await?.as_deref() == Some(ADMINISTRATOR);
        if identity_rules::account_locked(&granter(me), is_admin) {
            return Err(ApiError::Forbidden(
                "Only an Administrator can set an Administrator's time away.".into(),
            ));
        }
    }
    Ok(owner)
}

/// The window of `owner_id`, unless it has ended.
pub async fn current(db: &DatabaseConnection, owner_id: i32) -> ApiResult<Option<OutOfOfficeDto>> {
    let today = office_today(db).await?;
    match store::of(db, owner_id).await? {
        Some(m) if m.to_day >= today => Ok(Some(dto(db, &m).await?)),
        _ => Ok(None),
    }
}

/// Saves `owner_id`'s time away (replacing any earlier window).
pub async fn set(
    db: &DatabaseConnection,
    me: &CurrentUser,
    owner_id: i32,
    body: &OutOfOfficeRequest,
) -> ApiResult<OutOfOfficeDto> {
    let txn = crate::db::write(db).await?;
    let owner = owner(&txn, me, owner_id).await?;
    if !load_principal(&txn, owner.clone()).await?.has(Permission::RequestApprove) {
        return Err(ApiError::rule(
            "standInUserId",
            "only people who approve requests hand their approvals to a stand-in",
        ));
    }
    let today = office_today(&txn).await?;
    let window = Window { from: body.from, to: body.to };
    let candidate = match users::get_user(&txn, body.stand_in_user_id).await {
        Ok(u) => Some(Candidate {
            id: u.id,
            name: user_ref(&u).full_name,
            is_active: u.is_active,
            may_approve: load_principal(&txn, u.clone()).await?.has(Permission::RequestApprove),
            away: store::of(&txn, u.id)
                .await?
                .filter(|m| m.to_day >= today)
                .map(|m| store::window(&m)),
        }),
        Err(ApiError::NotFound(_)) => None,
        Err(other) => return Err(other),
    };
    let mut standing = Vec::new();
    for m in store::naming(&txn, owner_id, today).await? {
        let absent = users::get_user(&txn, m.user_id).await?;
        standing
            .push(Standing { for_name: user_ref(&absent).full_name, window: store::window(&m) });
    }
    rules::check_window(owner_id, window, today, candidate.as_ref(), &standing)?;
    let before = store::of(&txn, owner_id).await?;
    let row = ooo::Model {
        user_id: owner_id,
        from_day: body.from,
        to_day: body.to,
        stand_in_user_id: body.stand_in_user_id,
        updated_at: crate::clock::now(),
    };
    store::save(&txn, row.clone()).await?;
    let saved = dto(&txn, &row).await?;
    activity::note_change(
        &txn,
        ("user", owner.id),
        "out-of-office-set",
        &me.into(),
        (&trail(before.as_ref()), &trail(Some(&row))),
        json!({"from": row.from_day, "to": row.to_day, "standIn": saved.stand_in.full_name}),
    )
    .await?;
    txn.commit().await?;
    Ok(saved)
}

/// Ends `owner_id`'s time away now (404 when none is set).
pub async fn clear(db: &DatabaseConnection, me: &CurrentUser, owner_id: i32) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let owner = owner(&txn, me, owner_id).await?;
    let Some(before) = store::of(&txn, owner_id).await? else {
        return Err(ApiError::not_found("Time away"));
    };
    store::delete(&txn, owner_id).await?;
    activity::note_change(
        &txn,
        ("user", owner.id),
        "out-of-office-cleared",
        &me.into(),
        (&trail(Some(&before)), &Value::Null),
        json!({"from": before.from_day, "to": before.to_day}),
    )
    .await?;
    txn.commit().await?;
    Ok(())
}

/// Who may be picked as a stand-in.
pub async fn candidates(
    db: &DatabaseConnection,
    me: &CurrentUser,
    search: &str,
) -> ApiResult<Vec<UserRefDto>> {
    Ok(store::candidates(db, me.id(), search, 20).await?.iter().map(user_ref).collect())
}

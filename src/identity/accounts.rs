//! Creating accounts: shared by the user screens, a participant's Coordinator login, the
//! first Administrator and the demo (no handlers here, so other areas may call it).

use sea_orm::{ActiveModelTrait, Set};
use serde_json::json;

use super::{session::set_password_link, store};
use crate::{
    activity,
    audit::Actor,
    auth::CurrentUser,
    entities::{role, user},
    error::{ApiError, ApiResult},
    state::AppState,
};

pub use super::store::EMAIL_TAKEN;

pub struct NewUser {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub hash: Option<String>,
    pub participant_id: Option<i32>,
}

pub fn mail_invitation(state: &AppState, email: &str, link: &str) {
    state.mailer.send(
        email,
        "MentorPay: your account",
        format!("A MentorPay account has been created for {email}.\n\nChoose your password here (valid for three days, once):\n{link}\n"),
    );
}

/// Creates a user in one transaction. Without a password it also returns the one-time
/// set-password link, for the caller to mail (or print, for the first Administrator).
/// Also used for a participant's Coordinator login. `granted_by` is the person creating it,
/// whose own rights bound the roles given (None: the system, e.g. the first start or the CLI).
pub async fn create_user_with_roles(
    state: &AppState,
    (actor, granted_by): (&Actor, Option<&CurrentUser>),
    new: NewUser,
    roles: &[role::Model],
) -> ApiResult<(user::Model, Option<String>)> {
    create(state, (actor, granted_by), new, (roles, &[])).await
}

/// The same by a person, who names the programs the new user sees besides those she
/// coordinates (each one she sees herself).
pub async fn create_user_with_programs(
    state: &AppState,
    me: &CurrentUser,
    new: NewUser,
    (roles, programs): (&[role::Model], &[i32]),
) -> ApiResult<(user::Model, Option<String>)> {
    create(state, (&me.into(), Some(me)), new, (roles, programs)).await
}

async fn create(
    state: &AppState,
    (actor, granted_by): (&Actor, Option<&CurrentUser>),
    new: NewUser,
    (roles, programs): (&[role::Model], &[i32]),
) -> ApiResult<(user::Model, Option<String>)> {
    let now = crate::clock::now();
    let txn = crate::db::write(&state.db).await?;
    let programs = match granted_by {
        Some(me) => {
            super::commands::check_roles_grantable(&txn, me, roles).await?;
            super::commands::checked_programs(&txn, me, programs, &[]).await?
        }
        None => programs.to_vec(),
    };
    if store::find_user_by_email(&txn, &new.email).await?.is_some() {
        return Err(ApiError::Conflict(EMAIL_TAKEN.into()));
    }
    let invite = new.hash.is_none();
    let created = user::ActiveModel {
        email: Set(new.email),
        first_name: Set(new.first_name),
        last_name: Set(new.last_name),
        password_hash: Set(new.hash),
        is_active: Set(true),
        participant_id: Set(new.participant_id),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await
    .map_err(|e| ApiError::unique_or_internal(e, EMAIL_TAKEN))?;
    store::set_user_roles(&txn, created.id, roles).await?;
    store::set_user_programs(&txn, created.id, &programs).await?;
    let token = if invite {
        Some(store::issue_password_token(&txn, created.id, store::INVITE).await?)
    } else {
        None
    };
    let role_names: Vec<&str> = roles.iter().map(|r| r.name.as_str()).collect();
    activity::record(
        &txn,
        actor,
        activity::Entry {
            entity_type: "user",
            entity_id: created.id,
            action: "created",
            data: Some(json!({"email": created.email, "roles": role_names, "invited": invite})),
            change: Some((
                serde_json::Value::Null,
                json!({
                    "email": created.email, "firstName": created.first_name,
                    "lastName": created.last_name, "roles": role_names,
                    "isActive": created.is_active, "participantId": created.participant_id,
                    "mentorProgramIds": programs,
                }),
            )),
            ..Default::default()
        },
    )
    .await?;
    txn.commit().await?;
    let link = token.map(|t| set_password_link(&state.config.public_url(), &created.email, &t));
    Ok((created, link))
}

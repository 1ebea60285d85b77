//! The actions of a directory sign-in: admitting the person the directory vouched for (the
//! verdict of `rules::judge`, carried out), the refusal's audit entry, and the roles the
//! directory's groups give. Each owns its transaction.

use sea_orm::{
    sea_query::{Expr, ExprTrait, Func},
    ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use serde_json::json;

use super::{
    rules::{self, Account, DirectoryPerson, Refusal, Verdict},
    settings,
};
use crate::{
    activity, audit,
    audit::Actor,
    auth::{load_principal, permissions::ADMINISTRATOR},
    entities::{participant, user},
    error::{normalize_email, ApiError, ApiResult},
    identity::{
        accounts::{self, NewUser},
        rules as user_rules, store,
    },
    state::AppState,
};

/// A refused directory sign-in, in the audit trail: the reason, and the e-mail when known.
pub async fn deny(
    db: &DatabaseConnection,
    refusal: &Refusal,
    email: Option<&str>,
    user_id: Option<i32>,
    ip: &str,
) -> ApiResult<()> {
    tracing::info!(reason = refusal.code(), "directory sign-in refused");
    let change = audit::Change::new("user", user_id, "sso.denied")
        .after(json!({"reason": refusal.code(), "email": email}));
    audit::record_alone(db, &Actor::anonymous(Some(ip.to_owned())), change).await
}

/// The user a directory sign-in signs in as, her account created or her roles set from her
/// groups as the settings say; or the refusal (already in the audit trail).
pub async fn admit(
    state: &AppState,
    mut person: DirectoryPerson,
    ip: &str,
) -> ApiResult<Result<user::Model, Refusal>> {
    person.email = person.email.as_deref().and_then(normalize_email);
    let email = person.email.clone();
    let refuse = |refusal: Refusal, user_id: Option<i32>| async move {
        deny(&state.db, &refusal, email.as_deref(), user_id, ip).await.map(|()| Err(refusal))
    };
    let settings = settings::load(&state.db).await?;
    let found = match &person.email {
        Some(email) => store::find_user_by_email(&state.db, email).await?,
        None => None,
    };
    let account = found.as_ref().map(|u| Account { id: u.id, is_active: u.is_active });
    let user = match rules::judge(&settings, &person, account) {
        Verdict::Refuse(refusal) => return refuse(refusal, found.map(|u| u.id)).await,
        Verdict::SignIn { roles, .. } => {
            let user = found.expect("the verdict names the account found");
            match roles {
                Some(roles) => set_directory_roles(&state.db, user, &roles, ip).await?,
                None => user,
            }
        }
        Verdict::Create { roles } => create_account(state, &person, &roles, ip).await?,
    };
    let principal = load_principal(&state.db, user).await?;
    if let Err(ApiError::Forbidden(message)) =
        crate::settings::store::ensure_may_sign_in(&state.db, &principal.roles).await
    {
        return refuse(Refusal::CoordinatorBlocked(message), Some(principal.id())).await;
    }
    Ok(Ok(principal.user))
}

/// The roles that exist among `names` (a role deleted since the mapping was saved is skipped).
async fn existing_roles(
    db: &impl sea_orm::ConnectionTrait,
    names: &[String],
) -> ApiResult<Vec<crate::entities::role::Model>> {
    let all = crate::entities::role::Entity::find().all(db).await?;
    Ok(names
        .iter()
        .filter_map(|n| all.iter().find(|r| r.name.eq_ignore_ascii_case(n)).cloned())
        .collect())
}

/// An account for a person the directory vouched for, linked to the participant with the
/// same e-mail (which gives a Coordinator her programs). It has no MentorPay password.
async fn create_account(
    state: &AppState,
    person: &DirectoryPerson,
    role_names: &[String],
    ip: &str,
) -> ApiResult<user::Model> {
    let email = person.email.clone().unwrap_or_default();
    let participant = participant::Entity::find()
        .filter(Expr::expr(Func::lower(Expr::col(participant::Column::Email))).eq(email.clone()))
        .one(&state.db)
        .await?;
    let linked_elsewhere = match &participant {
        Some(p) => user::Entity::find()
            .filter(user::Column::ParticipantId.eq(p.id))
            .one(&state.db)
            .await?
            .is_some(),
        None => false,
    };
    let local_part = email.split('@').next().unwrap_or_default().to_owned();
    let first_name = person
        .first_name
        .clone()
        .or_else(|| participant.as_ref().map(|p| p.first_name.clone()))
        .unwrap_or(local_part);
    let last_name = person
        .last_name
        .clone()
        .or_else(|| participant.as_ref().map(|p| p.last_name.clone()))
        .unwrap_or_default();
    let new = NewUser {
        email,
        first_name,
        last_name,
        hash: None,
        participant_id: participant.filter(|_| !linked_elsewhere).map(|p| p.id),
    };
    let roles = existing_roles(&state.db, role_names).await?;
    let actor = Actor::anonymous(Some(ip.to_owned()));
    // The invitation link it returns is not sent: a directory account signs in at the directory.
    let (created, _link) =
        accounts::create_user_with_roles(state, (&actor, None), new, &roles).await?;
    Ok(created)
}

/// Sets a user's roles to what her groups give (in mapping order), unless that would leave
/// no active Administrator: then she keeps hers, and the log says why.
async fn set_directory_roles(
    db: &DatabaseConnection,
    u: user::Model,
    role_names: &[String],
    ip: &str,
) -> ApiResult<user::Model> {
    let txn = crate::db::write(db).await?;
    let roles = existing_roles(&txn, role_names).await?;
    let before = store::user_dto(&txn, u.clone()).await?;
    let held = store::roles_by_names(&txn, &before.roles).await?;
    if held.iter().map(|r| r.id).eq(roles.iter().map(|r| r.id)) {
        return Ok(u);
    }
    let was_admin = held.first().is_some_and(|r| r.name == ADMINISTRATOR);
    let stays_admin = roles.first().is_some_and(|r| r.name == ADMINISTRATOR);
    let others = store::other_active_admins(&txn, u.id).await?;
    if user_rules::check_admin_kept(false, was_admin, stays_admin, others).is_err() {
        tracing::warn!(
            user_id = u.id,
            "the directory's groups would remove the last Administrator; her roles are kept"
        );
        return Ok(u);
    }
    store::set_user_roles(&txn, u.id, &roles).await?;
    let after = store::user_dto(&txn, u.clone()).await?;
    let names: Vec<&str> = roles.iter().map(|r| r.name.as_str()).collect();
    activity::note_change(
        &txn,
        ("user", u.id),
        "roles-set-by-directory",
        &Actor::user(&u, Some(ip.to_owned())),
        (&json!({"roles": before.roles}), &json!({"roles": after.roles})),
        json!({"email": u.email, "roles": names}),
    )
    .await?;
    txn.commit().await?;
    Ok(u)
}

//! Creating accounts: shared by the user screens, a participant's Coordinator login, the
//! first Administrator and the demo (no handlers here, so other areas may call it).

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde_json::json;

use super::{
    dto::{InvitationSent, InvitationTerms},
    rules::{self, PARTICIPANT_FIELD},
    store,
};
use crate::{
    activity,
    audit::Actor,
    auth::{
        scope::{live_programs, scope_of},
        CurrentUser,
    },
    entities::{participant, role, user},
    error::{ApiError, ApiResult},
    mail::set_password_link,
    notifications::{events::Event, outbox},
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

/// What an invitation's link promises, and whether a relay carries its mail: the one
/// source of the words the mail, the dialogs and the command line say.
pub fn invitation_terms(state: &AppState) -> InvitationTerms {
    let ttl = store::password_token_ttl(store::INVITE);
    InvitationTerms {
        valid_for: rules::validity_words(ttl),
        valid_hours: ttl.num_hours(),
        relay: state.mailer.has_relay(),
    }
}

/// What the inviter is told of an invitation whose link is `link`: mailed through the relay,
/// or, with no relay to carry it, the link itself for her to hand over (she may invite, and
/// the mail went only to the server's log).
pub fn invitation_sent(state: &AppState, link: String) -> InvitationSent {
    let terms = invitation_terms(state);
    InvitationSent {
        emailed: terms.relay,
        link: (!terms.relay).then_some(link),
        valid_for: terms.valid_for,
        valid_hours: terms.valid_hours,
    }
}

/// Queues the invitation mail of `email` in the caller's transaction (the outbox sends it
/// after the commit, or writes it to the log where no relay is set).
async fn queue_invitation(
    txn: &impl ConnectionTrait,
    email: &str,
    token: &str,
    again: bool,
) -> ApiResult<()> {
    let event = Event::Invitation {
        email: email.to_owned(),
        token: token.to_owned(),
        valid_for: rules::validity_words(store::password_token_ttl(store::INVITE)),
        again,
    };
    outbox::enqueue_many(txn, &[(email.to_owned(), event)]).await
}

/// The participant `id` a person (`me`) may give a login to: live and among those she sees
/// (422 naming the field otherwise), within her programs (`rules::check_login_creatable`),
/// without a login yet (409).
async fn check_linkable(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    id: i32,
    sets_password: bool,
) -> ApiResult<()> {
    let unknown = || ApiError::rule(PARTICIPANT_FIELD, "No such participant among those you see.");
    participant::Entity::find_by_id(id)
        .filter(participant::Column::DeletedAt.is_null())
        .one(txn)
        .await?
        .ok_or_else(unknown)?;
    let scope = scope_of(txn, me).await?;
    let programs = live_programs(txn, id).await?;
    if !scope.sees_participant(&programs) {
        return Err(unknown());
    }
    rules::check_login_creatable(&scope, &programs, sets_password)?;
    if store::participant_has_login(txn, id).await? {
        return Err(ApiError::Conflict("The participant has a login already.".into()));
    }
    Ok(())
}

/// Creates a user in one transaction. Without a password it also returns the one-time
/// set-password link: when a person creates the account its mail is queued in the same
/// transaction; the system's callers print it (the first Administrator, the command line).
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

/// A person's invitation of someone who sees programs only through her participant names
/// that participant (422 naming the field otherwise). Only invitations are held to it: they
/// are what the user screens send; an account made with a password is the API's own affair.
async fn check_participant_named(
    txn: &impl ConnectionTrait,
    roles: &[role::Model],
    participant: Option<i32>,
) -> ApiResult<()> {
    let grants = store::role_grants(txn, roles).await?;
    let grants: Vec<(&str, &[crate::auth::Permission])> =
        grants.iter().map(|(name, ps)| (name.as_str(), ps.as_slice())).collect();
    rules::check_participant_named(&grants, participant)
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
    if let (Some(me), Some(id)) = (granted_by, new.participant_id) {
        check_linkable(&txn, me, id, new.hash.is_some()).await?;
    }
    if store::find_user_by_email(&txn, &new.email).await?.is_some() {
        return Err(ApiError::Conflict(EMAIL_TAKEN.into()));
    }
    if granted_by.is_some() && new.hash.is_none() {
        check_participant_named(&txn, roles, new.participant_id).await?;
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
        let token = store::issue_password_token(&txn, created.id, store::INVITE).await?;
        if granted_by.is_some() {
            queue_invitation(&txn, &created.email, &token, false).await?;
        }
        Some(token)
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

/// Sends `id` her invitation again: a new link (the ones sent before stop working), mailed
/// through the outbox, and an activity entry (without the link). Only for an active account
/// whose holder has not chosen a password, and only within the caller's reach (an invited
/// Administrator's link is not handed to someone below her).
pub async fn resend_invitation(
    state: &AppState,
    me: &CurrentUser,
    id: i32,
) -> ApiResult<(user::Model, String)> {
    let txn = crate::db::write(&state.db).await?;
    let u = store::get_user(&txn, id).await?;
    let administrator = store::first_role(&txn, u.id).await?.as_deref()
        == Some(crate::auth::permissions::ADMINISTRATOR);
    if rules::account_locked(&super::commands::granter(me), administrator) {
        return Err(ApiError::Forbidden(
            "Only an Administrator can send an Administrator's invitation.".into(),
        ));
    }
    rules::check_invitation_resendable(u.is_active, u.password_hash.is_some())?;
    if !super::sso::password_allowed(&txn, &u.email).await? {
        return Err(ApiError::rule(
            "id",
            "This account signs in through single sign-on: it needs no password.",
        ));
    }
    let token = store::issue_password_token(&txn, u.id, store::INVITE).await?;
    queue_invitation(&txn, &u.email, &token, true).await?;
    let entry = activity::Entry {
        entity_type: "user",
        entity_id: u.id,
        action: "invitation-sent",
        data: Some(json!({"email": u.email})),
        ..Default::default()
    };
    activity::record(&txn, &me.into(), entry).await?;
    txn.commit().await?;
    let link = set_password_link(&state.config.public_url(), &u.email, &token);
    Ok((u, link))
}

//! First start: the built-in roles, the token-signing secret, the first Administrator.

use anyhow::{bail, Context};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set,
};

use super::{
    accounts::{create_user_with_roles, NewUser},
    store,
};
use crate::{
    auth::{
        password,
        permissions::{ADMINISTRATOR, COORDINATOR, COORDINATOR_DEFAULTS},
        tokens::random_token,
        Permission,
    },
    entities::{app_setting, role, role_permission, user_role},
    state::AppState,
};

const JWT_SECRET_KEY: &str = "jwt_secret";
const FALLBACK_ADMIN: &str = "admin@localhost";

/// Administrator always holds every permission (new ones included after an upgrade);
/// Coordinator gets its defaults once, then belongs to the office.
pub async fn ensure_builtin_roles(db: &impl ConnectionTrait) -> anyhow::Result<()> {
    for (name, grants) in [(ADMINISTRATOR, Permission::ALL), (COORDINATOR, COORDINATOR_DEFAULTS)] {
        let existing = role::Entity::find().filter(role::Column::Name.eq(name)).one(db).await?;
        let (r, grant_missing) = match existing {
            Some(r) => (r, name == ADMINISTRATOR),
            None => {
                let r = role::ActiveModel {
                    name: Set(name.into()),
                    is_built_in: Set(true),
                    created_at: Set(crate::clock::now()),
                    ..Default::default()
                }
                .insert(db)
                .await?;
                (r, true)
            }
        };
        if grant_missing {
            let held =
                store::role_permissions(db, r.id).await.map_err(|e| anyhow::anyhow!("{e}"))?;
            for p in grants.iter().filter(|p| !held.iter().any(|h| h == p.code())) {
                role_permission::ActiveModel {
                    role_id: Set(r.id),
                    permission: Set(p.code().into()),
                }
                .insert(db)
                .await?;
            }
        }
    }
    Ok(())
}

/// The configured secret, or the one generated on first start and kept in the database
/// (so every instance on the same database signs alike and restarts keep sessions).
pub async fn jwt_secret(
    db: &impl ConnectionTrait,
    configured: Option<&str>,
) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = configured {
        if secret.len() < 32 {
            bail!("--jwt-secret must be at least 32 characters");
        }
        return Ok(secret.as_bytes().to_vec());
    }
    if let Some(row) = app_setting::Entity::find_by_id(JWT_SECRET_KEY).one(db).await? {
        return Ok(row.value.into_bytes());
    }
    let secret = format!("{}{}", random_token(), random_token());
    let inserted = app_setting::ActiveModel {
        key: Set(JWT_SECRET_KEY.into()),
        value: Set(secret.clone()),
        updated_at: Set(crate::clock::now()),
    }
    .insert(db)
    .await;
    match inserted {
        Ok(_) => Ok(secret.into_bytes()),
        // Another instance created it at the same moment: use theirs.
        Err(_) => Ok(app_setting::Entity::find_by_id(JWT_SECRET_KEY)
            .one(db)
            .await?
            .context("jwt secret vanished")?
            .value
            .into_bytes()),
    }
}

/// With no Administrator, create one from MENTORPAY_ADMIN_EMAIL/PASSWORD, or
/// `admin@localhost` with a one-time set-password link in the log. Never a fixed password.
pub async fn ensure_first_admin(state: &AppState) -> anyhow::Result<()> {
    let admin = role::Entity::find()
        .filter(role::Column::Name.eq(ADMINISTRATOR))
        .one(&state.db)
        .await?
        .context("Administrator role missing")?;
    if user_role::Entity::find()
        .filter(user_role::Column::RoleId.eq(admin.id))
        .count(&state.db)
        .await?
        > 0
    {
        return Ok(());
    }
    let config = &state.config;
    let (email, hash) = match (&config.admin_email, &config.admin_password) {
        (Some(email), Some(pass)) => {
            let email = crate::error::normalize_email(email)
                .context("MENTORPAY_ADMIN_EMAIL is not a valid e-mail address")?;
            if let Some(problem) = password::policy_problem(pass) {
                bail!("MENTORPAY_ADMIN_PASSWORD {problem}");
            }
            (email, Some(password::hash(pass.clone()).await.map_err(|e| anyhow::anyhow!("{e}"))?))
        }
        (Some(email), None) => (
            crate::error::normalize_email(email)
                .context("MENTORPAY_ADMIN_EMAIL is not a valid e-mail address")?,
            None,
        ),
        _ => (FALLBACK_ADMIN.to_owned(), None),
    };
    let apierr = |e: crate::error::ApiError| anyhow::anyhow!("{e}");
    if let Some(existing) = store::find_user_by_email(&state.db, &email).await.map_err(apierr)? {
        // The address exists without the role (e.g. a seeded database): promote it.
        store::set_user_roles(&state.db, existing.id, &[admin]).await.map_err(apierr)?;
        tracing::warn!(email = %existing.email, "no Administrator existed; this user was made Administrator");
        return Ok(());
    }
    let (created, link) = create_user_with_roles(
        state,
        (&crate::audit::Actor::system(), None),
        NewUser {
            email,
            first_name: "System".into(),
            last_name: "Administrator".into(),
            hash,
            participant_id: None,
        },
        &[admin],
    )
    .await
    .map_err(apierr)?;
    match link {
        None => {
            tracing::info!(email = %created.email, "first Administrator created from MENTORPAY_ADMIN_EMAIL / MENTORPAY_ADMIN_PASSWORD")
        }
        Some(link) => {
            let valid_for = super::rules::validity_words(super::store::password_token_ttl(
                super::store::INVITE,
            ));
            tracing::warn!(email = %created.email, "first Administrator created; open this one-time link to choose its password (valid for {valid_for}): {link}");
            eprintln!(
                "\n  First start: sign in as {} after choosing a password at\n  {link}\n",
                created.email
            );
        }
    }
    Ok(())
}

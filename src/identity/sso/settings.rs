//! The single sign-on settings (`/system-settings/sso`): kept as one JSON value in
//! `app_settings`, read at every directory sign-in, changed by one audited command.

use sea_orm::{ConnectionTrait, DatabaseConnection, EntityTrait, Set};
use serde_json::json;

use super::dto::{GroupRoles, PasswordSignIn, SsoSettings};
use crate::{
    activity,
    auth::CurrentUser,
    entities::app_setting,
    error::{ApiError, ApiResult, Checks},
    identity::{commands::check_roles_grantable, store as users},
};

const KEY: &str = "sso";
const MAX_ROWS: usize = 200;
const MAX_GROUP_CHARS: usize = 500;

/// The saved settings; the defaults (no account creation, no mapping, passwords for
/// everyone) until an Administrator saves them.
pub async fn load(db: &impl ConnectionTrait) -> ApiResult<SsoSettings> {
    let row = app_setting::Entity::find_by_id(KEY).one(db).await?;
    Ok(row.and_then(|r| serde_json::from_str(&r.value).ok()).unwrap_or_default())
}

/// The settings as they will be saved (trimmed, e-mails normalised, duplicates dropped),
/// or the fields that are wrong.
pub fn check(body: &SsoSettings) -> ApiResult<SsoSettings> {
    let mut checks = Checks::default();
    let roles = |checks: &mut Checks, field: &str, names: &[String]| {
        let mut kept: Vec<String> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let name = checks.name(&format!("{field}[{i}]"), name);
            if !kept.iter().any(|k| k.eq_ignore_ascii_case(&name)) {
                kept.push(name);
            }
        }
        kept
    };
    let default_roles = roles(&mut checks, "defaultRoles", &body.default_roles);
    if body.group_roles.len() > MAX_ROWS {
        checks.add("groupRoles", format!("must hold at most {MAX_ROWS} rows"));
    }
    let mut group_roles: Vec<GroupRoles> = Vec::new();
    for (i, row) in body.group_roles.iter().enumerate() {
        checks.plain(&format!("groupRoles[{i}].group"), &row.group);
        let group = checks.text(&format!("groupRoles[{i}].group"), &row.group, MAX_GROUP_CHARS);
        if group_roles.iter().any(|r| r.group.eq_ignore_ascii_case(&group)) {
            checks.add(format!("groupRoles[{i}].group"), "is listed twice");
        }
        let field = format!("groupRoles[{i}].roles");
        let names = roles(&mut checks, &field, &row.roles);
        if names.is_empty() {
            checks.add(field, "must name at least one role");
        }
        group_roles.push(GroupRoles { group, roles: names });
    }
    let mut password_accounts: Vec<String> = Vec::new();
    for (i, email) in body.password_accounts.iter().enumerate() {
        let email = checks.email(&format!("passwordAccounts[{i}]"), email);
        if !email.is_empty() && !password_accounts.contains(&email) {
            password_accounts.push(email);
        }
    }
    checks.finish()?;
    if body.password_sign_in == PasswordSignIn::Listed && password_accounts.is_empty() {
        // Without one, nobody could sign in while the directory is down: one field against
        // another, so a 422.
        return Err(ApiError::rule(
            "passwordAccounts",
            "must list at least one account while password sign-in is limited to listed accounts",
        ));
    }
    Ok(SsoSettings {
        create_accounts: body.create_accounts,
        default_roles,
        group_roles,
        password_sign_in: body.password_sign_in,
        password_accounts,
    })
}

/// Saves the settings: every role named must exist, and be one its editor may grant (the
/// mapping hands roles out as surely as the user screens do).
pub async fn save(
    db: &DatabaseConnection,
    me: &CurrentUser,
    next: SsoSettings,
) -> ApiResult<SsoSettings> {
    let txn = crate::db::write(db).await?;
    let mut named: Vec<String> = next.default_roles.clone();
    named.extend(next.group_roles.iter().flat_map(|r| r.roles.iter().cloned()));
    let roles = users::roles_by_names(&txn, &named).await?;
    check_roles_grantable(&txn, me, &roles).await?;
    let before = load(&txn).await?;
    let value = json!(next).to_string();
    let row = app_setting::ActiveModel {
        key: Set(KEY.to_owned()),
        value: Set(value),
        updated_at: Set(crate::clock::now()),
    };
    app_setting::Entity::insert(row)
        .on_conflict(
            sea_orm::sea_query::OnConflict::column(app_setting::Column::Key)
                .update_columns([app_setting::Column::Value, app_setting::Column::UpdatedAt])
                .to_owned(),
        )
        .exec(&txn)
        .await?;
    let (was, is) = (json!(before), json!(next));
    activity::note_change(
        &txn,
        ("setting", crate::settings::store::SINGLE_ROW_ID),
        "sso-settings-updated",
        &me.into(),
        (&was, &is),
        json!({"before": was, "after": is}),
    )
    .await?;
    txn.commit().await?;
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_and_tidied() {
        let body = SsoSettings {
            create_accounts: true,
            default_roles: vec![" Coordinator ".into(), "coordinator".into()],
            group_roles: vec![GroupRoles {
                group: " finance ".into(),
                roles: vec!["Finance".into()],
            }],
            password_sign_in: PasswordSignIn::Listed,
            password_accounts: vec!["Admin@X.org".into()],
        };
        let saved = check(&body).unwrap();
        assert_eq!(saved.default_roles, ["Coordinator"]);
        assert_eq!(saved.group_roles[0].group, "finance");
        assert_eq!(saved.password_accounts, ["admin@x.org"]);

        // One field against another is a 422; a field wrong on its own, a 400.
        match check(&SsoSettings { password_sign_in: PasswordSignIn::Listed, ..Default::default() })
        {
            Err(ApiError::Unprocessable { errors, .. }) => {
                assert!(errors.contains_key("passwordAccounts"), "{errors:?}")
            }
            other => panic!("passwordAccounts: {other:?}"),
        }
        let cases: Vec<(SsoSettings, &str)> = vec![
            (
                SsoSettings {
                    group_roles: vec![GroupRoles { group: "g".into(), roles: vec![] }],
                    ..Default::default()
                },
                "groupRoles[0].roles",
            ),
            (
                SsoSettings {
                    group_roles: vec![GroupRoles { group: " ".into(), roles: vec!["A".into()] }],
                    ..Default::default()
                },
                "groupRoles[0].group",
            ),
            (
                SsoSettings { password_accounts: vec!["nope".into()], ..Default::default() },
                "passwordAccounts[0]",
            ),
        ];
        for (body, field) in cases {
            match check(&body) {
                Err(ApiError::BadRequest { errors, .. }) => {
                    assert!(errors.contains_key(field), "{field}: {errors:?}")
                }
                other => panic!("{field}: {other:?}"),
            }
        }
    }
}

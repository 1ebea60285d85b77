//! The security policy: which roles must hold a second factor. Kept as one `app_settings`
//! row (the role ids, as JSON), so a renamed role keeps its place in the policy; read by
//! identity at each password sign-in.

use sea_orm::{
    sea_query::OnConflict, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    QueryFilter, QueryOrder, Set,
};
use serde_json::json;

use crate::{
    audit,
    auth::CurrentUser,
    entities::{app_setting, role},
    error::{ApiError, ApiResult},
};

const KEY: &str = "mfa_required_roles";

async fn required_ids(db: &impl ConnectionTrait) -> ApiResult<Vec<i32>> {
    let Some(row) = app_setting::Entity::find_by_id(KEY).one(db).await? else {
        return Ok(Vec::new());
    };
    Ok(serde_json::from_str(&row.value).unwrap_or_default())
}

/// The names of the roles that must hold a second factor, by name.
pub async fn required_role_names(db: &impl ConnectionTrait) -> ApiResult<Vec<String>> {
    let ids = required_ids(db).await?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(role::Entity::find()
        .filter(role::Column::Id.is_in(ids))
        .order_by_asc(role::Column::Name)
        .all(db)
        .await?
        .into_iter()
        .map(|r| r.name)
        .collect())
}

/// Sets the roles that must hold a second factor (names, case-insensitive; unknown ones are
/// a 422 naming them), audited.
pub async fn set_required_roles(
    db: &DatabaseConnection,
    me: &CurrentUser,
    names: &[String],
) -> ApiResult<Vec<String>> {
    let txn = crate::db::write(db).await?;
    let all = role::Entity::find().all(&txn).await?;
    let mut ids = Vec::new();
    let mut unknown = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        match all.iter().find(|r| r.name.eq_ignore_ascii_case(name)) {
            Some(r) if !ids.contains(&r.id) => ids.push(r.id),
            Some(_) => {}
            None => unknown.push(name.to_owned()),
        }
    }
    if !unknown.is_empty() {
        return Err(ApiError::rule(
            "mfaRequiredRoles",
            format!("unknown role(s): {}", unknown.join(", ")),
        ));
    }
    ids.sort_unstable();
    let before = required_role_names(&txn).await?;
    let row = app_setting::ActiveModel {
        key: Set(KEY.to_owned()),
        value: Set(json!(ids).to_string()),
        updated_at: Set(crate::clock::now()),
    };
    app_setting::Entity::insert(row)
        .on_conflict(
            OnConflict::column(app_setting::Column::Key)
                .update_columns([app_setting::Column::Value, app_setting::Column::UpdatedAt])
                .to_owned(),
        )
        .exec(&txn)
        .await?;
    let after = required_role_names(&txn).await?;
    let change = audit::Change::new("setting", None, "security-settings-updated")
        .diff(&json!({"mfaRequiredRoles": before}), &json!({"mfaRequiredRoles": after}));
    audit::record(&txn, &me.into(), change).await?;
    txn.commit().await?;
    Ok(after)
}

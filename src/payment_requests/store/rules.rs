//! The approval rules as stored: one JSON list of steps per form type, and the roles a
//! rule's steps may name.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{sea_query::OnConflict, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::{
    entities::{approval_rule, role, role_permission},
    error::{ApiError, ApiResult},
    forms::FormType,
    payment_requests::chain::{self, RuleStep},
};

/// The rule of `form` as submission copies it: the stored steps, or the one Administrator
/// step while none are stored.
pub async fn approval_rule(db: &impl ConnectionTrait, form: FormType) -> ApiResult<Vec<RuleStep>> {
    let row = approval_rule::Entity::find_by_id(form.as_str()).one(db).await?;
    Ok(row.and_then(|r| serde_json::from_str(&r.steps).ok()).unwrap_or_else(chain::default_rule))
}

/// Every form's rule, in form order F1..F14.
pub async fn approval_rules(
    db: &impl ConnectionTrait,
) -> ApiResult<Vec<(FormType, Vec<RuleStep>)>> {
    let rows: HashMap<String, String> = approval_rule::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|r| (r.form_type, r.steps))
        .collect();
    Ok(FormType::ALL
        .into_iter()
        .map(|f| {
            let steps = rows
                .get(f.as_str())
                .and_then(|s| serde_json::from_str(s).ok())
                .unwrap_or_else(chain::default_rule);
            (f, steps)
        })
        .collect())
}

pub async fn save_approval_rule(
    txn: &impl ConnectionTrait,
    form: FormType,
    steps: &[RuleStep],
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let text = serde_json::to_string(steps)
        .map_err(|e| ApiError::Internal(format!("an approval rule as JSON: {e}")))?;
    approval_rule::Entity::insert(approval_rule::ActiveModel {
        form_type: Set(form.as_str().to_owned()),
        steps: Set(text),
        updated_at: Set(Some(now)),
    })
    .on_conflict(
        OnConflict::column(approval_rule::Column::FormType)
            .update_columns([approval_rule::Column::Steps, approval_rule::Column::UpdatedAt])
            .to_owned(),
    )
    .exec(txn)
    .await?;
    Ok(())
}

/// The roles as a rule's steps name them: each name (as stored) and whether it holds
/// `request:approve`, keyed by its lower-cased name.
pub async fn approving_roles(
    db: &impl ConnectionTrait,
) -> ApiResult<HashMap<String, (String, bool)>> {
    let approve = crate::auth::Permission::RequestApprove.code();
    let approving: HashSet<i32> = role_permission::Entity::find()
        .filter(role_permission::Column::Permission.eq(approve))
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.role_id)
        .collect();
    Ok(role::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|r| (r.name.to_lowercase(), (r.name, approving.contains(&r.id))))
        .collect())
}

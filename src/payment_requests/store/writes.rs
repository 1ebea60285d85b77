//! The writes of the commands, each in the caller's transaction with its activity-log
//! entry: a guarded update, a new draft, a batch move.

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Expr, ExprTrait},
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter,
};

use super::{activity, stale, ENTITY};
use crate::forms::{self, Details, FormType};
use crate::payment_requests::workflow::Status;
use crate::{entities::payment_request as pr, error::ApiResult, money::Money};

/// Everything a create or edit writes, checked.
pub struct Checked {
    pub participation: crate::entities::participation::Model,
    pub description: Option<String>,
    pub details: Details,
    pub evaluated: forms::Evaluated,
    pub fund_id: Option<i32>,
    pub expense_account_id: Option<i32>,
}

/// The guarded update: only the row still at `version` in one of `sources` changes.
pub fn guarded(id: i32, version: i32, sources: &[Status]) -> sea_orm::UpdateMany<pr::Entity> {
    pr::Entity::update_many()
        .col_expr(pr::Column::Version, Expr::value(version + 1))
        .filter(pr::Column::Id.eq(id))
        .filter(pr::Column::Version.eq(version))
        .filter(pr::Column::Status.is_in(sources.iter().copied()))
        .filter(pr::Column::DeletedAt.is_null())
}

/// Runs a `guarded` update by user `by` at `at`; a row that moved on meanwhile is a 409.
pub async fn save_guarded(
    update: sea_orm::UpdateMany<pr::Entity>,
    at: chrono::DateTime<Utc>,
    by: i32,
    txn: &impl ConnectionTrait,
) -> ApiResult<()> {
    let done = update
        .col_expr(pr::Column::UpdatedAt, Expr::value(at))
        .col_expr(pr::Column::UpdatedBy, Expr::value(by))
        .exec(txn)
        .await?;
    if done.rows_affected != 1 {
        return Err(stale());
    }
    Ok(())
}

/// A request's fields as the audit trail records them: the columns a person or a move sets
/// and its form's own fields, by the names the API gives them (no bookkeeping).
pub fn audited(r: &pr::Model) -> serde_json::Value {
    use serde_json::{json, Value};
    let mut fields = match serde_json::from_str::<Value>(&r.details) {
        Ok(Value::Object(details)) => details,
        _ => serde_json::Map::new(),
    };
    for (name, value) in [
        ("status", json!(r.status.as_str())),
        ("participationId", json!(r.participation_id)),
        ("description", json!(r.description)),
        ("requestedAmount", json!(Money(r.requested_cents))),
        ("approvedAmount", json!(r.approved_cents.map(Money))),
        ("approvalCodeId", json!(r.approval_code_id)),
        ("fundId", json!(r.fund_id)),
        ("expenseAccountId", json!(r.expense_account_id)),
        ("fiscalYearId", json!(r.fiscal_year_id)),
        ("submittedOn", json!(r.submitted_on)),
        ("placementEndDate", json!(r.placement_end_date)),
        ("activityStart", json!(r.activity_start)),
        ("activityEnd", json!(r.activity_end)),
        (
            "approvedPayee",
            json!(super::facts::payee_approved(r)
                .map(|p| json!({"name": p.name, "address": p.address, "email": p.email}))),
        ),
    ] {
        fields.insert(name.to_owned(), value);
    }
    Value::Object(fields)
}

/// The request's activity-log entry, in the transaction of its change: the status it moved
/// `from` and `to`, the comment, and for the audit trail the request as it was and is
/// (`rows`; null where it did not exist), of which the entry keeps the fields that differ,
/// the comment among them.
pub async fn log(
    db: &impl ConnectionTrait,
    by: &crate::audit::Actor,
    (id, action): (i32, &str),
    (from, to, comment): (Option<Status>, Option<Status>, Option<String>),
    data: serde_json::Value,
    rows: Option<(Option<&pr::Model>, Option<&pr::Model>)>,
) -> ApiResult<()> {
    let change = rows.map(|(before, after)| {
        let fields = |r: Option<&pr::Model>| r.map_or(serde_json::Value::Null, audited);
        let (was, mut is) = crate::audit::fields::changed(&fields(before), &fields(after));
        // The comment, and an approval step's line ("Step 1 of 3, …, approved by …").
        let step = data.get("step").and_then(|s| s.get("line")).cloned();
        for (name, value) in
            [("comment", comment.clone().map(serde_json::Value::from)), ("approvalStep", step)]
        {
            if let Some(value) = value {
                if !is.is_object() {
                    is = serde_json::json!({});
                }
                is[name] = value;
            }
        }
        (was, is)
    });
    activity::record(
        db,
        by,
        activity::Entry {
            entity_type: ENTITY,
            entity_id: id,
            action,
            from_status: from.map(|s| s.as_str().to_owned()),
            to_status: to.map(|s| s.as_str().to_owned()),
            comment,
            data: Some(data),
            change,
        },
    )
    .await
}

/// A new draft from checked input; its id.
pub async fn insert_draft(
    txn: &impl ConnectionTrait,
    form: FormType,
    c: &Checked,
    by: i32,
    now: DateTime<Utc>,
) -> ApiResult<i32> {
    let (start, end) = c.evaluated.activity_dates.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    let inserted = pr::Entity::insert(pr::ActiveModel {
        form_type: Set(form),
        status: Set(Status::Draft),
        participation_id: Set(c.participation.id),
        mentor_program_id: Set(c.participation.mentor_program_id),
        participant_id: Set(c.participation.participant_id),
        description: Set(c.description.clone()),
        requested_cents: Set(c.evaluated.requested_amount.cents()),
        approved_cents: Set(None),
        approval_code_id: Set(None),
        fund_id: Set(c.fund_id),
        expense_account_id: Set(c.expense_account_id),
        fiscal_year_id: Set(None),
        submitted_on: Set(None),
        submitted_by: Set(None),
        approved_at: Set(None),
        approved_by: Set(None),
        placement_end_date: Set(c.evaluated.placement_end_date),
        activity_start: Set(start),
        activity_end: Set(end),
        details: Set(c.details.to_json()),
        version: Set(1),
        created_at: Set(now),
        created_by: Set(Some(by)),
        updated_at: Set(now),
        updated_by: Set(Some(by)),
        deleted_at: Set(None),
        ..Default::default()
    })
    .exec(txn)
    .await?;
    let id = inserted.last_insert_id;
    Ok(id)
}

/// The requests `ids` from one of `sources` to `to`, in one statement: how many moved.
pub async fn move_all(
    txn: &impl ConnectionTrait,
    ids: &[i32],
    sources: &[Status],
    to: Status,
    by: i32,
    now: DateTime<Utc>,
) -> ApiResult<u64> {
    let done = pr::Entity::update_many()
        .col_expr(pr::Column::Status, Expr::value(to))
        .col_expr(pr::Column::Version, Expr::col(pr::Column::Version).add(1))
        .col_expr(pr::Column::UpdatedAt, Expr::value(now))
        .col_expr(pr::Column::UpdatedBy, Expr::value(by))
        .filter(pr::Column::Id.is_in(ids.to_vec()))
        .filter(pr::Column::Status.is_in(sources.iter().copied()))
        .filter(pr::Column::DeletedAt.is_null())
        .exec(txn)
        .await?;
    Ok(done.rows_affected)
}

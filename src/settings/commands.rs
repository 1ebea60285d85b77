//! Every action that changes the settings, one function each, owning its transaction: what
//! stands is read inside it, the change is written, and its activity entry (`note_setting`:
//! the setting before and after) is written there before the commit.

use chrono::NaiveDate;
use sea_orm::{ConnectionTrait, DatabaseConnection, EntityTrait};
use serde_json::{json, Value};

use super::{dto::*, rules, store};
use crate::{
    activity,
    auth::{tokens::TokenKeys, CurrentUser},
    entities::{coordinator_login_block, fiscal_year, general_setting},
    error::{ApiError, ApiResult},
};

/// The activity entry of a settings change, with the setting before and after (null where
/// it did not exist).
async fn note_setting(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    (id, action): (i32, &str),
    (before, after): (&Value, &Value),
    data: Value,
) -> ApiResult<()> {
    activity::note_change(txn, ("setting", id), action, &me.into(), (before, after), data).await
}

/// A fiscal year's open or closed state as the audit trail records it.
fn year_state(y: &fiscal_year::Model) -> Value {
    json!({
        "status": if y.closed_at.is_some() { "Closed" } else { "Open" },
        "closeReason": y.close_reason,
    })
}

/// The whole banner list, in display order: banners left out are deleted.
pub async fn replace_banners(
    db: &DatabaseConnection,
    me: &CurrentUser,
    body: &[BannerInput],
) -> ApiResult<Vec<BannerDto>> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let existing = store::banners(&txn).await?;
    let existing_ids: Vec<i32> = existing.iter().map(|b| b.id).collect();
    let messages = rules::check_banners(body, &existing_ids)?;
    store::replace_banners(&txn, body, messages, now).await?;
    let after: Vec<BannerDto> =
        store::banners(&txn).await?.into_iter().map(store::banner_dto).collect();
    let before: Vec<BannerDto> = existing.into_iter().map(store::banner_dto).collect();
    let (was, is) = (json!({"banners": before}), json!({"banners": after}));
    let data = json!({"before": before, "after": after});
    note_setting(&txn, me, (0, "notification-banners-replaced"), (&was, &is), data).await?;
    txn.commit().await?;
    Ok(after)
}

/// A new fiscal year with a checked `name`: it must neither overlap another nor share its name.
pub async fn create_fiscal_year(
    db: &DatabaseConnection,
    me: &CurrentUser,
    name: &str,
    (start, end): (NaiveDate, NaiveDate),
) -> ApiResult<fiscal_year::Model> {
    let txn = crate::db::write(db).await?;
    let existing = store::fiscal_years(&txn).await?;
    let ranges: Vec<rules::YearRange> = existing
        .iter()
        .map(|y| rules::YearRange { name: &y.name, start: y.start_date, end: y.end_date })
        .collect();
    rules::check_fiscal_year_range(start, end, &ranges)?;
    rules::check_fiscal_year_name_free(name, &ranges)?;
    let created = store::insert_fiscal_year(&txn, name, start, end).await?;
    let data =
        json!({"name": created.name, "startDate": created.start_date, "endDate": created.end_date});
    note_setting(
        &txn,
        me,
        (created.id, "fiscal-year-created"),
        (&Value::Null, &data),
        data.clone(),
    )
    .await?;
    txn.commit().await?;
    Ok(created)
}

/// Closes (`closing`) or reopens a fiscal year with a checked reason: the year after.
pub async fn close_or_reopen_fiscal_year(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    closing: bool,
    reason: String,
) -> ApiResult<fiscal_year::Model> {
    let state = |closed: bool| Some(if closed { "Closed" } else { "Open" }.to_owned());
    let txn = crate::db::write(db).await?;
    let before = store::get_fiscal_year(&txn, id).await?;
    rules::check_close_move(closing, (&before).into())?;
    let closed = closing.then(|| (crate::clock::now(), me.id(), reason.clone()));
    store::set_closed(&txn, id, closed).await?;
    let action = if closing { "fiscal-year-closed" } else { "fiscal-year-reopened" };
    let after = store::get_fiscal_year(&txn, id).await?;
    let (mut was, mut is) = (year_state(&before), year_state(&after));
    // Why it moved, on the side it moved to (a reopening clears the closing reason).
    was["reason"] = Value::Null;
    is["reason"] = json!(reason);
    activity::record(
        &txn,
        &me.into(),
        activity::Entry {
            entity_type: "fiscal-year",
            entity_id: id,
            action,
            from_status: state(!closing),
            to_status: state(closing),
            comment: Some(reason.clone()),
            data: Some(json!({"name": before.name, "reason": reason})),
            change: Some(crate::audit::fields::changed(&was, &is)),
        },
    )
    .await?;
    txn.commit().await?;
    Ok(after)
}

/// The general settings, based on `version` (a later one is a 409).
pub async fn update_general(
    db: &DatabaseConnection,
    keys: &TokenKeys,
    me: &CurrentUser,
    (id, version): (i32, i32),
    v: &rules::GeneralValues,
) -> ApiResult<general_setting::Model> {
    let txn = crate::db::write(db).await?;
    let before = general_setting::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::not_found("The general settings"))?;
    rules::check_reminders(
        v.reminder_days.unwrap_or(before.reminder_days),
        v.escalation_days.unwrap_or(before.escalation_days),
    )?;
    // One conditional update: of two saves based on the same version exactly one wins.
    if !store::save_general(&txn, id, version, v).await? {
        return Err(ApiError::Stale(format!(
            "The general settings were changed by someone else (version {} is current, the change was based on {version}). Reload and try again.",
            before.version
        )));
    }
    let after = store::general(&txn).await?;
    let (was, is) =
        (json!(store::general_dto(before, keys)), json!(store::general_dto(after.clone(), keys)));
    let data = json!({"before": was, "after": is});
    note_setting(&txn, me, (id, "general-updated"), (&was, &is), data).await?;
    txn.commit().await?;
    Ok(after)
}

/// Every form's limits at once.
pub async fn replace_limits(
    db: &DatabaseConnection,
    me: &CurrentUser,
    values: &[rules::LimitValues],
) -> ApiResult<Vec<FormLimitDto>> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let before: Vec<FormLimitDto> =
        store::limits(&txn).await?.into_iter().map(store::limit_dto).collect();
    store::save_limits(&txn, values, now).await?;
    let after: Vec<FormLimitDto> =
        store::limits(&txn).await?.into_iter().map(store::limit_dto).collect();
    let (was, is) = (json!({"limits": before}), json!({"limits": after}));
    let data = json!({"before": before, "after": after});
    note_setting(&txn, me, (0, "form-validation-limits-updated"), (&was, &is), data).await?;
    txn.commit().await?;
    Ok(after)
}

/// Blocks or opens Coordinators' sign-in, with the message they are shown.
pub async fn set_login_block(
    db: &DatabaseConnection,
    me: &CurrentUser,
    is_blocked: bool,
    message: Option<String>,
) -> ApiResult<coordinator_login_block::Model> {
    let state = |blocked: bool| Some(if blocked { "Blocked" } else { "Open" }.to_owned());
    let txn = crate::db::write(db).await?;
    let before = store::login_block(&txn).await?;
    store::save_login_block(&txn, is_blocked, message).await?;
    let after = store::login_block(&txn).await?;
    // A block ends the sign-ins it shuts out, in its own transaction: lifting it later
    // does not bring back a session that was open when it came.
    let sessions_ended = if after.is_blocked {
        store::end_shut_out_sessions(&txn, crate::clock::now()).await?
    } else {
        0
    };
    let action =
        if after.is_blocked { "coordinator-login-blocked" } else { "coordinator-login-unblocked" };
    activity::record(
        &txn,
        &me.into(),
        activity::Entry {
            entity_type: "setting",
            entity_id: store::SINGLE_ROW_ID,
            action,
            from_status: state(before.is_blocked),
            to_status: state(after.is_blocked),
            data: Some(json!({"message": after.message, "usersSignedOut": sessions_ended})),
            change: Some({
                let (was, mut is) = crate::audit::fields::changed(
                    &json!({"isBlocked": before.is_blocked, "message": before.message}),
                    &json!({"isBlocked": after.is_blocked, "message": after.message}),
                );
                if sessions_ended > 0 {
                    is["usersSignedOut"] = json!(sessions_ended);
                }
                (was, is)
            }),
            ..Default::default()
        },
    )
    .await?;
    txn.commit().await?;
    tracing::info!(target: "audit", user_id = me.id(), blocked = after.is_blocked, "coordinator sign-in block changed");
    Ok(after)
}

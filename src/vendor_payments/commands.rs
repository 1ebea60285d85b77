//! The generation: the one command of this area. It pays the selected ready requests
//! exactly once, in one transaction, and freezes what it paid.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, DatabaseConnection, EntityTrait, Set};
use serde_json::json;

use super::{
    queries::{read_sources, sources, Selection, CHUNK},
    rules,
};
use crate::{
    activity,
    auth::CurrentUser,
    entities::{vendor_payment_report as report, vendor_payment_report_row as frozen},
    error::{ApiError, ApiResult},
    money::Money,
    payment_requests::{
        store::{self as requests, ENTITY as REQUEST_ENTITY},
        workflow::{Action, Status},
    },
};

/// Who hears of a generation: the requests' creators (a payment run), or nobody (the demo
/// world telling how its past requests were paid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Told {
    Creators,
    Nobody,
}

/// Generates a report now, telling the requests' creators.
pub async fn generate(
    db: &DatabaseConnection,
    me: &CurrentUser,
    selection: &Selection,
    expected: (i64, Money),
) -> ApiResult<report::Model> {
    generate_at(db, me, selection, expected, crate::clock::now(), Told::Creators).await
}

/// Generates a report in ONE transaction: the history entry, its frozen rows, every
/// included request moved ReadyForProcessing -> Processed by a conditional update, and an
/// activity-log entry per request naming the entry, all dated `now`. A preview that changed
/// since the user saw it (`expected`) is a 409 and nothing is written; nothing to pay is a 422.
pub async fn generate_at(
    db: &DatabaseConnection,
    me: &CurrentUser,
    selection: &Selection,
    expected: (i64, Money),
    now: DateTime<Utc>,
    told: Told,
) -> ApiResult<report::Model> {
    let txn = crate::db::write(db).await?;
    // Written first, on purpose: on SQLite the first write takes the database's write
    // lock (waiting its turn), so nothing read below can change before commit and no
    // read snapshot goes stale. PostgreSQL relies on the conditional update below.
    let entry = report::ActiveModel {
        fiscal_year_id: Set(selection.fiscal_year_id),
        start_date: Set(selection.range.start),
        end_date: Set(selection.range.end),
        minutes_offset: Set(selection.range.minutes_offset),
        row_count: Set(0),
        total_cents: Set(0),
        created_at: Set(now),
        created_by: Set(me.id()),
        created_by_name: Set(format!("{} {}", me.user.first_name, me.user.last_name)
            .trim()
            .to_owned()),
        ..Default::default()
    }
    .insert(&txn)
    .await?;

    let rows = read_sources(&txn, &sources(selection)).await?;
    let total = rows
        .iter()
        .try_fold(Money::ZERO, |sum, (_, r)| sum.checked_add(r.amount))
        .ok_or_else(|| ApiError::Internal("total overflows".into()))?;
    rules::confirm(expected, (rows.len() as i64, total))?;

    let ids: Vec<i32> = rows.iter().map(|(_, r)| r.request_id).collect();
    // Paying is the workflow's last step, for every request of the report at once.
    let (from, to) = (Action::Process.sources(|_| true), Action::Process.target());
    let to = to.ok_or_else(|| ApiError::Internal("processing leads nowhere".into()))?;
    let mut moved = 0;
    for chunk in ids.chunks(CHUNK) {
        moved += requests::writes::move_all(&txn, chunk, &from, to, me.id(), now).await?;
    }
    if moved != ids.len() as u64 {
        // Another action took some of them meanwhile: pay none (rolled back on drop).
        return Err(ApiError::Conflict("Some of these requests changed meanwhile; nothing was generated. Review the preview again.".into()));
    }

    let frozen_rows: Vec<frozen::ActiveModel> = rows
        .iter()
        .enumerate()
        .map(|(i, (program, r))| frozen::ActiveModel {
            report_id: Set(entry.id),
            position: Set(i as i32 + 1),
            payment_request_id: Set(r.request_id),
            mentor_program_id: Set(*program),
            form_type: Set(r.form_type),
            payee: Set(r.payee.clone()),
            payee_address: Set(r.payee_address.clone()),
            approved_at: Set(r.approved_at),
            approval_code: Set(r.approval_code.clone()),
            fund: Set(r.fund.clone()),
            expense_account: Set(r.expense_account.clone()),
            amount_cents: Set(r.amount.cents()),
            ..Default::default()
        })
        .collect();
    for chunk in frozen_rows.chunks(CHUNK / 10) {
        frozen::Entity::insert_many(chunk.to_vec())
            .exec(&txn)
            .await
            .map_err(|e| ApiError::unique_or_internal(e, "One of these requests was paid in another report meanwhile; nothing was generated."))?;
    }

    let comment = format!("Paid in vendor payment report #{}", entry.id);
    let entries: Vec<activity::Entry> = rows
        .iter()
        .map(|(_, r)| activity::Entry {
            entity_type: REQUEST_ENTITY,
            entity_id: r.request_id,
            action: "processed",
            from_status: Some(Status::ReadyForProcessing.as_str().to_owned()),
            to_status: Some(to.as_str().to_owned()),
            comment: Some(comment.clone()),
            data: Some(json!({"vendorPaymentReportId": entry.id, "approvedAmount": r.amount})),
            ..Default::default()
        })
        .collect();
    let actor = crate::audit::Actor::from(me);
    let generated = crate::audit::Change::new("vendor-payment", entry.id, "generated")
        .after(json!({"requests": rows.len()}));
    crate::audit::record(&txn, &actor, generated).await?;
    activity::record_many(&txn, &actor, entries, now).await?;
    if told == Told::Creators {
        crate::notifications::commands::requests_moved(
            &txn,
            me,
            &ids,
            Some(Status::ReadyForProcessing),
            Status::Processed,
            None,
        )
        .await?;
    }

    let mut entry: report::ActiveModel = entry.into();
    entry.row_count = Set(rows.len() as i32);
    entry.total_cents = Set(total.cents());
    let entry = entry.update(&txn).await?;
    txn.commit().await?;
    Ok(entry)
}

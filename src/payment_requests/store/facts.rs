//! What a write or an approval is judged on, read in the command's transaction: the
//! participation and payee, the form's rates and limits, the charged year, the budget left
//! on a line, look-alike requests.

use std::collections::HashMap;

use chrono::NaiveDate;
use sea_orm::{
    sea_query::{Expr, ExprTrait, Func, Query},
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::activity;
use crate::forms::{FormType, Limits, MealRates, Rates};
use crate::payment_requests::approval::{self, Facts, Proposal};
use crate::payment_requests::chain::TakenStep;
use crate::payment_requests::{
    payee::{self, Payee},
    workflow::CHARGED,
};
use crate::{
    entities::{
        activity_log, approval_code, budget_line, fiscal_year, participant, participation,
        payment_request as pr,
    },
    error::{ApiError, ApiResult},
    money::Money,
};

/// A participation requests may name: neither it nor its participant is deleted.
pub async fn live_participation(
    db: &impl ConnectionTrait,
    id: i32,
) -> ApiResult<Option<participation::Model>> {
    let participant_live = Query::select()
        .expr(Expr::val(1))
        .from(participant::Entity)
        .and_where(
            Expr::col((participant::Entity, participant::Column::Id))
                .equals((participation::Entity, participation::Column::ParticipantId)),
        )
        .and_where(Expr::col((participant::Entity, participant::Column::DeletedAt)).is_null())
        .to_owned();
    Ok(participation::Entity::find_by_id(id)
        .filter(participation::Column::DeletedAt.is_null())
        .filter(Expr::exists(participant_live))
        .one(db)
        .await?)
}

/// Whom `r` pays as its participant stands now: what approval copies into the request.
pub async fn payee_now(db: &impl ConnectionTrait, r: &pr::Model) -> ApiResult<Payee> {
    let p = participant::Entity::find_by_id(r.participant_id)
        .one(db)
        .await?
        .ok_or_else(|| ApiError::rule("participationId", "The request's participant is gone."))?;
    let person =
        payee::Person { name: &p.full_name, address: p.address.as_deref(), email: &p.email };
    Ok(payee::of(r.form_type, &r.details, person))
}

/// The payee approval copied into `r`, if it was approved.
pub fn payee_approved(r: &pr::Model) -> Option<Payee> {
    r.payee_name.as_ref().map(|name| Payee {
        name: name.clone(),
        address: r.payee_address.clone(),
        email: r.payee_email.clone(),
    })
}

/// The participation is still live, asked inside the transaction that submits a request
/// (create and edit read it in theirs, through `write_check`): writes are serialised
/// (`db::write`), so a participant deleted before the transaction is seen here and one
/// deleted after it sees the request.
pub async fn require_live_participation(txn: &impl ConnectionTrait, id: i32) -> ApiResult<()> {
    match live_participation(txn, id).await? {
        Some(_) => Ok(()),
        None => Err(ApiError::rule(
            "participationId",
            "The participation or its participant has been deleted.",
        )),
    }
}

pub async fn rates(db: &impl ConnectionTrait) -> ApiResult<Rates> {
    let g = crate::settings::store::general(db).await?;
    Ok(Rates {
        mileage: Money(g.mileage_rate_cents),
        meals: MealRates {
            breakfast: Money(g.breakfast_cents),
            lunch: Money(g.lunch_cents),
            dinner: Money(g.dinner_cents),
        },
    })
}

pub async fn limits(db: &impl ConnectionTrait, form: FormType) -> ApiResult<Limits> {
    let l = crate::settings::store::for_form(db, form.as_str()).await?;
    Ok(Limits {
        max_amount: l.max_amount,
        submission_window_days: l.submission_window_days,
        max_miles_per_trip: l.max_miles_per_trip,
        max_hours: l.max_hours,
        max_nights: l.max_nights,
    })
}

/// The fiscal year a request is charged to: the one it names (set on submission), or else the
/// one its submission date falls in (none for a draft).
pub async fn charged_year(
    db: &impl ConnectionTrait,
    fiscal_year_id: Option<i32>,
    submitted_on: Option<NaiveDate>,
) -> ApiResult<Option<fiscal_year::Model>> {
    match (fiscal_year_id, submitted_on) {
        (Some(id), _) => crate::settings::store::fiscal_year(db, id).await,
        (None, Some(day)) => crate::settings::store::fiscal_year_covering(db, day).await,
        (None, None) => Ok(None),
    }
}

/// What an approval reads of the database, read once in its transaction (or on the
/// connection, for `approve/validate`): the year it charges, the rules' facts, and the
/// request's approval chain.
pub struct ApprovalGround {
    /// The request's `charged_year`: checked open, judged, and written on approval.
    pub year: Option<fiscal_year::Model>,
    pub facts: Facts,
    pub chain: Vec<TakenStep>,
}

pub async fn approval_ground(
    db: &impl ConnectionTrait,
    r: &pr::Model,
    p: &Proposal,
    approver: i32,
) -> ApiResult<ApprovalGround> {
    let year = charged_year(db, r.fiscal_year_id, r.submitted_on).await?;
    let facts = approval_facts(db, r, p, year.as_ref(), approver).await?;
    let chain = super::steps::of(db, r.id).await?.iter().map(super::steps::taken).collect();
    Ok(ApprovalGround { year, facts, chain })
}

/// What the approval rules judge a proposal on (`year`: the request's `charged_year`).
async fn approval_facts(
    db: &impl ConnectionTrait,
    r: &pr::Model,
    p: &Proposal,
    year: Option<&fiscal_year::Model>,
    approver: i32,
) -> ApiResult<Facts> {
    let form = r.form_type;
    let budget_remaining = match year {
        Some(y) => {
            budget_remaining(db, y.id, r.mentor_program_id, p.fund_id, p.expense_account_id).await?
        }
        None => None,
    };
    Ok(Facts {
        form_type: form,
        requested_amount: Money(r.requested_cents),
        limits: limits(db, form).await?,
        approval_code_type: approval_code_type(db, p.approval_code_id).await?,
        fund_exists: crate::reference::store::is_active(db, "funds", p.fund_id).await?,
        expense_account_exists: crate::reference::store::is_active(
            db,
            "expense_accounts",
            p.expense_account_id,
        )
        .await?,
        submitted_on: r.submitted_on,
        fiscal_year: year.map(|y| y.name.clone()),
        fiscal_year_closed: year.is_some_and(|y| y.closed_at.is_some()),
        budget_remaining,
        activity_end: r.activity_end,
        duplicates: duplicates_of(db, r).await?,
        created_by: r.created_by,
        submitted_by: r.submitted_by,
        approver,
        edited_by_approver: edited_by(db, r.id, approver).await?,
    })
}

/// Whether `approver` changed what is paid, or to whom, since the request's last submission.
async fn edited_by(db: &impl ConnectionTrait, request_id: i32, approver: i32) -> ApiResult<bool> {
    let mut entries = activity(db, request_id).await?;
    entries.reverse();
    let material = |e: &activity_log::Model| {
        e.data
            .as_deref()
            .and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok())
            .is_some_and(|d| d["material"] == true)
    };
    let history: Vec<approval::Step> = entries
        .iter()
        .map(|e| approval::Step {
            action: &e.action,
            actor: e.actor_user_id,
            material: material(e),
        })
        .collect();
    Ok(approval::edited_since_submission(&history, approver))
}

pub async fn approval_code_type(db: &impl ConnectionTrait, id: i32) -> ApiResult<Option<FormType>> {
    Ok(approval_code::Entity::find_by_id(id)
        .filter(approval_code::Column::IsActive.eq(true))
        .one(db)
        .await?
        .map(|c| c.payment_request_type))
}

/// Budgeted − approved on one line; `None` when the year has no such line.
pub async fn budget_remaining(
    db: &impl ConnectionTrait,
    year: i32,
    program: i32,
    fund_id: i32,
    account: i32,
) -> ApiResult<Option<Money>> {
    let line = budget_line::Entity::find()
        .filter(budget_line::Column::FiscalYearId.eq(year))
        .filter(budget_line::Column::MentorProgramId.eq(program))
        .filter(budget_line::Column::FundId.eq(fund_id))
        .filter(budget_line::Column::ExpenseAccountId.eq(account))
        .one(db)
        .await?;
    let Some(line) = line else { return Ok(None) };
    let approved =
        approved_by_line(db, year).await?.get(&(program, fund_id, account)).copied().unwrap_or(0);
    Ok(Some(Money(line.amount_cents - approved)))
}

/// Program, fund, expense account and the sum of their approved cents.
type LineSum = (Option<i32>, Option<i32>, Option<i32>, Option<i64>);

/// Approved cents per (program, fund, expense account) charged to `fiscal_year_id`:
/// live requests in Approved, ReadyForProcessing or Processed.
pub async fn approved_by_line(
    db: &impl ConnectionTrait,
    fiscal_year_id: i32,
) -> ApiResult<HashMap<(i32, i32, i32), i64>> {
    let rows: Vec<LineSum> = pr::Entity::find()
        .select_only()
        .column(pr::Column::MentorProgramId)
        .column(pr::Column::FundId)
        .column(pr::Column::ExpenseAccountId)
        // PostgreSQL sums a BIGINT as NUMERIC; cast back so both backends answer an i64.
        .column_as(
            Expr::expr(Func::cast_as(Expr::col(pr::Column::ApprovedCents).sum(), "BIGINT")),
            "approved",
        )
        .filter(pr::Column::FiscalYearId.eq(fiscal_year_id))
        .filter(pr::Column::Status.is_in(CHARGED))
        .filter(pr::Column::DeletedAt.is_null())
        .group_by(pr::Column::MentorProgramId)
        .group_by(pr::Column::FundId)
        .group_by(pr::Column::ExpenseAccountId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().filter_map(|(p, f, a, s)| Some(((p?, f?, a?), s.unwrap_or(0)))).collect())
}

/// Other live requests with the same payee, form type, amount and activity dates.
pub async fn duplicates_of(db: &impl ConnectionTrait, r: &pr::Model) -> ApiResult<Vec<i32>> {
    let (Some(start), Some(end)) = (r.activity_start, r.activity_end) else { return Ok(vec![]) };
    Ok(pr::Entity::find()
        .select_only()
        .column(pr::Column::Id)
        .filter(pr::Column::ParticipantId.eq(r.participant_id))
        .filter(pr::Column::FormType.eq(r.form_type))
        .filter(pr::Column::ActivityStart.eq(start))
        .filter(pr::Column::ActivityEnd.eq(end))
        .filter(pr::Column::RequestedCents.eq(r.requested_cents))
        .filter(pr::Column::Id.ne(r.id))
        .filter(pr::Column::DeletedAt.is_null())
        .order_by_asc(pr::Column::Id)
        .into_tuple()
        .all(db)
        .await?)
}

//! A stored request as its caller sees it: the wire shapes with the actions open to them.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::{
    approval,
    chain::{self, TakenStep},
    dto::{
        ApprovalDto, ApprovalStepDto, ClosedYearNote, FileDto, PaymentRequestDto,
        PaymentRequestListItem, UserRefDto,
    },
    store,
    workflow::{self, Action, Status},
};
use crate::{
    auth::{CurrentUser, Permission},
    entities::{fiscal_year, payment_request as pr, user},
    error::ApiResult,
    forms::{Details, FormType},
    money::Money,
    settings::year_lock,
};

/// What `me` may do to `r` now (the self-approval rule included), with `r`'s chain: approve
/// only when its current step is hers to take; nothing its closed year refuses.
pub fn available(
    me: &CurrentUser,
    r: &pr::Model,
    steps: &[TakenStep],
    takers: &super::takers::Takers,
    year_closed: bool,
) -> Vec<Action> {
    let mut actions = open_actions(me, (r.status, year_closed), r.created_by, r.submitted_by);
    if !steps.is_empty() {
        let request =
            chain::RequestFacts { created_by: r.created_by, submitted_by: r.submitted_by };
        if chain::may_take_as(steps, &takers.me, &takers.absent, &request).is_err() {
            actions.retain(|a| *a != Action::Approve);
        }
    }
    actions
}

/// A request's chain as its body shows it; `None` without one.
async fn approval_of(
    db: &impl ConnectionTrait,
    rows: &[crate::entities::request_step::Model],
) -> ApiResult<Option<ApprovalDto>> {
    if rows.is_empty() {
        return Ok(None);
    }
    let ids: Vec<i32> =
        rows.iter().flat_map(|s| [s.by_user_id, s.on_behalf_of]).flatten().collect();
    let users: std::collections::HashMap<i32, UserRefDto> = user::Entity::find()
        .filter(user::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|u| {
            let full_name = format!("{} {}", u.first_name, u.last_name);
            (u.id, UserRefDto { id: u.id, email: u.email, full_name })
        })
        .collect();
    let of = |id: Option<i32>| id.and_then(|id| users.get(&id).cloned());
    let steps = rows
        .iter()
        .map(|s| ApprovalStepDto {
            name: s.name.clone(),
            role: s.role.clone(),
            state: store::steps::taken(s).state,
            by: of(s.by_user_id),
            at: s.at,
            on_behalf_of: of(s.on_behalf_of),
            approved_amount: s.approved_cents.map(Money),
        })
        .collect();
    Ok(Some(ApprovalDto { steps }))
}

/// `(status, year_closed)`: the request's status, and whether the year it charges is closed.
fn open_actions(
    me: &CurrentUser,
    (status, year_closed): (Status, bool),
    created_by: Option<i32>,
    submitted_by: Option<i32>,
) -> Vec<Action> {
    let has = |p: Permission| me.has(p);
    let own = approval::is_own(me.id(), created_by, submitted_by);
    let actions = workflow::available(status, has)
        .into_iter()
        .filter(|a| !(own && *a == Action::Approve))
        .collect();
    workflow::in_year(actions, year_closed)
}

/// The day a request's year is found by when it names none: its submission, else today (what
/// the commands charge, `commands::require_open_year`).
fn charging_day(submitted_on: Option<chrono::NaiveDate>) -> chrono::NaiveDate {
    submitted_on.unwrap_or_else(crate::clock::today)
}

/// The note a request of the closed year `y` carries; none while `y` is open.
fn closed_note(y: Option<&fiscal_year::Model>) -> Option<ClosedYearNote> {
    let y = y.filter(|y| y.closed_at.is_some())?;
    Some(ClosedYearNote {
        fiscal_year_id: y.id,
        name: y.name.clone(),
        message: year_lock::request_notice(&y.name),
    })
}

pub async fn to_dto(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    r: pr::Model,
) -> ApiResult<PaymentRequestDto> {
    let form = r.form_type;
    let details = Details::from_stored(form, &r.details)?;
    let files = if form == FormType::F2 {
        Some(store::files::files_of(db, r.id).await?.into_iter().map(FileDto::from).collect())
    } else {
        None
    };
    let vendor_payment_report_id =
        if r.status == Status::Processed { store::paid_in(db, r.id).await? } else { None };
    let rows = store::steps::of(db, r.id).await?;
    let steps: Vec<TakenStep> = rows.iter().map(store::steps::taken).collect();
    let takers = super::takers::load(db, me, r.mentor_program_id).await?;
    let year = store::facts::charged_year(db, r.fiscal_year_id, Some(charging_day(r.submitted_on)))
        .await?;
    let closed_year = closed_note(year.as_ref());
    Ok(PaymentRequestDto {
        vendor_payment_report_id,
        available_actions: available(me, &r, &steps, &takers, closed_year.is_some()),
        closed_year,
        approval: approval_of(db, &rows).await?,
        id: r.id,
        form_type: form,
        form_status: r.status,
        participation_id: r.participation_id,
        payee_id: r.participant_id,
        mentor_program_id: r.mentor_program_id,
        description: r.description,
        requested_amount: Money(r.requested_cents),
        approved_amount: r.approved_cents.map(Money),
        approval_code_id: r.approval_code_id,
        fund_id: r.fund_id,
        expense_account_id: r.expense_account_id,
        fiscal_year_id: r.fiscal_year_id,
        submitted_on: r.submitted_on,
        placement_end_date: r.placement_end_date,
        approved_at: r.approved_at,
        approved_by: r.approved_by,
        version: r.version,
        created_at: r.created_at,
        created_by: r.created_by,
        updated_at: r.updated_at,
        updated_by: r.updated_by,
        details,
        files,
    })
}

/// A list row; `years`: every fiscal year, read once for the page, to leave out the actions a
/// closed one refuses.
pub fn to_list_item(
    me: &CurrentUser,
    years: &[fiscal_year::Model],
    r: store::list::ListRow,
) -> ApiResult<PaymentRequestListItem> {
    let year = year_lock::year_of(years, r.fiscal_year_id, charging_day(r.submitted_on));
    let closed = year.is_some_and(|y| y.closed_at.is_some());
    Ok(PaymentRequestListItem {
        receipt_count: r.receipt_count,
        available_actions: open_actions(me, (r.status, closed), r.created_by, r.submitted_by),
        id: r.id,
        form_type: r.form_type,
        form_status: r.status,
        participation_id: r.participation_id,
        payee_id: r.participant_id,
        mentor_program_id: r.mentor_program_id,
        description: r.description,
        requested_amount: Money(r.requested_cents),
        approved_amount: r.approved_cents.map(Money),
        submitted_on: r.submitted_on,
        placement_end_date: r.placement_end_date,
        approved_at: r.approved_at,
        version: r.version,
        updated_at: r.updated_at,
    })
}

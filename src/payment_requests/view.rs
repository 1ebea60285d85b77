//! A stored request as its caller sees it: the wire shapes with the actions open to them.

use sea_orm::ConnectionTrait;

use super::{
    approval,
    dto::{FileDto, PaymentRequestDto, PaymentRequestListItem},
    store,
    workflow::{self, Action, Status},
};
use crate::{
    auth::{CurrentUser, Permission},
    entities::payment_request as pr,
    error::ApiResult,
    forms::{Details, FormType},
    money::Money,
};

/// What `me` may do to `r` now (the self-approval rule included).
pub fn available(me: &CurrentUser, r: &pr::Model) -> Vec<Action> {
    open_actions(me, r.status, r.created_by, r.submitted_by)
}

fn open_actions(
    me: &CurrentUser,
    status: Status,
    created_by: Option<i32>,
    submitted_by: Option<i32>,
) -> Vec<Action> {
    let has = |p: Permission| me.has(p);
    let own = approval::is_own(me.id(), created_by, submitted_by);
    workflow::available(status, has)
        .into_iter()
        .filter(|a| !(own && *a == Action::Approve))
        .collect()
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
    Ok(PaymentRequestDto {
        vendor_payment_report_id,
        available_actions: available(me, &r),
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

pub fn to_list_item(
    me: &CurrentUser,
    r: store::list::ListRow,
) -> ApiResult<PaymentRequestListItem> {
    Ok(PaymentRequestListItem {
        available_actions: open_actions(me, r.status, r.created_by, r.submitted_by),
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

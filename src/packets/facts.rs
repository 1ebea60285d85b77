//! The reads behind a packet: a request's facts (its names, people, form fields, log and
//! receipts), and a vendor payment's cover and requests in row order, as the caller's
//! scope sees them.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::sheet::{CoverFacts, RequestFacts};
use crate::reports::details::{self, ReferenceNames};
use crate::{
    auth::{scope::Scope, CurrentUser},
    entities::{
        approval_code, participation, payment_request as pr, user,
        vendor_payment_report_row as frozen,
    },
    error::ApiResult,
    money::Money,
    payment_requests::store as requests,
};
use crate::{reports::query::names_by_id, vendor_payments::dto::HistoryEntry};

/// Names of the reference lists a request points into, read once per packet.
pub struct Names {
    programs: HashMap<i32, String>,
    funds: HashMap<i32, String>,
    accounts: HashMap<i32, String>,
    colleges: HashMap<i32, String>,
    years: HashMap<i32, String>,
    references: ReferenceNames,
}

impl Names {
    pub async fn load(db: &impl ConnectionTrait) -> ApiResult<Names> {
        let [programs, funds, accounts, colleges, years] = names_by_id(
            db,
            ["mentor_programs", "funds", "expense_accounts", "colleges", "fiscal_years"],
        )
        .await?;
        // The receipts are listed and appended on their own, not as a details field.
        let references = ReferenceNames::load(db, false).await?;
        Ok(Names { programs, funds, accounts, colleges, years, references })
    }
}

fn name(names: &HashMap<i32, String>, id: Option<i32>) -> Option<String> {
    id.map(|id| names.get(&id).cloned().unwrap_or_else(|| format!("#{id}")))
}

/// Full names of these users, by id.
async fn people(db: &impl ConnectionTrait, ids: Vec<i32>) -> ApiResult<HashMap<i32, String>> {
    let users = user::Entity::find().filter(user::Column::Id.is_in(ids)).all(db).await?;
    Ok(users
        .into_iter()
        .map(|u| (u.id, format!("{} {}", u.first_name, u.last_name).trim().to_owned()))
        .collect())
}

/// Everything the packet of `r` shows.
pub async fn request(
    db: &impl ConnectionTrait,
    names: &Names,
    r: pr::Model,
) -> ApiResult<RequestFacts> {
    // Once approved, the payee approval copied: what the vendor payment paid.
    let payee = match requests::facts::payee_approved(&r) {
        Some(approved) => approved,
        None => requests::facts::payee_now(db, &r).await?,
    };
    let participation = participation::Entity::find_by_id(r.participation_id).one(db).await?;
    let code = match r.approval_code_id {
        Some(id) => approval_code::Entity::find_by_id(id)
            .one(db)
            .await?
            .map(|c| crate::text::coded(c.code.as_deref(), &c.name)),
        None => None,
    };
    let mut activity = requests::activity(db, r.id).await?;
    activity.reverse();
    let mut ids: Vec<i32> = activity.iter().filter_map(|e| e.actor_user_id).collect();
    ids.extend([r.created_by, r.updated_by, r.submitted_by, r.approved_by].into_iter().flatten());
    let steps = requests::steps::of(db, r.id).await?;
    ids.extend(steps.iter().flat_map(|s| [s.by_user_id, s.on_behalf_of]).flatten());
    ids.sort_unstable();
    ids.dedup();
    let form = r.form_type;
    let fields = details::fields(form);
    let cells = details::cells(form, &r.details, &fields, &names.references)?;
    let details = fields
        .iter()
        .zip(cells)
        // The receipts are listed, and appended, on their own.
        .filter(|(f, _)| f.key != details::RECEIPTS)
        .map(|(f, c)| (details::header(f), c.printed(0)))
        .collect();
    Ok(RequestFacts {
        payee,
        program: name(&names.programs, Some(r.mentor_program_id)),
        college: name(&names.colleges, participation.and_then(|p| p.college_id)),
        fiscal_year: name(&names.years, r.fiscal_year_id),
        approval_code: code,
        fund: name(&names.funds, r.fund_id),
        expense_account: name(&names.accounts, r.expense_account_id),
        people: people(db, ids).await?,
        details,
        activity,
        receipts: requests::files::files_of(db, r.id).await?,
        paid_in: requests::paid_in(db, r.id).await?,
        steps,
        request: r,
    })
}

/// A request of a vendor payment, by id, whatever has happened to it since.
pub async fn paid_request(db: &impl ConnectionTrait, id: i32) -> ApiResult<Option<pr::Model>> {
    Ok(pr::Entity::find_by_id(id).one(db).await?)
}

/// The cover of a vendor payment's packet and its requests in row order, as `scope`
/// sees them.
pub async fn cover(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    scope: &Scope,
    entry: &HistoryEntry,
) -> ApiResult<(CoverFacts, Vec<i32>)> {
    let mut select = frozen::Entity::find().filter(frozen::Column::ReportId.eq(entry.id));
    if let Some(programs) = scope.program_ids() {
        select = select.filter(frozen::Column::MentorProgramId.is_in(programs));
    }
    let rows = select.order_by_asc(frozen::Column::Position).all(db).await?;
    let ids = rows.iter().map(|r| r.payment_request_id).collect();
    let rows = rows
        .into_iter()
        .map(|r| {
            [
                crate::text::request_ref(r.form_type.as_str(), r.payment_request_id.into()),
                r.payee,
                Money(r.amount_cents).dollars(),
            ]
        })
        .collect();
    let facts = CoverFacts {
        report_id: entry.id,
        fiscal_year: entry
            .fiscal_year_name
            .clone()
            .unwrap_or_else(|| format!("#{}", entry.fiscal_year_id)),
        start: entry.start_date,
        end: entry.end_date,
        row_count: entry.row_count,
        total: entry.total_amount,
        created_by: entry.created_by_name.clone(),
        created_at: entry.created_at,
        printed_by: format!("{} {}", me.user.first_name, me.user.last_name).trim().to_owned(),
        printed_at: crate::clock::now(),
        rows,
    };
    Ok((facts, ids))
}

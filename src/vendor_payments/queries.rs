//! Vendor payment queries: what a preview would pay, the history and its frozen rows.
//! Callers pass a connection or a transaction.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Alias, Condition, Expr, ExprTrait, Func, Order, Query, SelectStatement},
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use super::{
    dto::{
        HistoryEntry, HistoryTotals, OutsideRange, PayeeChange, ReadyYear, RowTotals,
        VendorPaymentRow,
    },
    rules::{self, Range},
};
use crate::{
    auth::scope::Scope,
    entities::{
        approval_code, expense_account, fund, participant, payment_request as pr,
        vendor_payment_report as report, vendor_payment_report_row as frozen,
    },
    error::{ApiError, ApiResult},
    forms::FormType,
    money::Money,
    payment_requests::{
        payee::{self, Payee},
        workflow::Status,
    },
    web::Paging,
};

/// `CAST(COALESCE(SUM(col), 0) AS BIGINT)`: an i64 on every backend (PostgreSQL sums
/// bigints as numeric).
fn sum_i64(col: Expr) -> Expr {
    Expr::expr(Func::coalesce([col.sum(), Expr::val(0i64)])).cast_as(Alias::new("BIGINT"))
}

/// Rows read or written per statement: far below every backend's bound-parameter limit.
pub(super) const CHUNK: usize = 500;

/// Which ready requests a preview or a generation pays: live, ReadyForProcessing,
/// charged to `year`, approved within the local days of `range`, in the caller's scope.
#[derive(Debug, Clone)]
pub struct Selection {
    pub fiscal_year_id: i32,
    pub range: Range,
    pub scope: Scope,
}

impl Selection {
    fn condition(&self) -> Condition {
        let (from, until) = self.range.bounds();
        let col = |c: pr::Column| Expr::col((pr::Entity, c));
        self.year_condition()
            .add(col(pr::Column::ApprovedAt).gte(from))
            .add(col(pr::Column::ApprovedAt).lt(until))
    }

    /// The ready requests of the year in scope that the range leaves out.
    fn outside_condition(&self) -> Condition {
        let (from, until) = self.range.bounds();
        let col = |c: pr::Column| Expr::col((pr::Entity, c));
        self.year_condition().add(
            Condition::any()
                .add(col(pr::Column::ApprovedAt).lt(from))
                .add(col(pr::Column::ApprovedAt).gte(until)),
        )
    }

    /// Live, ready, charged to the year, in the caller's scope: every filter but the days.
    fn year_condition(&self) -> Condition {
        let col = |c: pr::Column| Expr::col((pr::Entity, c));
        let mut c = Condition::all()
            .add(col(pr::Column::Status).eq(Status::ReadyForProcessing))
            .add(col(pr::Column::FiscalYearId).eq(self.fiscal_year_id))
            .add(col(pr::Column::DeletedAt).is_null());
        if let Some(programs) = self.scope.program_ids() {
            c = c.add(col(pr::Column::MentorProgramId).is_in(programs));
        }
        c
    }
}

/// A ready request with everything its row shows, read live.
#[derive(Debug, FromQueryResult)]
pub(super) struct Source {
    id: i32,
    form_type: FormType,
    details: String,
    mentor_program_id: i32,
    approved_at: Option<DateTime<Utc>>,
    approved_cents: Option<i64>,
    payee_name: Option<String>,
    payee_address: Option<String>,
    payee_email: Option<String>,
    full_name: Option<String>,
    address: Option<String>,
    email: Option<String>,
    approval_code: Option<String>,
    approval_name: Option<String>,
    fund_name: Option<String>,
    account_code: Option<String>,
    account_name: Option<String>,
}

impl Source {
    /// Whom the request pays as its participant stands now.
    fn payee_now(&self) -> Payee {
        let person = payee::Person {
            name: self.full_name.as_deref().unwrap_or(""),
            address: self.address.as_deref(),
            email: self.email.as_deref().unwrap_or(""),
        };
        payee::of(self.form_type, &self.details, person)
    }

    /// The payee approval copied (a request approved before the copy existed has none).
    fn payee_approved(&self) -> Option<Payee> {
        self.payee_name.as_ref().map(|name| Payee {
            name: name.clone(),
            address: self.payee_address.clone(),
            email: self.payee_email.clone(),
        })
    }

    /// What changed of the payee since approval, in words, if anything did.
    fn payee_change(&self) -> Option<PayeeChange> {
        let (approved, now) = (self.payee_approved()?, self.payee_now());
        let changed = payee::changed(&approved, &now)?;
        Some(PayeeChange {
            request_id: self.id,
            form_type: self.form_type,
            message: format!(
                "The payee's {changed} changed since approval: approved for {}, now {}. It is paid as approved; send it back for revision if the change should be paid.",
                described(&approved),
                described(&now)
            ),
            approved_payee: approved.name,
            approved_address: approved.address,
            payee: now.name,
            payee_address: now.address,
        })
    }

    pub(super) fn row(&self) -> (i32, VendorPaymentRow) {
        // Paid as approved.
        let payee = self.payee_approved().unwrap_or_else(|| self.payee_now());
        let row = VendorPaymentRow {
            payee: payee.name,
            payee_address: payee.address,
            request_id: self.id,
            form_type: self.form_type,
            // Always set on a ready request (approval sets it); the epoch never shows in practice.
            approved_at: self.approved_at.unwrap_or_default(),
            approval_code: rules::approval_code_label(
                self.approval_code.as_deref(),
                self.approval_name.as_deref(),
            ),
            fund: self.fund_name.clone(),
            expense_account: self
                .account_name
                .as_deref()
                .map(|name| crate::text::coded(self.account_code.as_deref(), name)),
            amount: Money(self.approved_cents.unwrap_or(0)),
        };
        (self.mentor_program_id, row)
    }
}

pub(super) fn sources(selection: &Selection) -> SelectStatement {
    let a = Alias::new;
    Query::select()
        .column((pr::Entity, pr::Column::Id))
        .column((pr::Entity, pr::Column::FormType))
        .column((pr::Entity, pr::Column::Details))
        .column((pr::Entity, pr::Column::MentorProgramId))
        .column((pr::Entity, pr::Column::ApprovedAt))
        .column((pr::Entity, pr::Column::ApprovedCents))
        .column((pr::Entity, pr::Column::PayeeName))
        .column((pr::Entity, pr::Column::PayeeAddress))
        .column((pr::Entity, pr::Column::PayeeEmail))
        .expr_as(Expr::col((participant::Entity, participant::Column::FullName)), a("full_name"))
        .expr_as(Expr::col((participant::Entity, participant::Column::Address)), a("address"))
        .expr_as(Expr::col((participant::Entity, participant::Column::Email)), a("email"))
        .expr_as(
            Expr::col((approval_code::Entity, approval_code::Column::Code)),
            a("approval_code"),
        )
        .expr_as(
            Expr::col((approval_code::Entity, approval_code::Column::Name)),
            a("approval_name"),
        )
        .expr_as(Expr::col((fund::Entity, fund::Column::Name)), a("fund_name"))
        .expr_as(
            Expr::col((expense_account::Entity, expense_account::Column::Code)),
            a("account_code"),
        )
        .expr_as(
            Expr::col((expense_account::Entity, expense_account::Column::Name)),
            a("account_name"),
        )
        .from(pr::Entity)
        .left_join(
            participant::Entity,
            Expr::col((participant::Entity, participant::Column::Id))
                .equals((pr::Entity, pr::Column::ParticipantId)),
        )
        .left_join(
            approval_code::Entity,
            Expr::col((approval_code::Entity, approval_code::Column::Id))
                .equals((pr::Entity, pr::Column::ApprovalCodeId)),
        )
        .left_join(
            fund::Entity,
            Expr::col((fund::Entity, fund::Column::Id)).equals((pr::Entity, pr::Column::FundId)),
        )
        .left_join(
            expense_account::Entity,
            Expr::col((expense_account::Entity, expense_account::Column::Id))
                .equals((pr::Entity, pr::Column::ExpenseAccountId)),
        )
        .cond_where(selection.condition())
        // Oldest approval first; the id keeps equal times in one order.
        .order_by((pr::Entity, pr::Column::ApprovedAt), Order::Asc)
        .order_by((pr::Entity, pr::Column::Id), Order::Asc)
        .to_owned()
}

pub(super) async fn read_sources(
    db: &impl ConnectionTrait,
    stmt: &SelectStatement,
) -> ApiResult<Vec<(i32, VendorPaymentRow)>> {
    let mut out = Vec::new();
    for r in db.query_all(stmt).await? {
        out.push(Source::from_query_result(&r, "")?.row());
    }
    Ok(out)
}

/// Count and sum of what `selection` would pay now.
pub async fn preview_totals(
    db: &impl ConnectionTrait,
    selection: &Selection,
) -> ApiResult<RowTotals> {
    totals_where(db, selection.condition()).await
}

/// Count and sum of the ready requests of the selection's year that its days leave out.
pub async fn outside_totals(
    db: &impl ConnectionTrait,
    selection: &Selection,
) -> ApiResult<OutsideRange> {
    let t = totals_where(db, selection.outside_condition()).await?;
    Ok(OutsideRange { count: t.count, amount: t.amount })
}

async fn totals_where(db: &impl ConnectionTrait, condition: Condition) -> ApiResult<RowTotals> {
    let stmt = Query::select()
        .expr(Expr::col((pr::Entity, pr::Column::Id)).count())
        .expr(sum_i64(Expr::col((pr::Entity, pr::Column::ApprovedCents))))
        .from(pr::Entity)
        .cond_where(condition)
        .to_owned();
    let row = db
        .query_one(&stmt)
        .await?
        .ok_or_else(|| ApiError::Internal("count answered nothing".into()))?;
    Ok(RowTotals {
        count: row.try_get_by_index::<i64>(0)?,
        amount: Money(row.try_get_by_index::<i64>(1)?),
    })
}

/// How many of a preview's changed payees it lists: a run with more waits on the office.
const CHANGES_LISTED: u64 = 100;

/// The requests of `selection` whose payee changed since approval (the first
/// [`CHANGES_LISTED`], oldest approval first). The database keeps only the rows whose copy
/// differs from the participant at all; the payee rule then decides (an F9's vendor).
pub async fn payee_changes(
    db: &impl ConnectionTrait,
    selection: &Selection,
) -> ApiResult<Vec<PayeeChange>> {
    let differs = |copy: pr::Column, live: participant::Column| {
        let text = |e: Expr| Expr::expr(Func::coalesce([e, Expr::val("")]));
        text(Expr::col((pr::Entity, copy))).ne(text(Expr::col((participant::Entity, live))))
    };
    let stmt = sources(selection)
        .and_where(Expr::col((pr::Entity, pr::Column::PayeeName)).is_not_null())
        .cond_where(
            Condition::any()
                .add(differs(pr::Column::PayeeName, participant::Column::FullName))
                .add(differs(pr::Column::PayeeAddress, participant::Column::Address))
                .add(differs(pr::Column::PayeeEmail, participant::Column::Email)),
        )
        .to_owned();
    let mut out = Vec::new();
    for r in db.query_all(&stmt).await? {
        if let Some(change) = Source::from_query_result(&r, "")?.payee_change() {
            out.push(change);
            if out.len() as u64 == CHANGES_LISTED {
                break;
            }
        }
    }
    Ok(out)
}

/// "Pat Lee, 1 Main St" (or the name alone).
fn described(p: &Payee) -> String {
    match p.address.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
        Some(a) => format!("{}, {a}", p.name),
        None => p.name.clone(),
    }
}

/// `limit` preview rows from `offset` on: a page, or an export's next chunk.
pub async fn preview_chunk(
    db: &impl ConnectionTrait,
    selection: &Selection,
    offset: u64,
    limit: u64,
) -> ApiResult<Vec<VendorPaymentRow>> {
    let stmt = sources(selection).offset(offset).limit(limit).to_owned();
    Ok(read_sources(db, &stmt).await?.into_iter().map(|(_, r)| r).collect())
}

// ---- history ----

async fn fiscal_year_names(db: &impl ConnectionTrait) -> ApiResult<HashMap<i32, String>> {
    Ok(crate::settings::store::fiscal_years(db)
        .await?
        .into_iter()
        .map(|y| (y.id, y.name))
        .collect())
}

/// Per entry, the count and sum of the rows the scope sees (a Coordinator sees its
/// programs' share of each entry, and only entries that hold some).
async fn scoped_counts(
    db: &impl ConnectionTrait,
    programs: Vec<i32>,
    report_id: Option<i32>,
) -> ApiResult<HashMap<i32, RowTotals>> {
    let mut select = frozen::Entity::find()
        .select_only()
        .column(frozen::Column::ReportId)
        .column_as(Expr::col(frozen::Column::Id).count(), "n")
        .column_as(sum_i64(Expr::col(frozen::Column::AmountCents)), "cents")
        .filter(frozen::Column::MentorProgramId.is_in(programs))
        .group_by(frozen::Column::ReportId);
    if let Some(id) = report_id {
        select = select.filter(frozen::Column::ReportId.eq(id));
    }
    let rows: Vec<(i32, i64, i64)> = select.into_tuple().all(db).await?;
    Ok(rows
        .into_iter()
        .map(|(id, n, cents)| (id, RowTotals { count: n, amount: Money(cents) }))
        .collect())
}

fn whole(r: &report::Model) -> RowTotals {
    RowTotals { count: r.row_count as i64, amount: Money(r.total_cents) }
}

/// History entries the caller sees, newest first, one page, with what was paid per fiscal year over all of them.
pub async fn history(
    db: &impl ConnectionTrait,
    scope: &Scope,
    paging: Paging,
) -> ApiResult<(Vec<HistoryEntry>, u64, Vec<HistoryTotals>)> {
    let names = fiscal_year_names(db).await?;
    let newest_first = || {
        report::Entity::find()
            .order_by_desc(report::Column::CreatedAt)
            .order_by_desc(report::Column::Id)
    };
    let entry = |r: report::Model, t: RowTotals| {
        let name = names.get(&r.fiscal_year_id).cloned();
        HistoryEntry::new(r, name, t)
    };
    let order = oldest_first(db).await?;
    let per_year = |sums: Vec<(i32, i64, i64)>| -> Vec<HistoryTotals> {
        let at = |year: i32| order.iter().position(|(id, _)| *id == year);
        let mut years: Vec<HistoryTotals> = sums
            .into_iter()
            .map(|(year, rows, cents)| HistoryTotals {
                fiscal_year_id: year,
                fiscal_year_name: names.get(&year).cloned(),
                row_count: rows,
                total_amount: Money(cents),
            })
            .collect();
        years.sort_by_key(|t| at(t.fiscal_year_id));
        years
    };
    match scope.program_ids() {
        None => {
            let total = report::Entity::find().count(db).await?;
            let sums: Vec<(i32, i64, i64)> = report::Entity::find()
                .select_only()
                .column(report::Column::FiscalYearId)
                .column_as(sum_i64(Expr::col(report::Column::RowCount)), "rows")
                .column_as(sum_i64(Expr::col(report::Column::TotalCents)), "cents")
                .group_by(report::Column::FiscalYearId)
                .into_tuple()
                .all(db)
                .await?;
            let page = newest_first().offset(paging.offset()).limit(paging.size).all(db).await?;
            let items = page
                .into_iter()
                .map(|r| {
                    let t = whole(&r);
                    entry(r, t)
                })
                .collect();
            Ok((items, total, per_year(sums)))
        }
        Some(programs) => {
            // Entries are few (one per payment run): the scoped share is summed here.
            let counts = scoped_counts(db, programs, None).await?;
            let ids: Vec<i32> = counts.keys().copied().collect();
            let year_of: Vec<(i32, i32)> = report::Entity::find()
                .select_only()
                .columns([report::Column::Id, report::Column::FiscalYearId])
                .filter(report::Column::Id.is_in(ids.clone()))
                .into_tuple()
                .all(db)
                .await?;
            let mut sums: HashMap<i32, (i64, i64)> = HashMap::new();
            for (id, year) in year_of {
                let s = sums.entry(year).or_default();
                s.0 += counts[&id].count;
                s.1 += counts[&id].amount.cents();
            }
            let totals = per_year(sums.into_iter().map(|(y, (n, c))| (y, n, c)).collect());
            let total = ids.len() as u64;
            let page = newest_first()
                .filter(report::Column::Id.is_in(ids))
                .offset(paging.offset())
                .limit(paging.size)
                .all(db)
                .await?;
            let items = page
                .into_iter()
                .map(|r| {
                    let t = counts[&r.id];
                    entry(r, t)
                })
                .collect();
            Ok((items, total, totals))
        }
    }
}

/// Per fiscal year, the live requests ready for processing in the caller's scope (the
/// years with none left out), oldest year first: where a generation has work waiting.
pub async fn ready_by_year(db: &impl ConnectionTrait, scope: &Scope) -> ApiResult<Vec<ReadyYear>> {
    let col = |c: pr::Column| Expr::col((pr::Entity, c));
    let mut q = Query::select();
    q.from(pr::Entity)
        .expr(col(pr::Column::FiscalYearId))
        .expr(col(pr::Column::Id).count())
        .expr(sum_i64(col(pr::Column::ApprovedCents)))
        .expr(col(pr::Column::ApprovedAt).min())
        .expr(col(pr::Column::ApprovedAt).max())
        .and_where(col(pr::Column::Status).eq(Status::ReadyForProcessing))
        .and_where(col(pr::Column::DeletedAt).is_null())
        .and_where(col(pr::Column::FiscalYearId).is_not_null())
        .group_by_col((pr::Entity, pr::Column::FiscalYearId));
    if let Some(programs) = scope.program_ids() {
        q.and_where(col(pr::Column::MentorProgramId).is_in(programs));
    }
    type Waiting = (i64, i64, Option<DateTime<Utc>>, Option<DateTime<Utc>>);
    let mut waiting: HashMap<i32, Waiting> = HashMap::new();
    for r in db.query_all(&q).await? {
        let of = |i| r.try_get_by_index::<Option<DateTime<Utc>>>(i);
        let counts = (r.try_get_by_index(1)?, r.try_get_by_index(2)?);
        waiting.insert(r.try_get_by_index(0)?, (counts.0, counts.1, of(3)?, of(4)?));
    }
    Ok(oldest_first(db)
        .await?
        .into_iter()
        .filter_map(|(id, name)| {
            let (count, cents, first, last) = waiting.remove(&id)?;
            // A ready request always carries its approval time.
            let (first, last) = (first.unwrap_or_default(), last.unwrap_or_default());
            Some(ReadyYear {
                fiscal_year_id: id,
                fiscal_year_name: name,
                count,
                amount: Money(cents),
                first_approved_at: first,
                last_approved_at: last,
            })
        })
        .collect())
}

/// Every fiscal year (id, name), the earliest first.
async fn oldest_first(db: &impl ConnectionTrait) -> ApiResult<Vec<(i32, String)>> {
    let mut years = crate::settings::store::fiscal_years(db).await?;
    years.reverse();
    Ok(years.into_iter().map(|y| (y.id, y.name)).collect())
}

/// One history entry the caller sees (404 otherwise), with the share of it they see.
pub async fn entry(db: &impl ConnectionTrait, scope: &Scope, id: i32) -> ApiResult<HistoryEntry> {
    let not_found = || ApiError::not_found("The vendor payment report");
    let r = report::Entity::find_by_id(id).one(db).await?.ok_or_else(not_found)?;
    let totals = match scope.program_ids() {
        None => whole(&r),
        Some(programs) => {
            *scoped_counts(db, programs, Some(id)).await?.get(&id).ok_or_else(not_found)?
        }
    };
    let name = crate::settings::store::fiscal_year(db, r.fiscal_year_id).await?.map(|y| y.name);
    Ok(HistoryEntry::new(r, name, totals))
}

/// `limit` frozen rows of an entry from `offset` on, in their order, as the scope sees them.
pub async fn frozen_rows(
    db: &impl ConnectionTrait,
    scope: &Scope,
    report_id: i32,
    offset: u64,
    limit: u64,
) -> ApiResult<Vec<VendorPaymentRow>> {
    let mut select = frozen::Entity::find().filter(frozen::Column::ReportId.eq(report_id));
    if let Some(programs) = scope.program_ids() {
        select = select.filter(frozen::Column::MentorProgramId.is_in(programs));
    }
    let rows =
        select.order_by_asc(frozen::Column::Position).offset(offset).limit(limit).all(db).await?;
    Ok(rows.into_iter().map(VendorPaymentRow::from).collect())
}

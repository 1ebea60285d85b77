//! Payment request queries. Callers pass a connection or a transaction.

use std::collections::HashMap;

use chrono::{NaiveDate, NaiveTime, Utc};
use sea_orm::{
    sea_query::{Expr, ExprTrait, Func},
    ColumnTrait, Condition, ConnectionTrait, DbBackend, EntityTrait, Order, QueryFilter, QueryOrder, QuerySelect, QueryTrait,
};

use super::{
    dto::{ListQuery, StatusSummary},
    forms::{FormType, Limits, MealRates, Rates, Reference},
    workflow::Status,
};
use crate::{
    auth::scope::Scope,
    entities::{
        activity_log, approval_code, budget_line, expense_account, fiscal_year, fund, participation, payment_request as pr, payment_request_total as pr_total,
        uploaded_file,
    },
    error::{ApiError, ApiResult},
    money::Money,
    web::{count_at_most, Count, Paging},
};

pub const ENTITY: &str = "payment_request";

/// Statuses whose approved amount is charged to the budget.
pub const CHARGED: [Status; 3] = [Status::Approved, Status::ReadyForProcessing, Status::Processed];

/// A live request of `form` with `id` the caller's scope may see; 404 otherwise (an
/// unknown id, a deleted request, another form type and another program look the same).
pub async fn find_visible(db: &impl ConnectionTrait, scope: &Scope, form: FormType, id: i32) -> ApiResult<pr::Model> {
    pr::Entity::find_by_id(id)
        .filter(pr::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .filter(|r| r.form_type == form.as_str() && scope.allows_program(r.mentor_program_id))
        .ok_or_else(|| ApiError::not_found("The payment request"))
}

/// A live request in a program of `scope`, whatever its form type (404 otherwise).
pub async fn visible_by_id(db: &impl ConnectionTrait, scope: &Scope, id: i32) -> ApiResult<pr::Model> {
    pr::Entity::find_by_id(id)
        .filter(pr::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .filter(|r| scope.allows_program(r.mentor_program_id))
        .ok_or_else(|| ApiError::not_found("The payment request"))
}

pub async fn live_participation(db: &impl ConnectionTrait, id: i32) -> ApiResult<Option<participation::Model>> {
    Ok(participation::Entity::find_by_id(id).filter(participation::Column::DeletedAt.is_null()).one(db).await?)
}

pub async fn rates(db: &impl ConnectionTrait) -> ApiResult<Rates> {
    let g = crate::settings::store::general(db).await?;
    Ok(Rates {
        mileage: Money(g.mileage_rate_cents),
        meals: MealRates { breakfast: Money(g.breakfast_cents), lunch: Money(g.lunch_cents), dinner: Money(g.dinner_cents) },
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

pub async fn fiscal_year_covering(db: &impl ConnectionTrait, day: NaiveDate) -> ApiResult<Option<fiscal_year::Model>> {
    Ok(fiscal_year::Entity::find()
        .filter(fiscal_year::Column::StartDate.lte(day))
        .filter(fiscal_year::Column::EndDate.gte(day))
        .one(db)
        .await?)
}

pub async fn fiscal_year_name(db: &impl ConnectionTrait, id: i32) -> ApiResult<Option<String>> {
    Ok(fiscal_year::Entity::find_by_id(id).one(db).await?.map(|y| y.name))
}

pub async fn approval_code_type(db: &impl ConnectionTrait, id: i32) -> ApiResult<Option<String>> {
    Ok(approval_code::Entity::find_by_id(id).filter(approval_code::Column::IsActive.eq(true)).one(db).await?.map(|c| c.payment_request_type))
}

pub async fn fund_exists(db: &impl ConnectionTrait, id: i32) -> ApiResult<bool> {
    Ok(fund::Entity::find_by_id(id).filter(fund::Column::IsActive.eq(true)).one(db).await?.is_some())
}

pub async fn expense_account_exists(db: &impl ConnectionTrait, id: i32) -> ApiResult<bool> {
    Ok(expense_account::Entity::find_by_id(id).filter(expense_account::Column::IsActive.eq(true)).one(db).await?.is_some())
}

/// Budgeted − approved on one line; `None` when the year has no such line.
pub async fn budget_remaining(db: &impl ConnectionTrait, year: i32, program: i32, fund_id: i32, account: i32) -> ApiResult<Option<Money>> {
    let line = budget_line::Entity::find()
        .filter(budget_line::Column::FiscalYearId.eq(year))
        .filter(budget_line::Column::MentorProgramId.eq(program))
        .filter(budget_line::Column::FundId.eq(fund_id))
        .filter(budget_line::Column::ExpenseAccountId.eq(account))
        .one(db)
        .await?;
    let Some(line) = line else { return Ok(None) };
    let approved = approved_by_line(db, year).await?.get(&(program, fund_id, account)).copied().unwrap_or(0);
    Ok(Some(Money(line.amount_cents - approved)))
}

/// Program, fund, expense account and the sum of their approved cents.
type LineSum = (Option<i32>, Option<i32>, Option<i32>, Option<i64>);

/// Approved cents per (program, fund, expense account) charged to `fiscal_year_id`:
/// live requests in Approved, ReadyForProcessing or Processed.
pub async fn approved_by_line(db: &impl ConnectionTrait, fiscal_year_id: i32) -> ApiResult<HashMap<(i32, i32, i32), i64>> {
    let rows: Vec<LineSum> = pr::Entity::find()
        .select_only()
        .column(pr::Column::MentorProgramId)
        .column(pr::Column::FundId)
        .column(pr::Column::ExpenseAccountId)
        // PostgreSQL sums a BIGINT as NUMERIC; cast back so both backends answer an i64.
        .column_as(Expr::expr(Func::cast_as(Expr::col(pr::Column::ApprovedCents).sum(), "BIGINT")), "approved")
        .filter(pr::Column::FiscalYearId.eq(fiscal_year_id))
        .filter(pr::Column::Status.is_in(CHARGED.map(Status::as_str)))
        .filter(pr::Column::DeletedAt.is_null())
        .group_by(pr::Column::MentorProgramId)
        .group_by(pr::Column::FundId)
        .group_by(pr::Column::ExpenseAccountId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(p, f, a, s)| Some(((p?, f?, a?), s.unwrap_or(0))))
        .collect())
}

/// Other live requests with the same payee, form type, amount and activity dates.
pub async fn duplicates_of(db: &impl ConnectionTrait, r: &pr::Model) -> ApiResult<Vec<i32>> {
    let (Some(start), Some(end)) = (r.activity_start, r.activity_end) else { return Ok(vec![]) };
    Ok(pr::Entity::find()
        .select_only()
        .column(pr::Column::Id)
        .filter(pr::Column::ParticipantId.eq(r.participant_id))
        .filter(pr::Column::FormType.eq(r.form_type.clone()))
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

pub async fn files_of(db: &impl ConnectionTrait, request_id: i32) -> ApiResult<Vec<uploaded_file::Model>> {
    Ok(uploaded_file::Entity::find()
        .filter(uploaded_file::Column::PaymentRequestId.eq(request_id))
        .filter(uploaded_file::Column::DeletedAt.is_null())
        .order_by_asc(uploaded_file::Column::CreatedAt)
        .all(db)
        .await?)
}

pub async fn files_by_ids(db: &impl ConnectionTrait, ids: &[String]) -> ApiResult<Vec<uploaded_file::Model>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    Ok(uploaded_file::Entity::find().filter(uploaded_file::Column::Id.is_in(ids.to_vec())).all(db).await?)
}

/// The statuses and form types of a list query, checked (400 naming the field).
pub fn parse_list_filters(q: &ListQuery) -> ApiResult<(Vec<Status>, Vec<FormType>)> {
    let mut statuses = Vec::new();
    for s in &q.formstatus {
        statuses.push(Status::parse(s).ok_or_else(|| ApiError::bad_field("FormStatus", format!("unknown status '{s}'")))?);
    }
    let mut forms = Vec::new();
    for f in &q.formtype {
        forms.push(FormType::parse(f).ok_or_else(|| ApiError::bad_field("FormType", format!("unknown form type '{f}'")))?);
    }
    if let (Some(a), Some(b)) = (q.approvedstart, q.approvedend) {
        if b < a {
            // One parameter against another: a rule, not a shape (docs/api.md).
            return Err(ApiError::rule("ApprovedEnd", "must not be before ApprovedStart"));
        }
    }
    Ok((statuses, forms))
}

/// The checked filters of `GET /payment-requests`.
pub struct ListFilter<'a> {
    pub query: &'a ListQuery,
    pub scope: &'a Scope,
    pub statuses: &'a [Status],
    pub forms: &'a [FormType],
}

impl ListFilter<'_> {
    /// Everything but program, scope and status: the filters the kept totals cannot answer.
    fn row_filters(&self) -> Condition {
        let q = self.query;
        let mut c = Condition::all();
        if let Some(p) = q.participationid {
            c = c.add(pr::Column::ParticipationId.eq(p));
        }
        if !self.forms.is_empty() {
            c = c.add(pr::Column::FormType.is_in(self.forms.iter().map(|f| f.as_str())));
        }
        if let Some(d) = q.approvedstart {
            c = c.add(pr::Column::ApprovedAt.gte(d.and_time(NaiveTime::MIN).and_utc()));
        }
        if let Some(d) = q.approvedend {
            let next = d.succ_opt().unwrap_or(d).and_time(NaiveTime::MIN).and_utc();
            c = c.add(pr::Column::ApprovedAt.lt(next));
        }
        if let Some(d) = q.placementenddate {
            c = c.add(pr::Column::PlacementEndDate.lte(d));
        }
        c
    }

    /// Every filter of the list (the details export reuses it).
    pub fn condition(&self) -> Condition {
        let mut c = Condition::all().add(pr::Column::DeletedAt.is_null());
        if let Some(programs) = self.scope.program_ids() {
            c = c.add(pr::Column::MentorProgramId.is_in(programs));
        }
        if let Some(p) = self.query.mentorprogramid {
            c = c.add(pr::Column::MentorProgramId.eq(p));
        }
        if !self.statuses.is_empty() {
            c = c.add(pr::Column::Status.is_in(self.statuses.iter().map(|s| s.as_str())));
        }
        let rows = self.row_filters();
        if rows.is_empty() { c } else { c.add(rows) }
    }
}

/// The list's order: the three sort flags in that order, then newest first (a stable
/// order within equal sort keys).
pub fn list_order(q: &ListQuery) -> Vec<(pr::Column, Order)> {
    let dir = |asc: bool| if asc { Order::Asc } else { Order::Desc };
    let mut order = Vec::new();
    if let Some(asc) = q.issubmittedonsortedascending {
        order.push((pr::Column::SubmittedOn, dir(asc)));
    }
    if let Some(asc) = q.isplacementenddatesortedascending {
        order.push((pr::Column::PlacementEndDate, dir(asc)));
    }
    if let Some(asc) = q.isapprovedamountsortedascending {
        order.push((pr::Column::ApprovedCents, dir(asc)));
    }
    order.push((pr::Column::Id, Order::Desc));
    order
}

/// A page of the list and its count. The page's ids are chosen first from the filter and
/// sort indexes alone (a sort then carries ids, not whole rows), and only those rows are
/// read; the count comes from the kept totals when they can answer it, otherwise it stops
/// at the bound past the page ([`Paging::count_limit`]).
pub async fn list(db: &impl ConnectionTrait, f: &ListFilter<'_>, paging: Paging) -> ApiResult<(Vec<pr::Model>, Count)> {
    let q = f.query;
    let cond = f.condition();
    // Each sort column may be NULL (not submitted, no placement, not approved).
    let keys = list_order(q);
    let ordered = |mut select: sea_orm::Select<pr::Entity>| {
        for (column, order) in &keys {
            select = select.order_by_with_nulls(*column, order.clone(), crate::web::nulls_for(order));
        }
        select
    };
    let page_ids = ordered(pr::Entity::find().select_only().column(pr::Column::Id).filter(cond.clone()))
        .offset(paging.offset())
        .limit(paging.size)
        .into_query();
    let select = ordered(pr::Entity::find().filter(pr::Column::Id.in_subquery(page_ids)));
    let rows = match pinned_index(db.get_database_backend(), f, &keys) {
        Some(index) => {
            let mut stmt = select.build(DbBackend::Sqlite);
            stmt.sql = pin_page_index(&stmt.sql, index);
            pr::Entity::find().from_raw_sql(stmt).all(db).await?
        }
        None => select.all(db).await?,
    };
    // Only program, scope and status filters: the kept totals answer the count.
    let total = if f.row_filters().is_empty() {
        let n: i64 = totals(db, f.scope, q.mentorprogramid, f.statuses).await?.iter().map(|t| t.request_count).sum();
        Count::exact(u64::try_from(n).unwrap_or(0))
    } else {
        count_at_most(db, pr::Entity::find().filter(cond), paging.count_limit()).await?
    };
    Ok((rows, total))
}

/// The index a page of the list must walk on SQLite, where the planner (no statistics)
/// picks a worse one. One program and one status in submission order: it takes
/// `(status, submitted_on)`, already in order, and reads every row of that status to check
/// the program (three times the page, 36 ms at page 100 of a million rows), where
/// `(program, deleted_at, status, submitted_on, …)` holds exactly the page's entries
/// (docs/benchmarks.md, issue 15). PostgreSQL keeps statistics and needs no pin.
fn pinned_index(backend: DbBackend, f: &ListFilter<'_>, keys: &[(pr::Column, Order)]) -> Option<&'static str> {
    let one_program = f.query.mentorprogramid.is_some();
    let submission_order = matches!(keys.first(), Some((pr::Column::SubmittedOn, _)));
    (backend == DbBackend::Sqlite && one_program && f.statuses.len() == 1 && f.forms.is_empty() && submission_order)
        .then_some("ix_payment_requests_program_status_form")
}

/// The page query's inner id select (the first `FROM` after `IN (SELECT`) with `INDEXED BY
/// index`. Unchanged if the shape is not found: the same rows, the planner's own plan.
fn pin_page_index(sql: &str, index: &str) -> String {
    const INNER: &str = r#"IN (SELECT "payment_requests"."id" FROM "payment_requests""#;
    match sql.find(INNER) {
        Some(at) => format!(r#"{} INDEXED BY "{index}"{}"#, &sql[..at + INNER.len()], &sql[at + INNER.len()..]),
        None => sql.to_owned(),
    }
}

/// The kept per program × status totals (migration 000031) the caller may see.
async fn totals(db: &impl ConnectionTrait, scope: &Scope, program: Option<i32>, statuses: &[Status]) -> ApiResult<Vec<pr_total::Model>> {
    let mut select = pr_total::Entity::find();
    if let Some(programs) = scope.program_ids() {
        select = select.filter(pr_total::Column::MentorProgramId.is_in(programs));
    }
    if let Some(p) = program {
        select = select.filter(pr_total::Column::MentorProgramId.eq(p));
    }
    if !statuses.is_empty() {
        select = select.filter(pr_total::Column::Status.is_in(statuses.iter().map(|s| s.as_str())));
    }
    Ok(select.all(db).await?)
}

pub async fn summary(db: &impl ConnectionTrait, scope: &Scope, program: Option<i32>) -> ApiResult<Vec<StatusSummary>> {
    let rows = totals(db, scope, program, &[]).await?;
    Ok(Status::ALL
        .into_iter()
        .map(|s| {
            let of_status = rows.iter().filter(|r| r.status == s.as_str());
            let (count, requested, approved) =
                of_status.fold((0, 0, 0), |(c, r, a), t| (c + t.request_count, r + t.requested_cents, a + t.approved_cents));
            StatusSummary { form_status: s, count, requested_amount: Money(requested), approved_amount: Money(approved) }
        })
        .collect())
}

pub async fn activity(db: &impl ConnectionTrait, request_id: i32) -> ApiResult<Vec<activity_log::Model>> {
    Ok(activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq(ENTITY))
        .filter(activity_log::Column::EntityId.eq(request_id))
        .order_by_desc(activity_log::Column::CreatedAt)
        .order_by_desc(activity_log::Column::Id)
        .all(db)
        .await?)
}

pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

/// Whether a details field points at a live, active entry of its reference list.
pub async fn reference_exists(db: &impl ConnectionTrait, list: Reference, id: i32) -> ApiResult<bool> {
    use sea_orm::sea_query::{Alias, Query};
    if list == Reference::FiscalYear {
        return Ok(fiscal_year::Entity::find_by_id(id).one(db).await?.is_some());
    }
    let table = match list {
        Reference::College => "colleges",
        Reference::TravelPurpose => "travel_purposes",
        Reference::TransitType => "transit_types",
        Reference::TrainingType => "training_types",
        Reference::Institution => "institutions",
        Reference::JobCategory => "job_categories",
        Reference::FiscalYear => unreachable!(),
    };
    // The reference lists share one generic shape (src/reference/) without an entity each.
    let select = Query::select()
        .expr(Expr::val(1))
        .from(Alias::new(table))
        .and_where(Expr::col(Alias::new("id")).eq(id))
        .and_where(Expr::col(Alias::new("is_active")).eq(true))
        .to_owned();
    let stmt = db.get_database_backend().build(&select);
    Ok(db.query_one_raw(stmt).await?.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_index_pin_lands_on_the_inner_id_select() {
        // The same shape `list` builds: ids chosen by the filter, then their rows.
        let ids = pr::Entity::find().select_only().column(pr::Column::Id).filter(pr::Column::MentorProgramId.eq(3)).limit(25).into_query();
        let sql = pr::Entity::find().filter(pr::Column::Id.in_subquery(ids)).build(DbBackend::Sqlite).sql;
        let pinned = pin_page_index(&sql, "ix_payment_requests_program_status_form");
        assert_eq!(pinned.matches("INDEXED BY").count(), 1, "{pinned}");
        assert!(
            pinned.contains(r#"IN (SELECT "payment_requests"."id" FROM "payment_requests" INDEXED BY "ix_payment_requests_program_status_form" WHERE"#),
            "{pinned}"
        );
        assert_eq!(pin_page_index("SELECT 1", "ix"), "SELECT 1");
    }
}

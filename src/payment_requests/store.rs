//! Payment request queries. Callers pass a connection or a transaction.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use sea_orm::{
    sea_query::{Alias, Asterisk, Expr, ExprTrait, Func, Query, SelectStatement, UnionType},
    ActiveValue::Set,
    ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, DerivePartialModel, EntityTrait,
    Order, PartialModelTrait, QueryFilter, QueryOrder, QuerySelect, QueryTrait,
};

use super::approval::{self, Facts, Proposal};
use super::{
    dto::{ListQuery, StatusSummary},
    workflow::{Status, CHARGED},
};
use crate::forms::{self, Details, FormType, Limits, MealRates, Rates};
use crate::{
    activity,
    auth::scope::Scope,
    db::sqlite_speed::pin::{self, PageIndex},
    entities::{
        activity_log, approval_code, budget_line, fiscal_year, participant, participation,
        payment_request as pr, payment_request_total as pr_total, uploaded_file,
    },
    error::{ApiError, ApiResult},
    money::Money,
    routes::ScopeFuture,
    web::{count_at_most, Count, Paging},
};

pub const ENTITY: &str = "payment_request";

/// A live request of `form` with `id` the caller's scope may see; 404 otherwise (an
/// unknown id, a deleted request, another form type and another program look the same).
pub async fn find_visible(
    db: &impl ConnectionTrait,
    scope: &Scope,
    form: FormType,
    id: i32,
) -> ApiResult<pr::Model> {
    Some(visible_by_id(db, scope, id).await?)
        .filter(|r| r.form_type == form)
        .ok_or_else(|| ApiError::not_found("The payment request"))
}

/// The route table's scope rule for a request's routes (`routes::Routes::scope`): a request
/// outside the caller's programs is a 404, before the body is read; the handler finds the
/// row (of its form type) itself.
pub fn in_scope<'a>(db: &'a DatabaseConnection, scope: &'a Scope, id: i32) -> ScopeFuture<'a> {
    Box::pin(async move { visible_by_id(db, scope, id).await.map(drop) })
}

/// A live request in a program of `scope`, whatever its form type (404 otherwise).
pub async fn visible_by_id(
    db: &impl ConnectionTrait,
    scope: &Scope,
    id: i32,
) -> ApiResult<pr::Model> {
    pr::Entity::find_by_id(id)
        .filter(pr::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .filter(|r| scope.allows_program(r.mentor_program_id))
        .ok_or_else(|| ApiError::not_found("The payment request"))
}

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

/// What the approval rules judge a proposal on (`year`: the request's `charged_year`).
pub async fn approval_facts(
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

pub async fn files_of(
    db: &impl ConnectionTrait,
    request_id: i32,
) -> ApiResult<Vec<uploaded_file::Model>> {
    Ok(uploaded_file::Entity::find()
        .filter(uploaded_file::Column::PaymentRequestId.eq(request_id))
        .filter(uploaded_file::Column::DeletedAt.is_null())
        .order_by_asc(uploaded_file::Column::CreatedAt)
        .all(db)
        .await?)
}

pub async fn files_by_ids(
    db: &impl ConnectionTrait,
    ids: &[String],
) -> ApiResult<Vec<uploaded_file::Model>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    Ok(uploaded_file::Entity::find()
        .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
        .all(db)
        .await?)
}

/// The statuses and form types of a list query, checked (400 naming the field).
pub fn parse_list_filters(q: &ListQuery) -> ApiResult<(Vec<Status>, Vec<FormType>)> {
    let mut statuses = Vec::new();
    for s in &q.formstatus {
        statuses.push(
            Status::parse(s).ok_or_else(|| {
                ApiError::bad_field("FormStatus", format!("unknown status '{s}'"))
            })?,
        );
    }
    let mut forms = Vec::new();
    for f in &q.formtype {
        forms.push(
            FormType::parse(f).ok_or_else(|| {
                ApiError::bad_field("FormType", format!("unknown form type '{f}'"))
            })?,
        );
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
            c = c.add(pr::Column::FormType.is_in(self.forms.iter().copied()));
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
        self.condition_for(self.statuses)
    }

    /// Every filter of the list with `statuses` in place of the list's own.
    fn condition_for(&self, statuses: &[Status]) -> Condition {
        let mut c = Condition::all().add(pr::Column::DeletedAt.is_null());
        if let Some(programs) = self.scope.program_ids() {
            c = c.add(pr::Column::MentorProgramId.is_in(programs));
        }
        if let Some(p) = self.query.mentorprogramid {
            c = c.add(pr::Column::MentorProgramId.eq(p));
        }
        if !statuses.is_empty() {
            c = c.add(pr::Column::Status.is_in(statuses.iter().copied()));
        }
        let rows = self.row_filters();
        if rows.is_empty() {
            c
        } else {
            c.add(rows)
        }
    }
}

/// The ids of every request the list shows (no order, no page).
pub fn matching_ids(f: &ListFilter<'_>) -> SelectStatement {
    Query::select().column(pr::Column::Id).from(pr::Entity).cond_where(f.condition()).to_owned()
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
pub async fn list(
    db: &impl ConnectionTrait,
    f: &ListFilter<'_>,
    paging: Paging,
) -> ApiResult<(Vec<ListRow>, Count)> {
    let q = f.query;
    let cond = f.condition();
    let keys = list_order(q);
    let select = ordered(ListRow::select_cols(pr::Entity::find().select_only()), &keys)
        .filter(pr::Column::Id.in_subquery(page_ids(f, &keys, paging)));
    let rows: Vec<ListRow> = pin::all(db, select, page_index(f, &keys)).await?;
    // Only program, scope and status filters: the kept totals answer the count.
    let total = if f.row_filters().is_empty() {
        let n: i64 = totals(db, f.scope, q.mentorprogramid, f.statuses)
            .await?
            .iter()
            .map(|t| t.request_count)
            .sum();
        Count::exact(u64::try_from(n).unwrap_or(0))
    } else {
        count_at_most(db, pr::Entity::find().filter(cond), paging.count_limit()).await?
    };
    Ok((rows, total))
}

/// What a list row shows: only these columns are read (a full row has the form's details
/// and five more dates, decoded for nothing).
#[derive(Debug, Clone, DerivePartialModel)]
#[sea_orm(entity = "pr::Entity", from_query_result)]
pub struct ListRow {
    pub id: i32,
    pub form_type: FormType,
    pub status: Status,
    pub participation_id: i32,
    pub mentor_program_id: i32,
    pub participant_id: i32,
    pub description: Option<String>,
    pub requested_cents: i64,
    pub approved_cents: Option<i64>,
    pub submitted_on: Option<NaiveDate>,
    pub submitted_by: Option<i32>,
    pub approved_at: Option<DateTime<Utc>>,
    pub placement_end_date: Option<NaiveDate>,
    pub version: i32,
    pub created_by: Option<i32>,
    pub updated_at: DateTime<Utc>,
}

/// `select` in the list's order. Each sort column may be NULL (not submitted, no placement,
/// not approved).
fn ordered(
    mut select: sea_orm::Select<pr::Entity>,
    keys: &[(pr::Column, Order)],
) -> sea_orm::Select<pr::Entity> {
    for (column, order) in keys {
        select = select.order_by_with_nulls(*column, order.clone(), crate::web::nulls_for(order));
    }
    select
}

/// The ids of the page, chosen from the filter and sort indexes alone. With several
/// statuses in submission order, each status's first `offset + size` entries are taken in
/// that order from its own index range and merged: one range per status is already in order,
/// where the statuses together are not, and SQLite sorted every match of all of them (9,600
/// entries, 1.2 ms; merged 0.2 ms; docs/benchmarks.md, issue 15).
fn page_ids(f: &ListFilter<'_>, keys: &[(pr::Column, Order)], paging: Paging) -> SelectStatement {
    let in_order = |statuses: &[Status], columns: &[pr::Column]| {
        ordered(
            pr::Entity::find()
                .select_only()
                .columns(columns.iter().copied())
                .filter(f.condition_for(statuses)),
            keys,
        )
    };
    let merge = f.statuses.len() > 1 && matches!(keys.first(), Some((pr::Column::SubmittedOn, _)));
    if !merge {
        return in_order(f.statuses, &[pr::Column::Id])
            .offset(paging.offset())
            .limit(paging.size)
            .into_query();
    }
    let sort_columns: Vec<pr::Column> = keys.iter().map(|(c, _)| *c).collect();
    let mut merged: Option<SelectStatement> = None;
    for (i, status) in f.statuses.iter().enumerate() {
        let first = in_order(std::slice::from_ref(status), &sort_columns)
            .limit(paging.offset() + paging.size)
            .into_query();
        // A subquery each: SQLite allows ORDER BY and LIMIT only on a whole compound.
        let branch = Query::select()
            .column(Asterisk)
            .from_subquery(first, Alias::new(format!("status_{i}")))
            .to_owned();
        merged = Some(match merged {
            None => branch,
            Some(mut m) => m.union(UnionType::All, branch).to_owned(),
        });
    }
    let mut page = Query::select();
    page.column(pr::Column::Id).from_subquery(merged.unwrap_or_default(), Alias::new("merged"));
    for (column, order) in keys {
        page.order_by_with_nulls(*column, order.clone(), crate::web::nulls_for(order));
    }
    page.offset(paging.offset()).limit(paging.size).to_owned()
}

/// The index a page of the list must walk on SQLite, where the planner (no statistics)
/// picks a worse one. One program and one status in submission order: it takes
/// `(status, submitted_on)`, already in order, and reads every row of that status to check
/// the program (three times the page, 36 ms at page 100 of a million rows), where
/// `(program, deleted_at, status, submitted_on, …)` holds exactly the page's entries
/// (docs/benchmarks.md). PostgreSQL keeps statistics and is not pinned (`pin::all`).
fn page_index(f: &ListFilter<'_>, keys: &[(pr::Column, Order)]) -> Option<PageIndex> {
    let one_program = f.query.mentorprogramid.is_some();
    let submission_order = matches!(keys.first(), Some((pr::Column::SubmittedOn, _)));
    (one_program && f.statuses.len() == 1 && f.forms.is_empty() && submission_order).then_some(
        PageIndex { table: "payment_requests", index: "ix_payment_requests_program_status_form" },
    )
}

/// The kept per program × status totals (migration 000031) the caller may see.
async fn totals(
    db: &impl ConnectionTrait,
    scope: &Scope,
    program: Option<i32>,
    statuses: &[Status],
) -> ApiResult<Vec<pr_total::Model>> {
    let mut select = pr_total::Entity::find();
    if let Some(programs) = scope.program_ids() {
        select = select.filter(pr_total::Column::MentorProgramId.is_in(programs));
    }
    if let Some(p) = program {
        select = select.filter(pr_total::Column::MentorProgramId.eq(p));
    }
    if !statuses.is_empty() {
        select = select.filter(pr_total::Column::Status.is_in(statuses.iter().copied()));
    }
    Ok(select.all(db).await?)
}

pub async fn summary(
    db: &impl ConnectionTrait,
    scope: &Scope,
    program: Option<i32>,
) -> ApiResult<Vec<StatusSummary>> {
    let rows = totals(db, scope, program, &[]).await?;
    Ok(Status::ALL
        .into_iter()
        .map(|s| {
            let of_status = rows.iter().filter(|r| r.status == s);
            let (count, requested, approved) = of_status.fold((0, 0, 0), |(c, r, a), t| {
                (c + t.request_count, r + t.requested_cents, a + t.approved_cents)
            });
            StatusSummary {
                form_status: s,
                count,
                requested_amount: Money(requested),
                approved_amount: Money(approved),
            }
        })
        .collect())
}

pub async fn activity(
    db: &impl ConnectionTrait,
    request_id: i32,
) -> ApiResult<Vec<activity_log::Model>> {
    Ok(activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq(ENTITY))
        .filter(activity_log::Column::EntityId.eq(request_id))
        .order_by_desc(activity_log::Column::CreatedAt)
        .order_by_desc(activity_log::Column::Id)
        .all(db)
        .await?)
}

/// The vendor payment report a request was paid in, if any.
pub async fn paid_in(db: &impl ConnectionTrait, request_id: i32) -> ApiResult<Option<i32>> {
    use crate::entities::vendor_payment_report_row as paid;
    Ok(paid::Entity::find()
        .select_only()
        .column(paid::Column::ReportId)
        .filter(paid::Column::PaymentRequestId.eq(request_id))
        .into_tuple()
        .one(db)
        .await?)
}

/// The form type named in a path; an unknown one is a 404 like an unknown route.
pub fn form_of(text: &str) -> ApiResult<FormType> {
    FormType::parse(text).ok_or_else(|| ApiError::not_found("The form type"))
}

/// Everything a create or edit writes, checked.
pub struct Checked {
    pub participation: crate::entities::participation::Model,
    pub description: Option<String>,
    pub details: Details,
    pub evaluated: forms::Evaluated,
    pub fund_id: Option<i32>,
    pub expense_account_id: Option<i32>,
}

// ---- writes: each in the caller's transaction, with its activity-log entry ----

/// A 409 for a row that moved on since the caller read it.
pub fn stale() -> ApiError {
    ApiError::Stale(
        "The request was changed by someone else meanwhile; reload it and try again.".into(),
    )
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
        if let Some(c) = &comment {
            if !is.is_object() {
                is = serde_json::json!({});
            }
            is["comment"] = serde_json::json!(c);
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

/// Points the listed receipts at the request and frees the ones no longer listed.
pub async fn attach_files(
    db: &impl ConnectionTrait,
    request_id: i32,
    ids: &[String],
) -> ApiResult<Vec<String>> {
    let current = files_of(db, request_id).await?;
    let dropped: Vec<String> =
        current.iter().filter(|f| !ids.contains(&f.id)).map(|f| f.id.clone()).collect();
    drop_files(db, &dropped).await?;
    if !ids.is_empty() {
        uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::PaymentRequestId, Expr::value(request_id))
            .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
            .exec(db)
            .await?;
    }
    Ok(dropped)
}

/// Receipts no longer on a request: marked deleted (their bytes go after the commit).
pub async fn drop_files(db: &impl ConnectionTrait, ids: &[String]) -> ApiResult<()> {
    if !ids.is_empty() {
        uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::DeletedAt, Expr::value(crate::clock::now()))
            .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
            .exec(db)
            .await?;
    }
    Ok(())
}

/// Removes files announced more than a day ago and never attached to a request (a form
/// left without saving), and their bytes. Each row is claimed with a conditional update,
/// so a file being attached at the same moment is never taken. Returns how many went.
pub async fn purge_unattached(
    db: &impl ConnectionTrait,
    files: &crate::file_store::FileStore,
    now: DateTime<Utc>,
) -> ApiResult<usize> {
    let cutoff = now - chrono::Duration::hours(super::receipts::UNATTACHED_GRACE_HOURS);
    let unattached = || {
        uploaded_file::Entity::find()
            .filter(uploaded_file::Column::PaymentRequestId.is_null())
            .filter(uploaded_file::Column::DeletedAt.is_null())
    };
    let stale = unattached().filter(uploaded_file::Column::CreatedAt.lt(cutoff)).all(db).await?;
    let mut removed = 0;
    for f in stale {
        let claimed = uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::DeletedAt, sea_orm::sea_query::Expr::value(now))
            .filter(uploaded_file::Column::Id.eq(&f.id))
            .filter(uploaded_file::Column::PaymentRequestId.is_null())
            .filter(uploaded_file::Column::DeletedAt.is_null())
            .exec(db)
            .await?;
        if claimed.rows_affected == 1 {
            if f.uploaded_at.is_some() {
                files.remove(&f.id).await;
            }
            removed += 1;
        }
    }
    Ok(removed)
}

/// A receipt announced by `by`, to be uploaded before `expires_at` (`at`: now, expiry).
pub async fn announce_file(
    txn: &impl ConnectionTrait,
    id: &str,
    file_name: String,
    content_type: &str,
    size: i64,
    by: i32,
    (now, expires_at): (DateTime<Utc>, DateTime<Utc>),
) -> ApiResult<()> {
    uploaded_file::Entity::insert(uploaded_file::ActiveModel {
        id: Set(id.to_owned()),
        file_name: Set(file_name),
        content_type: Set(content_type.to_owned()),
        size: Set(size),
        created_by: Set(by),
        created_at: Set(now),
        expires_at: Set(expires_at),
        uploaded_at: Set(None),
        payment_request_id: Set(None),
        deleted_at: Set(None),
    })
    .exec_without_returning(txn)
    .await?;
    Ok(())
}

/// Bytes of receipts `by` holds that no request uses yet: uploaded, or announced with a
/// URL still valid at `now` (an announced slot can still be filled, so it counts).
pub async fn unattached_bytes(
    txn: &impl ConnectionTrait,
    by: i32,
    now: DateTime<Utc>,
) -> ApiResult<i64> {
    use uploaded_file::Column as C;
    let total: Option<i64> = uploaded_file::Entity::find()
        .select_only()
        // PostgreSQL's SUM of a bigint is a numeric: cast back so both read an integer.
        .expr(Expr::cust("CAST(COALESCE(SUM(size), 0) AS BIGINT)"))
        .filter(C::CreatedBy.eq(by))
        .filter(C::PaymentRequestId.is_null())
        .filter(C::DeletedAt.is_null())
        .filter(Condition::any().add(C::UploadedAt.is_not_null()).add(C::ExpiresAt.gt(now)))
        .into_tuple()
        .one(txn)
        .await?;
    Ok(total.unwrap_or(0))
}

/// Marks a receipt uploaded at `at`, once: false when its URL was used already.
pub async fn claim_upload(
    db: &impl ConnectionTrait,
    id: &str,
    at: DateTime<Utc>,
) -> ApiResult<bool> {
    let done = uploaded_file::Entity::update_many()
        .col_expr(uploaded_file::Column::UploadedAt, Expr::value(at))
        .filter(uploaded_file::Column::Id.eq(id))
        .filter(uploaded_file::Column::UploadedAt.is_null())
        .exec(db)
        .await?;
    Ok(done.rows_affected == 1)
}

/// Gives a claimed upload URL back (its bytes could not be stored), so the browser can retry.
pub async fn release_upload(db: &impl ConnectionTrait, id: &str) -> ApiResult<()> {
    uploaded_file::Entity::update_many()
        .col_expr(uploaded_file::Column::UploadedAt, Expr::value(Option::<DateTime<Utc>>::None))
        .filter(uploaded_file::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

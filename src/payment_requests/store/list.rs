//! The request list: filters, order, pages read through the pinned page index, totals
//! and the per-status summary.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use sea_orm::{
    sea_query::{Alias, Asterisk, Expr, Query, SelectStatement, UnionType},
    ColumnTrait, Condition, ConnectionTrait, DerivePartialModel, EntityTrait, FromQueryResult,
    JoinType, Order, PartialModelTrait, QueryFilter, QuerySelect, QueryTrait,
};

use crate::forms::FormType;
use crate::payment_requests::{
    dto::{ListQuery, StatusSummary},
    workflow::Status,
};
use crate::{
    auth::scope::Scope,
    db::sqlite_speed::pin::{self, PageIndex},
    entities::{payment_request as pr, payment_request_total as pr_total},
    error::{ApiError, ApiResult},
    money::Money,
    web::{count_at_most, Count, Paging},
};

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
    /// `WaitingForMe=true`: the caller, as the steps' rule reads her.
    pub waiting_for: Option<&'a WaitingFor>,
}

/// How far "Waiting for you" counts: a hundred, not a thousand. The count reads every match up
/// to its bound, and counting to 1,001 took five times the page on an office with 250,000
/// requests waiting; a work queue of more than a hundred reads "100+" on home and in the list,
/// and the pages still go on past it.
pub const WAITING_COUNT_BOUND: u64 = 100;

/// Whose waiting requests a list shows: the chain's rule (`chain::may_take_as`) as one
/// condition over the requests' notes of their current step, for the caller in her own right
/// and for each absent person she stands in for today.
pub struct WaitingFor {
    pub user_id: i32,
    /// The caller first, then the absent people, each with the programs she sees.
    pub takers: Vec<Taker>,
}

/// One person whose steps the caller may take.
pub struct Taker {
    pub user_id: i32,
    pub roles: Vec<String>,
    /// She holds `request:approve`; without it nothing waits for her.
    pub approves: bool,
    /// `None`: every program.
    pub programs: Option<Vec<i32>>,
}

impl Taker {
    fn of(p: &crate::auth::CurrentUser, scope: &Scope) -> Self {
        Taker {
            user_id: p.id(),
            roles: p.roles.clone(),
            approves: p.has(crate::auth::Permission::RequestApprove),
            programs: scope.program_ids(),
        }
    }
}

impl WaitingFor {
    pub async fn load(db: &impl ConnectionTrait, me: &crate::auth::CurrentUser) -> ApiResult<Self> {
        let own = crate::auth::scope::own_scope(db, me).await?;
        let mut takers = vec![Taker::of(me, &own)];
        for a in crate::auth::scope::standing_in(db, me).await? {
            takers.push(Taker::of(&a.principal, &a.scope));
        }
        Ok(WaitingFor { user_id: me.id(), takers })
    }

    /// Submitted, its current step for one of a taker's roles in a program she sees, neither
    /// created nor submitted by her or the caller, no earlier step of it taken by or for
    /// either of them.
    fn condition(&self) -> Condition {
        let me = self.user_id;
        if !self.takers.first().is_some_and(|t| t.approves) {
            return Condition::all().add(pr::Column::Id.lt(0));
        }
        let mut any = Condition::any();
        for t in self.takers.iter().filter(|t| t.approves && !t.roles.is_empty()) {
            any = any.add(t.condition(me));
        }
        Condition::all().add(pr::Column::Status.eq(Status::Submitted)).add(any)
    }
}

impl Taker {
    /// The current step is read from the request's own note of it (kept by the database from
    /// its steps, `db::derived`), a column of the index a page walks. Her earlier steps are
    /// probed only past the first step: a chain is copied afresh at each submission, so at its
    /// first step nobody has taken any. The probe is correlated on the request (`EXISTS`), so
    /// a page stops at its 25th match.
    fn condition(&self, me: i32) -> Condition {
        use crate::entities::request_step as step;
        use sea_orm::sea_query::{Expr, ExprTrait};
        let people: Vec<i32> = if self.user_id == me { vec![me] } else { vec![me, self.user_id] };
        let taken = Query::select()
            .expr(Expr::val(1))
            .from(step::Entity)
            .and_where(
                Expr::col((step::Entity, step::Column::PaymentRequestId))
                    .equals((pr::Entity, pr::Column::Id)),
            )
            .cond_where(
                Condition::any()
                    .add(step::Column::ByUserId.is_in(people.clone()))
                    .add(step::Column::OnBehalfOf.is_in(people.clone())),
            )
            .to_owned();
        let mut c = Condition::all()
            .add(pr::Column::CurrentStepRole.is_in(self.roles.clone()))
            .add(
                Condition::any()
                    .add(pr::Column::CreatedBy.is_null())
                    .add(pr::Column::CreatedBy.is_not_in(people.clone())),
            )
            .add(
                Condition::any()
                    .add(pr::Column::SubmittedBy.is_null())
                    .add(pr::Column::SubmittedBy.is_not_in(people)),
            )
            .add(
                Condition::any()
                    .add(pr::Column::CurrentStepIndex.eq(0))
                    .add(Expr::exists(taken).not()),
            );
        if let Some(programs) = &self.programs {
            c = c.add(pr::Column::MentorProgramId.is_in(programs.clone()));
        }
        c
    }
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
        if let Some(y) = q.fiscalyearid {
            c = c.add(pr::Column::FiscalYearId.eq(y));
        }
        if let Some(w) = self.waiting_for {
            c = c.add(w.condition());
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

/// The list's order: the three sort flags in that order, then by number in the first flag's
/// direction (newest first without one): oldest first lists a day's requests oldest first too,
/// and each direction is one walk of the program index, which holds the number right after the
/// submission day (an order mixing directions would be sorted a day at a time).
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
    let tie = order.first().map_or(Order::Desc, |(_, o)| o.clone());
    order.push((pr::Column::Id, tie));
    order
}

/// A page of the list, each row with its number of receipts, and the count. The page's ids
/// are chosen first from the filter and sort indexes alone (a sort then carries ids, not
/// whole rows), and only those rows are read, each with its receipts counted. The count comes
/// from the kept totals when they can answer it, otherwise it stops at the bound past the
/// page ([`Paging::count_limit`]); what waits for the caller reads its page and its count in
/// one statement.
pub async fn list(
    db: &impl ConnectionTrait,
    f: &ListFilter<'_>,
    paging: Paging,
) -> ApiResult<(Vec<ListRow>, Count)> {
    let keys = list_order(f.query);
    if f.waiting_for.is_some() {
        return waiting_page(db, f, &keys, paging).await;
    }
    let total = other_count(db, f, paging).await?;
    let select = ordered(ListRow::select_cols(pr::Entity::find().select_only()), &keys)
        .filter(pr::Column::Id.in_subquery(page_ids(f, &keys, paging)));
    Ok((pin::all(db, select, page_index(f, &keys)).await?, total))
}

/// What waits for the caller: the matches in the list's order up to the count's bound, read
/// once for both the page and the count, and the page's rows joined to them in the same
/// statement. Each match costs probes of its steps, which a separate count would repeat for
/// the page's; and each statement is a round trip to the database's thread, with a message
/// per row it hands back.
async fn waiting_page(
    db: &impl ConnectionTrait,
    f: &ListFilter<'_>,
    keys: &[(pr::Column, Order)],
    paging: Paging,
) -> ApiResult<(Vec<ListRow>, Count)> {
    let limit = paging.count_limit_at(WAITING_COUNT_BOUND);
    let rows = db.query_all(&waiting_rows(f, keys, paging, limit)).await?;
    let Some(first) = rows.first() else {
        // Past the last match: the page is empty and says nothing of the count.
        let count = count_at_most(db, pr::Entity::find().filter(f.condition()), limit).await?;
        return Ok((Vec::new(), count));
    };
    let n: i64 = first.try_get("", FOUND)?;
    let rows = rows.iter().map(|r| ListRow::from_query_result(r, "")).collect::<Result<_, _>>()?;
    Ok((rows, Count::from_limited(u64::try_from(n).unwrap_or(0), limit)))
}

/// The column of [`waiting_rows`] with the number of matches read.
const FOUND: &str = "found";

/// The page's rows, each with the number of matches read up to `limit + 1`.
fn waiting_rows(
    f: &ListFilter<'_>,
    keys: &[(pr::Column, Order)],
    paging: Paging,
    limit: u64,
) -> SelectStatement {
    use sea_orm::sea_query::ExprTrait;
    let sort_columns: Vec<pr::Column> = keys.iter().map(|(c, _)| *c).collect();
    let matches =
        ordered(pr::Entity::find().select_only().columns(sort_columns).filter(f.condition()), keys)
            .limit(limit + 1)
            .into_query();
    let page_alias = Alias::new("page");
    let mut page = Query::select();
    page.column(pr::Column::Id)
        .expr_as(Expr::cust("COUNT(*) OVER ()"), Alias::new(FOUND))
        .from_subquery(matches, Alias::new("matches"));
    order_in(&mut page, keys);
    page.offset(paging.offset()).limit(paging.size);
    let mut select = ordered(ListRow::select_cols(pr::Entity::find().select_only()), keys)
        .expr_as(Expr::col((page_alias.clone(), Alias::new(FOUND))), FOUND)
        .into_query();
    select.join_subquery(
        JoinType::InnerJoin,
        page,
        page_alias.clone(),
        Expr::col((page_alias, pr::Column::Id)).equals((pr::Entity, pr::Column::Id)),
    );
    select
}

/// The count of any other list: the kept totals when only program, scope and status filter
/// it, otherwise counted up to the bound past the page.
async fn other_count(
    db: &impl ConnectionTrait,
    f: &ListFilter<'_>,
    paging: Paging,
) -> ApiResult<Count> {
    if f.row_filters().is_empty() {
        let n: i64 = totals(db, f.scope, f.query.mentorprogramid, f.statuses)
            .await?
            .iter()
            .map(|t| t.request_count)
            .sum();
        return Ok(Count::exact(u64::try_from(n).unwrap_or(0)));
    }
    count_at_most(db, pr::Entity::find().filter(f.condition()), paging.count_limit()).await
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
    pub fiscal_year_id: Option<i32>,
    pub approved_at: Option<DateTime<Utc>>,
    pub placement_end_date: Option<NaiveDate>,
    pub version: i32,
    pub created_by: Option<i32>,
    pub updated_at: DateTime<Utc>,
    #[sea_orm(from_expr = "super::files::receipt_count()")]
    pub receipt_count: i64,
}

/// `select` in the list's order.
fn ordered(
    mut select: sea_orm::Select<pr::Entity>,
    keys: &[(pr::Column, Order)],
) -> sea_orm::Select<pr::Entity> {
    order_in(QueryTrait::query(&mut select), keys);
    select
}

/// Orders `statement` by `keys`. Each sort column may be NULL (not submitted, no placement,
/// not approved).
fn order_in(statement: &mut SelectStatement, keys: &[(pr::Column, Order)]) {
    for (column, order) in keys {
        statement.order_by_with_nulls(*column, order.clone(), crate::web::nulls_for(order));
    }
}

/// The ids of the page, chosen from the filter and sort indexes alone. With several
/// statuses in submission order, each status's first `offset + size` entries are taken in
/// that order from its own index range and merged: one range per status is already in order,
/// where the statuses together are not, and SQLite would otherwise sort every match of all
/// of them (the figures are in docs/benchmarks.md).
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
    order_in(&mut page, keys);
    page.offset(paging.offset()).limit(paging.size).to_owned()
}

/// The index a page of the list must walk on SQLite, where the planner (no statistics)
/// picks a worse one. One program and one status in submission order: it takes
/// `(status, submitted_on)`, already in order, and reads every row of that status to check
/// the program (three times the page, 36 ms at page 100 of a million rows), where
/// `(program, deleted_at, status, submitted_on, id, …)` holds exactly the page's entries
/// (docs/benchmarks.md). PostgreSQL keeps statistics and is not pinned (`pin::all`).
fn page_index(f: &ListFilter<'_>, keys: &[(pr::Column, Order)]) -> Option<PageIndex> {
    let one_program = f.query.mentorprogramid.is_some();
    let submission_order = matches!(keys.first(), Some((pr::Column::SubmittedOn, _)));
    (one_program && f.statuses.len() == 1 && f.forms.is_empty() && submission_order).then_some(
        PageIndex { table: "payment_requests", index: "ix_payment_requests_program_queue" },
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

/// Home's totals per status, from the kept totals alone. What waits for the caller is the
/// list's bounded count (`WaitingForMe=true`): exact, it read every waiting request of an
/// office on every visit home.
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

/// How many live requests in `scope` are charged to `fiscal_year_id`, per status (only the
/// statuses that hold some).
pub async fn year_counts(
    db: &impl ConnectionTrait,
    scope: &Scope,
    fiscal_year_id: i32,
) -> ApiResult<Vec<(Status, i64)>> {
    #[derive(Debug, sea_orm::FromQueryResult)]
    struct Row {
        status: Status,
        n: i64,
    }
    let mut select = pr::Entity::find()
        .select_only()
        .column(pr::Column::Status)
        .column_as(pr::Column::Id.count(), "n")
        .filter(pr::Column::DeletedAt.is_null())
        .filter(pr::Column::FiscalYearId.eq(fiscal_year_id));
    if let Some(programs) = scope.program_ids() {
        select = select.filter(pr::Column::MentorProgramId.is_in(programs));
    }
    let rows = select.group_by(pr::Column::Status).into_model::<Row>().all(db).await?;
    Ok(rows.into_iter().map(|r| (r.status, r.n)).collect())
}

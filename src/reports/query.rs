//! What every report shares: the query parameters of the report calls checked once, the date
//! window read in the caller's local time, sorting, the paged view shape, and the SQL
//! plumbing of reports that are one row per database row (page, count, sums, stream).

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use sea_orm::{
    sea_query::{Alias, BinOper, Expr, ExprTrait, Func, Order, Query, SelectStatement, UnionType},
    ConnectionTrait, DatabaseConnection, DbBackend, QueryResult,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    export::{Cell, Column, Format, Meta, Record, Row, Rows},
    fields::DbRow,
};
use crate::{
    auth::{scope::Scope, CurrentUser},
    error::{ApiError, ApiResult},
    forms::FormType,
    participants::rules::ParticipantRole,
    text,
    web::{count_rows_at_most, paged, Count, Page, Paging},
};

paged! { described
    /// Every filter, paging, sort and export parameter of the report calls;
    /// each report reads the ones it documents (docs/reports-api.md). The parameters'
    /// OpenAPI schemas are derived from here (`reports::openapi` picks each report's), so
    /// the bounds and enums below are the ones the checks enforce.
    #[derive(Debug, Default, Clone, Deserialize, IntoParams)]
    #[serde(rename_all = "lowercase")]
    #[into_params(parameter_in = Query)]
    pub struct ReportQuery {
        #[param(rename = "MentorProgramId")]
        pub mentorprogramid: Option<i32>,
        #[param(rename = "FiscalYearId")]
        pub fiscalyearid: Option<i32>,
        #[param(rename = "FundId")]
        pub fundid: Option<i32>,
        #[param(rename = "ApprovalCodeId")]
        pub approvalcodeid: Option<i32>,
        /// A participant id (payee-list).
        #[param(rename = "PayeeId")]
        pub payeeid: Option<i32>,
        #[param(rename = "DistrictId")]
        pub districtid: Option<i32>,
        #[param(rename = "CaucusRegionId")]
        pub caucusregionid: Option<i32>,
        /// `F1`..`F14`.
        #[param(rename = "PaymentRequestType", value_type = Option<FormType>)]
        pub paymentrequesttype: Option<String>,
        #[param(rename = "RoleCode", value_type = Option<ParticipantRole>)]
        pub rolecode: Option<String>,
        /// First day (inclusive) on the report's date column, local when MinutesOffset is given.
        #[param(rename = "StartDate", value_type = Option<String>, format = Date)]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub startdate: Option<NaiveDate>,
        /// Last day (inclusive); a day before StartDate is a 422.
        #[param(rename = "EndDate", value_type = Option<String>, format = Date)]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub enddate: Option<NaiveDate>,
        /// Participants changed on or after this day.
        #[param(rename = "UpdatedAt", value_type = Option<String>, format = Date)]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub updatedat: Option<NaiveDate>,
        /// The browser's `getTimezoneOffset()` (minutes, UTC − local), −840..840.
        #[param(rename = "MinutesOffset", minimum = -840, maximum = 840)]
        pub minutesoffset: Option<i32>,
        /// Exports: `Csv`, `Xlsx` or `Pdf` (any case).
        #[param(rename = "ReportFormat", value_type = Option<Format>, inline)]
        pub reportformat: Option<String>,
        /// A sortable column key of the report.
        #[param(rename = "SortBy")]
        pub sortby: Option<String>,
        #[param(rename = "SortDescending")]
        pub sortdescending: Option<bool>,
        /// Participants export: comma list of column keys, order kept.
        #[param(rename = "CustomColumnSetToInclude")]
        pub customcolumnsettoinclude: Option<String>,
    }
}

/// The checked filters.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    pub program: Option<i32>,
    pub fiscal_year: Option<i32>,
    pub fund: Option<i32>,
    pub approval_code: Option<i32>,
    pub payee: Option<i32>,
    pub district: Option<i32>,
    pub caucus_region: Option<i32>,
    pub form: Option<FormType>,
    pub role: Option<ParticipantRole>,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    /// `[from, until)` in UTC: the local days StartDate..=EndDate.
    pub from: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
    pub updated_since: Option<DateTime<Utc>>,
    pub minutes_offset: i32,
}

pub const MAX_OFFSET: i32 = 14 * 60;

/// The UTC moment a local day starts, for a browser at `minutes_offset` (UTC − local).
pub fn local_midnight(day: NaiveDate, minutes_offset: i32) -> DateTime<Utc> {
    day.and_time(NaiveTime::MIN).and_utc() + Duration::minutes(minutes_offset as i64)
}

impl ReportQuery {
    pub fn filters(&self) -> ApiResult<Filters> {
        let offset = self.minutesoffset.unwrap_or(0);
        if !(-MAX_OFFSET..=MAX_OFFSET).contains(&offset) {
            return Err(ApiError::bad_field(
                "MinutesOffset",
                format!("must be between -{MAX_OFFSET} and {MAX_OFFSET}"),
            ));
        }
        if let (Some(a), Some(b)) = (self.startdate, self.enddate) {
            if b < a {
                // One field against another: a rule, not a shape (docs/api.md).
                return Err(ApiError::rule("EndDate", "must not be before StartDate"));
            }
        }
        let form = match self.paymentrequesttype.as_deref() {
            None => None,
            Some(t) => Some(FormType::parse(t).ok_or_else(|| {
                ApiError::bad_field("PaymentRequestType", "must be one of F1..F14")
            })?),
        };
        let role = crate::participants::rules::enum_filter(
            "RoleCode",
            self.rolecode.as_deref(),
            ParticipantRole::parse,
            ParticipantRole::labels,
        )?;
        Ok(Filters {
            program: self.mentorprogramid,
            fiscal_year: self.fiscalyearid,
            fund: self.fundid,
            approval_code: self.approvalcodeid,
            payee: self.payeeid,
            district: self.districtid,
            caucus_region: self.caucusregionid,
            form,
            role,
            start_date: self.startdate,
            end_date: self.enddate,
            from: self.startdate.map(|d| local_midnight(d, offset)),
            until: self.enddate.and_then(|d| d.succ_opt()).map(|d| local_midnight(d, offset)),
            updated_since: self.updatedat.map(|d| local_midnight(d, offset)),
            minutes_offset: offset,
        })
    }

    pub fn format(&self) -> ApiResult<Format> {
        Format::require("ReportFormat", self.reportformat.as_deref())
    }

    /// `SortBy` among `sortable` (case-insensitive), else the default; and the direction.
    pub fn sort<'a>(&self, sortable: &[&'a str], default: &'a str) -> ApiResult<(&'a str, bool)> {
        let key = match self.sortby.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => default,
            Some(raw) => {
                sortable.iter().copied().find(|k| k.eq_ignore_ascii_case(raw)).ok_or_else(|| {
                    ApiError::bad_field("SortBy", format!("must be one of {}", sortable.join(", ")))
                })?
            }
        };
        Ok((key, self.sortdescending.unwrap_or(false)))
    }
}

pub fn order(descending: bool) -> Order {
    if descending {
        Order::Desc
    } else {
        Order::Asc
    }
}

// ---- SQL helpers over the shared tables (aliases, joins, names) ----

pub fn a(name: &str) -> Alias {
    Alias::new(name)
}

/// `table.column`
pub fn col(table: &str, column: &str) -> Expr {
    Expr::col((a(table), a(column)))
}

/// `LEFT JOIN <table> AS <alias> ON <alias>.id = <on>`
pub fn join_by_id(q: &mut SelectStatement, table: &str, alias: &str, on: Expr) {
    q.join_as(sea_orm::sea_query::JoinType::LeftJoin, a(table), a(alias), col(alias, "id").eq(on));
}

/// The caller's scope on a `mentor_program_id` column.
pub fn scoped(q: &mut SelectStatement, scope: &Scope, program_column: Expr) {
    if let Some(programs) = scope.program_ids() {
        q.and_where(program_column.is_in(programs));
    }
}

/// The key of a budget line (fiscal year, program, fund, account): each column and the
/// name it is read by.
pub const LINE_KEY: [(&str, &str); 4] = [
    ("fiscal_year_id", "year_id"),
    ("mentor_program_id", "program_id"),
    ("fund_id", "fund_id"),
    ("expense_account_id", "account_id"),
];

/// The key of an account in a fiscal year, over every program: `LINE_KEY` without the program.
pub const ACCOUNT_KEY: [(&str, &str); 3] =
    [("fiscal_year_id", "year_id"), ("fund_id", "fund_id"), ("expense_account_id", "account_id")];

/// `SELECT t.key AS name, … FROM table t GROUP BY t.key, …` for each (column, name) of
/// `keys`; the caller adds the figures and the filters.
pub fn grouped_by(table: &str, t: &str, keys: &[(&str, &str)]) -> SelectStatement {
    let mut q = Query::select();
    q.from_as(a(table), a(t));
    for (column, name) in keys {
        q.expr_as(col(t, column), a(name)).group_by_col((a(t), a(column)));
    }
    q
}

/// `[from, until)` on a timestamp column.
pub fn in_window(q: &mut SelectStatement, f: &Filters, column: Expr) {
    if let Some(from) = f.from {
        q.and_where(column.clone().gte(from));
    }
    if let Some(until) = f.until {
        q.and_where(column.lt(until));
    }
}

/// StartDate..=EndDate on a date column: a day is the day written, in no zone.
pub fn on_days(q: &mut SelectStatement, f: &Filters, column: Expr) {
    if let Some(d) = f.start_date {
        q.and_where(column.clone().gte(d));
    }
    if let Some(d) = f.end_date {
        q.and_where(column.lte(d));
    }
}

/// Live requests whose approval is charged now (Approved, ReadyForProcessing, Processed).
/// Those always carry their approval moment; saying so lets the approved_at index skip
/// every unapproved row.
pub fn charged(q: &mut SelectStatement, request: &str) {
    let statuses = crate::payment_requests::workflow::CHARGED.map(|s| s.as_str());
    q.and_where(col(request, "status").is_in(statuses))
        .and_where(col(request, "deleted_at").is_null())
        .and_where(col(request, "approved_at").is_not_null());
}

/// `charged` for a page in approval order. SQLite has no planner statistics: given the
/// status filter it reads every charged row through a status index and sorts them all before
/// the first page (2.6 s at a million requests). `+status` (SQLite's "not for an index")
/// leaves the approved_at index in charge, which walks in order and stops after the page
/// (3 ms). PostgreSQL plans from statistics and gets the plain filter.
pub fn charged_in_approval_order(q: &mut SelectStatement, request: &str, backend: DbBackend) {
    if backend != DbBackend::Sqlite {
        return charged(q, request);
    }
    let statuses =
        crate::payment_requests::workflow::CHARGED.map(|s| format!("'{}'", s.as_str())).join(", ");
    q.and_where(Expr::cust(format!("+\"{request}\".\"status\" IN ({statuses})")))
        .and_where(Expr::cust(format!("+\"{request}\".\"deleted_at\" IS NULL")))
        .and_where(col(request, "approved_at").is_not_null());
}

/// `charged` with the approval window of `f`, in the approval-order form when the rows are
/// read in approval order or a window is asked for. On SQLite the planner, without
/// statistics, would otherwise read every charged request through a status index and test
/// each one's moment (0.5 s for a 100,000-approval window of a million requests), where the
/// approved_at index, covering since migration 000140, reads only the window's entries (0.1 s).
pub fn charged_in_window(
    q: &mut SelectStatement,
    request: &str,
    f: &Filters,
    backend: DbBackend,
    in_approval_order: bool,
) {
    if in_approval_order || f.from.is_some() || f.until.is_some() {
        charged_in_approval_order(q, request, backend);
    } else {
        charged(q, request);
    }
    in_window(q, f, col(request, "approved_at"));
}

// Built with sea-query's expressions, not `Expr::cust_with_exprs`: its placeholder is the
// backend's own (`?` on SQLite, `$1` on PostgreSQL), so one template cannot serve both.

/// `SUM(e)` as a 64-bit integer, 0 over no rows (PostgreSQL sums bigints as numeric).
pub fn sum_i64(e: Expr) -> Expr {
    Func::cast_as(Func::coalesce([Expr::from(Func::sum(e)), Expr::cust("0")]), a("BIGINT")).into()
}

/// `COUNT(DISTINCT e)` as a 64-bit integer (NULLs not counted).
pub fn count_distinct(e: Expr) -> Expr {
    Func::cast_as(Func::count_distinct(e), a("BIGINT")).into()
}

/// `a || b || …`: text concatenation, the same operator on SQLite and PostgreSQL.
pub fn concat(parts: impl IntoIterator<Item = Expr>) -> Expr {
    let mut parts = parts.into_iter();
    let first = parts.next().unwrap_or_else(|| Expr::val(""));
    parts.fold(first, |acc, e| acc.binary(BinOper::Custom("||"), e))
}

/// `"<code> <name>"` of a coded reference row joined as `alias` (an expense account, an
/// approval code), the name alone when it has no code: `crate::text::coded` in SQL.
pub fn code_and_name(alias: &str) -> Expr {
    Expr::case(col(alias, "id").is_null(), Expr::null())
        .case(col(alias, "code").is_null().or(col(alias, "code").eq("")), col(alias, "name"))
        .finally(concat([col(alias, "code"), Expr::val(" "), col(alias, "name")]))
        .into()
}

/// The lists whose items people know by code and name ("5310 Travel and mileage").
pub const CODED: [&str; 2] = ["expense_accounts", "approval_codes"];

/// How a report names an item of `table`: with its code for the coded lists.
pub fn shown_name(table: &str) -> Expr {
    if CODED.contains(&table) {
        code_and_name(table)
    } else {
        name_column(table)
    }
}

pub use super::fields::get;

// ---- the paged view ----

/// `{items, page, size, totalCount, totals}` (docs/reports-api.md).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportPage {
    pub items: Vec<Record>,
    pub page: u64,
    pub size: u64,
    /// Matching rows; a lower bound when `totalCountIsExact` is false.
    pub total_count: u64,
    /// False when the report stopped counting (shown as "1,000+"): a report without totals
    /// counts like the lists (`web::COUNT_BOUND`); one with totals sums every row anyway and
    /// counts them all.
    pub total_count_is_exact: bool,
    /// Totals of the money (and count) columns over every matching row.
    pub totals: Record,
}

impl ReportPage {
    /// The list page shape (web::Page) with the report's totals.
    pub fn new(page: Page<Record>, totals: Record) -> Self {
        let Page { items, page, size, total_count, total_count_is_exact } = page;
        Self { items, page, size, total_count, total_count_is_exact, totals }
    }
}

/// A LEFT JOIN by id that only names things for the rows (no filter reads it): the page
/// and the export join it, the count and sums leave it out. SQLite keeps an unused LEFT
/// JOIN in an aggregate: counting a window's 100,000 reimbursements looked up six rows for
/// each (0.5 s; 0.1 s without).
pub struct Lookup {
    table: &'static str,
    alias: &'static str,
    on: Expr,
}

pub fn lookup(table: &'static str, alias: &'static str, on: Expr) -> Lookup {
    Lookup { table, alias, on }
}

/// A select-list column naming a row of a small reference table (funds, programs, codes…)
/// by its id: joined like a [`Lookup`] in a page, but a SQLite export selects the id and
/// its reader names it from the table read once beforehand (`db::sqlite_speed::reader`). A join per
/// row and table is a B-tree search each, a fifth of a reimbursements export's reading.
/// Never a sort key: the export has no join to sort by (`reports::every_sort_filter_and_format_
/// answers_on_this_backend` exports every sort). Not `names_by_id`: that reads through the
/// pool, outside the export's snapshot.
pub struct Named {
    alias: &'static str,
    table: &'static str,
    id: Expr,
    name: fn(&str) -> Expr,
}

/// `alias`: the `name` of the `table` row whose id is `id`, `name` given the table's alias.
pub fn named(alias: &'static str, table: &'static str, id: Expr, name: fn(&str) -> Expr) -> Named {
    Named { alias, table, id, name }
}

/// What an approval charged, named from the ids `t` (a request or an approval) carries:
/// `fund`, `expense_account` and `approval_code` (its code and name).
pub fn charged_names(t: &str) -> [Named; 3] {
    [
        named("fund", "funds", col(t, "fund_id"), name_column),
        named("expense_account", "expense_accounts", col(t, "expense_account_id"), code_and_name),
        named("approval_code", "approval_codes", col(t, "approval_code_id"), code_and_name),
    ]
}

/// The sums a report of requests or approvals carries: the requested and approved amounts of `t`.
pub fn amount_sums(t: &str) -> Vec<(&'static str, Expr)> {
    vec![
        ("requestedAmount", col(t, "requested_cents")),
        ("approvedAmount", col(t, "approved_cents")),
    ]
}

/// The plain `name` column of a reference table.
pub fn name_column(table: &str) -> Expr {
    col(table, "name")
}

impl Named {
    /// The join's alias in a page's statement.
    fn join_alias(&self) -> String {
        format!("n_{}", self.alias)
    }

    /// `SELECT id, <name> AS name FROM <table>`: every name the export may need.
    fn names(&self) -> SelectStatement {
        Query::select()
            .column(a("id"))
            .expr_as((self.name)(self.table), a("name"))
            .from(a(self.table))
            .to_owned()
    }
}

/// A report that is one row per SQL row: FROM/JOIN/WHERE once, then paged, counted,
/// summed or streamed from the same statement.
pub struct SqlReport {
    /// FROM, the JOINs a filter reads, and WHERE; no select list, no order.
    pub base: SelectStatement,
    /// The joins only the select list or the order reads.
    pub lookups: Vec<Lookup>,
    /// Reference names of the select list, after `select`.
    pub named: Vec<Named>,
    /// The select list: (expression, alias read by the row mapper).
    pub select: Vec<(Expr, &'static str)>,
    pub order: Vec<(Expr, Order)>,
    /// Totals: (column key, expression summed).
    pub sums: Vec<(&'static str, Expr)>,
    /// The fiscal year a row is charged to, where rows may be of different years: the sums
    /// are given only when every matching row is of one year (money of different years is
    /// never added). None: the rows are of one year by construction, or carry no money.
    pub year: Option<Expr>,
}

impl SqlReport {
    /// The whole statement, reference names joined.
    pub fn statement(&self) -> SelectStatement {
        self.build(true)
    }

    /// With `join_names`, each [`Named`] column is joined and named here; without, it is
    /// the id (for a reader that names it, see `stream`).
    fn build(&self, join_names: bool) -> SelectStatement {
        let mut q = self.base.clone();
        for l in &self.lookups {
            join_by_id(&mut q, l.table, l.alias, l.on.clone());
        }
        for (e, alias) in &self.select {
            q.expr_as(e.clone(), a(alias));
        }
        for n in &self.named {
            if join_names {
                let alias = n.join_alias();
                join_by_id(&mut q, n.table, &alias, n.id.clone());
                q.expr_as((n.name)(&alias), a(n.alias));
            } else {
                q.expr_as(n.id.clone(), a(n.alias));
            }
        }
        for (e, o) in &self.order {
            q.order_by_expr_with_nulls(e.clone(), o.clone(), crate::web::nulls_for(o));
        }
        q
    }

    pub async fn page(
        &self,
        db: &impl ConnectionTrait,
        paging: Paging,
    ) -> ApiResult<Vec<QueryResult>> {
        let mut q = self.statement();
        q.limit(paging.size).offset(paging.offset());
        Ok(db.query_all(&q).await?)
    }

    /// The number of matching rows (bounded as in the lists when there is nothing to sum:
    /// reading every row would be for the count alone) and, by column key, their sums.
    pub async fn counted(
        &self,
        db: &impl ConnectionTrait,
        paging: Paging,
    ) -> ApiResult<(Count, HashMap<&'static str, i64>)> {
        if self.sums.is_empty() {
            let mut rows = self.base.clone();
            rows.expr(Expr::val(1));
            return Ok((count_rows_at_most(db, rows, paging.count_limit()).await?, HashMap::new()));
        }
        let (n, sums) = self.count_and_sums(db).await?;
        Ok((Count::exact(n), sums))
    }

    /// The number of matching rows and, by column key, their sums (cents or counts), in one
    /// statement: each is a pass over every matching row.
    async fn count_and_sums(
        &self,
        db: &impl ConnectionTrait,
    ) -> ApiResult<(u64, HashMap<&'static str, i64>)> {
        let mut q = self.base.clone();
        q.expr_as(Expr::cust("COUNT(*)"), a("n"));
        for (key, e) in &self.sums {
            q.expr_as(sum_i64(e.clone()), a(key));
        }
        if let Some(year) = &self.year {
            q.expr_as(count_distinct(year.clone()), a("years"));
        }
        let Some(row) = db.query_one(&q).await? else { return Ok((0, HashMap::new())) };
        let n: i64 = row.try_get("", "n")?;
        let mut sums = HashMap::new();
        let years = if self.year.is_some() { row.try_get::<i64>("", "years")? } else { 0 };
        if years <= 1 {
            for (key, _) in &self.sums {
                sums.insert(*key, row.try_get::<i64>("", key)?);
            }
        }
        Ok((u64::try_from(n).unwrap_or(0), sums))
    }

    /// Column key -> sum over every matching row.
    pub async fn sums(&self, db: &impl ConnectionTrait) -> ApiResult<HashMap<&'static str, i64>> {
        Ok(self.count_and_sums(db).await?.1)
    }

    /// The totals line of a file in `format` (none for CSV, see `Format::has_totals`).
    pub async fn file_totals(
        &self,
        db: &impl ConnectionTrait,
        format: Format,
        columns: &[Column],
    ) -> ApiResult<Option<Row>> {
        if !format.has_totals() {
            return Ok(None);
        }
        Ok(Some(totals_row(columns, &self.sums(db).await?)))
    }

    /// Every matching row, streamed, through `map`: on SQLite the reference names come
    /// from the export's reader, elsewhere from the joins.
    pub fn stream<F>(&self, db: &DatabaseConnection, map: F) -> Rows
    where
        F: FnMut(&DbRow) -> ApiResult<Row> + Send + 'static,
    {
        let names = self.named.iter().map(|n| (n.alias, n.names())).collect();
        Rows::from_select(db.clone(), self.build(false), names, self.statement(), map)
    }
}

/// A kept count with its requested and approved sums, from `q`'s `n`, `requested`,
/// `approved` and `years` ([`kept_years`]) columns (the reports whose totals are those two amounts).
pub async fn kept_amounts(
    db: &impl ConnectionTrait,
    q: &SelectStatement,
) -> ApiResult<Option<(u64, HashMap<&'static str, i64>)>> {
    let Some(r) = db.query_one(q).await? else { return Ok(None) };
    let n: i64 = get(&r, "n")?;
    // Money of different fiscal years is never added: no sums then.
    let sums = if get::<i64>(&r, "years")? > 1 {
        HashMap::new()
    } else {
        HashMap::from([
            ("requestedAmount", get(&r, "requested")?),
            ("approvedAmount", get(&r, "approved")?),
        ])
    };
    Ok(Some((u64::try_from(n).unwrap_or(0), sums)))
}

/// How many fiscal years the kept rows with a non-zero `count` column name (kept tables
/// write a request without a year as year 0, which is no year).
pub fn kept_years(count: &str) -> Expr {
    Expr::cust(format!(
        "CAST(COUNT(DISTINCT CASE WHEN {count} > 0 AND fiscal_year_id <> 0 THEN fiscal_year_id END) AS BIGINT)"
    ))
}

/// The totals row of `columns` from the sums: money keys as money, others as counts.
pub fn totals_row(columns: &[Column], sums: &HashMap<&'static str, i64>) -> Row {
    columns
        .iter()
        .map(|c| match sums.get(c.key.as_ref()) {
            Some(v) if c.kind == super::export::Kind::Money => Cell::Money(*v),
            Some(v) => Cell::Int(*v),
            None => Cell::Empty,
        })
        .collect()
}

/// Only the cells that have a total, as the view's `totals` object.
pub fn totals_record(columns: &[Column], totals: &[Cell]) -> Record {
    Record(
        columns
            .iter()
            .zip(totals)
            .filter(|(_, v)| **v != Cell::Empty)
            .map(|(c, v)| (c.key.clone(), v.clone()))
            .collect(),
    )
}

/// The "who" line of exports.
pub fn generated_by(me: &CurrentUser) -> String {
    let name = format!("{} {}", me.user.first_name, me.user.last_name);
    if name.trim().is_empty() {
        me.user.email.clone()
    } else {
        name.trim().to_owned()
    }
}

/// The filters used, in words, for the PDF heading: names looked up, not ids.
pub async fn describe(db: &impl ConnectionTrait, f: &Filters) -> ApiResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    async fn name_of(db: &impl ConnectionTrait, table: &str, id: i32) -> ApiResult<String> {
        let q = Query::select()
            .expr_as(shown_name(table), a("name"))
            .from(a(table))
            .and_where(Expr::col((a(table), a("id"))).eq(id))
            .to_owned();
        Ok(match db.query_one(&q).await? {
            Some(r) => r.try_get::<String>("", "name")?,
            None => format!("#{id}"),
        })
    }
    if let Some(id) = f.program {
        out.push(("Mentor program".into(), name_of(db, "mentor_programs", id).await?));
    }
    if let Some(id) = f.fiscal_year {
        out.push(("Fiscal year".into(), name_of(db, "fiscal_years", id).await?));
    }
    if let Some(id) = f.fund {
        out.push(("Fund".into(), name_of(db, "funds", id).await?));
    }
    if let Some(id) = f.approval_code {
        out.push(("Approval code".into(), name_of(db, "approval_codes", id).await?));
    }
    if let Some(id) = f.payee {
        let q = Query::select()
            .column(a("full_name"))
            .from(a("participants"))
            .and_where(Expr::col(a("id")).eq(id))
            .to_owned();
        let name = match db.query_one(&q).await? {
            Some(r) => r.try_get::<String>("", "full_name")?,
            None => format!("#{id}"),
        };
        out.push(("Payee".into(), name));
    }
    if let Some(form) = f.form {
        out.push(("Form".into(), form.label().to_owned()));
    }
    if let Some(role) = f.role {
        out.push(("Role".into(), role.code().to_owned()));
    }
    if let Some(d) = f.district {
        out.push(("District".into(), d.to_string()));
    }
    if let Some(id) = f.caucus_region {
        out.push(("Caucus region".into(), name_of(db, "caucus_regions", id).await?));
    }
    match (f.start_date, f.end_date) {
        (Some(a), Some(b)) => {
            out.push(("Dates".into(), format!("{} to {}", text::day(a), text::day(b))))
        }
        (Some(a), None) => out.push(("From".into(), text::day(a))),
        (None, Some(b)) => out.push(("Until".into(), text::day(b))),
        (None, None) => {}
    }
    Ok(out)
}

/// The export's description of itself.
pub async fn meta(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    stem: impl Into<String>,
    title: impl Into<String>,
    f: &Filters,
) -> ApiResult<Meta> {
    Ok(Meta {
        file_stem: stem.into(),
        title: title.into(),
        filters: describe(db, f).await?,
        generated_by: generated_by(me),
        generated_at: crate::clock::now(),
        minutes_offset: f.minutes_offset,
    })
}

/// id -> name of each (small) reference table, read in one statement (a grouped report's
/// page is a handful of statements; each is a trip to the database's thread).
pub async fn names_by_id<const N: usize>(
    db: &impl ConnectionTrait,
    tables: [&str; N],
) -> ApiResult<[HashMap<i32, String>; N]> {
    let select = |i: usize| {
        Query::select()
            .expr_as(Expr::val(i as i32), a("list"))
            .column(a("id"))
            .expr_as(shown_name(tables[i]), a("name"))
            .from(a(tables[i]))
            .to_owned()
    };
    let mut names = std::array::from_fn(|_| HashMap::new());
    let mut q = select(0);
    for i in 1..N {
        q.union(UnionType::All, select(i));
    }
    for r in db.query_all(&q).await? {
        let list: i32 = get(&r, "list")?;
        names[list as usize].insert(get::<i32>(&r, "id")?, get::<String>(&r, "name")?);
    }
    Ok(names)
}

/// The name of `id` in `names`, `#id` when it is gone.
pub fn name_in(names: &HashMap<i32, String>, id: Option<i32>) -> Cell {
    match id {
        None => Cell::Empty,
        Some(id) => Cell::Text(names.get(&id).cloned().unwrap_or_else(|| format!("#{id}"))),
    }
}

/// Rounded half away from zero: `sum / count` in cents.
pub fn average_cents(sum: i64, count: i64) -> Option<i64> {
    if count == 0 {
        return None;
    }
    let (s, c) = (sum as i128, count as i128);
    let twice = 2 * s.abs() + c;
    let q = (twice / (2 * c)) as i64;
    Some(if s < 0 { -q } else { q })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_days_become_utc_windows() {
        let q = ReportQuery {
            startdate: NaiveDate::from_ymd_opt(2026, 1, 1),
            enddate: NaiveDate::from_ymd_opt(2026, 1, 31),
            minutesoffset: Some(480),
            ..Default::default()
        };
        let f = q.filters().unwrap();
        assert_eq!(f.from.unwrap().to_rfc3339(), "2026-01-01T08:00:00+00:00");
        assert_eq!(f.until.unwrap().to_rfc3339(), "2026-02-01T08:00:00+00:00");
        let utc = ReportQuery { minutesoffset: None, ..q.clone() }.filters().unwrap();
        assert_eq!(utc.from.unwrap().to_rfc3339(), "2026-01-01T00:00:00+00:00");
    }

    #[test]
    fn bad_filters_name_their_field() {
        let bad = |q: ReportQuery, field: &str| match q.filters().unwrap_err() {
            ApiError::BadRequest { errors, .. } => {
                assert!(errors.contains_key(field), "{errors:?}")
            }
            other => panic!("{other:?}"),
        };
        bad(ReportQuery { minutesoffset: Some(900), ..Default::default() }, "MinutesOffset");
        // An end before the start is a rule (422), not a shape.
        match (ReportQuery {
            startdate: NaiveDate::from_ymd_opt(2026, 2, 1),
            enddate: NaiveDate::from_ymd_opt(2026, 1, 1),
            ..Default::default()
        })
        .filters()
        {
            Err(ApiError::Unprocessable { errors, .. }) => {
                assert!(errors.contains_key("EndDate"), "{errors:?}")
            }
            other => panic!("{other:?}"),
        }
        bad(
            ReportQuery { paymentrequesttype: Some("F99".into()), ..Default::default() },
            "PaymentRequestType",
        );
        bad(ReportQuery { rolecode: Some("Boss".into()), ..Default::default() }, "RoleCode");
        assert!(ReportQuery { reportformat: Some("docx".into()), ..Default::default() }
            .format()
            .is_err());
    }

    /// The shared expressions render for both backends with no placeholder left unbound
    /// (a `?` in `Expr::cust_with_exprs` is SQLite's only: PostgreSQL got it verbatim).
    #[test]
    fn shared_expressions_render_for_both_backends() {
        use sea_orm::sea_query::{PostgresQueryBuilder, SqliteQueryBuilder};
        let q = Query::select()
            .expr_as(sum_i64(col("pr", "approved_cents")), a("s"))
            .expr_as(code_and_name("ac"), a("c"))
            .from_as(a("payment_requests"), a("pr"))
            .to_owned();
        let (pg, values) = q.build(PostgresQueryBuilder);
        assert_eq!(
            pg,
            r#"SELECT CAST(COALESCE(SUM("pr"."approved_cents"), 0) AS BIGINT) AS "s", (CASE WHEN ("ac"."id" IS NULL) THEN NULL WHEN ("ac"."code" IS NULL OR "ac"."code" = $1) THEN "ac"."name" ELSE ("ac"."code" || $2) || "ac"."name" END) AS "c" FROM "payment_requests" AS "pr""#
        );
        assert_eq!(values.0.len(), 2);
        let (sqlite, _) = q.build(SqliteQueryBuilder);
        assert!(sqlite.contains(r#"("ac"."code" || ?) || "ac"."name""#), "{sqlite}");
        assert!(!pg.contains('?'), "{pg}");
    }

    #[test]
    fn sort_keys_are_checked() {
        let q = ReportQuery {
            sortby: Some("PAYEE".into()),
            sortdescending: Some(true),
            ..Default::default()
        };
        assert_eq!(q.sort(&["requestId", "payee"], "requestId").unwrap(), ("payee", true));
        assert_eq!(
            ReportQuery::default().sort(&["requestId"], "requestId").unwrap(),
            ("requestId", false)
        );
        assert!(ReportQuery { sortby: Some("nope".into()), ..Default::default() }
            .sort(&["requestId"], "requestId")
            .is_err());
    }
}

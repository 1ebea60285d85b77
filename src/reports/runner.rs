//! The two shapes a report takes, and the handlers that serve any report of either
//! shape, so a report module only says what it is (its query, its columns):
//!
//! - [`SqlReport`](super::query::SqlReport)-backed ([`RowReport`]): one row per database
//!   row; the view pages in SQL, totals are SQL sums, the export streams the query.
//! - [`GroupedReport`]: a few hundred grouped rows computed in memory (per fund × account,
//!   per form type, per budget line); sorted and paged in memory.
//!
//! The route table checked the report's permission; every handler reads the caller's scope.

use std::{cmp::Ordering, collections::HashMap, future::Future};

use actix_web::{web, HttpResponse};
use sea_orm::{DatabaseConnection, DbBackend, QueryResult};

use super::{
    catalogue::ReportInfo,
    export::{self, Cell, Column, Record, Row, Rows},
    fields::DbRow,
    query::{self, Filters, ReportPage, ReportQuery, SqlReport},
};
use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser,
    },
    error::ApiResult,
    state::AppState,
    web::{Count, Page, Paging, Query},
};

/// A report of one row per database row.
pub trait RowReport: 'static {
    const INFO: ReportInfo;
    fn columns() -> Vec<Column>;
    /// The statement for these filters, scope and sort (a key of `INFO.sortable`).
    fn query(f: &Filters, scope: &Scope, sort: (&str, bool), backend: DbBackend) -> SqlReport;
    /// A result row as the report's cells, in column order.
    fn row(r: &DbRow) -> ApiResult<Row>;
    /// Extra JSON fields of a view row (ids for links); none by default.
    fn extra(_r: &QueryResult, record: Record) -> ApiResult<Record> {
        Ok(record)
    }
    /// `totalCount` and totals from kept figures, when these filters allow it (the
    /// count and sums then cost a few rows instead of a scan); None by default.
    fn kept_totals(
        _db: &DatabaseConnection,
        _f: &Filters,
        _scope: &Scope,
    ) -> impl Future<Output = ApiResult<Option<Kept>>> {
        async { Ok(None) }
    }
    /// Which columns (indexes) an export has, in order: all by default.
    fn export_columns(_q: &ReportQuery, columns: &[Column]) -> ApiResult<Vec<usize>> {
        Ok((0..columns.len()).collect())
    }
}

/// A count and sums by column key.
pub type Kept = (u64, HashMap<&'static str, i64>);

/// The view's count and sums: kept figures when the report has them for these filters.
async fn counted<R: RowReport>(
    db: &DatabaseConnection,
    p: &Prepared,
    report: &SqlReport,
    paging: Paging,
) -> ApiResult<(Count, HashMap<&'static str, i64>)> {
    match R::kept_totals(db, &p.filters, &p.scope).await? {
        Some((n, sums)) => Ok((Count::exact(n), sums)),
        None => report.counted(db, paging).await,
    }
}

/// The cells at `picked`, in that order.
fn pick(mut row: Row, picked: &[usize]) -> Row {
    picked
        .iter()
        .map(|i| std::mem::replace(row.get_mut(*i).unwrap_or(&mut Cell::Empty), Cell::Empty))
        .collect()
}

struct Prepared {
    filters: Filters,
    scope: Scope,
    columns: Vec<Column>,
}

async fn prepare(
    state: &AppState,
    me: &CurrentUser,
    q: &ReportQuery,
    columns: Vec<Column>,
) -> ApiResult<Prepared> {
    let filters = q.filters()?;
    let scope = scope_of(&state.db, me).await?;
    scope.require_filter(filters.program)?;
    Ok(Prepared { filters, scope, columns })
}

pub async fn row_view<R: RowReport>(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ReportQuery>,
) -> ApiResult<web::Json<ReportPage>> {
    let p = prepare(&state, &me, &q, R::columns()).await?;
    let paging = q.paging()?;
    let sort = q.sort(R::INFO.sortable, R::INFO.default_sort.0)?;
    let report = R::query(&p.filters, &p.scope, sort, state.db.get_database_backend());
    let rows = report.page(&state.db, paging).await?;
    let (count, sums) = counted::<R>(&state.db, &p, &report, paging).await?;
    let items = rows
        .iter()
        .map(|r| R::extra(r, Record::of(&p.columns, R::row(&DbRow::Orm(r))?)))
        .collect::<ApiResult<Vec<_>>>()?;
    let totals = query::totals_row(&p.columns, &sums);
    Ok(web::Json(ReportPage::new(
        Page::counted(items, paging, count),
        query::totals_record(&p.columns, &totals),
    )))
}

pub async fn row_retrieve<R: RowReport>(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let p = prepare(&state, &me, &q, R::columns()).await?;
    let format = q.format()?;
    let sort = q.sort(R::INFO.sortable, R::INFO.default_sort.0)?;
    let picked = R::export_columns(&q, &p.columns)?;
    let report = R::query(&p.filters, &p.scope, sort, state.db.get_database_backend());
    let totals = if format.has_totals() {
        let sums = match R::kept_totals(&state.db, &p.filters, &p.scope).await? {
            Some((_, sums)) => sums,
            None => report.sums(&state.db).await?,
        };
        Some(pick(query::totals_row(&p.columns, &sums), &picked))
    } else {
        None
    };
    let meta = query::meta(&state.db, &me, R::INFO.key, R::INFO.title, &p.filters).await?;
    let columns = picked.iter().map(|i| p.columns[*i].clone()).collect();
    let rows = report.stream(&state.db, move |r| R::row(r).map(|row| pick(row, &picked)));
    Ok(export::respond(format, meta, columns, rows, totals))
}

/// A report of grouped rows, computed whole (they are few).
pub trait GroupedReport: 'static {
    const INFO: ReportInfo;
    fn columns() -> Vec<Column>;
    /// Every row (cells in column order) with its extra JSON fields, in the default order.
    fn rows(
        db: &DatabaseConnection,
        f: &Filters,
        scope: &Scope,
    ) -> impl Future<Output = ApiResult<Vec<(Row, Record)>>>;
    /// The totals row over every row; none where that would add amounts of different
    /// fiscal years (see [`one_fiscal_year`]).
    fn totals(rows: &[Row]) -> Option<Row>;
}

/// Orders cells of one column: empty first, then by value.
pub fn compare(a: &Cell, b: &Cell) -> Ordering {
    use Cell::*;
    match (a, b) {
        (Empty, Empty) => Ordering::Equal,
        (Empty, _) => Ordering::Less,
        (_, Empty) => Ordering::Greater,
        (Text(x), Text(y)) => ignoring_case(x, y).then_with(|| x.cmp(y)),
        (Money(x), Money(y)) | (Int(x), Int(y)) | (Request(_, x), Request(_, y)) => x.cmp(y),
        (Number(x), Number(y)) | (Percent(x), Percent(y)) => x.total_cmp(y),
        (Date(x), Date(y)) => x.cmp(y),
        (Timestamp(x), Timestamp(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// Case-insensitive order. Sorting compares the same few names over and over: equal ones
/// and ASCII ones (nearly all) are compared in place, not through lowered copies.
fn ignoring_case(x: &str, y: &str) -> Ordering {
    if x == y {
        Ordering::Equal
    } else if x.is_ascii() && y.is_ascii() {
        x.bytes().map(|b| b.to_ascii_lowercase()).cmp(y.bytes().map(|b| b.to_ascii_lowercase()))
    } else {
        x.to_lowercase().cmp(&y.to_lowercase())
    }
}

/// Sorts grouped rows on a column (stable: the default order breaks ties).
fn sort_rows(
    columns: &[Column],
    rows: &mut [(Row, Record)],
    key: &str,
    descending: bool,
    default_key: &str,
) {
    if key == default_key && !descending {
        return;
    }
    let Some(i) = columns.iter().position(|c| c.key == key) else { return };
    rows.sort_by(|(a, _), (b, _)| {
        let o = compare(&a[i], &b[i]);
        if descending {
            o.reverse()
        } else {
            o
        }
    });
}

async fn grouped<G: GroupedReport>(
    state: &AppState,
    me: &CurrentUser,
    q: &ReportQuery,
) -> ApiResult<(Prepared, Vec<(Row, Record)>, Option<Row>)> {
    let p = prepare(state, me, q, G::columns()).await?;
    let (key, descending) = q.sort(G::INFO.sortable, G::INFO.default_sort.0)?;
    let mut rows = G::rows(&state.db, &p.filters, &p.scope).await?;
    sort_rows(&p.columns, &mut rows, key, descending, G::INFO.default_sort.0);
    let plain: Vec<Row> = rows.iter().map(|(r, _)| r.clone()).collect();
    let totals = G::totals(&plain);
    Ok((p, rows, totals))
}

pub async fn grouped_view<G: GroupedReport>(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ReportQuery>,
) -> ApiResult<web::Json<ReportPage>> {
    let paging = q.paging()?;
    let (p, rows, totals) = grouped::<G>(&state, &me, &q).await?;
    let total_count = rows.len() as u64;
    let items = rows
        .into_iter()
        .skip(paging.offset() as usize)
        .take(paging.size as usize)
        .map(|(row, extra)| {
            let mut record = Record::of(&p.columns, row);
            record.0.extend(extra.0);
            record
        })
        .collect();
    Ok(web::Json(ReportPage::new(
        Page::new(items, paging, total_count),
        query::totals_record(&p.columns, totals.as_deref().unwrap_or_default()),
    )))
}

pub async fn grouped_retrieve<G: GroupedReport>(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let format = q.format()?;
    let (p, rows, totals) = grouped::<G>(&state, &me, &q).await?;
    let meta = query::meta(&state.db, &me, G::INFO.key, G::INFO.title, &p.filters).await?;
    let rows = Rows::from_vec(rows.into_iter().map(|(r, _)| r).collect());
    Ok(export::respond(format, meta, p.columns, rows, totals))
}

/// Whether every row names the same fiscal year in column `i` (or there are no rows): a
/// total over them adds one year's money. Budgets, and what is charged to them, belong to
/// their year; a sum across years would compare one year's spending with two years' budgets.
pub fn one_fiscal_year(rows: &[Row], i: usize) -> bool {
    let mut years = rows.iter().map(|r| r.get(i));
    match years.next() {
        None => true,
        Some(first) => years.all(|y| y == first),
    }
}

/// Sums a money or count column of grouped rows.
pub fn sum_column(rows: &[Row], i: usize) -> i64 {
    rows.iter()
        .map(|r| match r.get(i) {
            Some(Cell::Money(v) | Cell::Int(v)) => *v,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_orders_ignoring_case_then_by_case() {
        let text = |s: &str| Cell::Text(s.into());
        assert_eq!(compare(&text("apple"), &text("Banana")), Ordering::Less);
        assert_eq!(compare(&text("Program B"), &text("program a")), Ordering::Greater);
        assert_eq!(
            compare(&text("a"), &text("A")),
            Ordering::Greater,
            "ties broken by case, so the order is total"
        );
        assert_eq!(
            compare(&text("Ünited"), &text("über")),
            Ordering::Greater,
            "non-ASCII folds too: ü = ü, then n > b"
        );
        assert_eq!(compare(&text("same"), &text("same")), Ordering::Equal);
        assert_eq!(compare(&Cell::Empty, &text("a")), Ordering::Less);
    }
}

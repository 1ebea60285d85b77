//! Generic queries over any reference table (they all share one shape).

use std::collections::HashSet;

use sea_orm::{
    sea_query::{Alias, Expr, ExprTrait, Func, LikeExpr, Order, Query, SelectStatement},
    ConnectionTrait, FromQueryResult, Value,
};

use super::{
    dto::RefItem,
    lists::Filter,
    rules::{ItemChange, NewItem},
};
use crate::error::{ApiError, ApiResult, Checks};

fn a(s: &str) -> Alias {
    Alias::new(s)
}

/// What a list call filters by, already checked.
#[derive(Debug, Default)]
pub struct ListFilter {
    pub name_pattern: Option<String>,
    pub mentor_program_id: Option<i32>,
    pub payment_request_type: Option<&'static str>,
}

fn base(table: &str, filter: Filter) -> SelectStatement {
    let mut q = Query::select();
    q.from(a(table)).columns([a("id"), a("name"), a("code"), a("is_active")]);
    if filter == Filter::PaymentRequestType {
        q.column(a("payment_request_type"));
    } else {
        q.expr_as(Expr::value(Value::String(None)), a("payment_request_type"));
    }
    q.to_owned()
}

pub async fn list(
    db: &impl ConnectionTrait,
    table: &str,
    kind: Filter,
    f: &ListFilter,
) -> ApiResult<Vec<RefItem>> {
    let mut q = base(table, kind);
    if let Some(pattern) = &f.name_pattern {
        q.and_where(
            Expr::expr(Func::lower(Expr::col(a("name")))).like(LikeExpr::new(pattern).escape('\\')),
        );
    }
    if let Some(program) = f.mentor_program_id {
        q.and_where(
            Expr::col(a("id")).in_subquery(
                Query::select()
                    .column(a("college_id"))
                    .from(a("mentor_program_colleges"))
                    .and_where(Expr::col(a("mentor_program_id")).eq(program))
                    .to_owned(),
            ),
        );
    }
    if let Some(kind) = f.payment_request_type {
        q.and_where(Expr::col(a("payment_request_type")).eq(kind));
    }
    q.order_by(a("sort_order"), Order::Asc)
        .order_by(a("name"), Order::Asc)
        .order_by(a("id"), Order::Asc);
    let rows = db.query_all(&q).await?;
    rows.iter().map(|r| RefItem::from_query_result(r, "").map_err(ApiError::from)).collect()
}

pub async fn get(
    db: &impl ConnectionTrait,
    table: &str,
    kind: Filter,
    id: i32,
) -> ApiResult<Option<RefItem>> {
    let mut q = base(table, kind);
    q.and_where(Expr::col(a("id")).eq(id));
    match db.query_one(&q).await? {
        Some(r) => Ok(Some(RefItem::from_query_result(&r, "")?)),
        None => Ok(None),
    }
}

/// True when another item of the table has this code, ignoring case.
pub async fn code_taken(db: &impl ConnectionTrait, table: &str, code: &str) -> ApiResult<bool> {
    let q = Query::select()
        .expr(Expr::col(a("id")))
        .from(a(table))
        .and_where(Expr::expr(Func::lower(Expr::col(a("code")))).eq(code.to_lowercase()))
        .to_owned();
    Ok(db.query_one(&q).await?.is_some())
}

/// Inserts an item and returns its id.
pub async fn insert(
    db: &impl ConnectionTrait,
    table: &str,
    item: &NewItem,
    conflict: &str,
) -> ApiResult<i32> {
    let mut q = Query::insert();
    q.into_table(a(table));
    let mut cols = vec![a("name"), a("code"), a("is_active"), a("sort_order"), a("created_at")];
    let mut values: Vec<Expr> = vec![
        item.name.clone().into(),
        item.code.clone().into(),
        true.into(),
        0.into(),
        Expr::value(crate::clock::now()),
    ];
    if let Some(kind) = item.payment_request_type {
        cols.push(a("payment_request_type"));
        values.push(kind.into());
    }
    q.columns(cols).values_panic(values).returning_col(a("id"));
    let row = db
        .query_one(&q)
        .await
        .map_err(|e| ApiError::unique_or_internal(e, conflict))?
        .ok_or_else(|| ApiError::Internal("insert returned no id".into()))?;
    Ok(row.try_get_by_index::<i32>(0)?)
}

pub async fn link_colleges(
    db: &impl ConnectionTrait,
    program_id: i32,
    college_ids: &[i32],
) -> ApiResult<()> {
    if college_ids.is_empty() {
        return Ok(());
    }
    let mut q = Query::insert();
    q.into_table(a("mentor_program_colleges")).columns([a("mentor_program_id"), a("college_id")]);
    for id in college_ids {
        q.values_panic([program_id.into(), (*id).into()]);
    }
    db.execute(&q).await?;
    Ok(())
}

/// The ids among `ids` that are not an active item of `table`.
pub async fn missing_ids(
    db: &impl ConnectionTrait,
    table: &str,
    ids: &[i32],
) -> ApiResult<Vec<i32>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = Query::select()
        .column(a("id"))
        .from(a(table))
        .and_where(Expr::col(a("id")).is_in(ids.iter().copied()))
        .to_owned();
    // Fiscal years are never deactivated; every other list is pointed at by its active items only.
    if table != "fiscal_years" {
        q.and_where(Expr::col(a("is_active")).eq(true));
    }
    let found: HashSet<i32> =
        db.query_all(&q).await?.iter().filter_map(|r| r.try_get_by_index::<i32>(0).ok()).collect();
    Ok(ids.iter().copied().filter(|id| !found.contains(id)).collect())
}

/// The one check of the reference ids a record points at: those not an active item of
/// `table` are a problem of `field`.
pub async fn check_ids(
    db: &impl ConnectionTrait,
    checks: &mut Checks,
    field: &str,
    table: &str,
    ids: &[i32],
) -> ApiResult<()> {
    let missing = missing_ids(db, table, ids).await?;
    match missing.as_slice() {
        [] => {}
        [id] => checks.add(field, format!("is not a known, active entry (id {id})")),
        _ => checks.add(
            field,
            format!(
                "are not known, active entries (ids {})",
                missing.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
            ),
        ),
    }
    Ok(())
}

/// Whether `id` is an active item of `table`.
pub async fn is_active(db: &impl ConnectionTrait, table: &str, id: i32) -> ApiResult<bool> {
    Ok(missing_ids(db, table, &[id]).await?.is_empty())
}

/// Renames and/or (de)activates one item; false when no item has that id.
pub async fn update(
    db: &impl ConnectionTrait,
    table: &str,
    id: i32,
    change: &ItemChange,
) -> ApiResult<bool> {
    let mut q = Query::update();
    q.table(a(table)).and_where(Expr::col(a("id")).eq(id));
    // A no-op assignment keeps the statement valid when only the colleges change.
    q.value(a("id"), id);
    if let Some(name) = &change.name {
        q.value(a("name"), name.clone());
    }
    if let Some(active) = change.is_active {
        q.value(a("is_active"), active);
    }
    Ok(db.execute(&q).await?.rows_affected() == 1)
}

/// Replaces a program's colleges by `college_ids`.
pub async fn replace_colleges(
    db: &impl ConnectionTrait,
    program_id: i32,
    college_ids: &[i32],
) -> ApiResult<()> {
    let q = Query::delete()
        .from_table(a("mentor_program_colleges"))
        .and_where(Expr::col(a("mentor_program_id")).eq(program_id))
        .to_owned();
    db.execute(&q).await?;
    link_colleges(db, program_id, college_ids).await
}

/// The college ids of a program, ascending.
pub async fn colleges_of(db: &impl ConnectionTrait, program_id: i32) -> ApiResult<Vec<i32>> {
    let q = Query::select()
        .column(a("college_id"))
        .from(a("mentor_program_colleges"))
        .and_where(Expr::col(a("mentor_program_id")).eq(program_id))
        .order_by(a("college_id"), Order::Asc)
        .to_owned();
    Ok(db.query_all(&q).await?.iter().filter_map(|r| r.try_get_by_index::<i32>(0).ok()).collect())
}

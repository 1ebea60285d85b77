//! The kept totals of the requests (migration 000142, kept by triggers named in
//! `db::derived`): per program ×
//! fiscal year × form × approval hour and per program × fiscal year × fund × account. The
//! grouped reports read these few hundred rows instead of grouping every charged request
//! when no date window is asked for; the days to approval also need the caller's zone a
//! whole number of hours from UTC (they then move by whole approval hours).
//!
//! A date window reads the kept figures of `m20261204_000100_window_totals` instead (per
//! submitted day, and per approval hour since 1970 UTC): in a whole-hour zone a window of
//! local days starts and ends on whole UTC hours, so its rows are a range of hours. Zones off
//! the whole hour group the requests themselves (actual vs budget still sums its window
//! from the requests, `by_line_in_window`).

use sea_orm::{
    sea_query::{Expr, ExprTrait, Query, SelectStatement},
    ConnectionTrait,
};

use super::query::{
    a, charged, col, get, grouped_by, in_window, on_days, scoped, sum_i64, Filters, ACCOUNT_KEY,
    LINE_KEY,
};
use crate::{auth::scope::Scope, error::ApiResult};

const BY_FORM: &str = "payment_request_form_totals";
const BY_LINE: &str = "payment_request_line_totals";
const FORM_DAYS: &str = "payment_request_form_days";
const FORM_HOURS: &str = "payment_request_form_hours";
const LINE_HOURS: &str = "payment_request_line_hours";

/// (fiscal year, fund, expense account): budgets of different years are never added.
pub type YearKey = (Option<i32>, Option<i32>, Option<i32>);

/// Whether the kept charged sums answer these filters: no date window.
pub fn undated(f: &Filters) -> bool {
    f.start_date.is_none() && f.end_date.is_none()
}

/// Whether the caller's zone is a whole number of hours from UTC: then the kept figures
/// answer the days to approval (moved by whole approval hours) and any date window (its
/// local midnights are whole UTC hours).
pub fn usable(f: &Filters) -> bool {
    f.minutes_offset % 60 == 0
}

/// The filters' window `[from, until)` on a kept approval hour (whole hours since 1970 UTC);
/// exact when `usable`, the window's edges being whole hours then.
fn in_hours(q: &mut SelectStatement, f: &Filters) {
    let hour = |at: chrono::DateTime<chrono::Utc>| at.timestamp().div_euclid(3600);
    if let Some(from) = f.from {
        q.and_where(col("t", "approval_hour").gte(hour(from)));
    }
    if let Some(until) = f.until {
        q.and_where(col("t", "approval_hour").lt(hour(until)));
    }
}

/// Days to add to a UTC-day count for an approval at `hour` (UTC) seen `minutes_offset`
/// (UTC − local, a whole number of hours) away: west of UTC the early hours are the
/// previous local day, east of it the late hours the next one.
pub fn day_shift(hour: i32, minutes_offset: i32) -> i64 {
    let start = hour * 60;
    if minutes_offset > 0 && start < minutes_offset {
        -1
    } else if minutes_offset < 0 && start >= 24 * 60 + minutes_offset {
        1
    } else {
        0
    }
}

/// `table` grouped by `keys`, in the caller's scope and the filters' program and year.
fn base(table: &str, keys: &[(&str, &str)], f: &Filters, scope: &Scope) -> SelectStatement {
    let mut q = grouped_by(table, "t", keys);
    scoped(&mut q, scope, col("t", "mentor_program_id"));
    if let Some(p) = f.program {
        q.and_where(col("t", "mentor_program_id").eq(p));
    }
    if let Some(y) = f.fiscal_year {
        q.and_where(col("t", "fiscal_year_id").eq(y));
    }
    q
}

/// A kept key's id: 0 (kept for none, so the key has no NULL) is None.
fn id(r: &sea_orm::QueryResult, key: &str) -> ApiResult<Option<i32>> {
    Ok(Some(get::<i32>(r, key)?).filter(|id| *id != 0))
}

/// Per form: submitted, approved, approved cents, the local days summed and how many.
pub struct FormTotals {
    pub form: String,
    pub submitted: i64,
    pub approved: i64,
    pub cents: i64,
    pub days: i64,
    pub with_days: i64,
}

/// Per form, in the caller's scope and the filters' program and year: the kept totals
/// without a window, the window figures with one. Answers when `usable`.
pub async fn by_form(
    db: &impl ConnectionTrait,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<FormTotals>> {
    let zero = || Expr::cust("CAST(0 AS BIGINT)");
    let figures = |q: &mut SelectStatement, submitted: Expr| {
        q.expr_as(submitted, a("submitted"))
            .expr_as(sum_i64(col("t", "approved_count")), a("approved"))
            .expr_as(sum_i64(col("t", "approved_cents")), a("cents"))
            .expr_as(sum_i64(col("t", "days_sum")), a("days"))
            .expr_as(sum_i64(col("t", "days_count")), a("with_days"));
    };
    let rows = if undated(f) {
        let mut q =
            base(BY_FORM, &[("form_type", "form_type"), ("approval_hour", "hour")], f, scope);
        figures(&mut q, sum_i64(col("t", "submitted_count")));
        db.query_all(&q).await?
    } else {
        // Submitted in range by their submitted day, as grouping the requests counts them.
        let mut submitted = base(FORM_DAYS, &[("form_type", "form_type")], f, scope);
        submitted
            .expr_as(Expr::cust("-1"), a("hour"))
            .expr_as(sum_i64(col("t", "submitted_count")), a("submitted"));
        for figure in ["approved", "cents", "days", "with_days"] {
            submitted.expr_as(zero(), a(figure));
        }
        on_days(&mut submitted, f, col("t", "submitted_on"));
        // Charged in range by their approval moment; the hour of the day moves the days.
        let hour_of_day = Expr::cust(r#""t"."approval_hour" % 24"#);
        let mut charged = base(FORM_HOURS, &[("form_type", "form_type")], f, scope);
        charged.expr_as(hour_of_day.clone(), a("hour")).add_group_by([hour_of_day]);
        figures(&mut charged, zero());
        in_hours(&mut charged, f);
        let mut rows = db.query_all(&submitted).await?;
        rows.extend(db.query_all(&charged).await?);
        rows
    };
    let mut out: Vec<FormTotals> = Vec::new();
    for r in rows {
        let form: String = get(&r, "form_type")?;
        let hour: i32 = get(&r, "hour")?;
        let with_days: i64 = get(&r, "with_days")?;
        let days = get::<i64>(&r, "days")?
            + if hour >= 0 { day_shift(hour, f.minutes_offset) * with_days } else { 0 };
        let i = match out.iter().position(|t| t.form == form) {
            Some(i) => i,
            None => {
                out.push(FormTotals {
                    form,
                    submitted: 0,
                    approved: 0,
                    cents: 0,
                    days: 0,
                    with_days: 0,
                });
                out.len() - 1
            }
        };
        let t = &mut out[i];
        t.submitted += get::<i64>(&r, "submitted")?;
        t.approved += get::<i64>(&r, "approved")?;
        t.cents += get::<i64>(&r, "cents")?;
        t.days += days;
        t.with_days += with_days;
    }
    Ok(out)
}

/// (fiscal year, program, fund, account): a budget line's key; a missing year, fund or account
/// is None.
pub type LineKey = (Option<i32>, i32, Option<i32>, Option<i32>);

/// The kept line keys with a charged request, in the caller's scope and the filters' program,
/// year and fund, each with `amount`.
fn kept_lines(f: &Filters, scope: &Scope, amount: Expr) -> SelectStatement {
    let mut q = base(BY_LINE, &LINE_KEY, f, scope);
    q.expr_as(amount, a("amount")).and_having(Expr::cust("SUM(t.approved_count) > 0"));
    if let Some(fund) = f.fund {
        q.and_where(col("t", "fund_id").eq(fund));
    }
    q
}

fn line_key(r: &sea_orm::QueryResult) -> ApiResult<LineKey> {
    Ok((id(r, "year_id")?, get(r, "program_id")?, id(r, "fund_id")?, id(r, "account_id")?))
}

/// Charged cents per line key, only the keys with a charged request (as grouping the
/// requests gives).
pub async fn by_line(
    db: &impl ConnectionTrait,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(LineKey, i64)>> {
    let q = kept_lines(f, scope, sum_i64(col("t", "approved_cents")));
    db.query_all(&q).await?.iter().map(|r| Ok((line_key(r)?, get(r, "amount")?))).collect()
}

/// Charged cents per line key within the filters' date window, SQLite's way: for each kept
/// key with a charged request, the sum of its requests in the window, a seek and a walk in
/// approval order on the per-line index (migration 000250). Grouping the window's requests
/// instead sorts every one of them by key (four times the time for a quarter). Only keys
/// with a charged request in the window, as grouping gives.
pub async fn by_line_in_window(
    db: &impl ConnectionTrait,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(LineKey, i64)>> {
    let mut sum = Query::select();
    sum.from_as(a("payment_requests"), a("pr"))
        // NULL without a charged request in the window; the key is then left out.
        .expr(Expr::cust(
            r#"CASE WHEN COUNT(*) > 0 THEN COALESCE(SUM("pr"."approved_cents"), 0) END"#,
        ));
    for (column, _) in LINE_KEY {
        // A kept key holds 0 for none; `IS` matches NULL to NULL and still seeks the index.
        sum.and_where(Expr::cust(format!(r#""pr"."{column}" IS NULLIF("t"."{column}", 0)"#)));
    }
    charged(&mut sum, "pr");
    in_window(&mut sum, f, col("pr", "approved_at"));
    let q = kept_lines(f, scope, Expr::SubQuery(None, Box::new(sum.into())));
    let mut out = Vec::new();
    for r in db.query_all(&q).await? {
        if let Some(amount) = get::<Option<i64>>(&r, "amount")? {
            out.push((line_key(&r)?, amount));
        }
    }
    Ok(out)
}

/// Charged count and cents per (fiscal year, fund, account) over every program in scope
/// (the caller's program filter is not one of this report's), only the keys with a charged
/// request (in the window, when there is one: answered when `undated` or `usable`); a
/// missing year, fund or account is None.
pub async fn by_account(
    db: &impl ConnectionTrait,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(YearKey, i64, i64)>> {
    let every_program = Filters { program: None, ..f.clone() };
    let mut q = if undated(f) {
        base(BY_LINE, &ACCOUNT_KEY, &every_program, scope)
    } else {
        let mut q = base(LINE_HOURS, &ACCOUNT_KEY, &every_program, scope);
        in_hours(&mut q, f);
        q
    };
    q.expr_as(sum_i64(col("t", "approved_count")), a("n"))
        .expr_as(sum_i64(col("t", "approved_cents")), a("amount"))
        .and_having(Expr::cust("SUM(t.approved_count) > 0"));
    let rows = db.query_all(&q).await?;
    rows.iter()
        .map(|r| {
            let key = (id(r, "year_id")?, id(r, "fund_id")?, id(r, "account_id")?);
            Ok((key, get(r, "n")?, get(r, "amount")?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approvals_move_to_the_local_day() {
        // Pacific (UTC−8, offset 480): before 08:00 UTC it is still the previous day.
        assert_eq!(day_shift(7, 480), -1);
        assert_eq!(day_shift(8, 480), 0);
        // Central Europe (UTC+1, offset −60): from 23:00 UTC it is already the next day.
        assert_eq!(day_shift(22, -60), 0);
        assert_eq!(day_shift(23, -60), 1);
        // UTC and the far zones.
        assert!((0..24).all(|h| day_shift(h, 0) == 0));
        assert_eq!(day_shift(13, 840), -1);
        assert_eq!(day_shift(14, 840), 0);
        assert_eq!(day_shift(9, -840), 0);
        assert_eq!(day_shift(10, -840), 1);
    }

    #[test]
    fn only_whole_hour_zones_use_them() {
        assert!(usable(&Filters { minutes_offset: -120, ..Default::default() }));
        assert!(!usable(&Filters { minutes_offset: -330, ..Default::default() }));
        assert!(undated(&Filters { minutes_offset: -330, ..Default::default() }));
        let dated = Filters {
            start_date: chrono::NaiveDate::from_ymd_opt(2026, 1, 1),
            ..Default::default()
        };
        assert!(usable(&dated) && !undated(&dated));
    }

    /// A window of local days in a whole-hour zone is a range of whole UTC hours: the
    /// approval at 07:59 UTC is the day before in Pacific time, 08:00 is the day itself.
    #[test]
    fn a_window_is_a_range_of_hours() {
        use sea_orm::sea_query::SqliteQueryBuilder;
        let f = super::super::query::ReportQuery {
            startdate: chrono::NaiveDate::from_ymd_opt(2026, 1, 1),
            enddate: chrono::NaiveDate::from_ymd_opt(2026, 1, 1),
            minutesoffset: Some(480),
            ..Default::default()
        }
        .filters()
        .unwrap();
        let mut q = grouped_by(LINE_HOURS, "t", &[]);
        in_hours(&mut q, &f);
        let hour = chrono::NaiveDate::from_ymd_opt(2026, 1, 1)
            .unwrap()
            .and_hms_opt(8, 0, 0)
            .unwrap()
            .and_utc()
            .timestamp()
            / 3600;
        let (sql, values) = q.build(SqliteQueryBuilder);
        assert!(sql.contains(r#""t"."approval_hour" >= ? AND "t"."approval_hour" < ?"#), "{sql}");
        let bounds: Vec<sea_orm::Value> = vec![hour.into(), (hour + 24).into()];
        assert_eq!(values.0, bounds);
    }
}

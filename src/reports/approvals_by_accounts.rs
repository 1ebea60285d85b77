//! Approvals by accounts: per fiscal year × fund × expense account, the approvals charged in
//! range, that year's budget (every program in scope) and what remains. Each year is its own
//! row: one year's budget is no allowance for another's approvals.

use std::collections::BTreeMap;

use sea_orm::{
    sea_query::{Expr, ExprTrait},
    ConnectionTrait, DatabaseConnection,
};

use super::{
    catalogue::ReportInfo,
    export::{Cell, Column, Kind, Record, Row},
    kept::{self, YearKey},
    query::{self, a, col, get, name_in, names_by_id, Filters, ACCOUNT_KEY},
    runner::{one_fiscal_year, sum_column, GroupedReport},
};
use crate::{
    auth::{scope::Scope, Permission},
    error::ApiResult,
};

pub struct ApprovalsByAccounts;

#[derive(Default)]
struct Acc {
    approvals: i64,
    approved: i64,
    budgeted: i64,
}

impl GroupedReport for ApprovalsByAccounts {
    const INFO: ReportInfo = ReportInfo {
        key: "approvals-by-accounts",
        title: "Approvals by accounts",
        description:
            "Per fiscal year, fund and expense account: approvals, approved sum, budget and what remains.",
        route: "/reports/approvals-by-accounts",
        path: "/reports/approvals-by-accounts",
        permission: Permission::ReportReadApprovalByAccount,
        filters: &["FiscalYearId", "StartDate", "EndDate"],
        sortable: &["fiscalYear", "fund", "expenseAccount", "approvals", "approvedSum", "budgeted", "remaining"],
        default_sort: ("fund", false),
        totals: &["approvals", "approvedSum", "budgeted", "remaining"],
    };

    fn columns() -> Vec<Column> {
        vec![
            Column::new("fiscalYear", "Fiscal year", Kind::Text),
            Column::new("fund", "Fund", Kind::Text),
            Column::new("expenseAccount", "Expense account", Kind::Text),
            Column::new("approvals", "Approvals", Kind::Int),
            Column::new("approvedSum", "Approved", Kind::Money),
            Column::new("budgeted", "Budgeted", Kind::Money),
            Column::new("remaining", "Remaining", Kind::Money),
        ]
    }

    async fn rows(
        db: &DatabaseConnection,
        f: &Filters,
        scope: &Scope,
    ) -> ApiResult<Vec<(Row, Record)>> {
        // The kept totals (000142) answer without a date window, their hourly figures
        // (window_totals) a window in a whole-hour zone: a few hundred rows, or a window's.
        let charged = if kept::undated(f) || kept::usable(f) {
            kept::by_account(db, f, scope).await?
        } else {
            grouped(db, f, scope).await?
        };
        rows_with(db, f, scope, charged).await
    }

    fn totals(rows: &[Row]) -> Option<Row> {
        one_fiscal_year(rows, 0).then(|| {
            vec![
                Cell::Empty,
                Cell::Empty,
                Cell::Empty,
                Cell::Int(sum_column(rows, 3)),
                Cell::Money(sum_column(rows, 4)),
                Cell::Money(sum_column(rows, 5)),
                Cell::Money(sum_column(rows, 6)),
            ]
        })
    }
}

/// The report's rows as grouping the requests gives them, whatever the filters: what the
/// kept figures are checked against (tests); no route reaches it.
pub async fn grouped_rows(
    db: &DatabaseConnection,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(Row, Record)>> {
    let charged = grouped(db, f, scope).await?;
    rows_with(db, f, scope, charged).await
}

/// The rows from the charged count and cents per key: with each key's budget, named.
async fn rows_with(
    db: &DatabaseConnection,
    f: &Filters,
    scope: &Scope,
    charged: Vec<(YearKey, i64, i64)>,
) -> ApiResult<Vec<(Row, Record)>> {
    let mut groups: BTreeMap<YearKey, Acc> = BTreeMap::new();
    for (key, n, cents) in charged {
        let acc = groups.entry(key).or_default();
        acc.approvals += n;
        acc.approved += cents;
    }

    let mut budget = query::grouped_by("budget_lines", "bl", &ACCOUNT_KEY);
    budget.expr_as(query::sum_i64(col("bl", "amount_cents")), a("budgeted"));
    query::scoped(&mut budget, scope, col("bl", "mentor_program_id"));
    if let Some(y) = f.fiscal_year {
        budget.and_where(col("bl", "fiscal_year_id").eq(y));
    }
    for r in db.query_all(&budget).await? {
        let key =
            (Some(get(&r, "year_id")?), Some(get(&r, "fund_id")?), Some(get(&r, "account_id")?));
        let acc = groups.entry(key).or_default();
        acc.budgeted += get::<i64>(&r, "budgeted")?;
    }

    let [years, funds, accounts] =
        names_by_id(db, ["fiscal_years", "funds", "expense_accounts"]).await?;
    let mut rows: Vec<(Row, Record)> = groups
        .into_iter()
        .map(|((year, fund, account), acc)| {
            let row = vec![
                name_in(&years, year),
                name_in(&funds, fund),
                name_in(&accounts, account),
                Cell::Int(acc.approvals),
                Cell::Money(acc.approved),
                Cell::Money(acc.budgeted),
                Cell::Money(acc.budgeted - acc.approved),
            ];
            let extra = Record::default()
                .with("fiscalYearId", Cell::int(year))
                .with("fundId", Cell::int(fund))
                .with("expenseAccountId", Cell::int(account));
            (row, extra)
        })
        .collect();
    rows.sort_by(|(x, _), (y, _)| {
        use super::runner::compare;
        compare(&x[0], &y[0])
            .then_with(|| compare(&x[1], &y[1]))
            .then_with(|| compare(&x[2], &y[2]))
    });
    Ok(rows)
}

/// Charged count and cents per (year, fund, account), grouping the requests themselves.
async fn grouped(
    db: &DatabaseConnection,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(YearKey, i64, i64)>> {
    let mut approvals = query::grouped_by("payment_requests", "pr", &ACCOUNT_KEY);
    approvals
        .expr_as(Expr::cust("COUNT(*)"), a("n"))
        .expr_as(query::sum_i64(col("pr", "approved_cents")), a("approved"));
    query::charged_in_window(&mut approvals, "pr", f, db.get_database_backend(), false);
    query::scoped(&mut approvals, scope, col("pr", "mentor_program_id"));
    if let Some(y) = f.fiscal_year {
        approvals.and_where(col("pr", "fiscal_year_id").eq(y));
    }
    db.query_all(&approvals)
        .await?
        .iter()
        .map(|r| {
            let key = (get(r, "year_id")?, get(r, "fund_id")?, get(r, "account_id")?);
            Ok((key, get(r, "n")?, get(r, "approved")?))
        })
        .collect()
}

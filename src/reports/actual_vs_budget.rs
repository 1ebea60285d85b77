//! Actual vs budget: per budget line (fiscal year × program × fund × account), the budget
//! and the approvals charged to it in range; spending without a line shows a budget of 0.
//! Each year is its own row: budgets of different years are never added.

use std::collections::BTreeMap;

use sea_orm::{
    sea_query::{ExprTrait, SelectStatement},
    ConnectionTrait, DatabaseConnection, DbBackend,
};

use super::{
    catalogue::ReportInfo,
    export::{Cell, Column, Kind, Record, Row},
    kept::{self, LineKey},
    query::{self, a, col, get, name_in, names_by_id, Filters, LINE_KEY},
    runner::{compare, one_fiscal_year, sum_column, GroupedReport},
};
use crate::{
    auth::{scope::Scope, Permission},
    error::ApiResult,
};

pub struct ActualVsBudget;

/// (year, program, fund, account) -> (budgeted, actual) cents.
type Lines = BTreeMap<LineKey, (i64, i64)>;

/// Actual as a percentage of budget, one decimal; none without a budget.
pub fn percent_used(actual: i64, budgeted: i64) -> Option<f64> {
    (budgeted != 0).then(|| (actual as f64 * 1000.0 / budgeted as f64).round() / 10.0)
}

/// `t`'s rows in the caller's scope and the filters' fiscal year, program and fund.
fn of_lines(q: &mut SelectStatement, t: &str, f: &Filters, scope: &Scope) {
    query::scoped(q, scope, col(t, "mentor_program_id"));
    if let Some(y) = f.fiscal_year {
        q.and_where(col(t, "fiscal_year_id").eq(y));
    }
    if let Some(p) = f.program {
        q.and_where(col(t, "mentor_program_id").eq(p));
    }
    if let Some(fund) = f.fund {
        q.and_where(col(t, "fund_id").eq(fund));
    }
}

/// Charged cents per (year, program, fund, account), grouping the requests themselves (a
/// date window on PostgreSQL, which groups them with a hash).
async fn grouped(
    db: &DatabaseConnection,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(LineKey, i64)>> {
    let mut actual = query::grouped_by("payment_requests", "pr", &LINE_KEY);
    actual.expr_as(query::sum_i64(col("pr", "approved_cents")), a("amount"));
    query::charged_in_window(&mut actual, "pr", f, db.get_database_backend(), false);
    of_lines(&mut actual, "pr", f, scope);
    db.query_all(&actual)
        .await?
        .iter()
        .map(|r| {
            Ok((
                (
                    get(r, "year_id")?,
                    get(r, "program_id")?,
                    get(r, "fund_id")?,
                    get(r, "account_id")?,
                ),
                get(r, "amount")?,
            ))
        })
        .collect()
}

impl GroupedReport for ActualVsBudget {
    const INFO: ReportInfo = ReportInfo {
        key: "actual-vs-budget",
        title: "Actual vs budget",
        description: "Per fiscal year and budget line: budgeted, approved spending in range, what remains and the share used.",
        route: "/reports/actual-vs-budget",
        path: "/reports/actual-vs-budget",
        permission: Permission::ReportReadActualVsBudget,
        filters: &["FundId", "MentorProgramId", "FiscalYearId", "StartDate", "EndDate"],
        sortable: &["fiscalYear", "mentorProgram", "fund", "expenseAccount", "budgeted", "actual", "remaining", "percentUsed"],
        default_sort: ("mentorProgram", false),
        totals: &["budgeted", "actual", "remaining", "percentUsed"],
    };

    fn columns() -> Vec<Column> {
        vec![
            Column::new("fiscalYear", "Fiscal year", Kind::Text),
            Column::new("mentorProgram", "Program", Kind::Text),
            Column::new("fund", "Fund", Kind::Text),
            Column::new("expenseAccount", "Expense account", Kind::Text),
            Column::new("budgeted", "Budgeted", Kind::Money),
            Column::new("actual", "Actual", Kind::Money),
            Column::new("remaining", "Remaining", Kind::Money),
            Column::new("percentUsed", "% used", Kind::Percent),
        ]
    }

    async fn rows(
        db: &DatabaseConnection,
        f: &Filters,
        scope: &Scope,
    ) -> ApiResult<Vec<(Row, Record)>> {
        let mut lines = Lines::new();

        let mut budget = query::grouped_by("budget_lines", "bl", &LINE_KEY);
        budget.expr_as(query::sum_i64(col("bl", "amount_cents")), a("amount"));
        of_lines(&mut budget, "bl", f, scope);
        for r in db.query_all(&budget).await? {
            let key = (
                Some(get(&r, "year_id")?),
                get(&r, "program_id")?,
                Some(get(&r, "fund_id")?),
                Some(get(&r, "account_id")?),
            );
            lines.entry(key).or_default().0 += get::<i64>(&r, "amount")?;
        }

        let charged = if kept::undated(f) {
            kept::by_line(db, f, scope).await?
        } else if db.get_database_backend() == DbBackend::Sqlite {
            kept::by_line_in_window(db, f, scope).await?
        } else {
            grouped(db, f, scope).await?
        };
        for (key, amount) in charged {
            lines.entry(key).or_default().1 += amount;
        }

        let [years, programs, funds, accounts] =
            names_by_id(db, ["fiscal_years", "mentor_programs", "funds", "expense_accounts"])
                .await?;
        let mut rows: Vec<(Row, Record)> = lines
            .into_iter()
            .map(|((year, program, fund, account), (budgeted, actual))| {
                let row = vec![
                    name_in(&years, year),
                    name_in(&programs, Some(program)),
                    name_in(&funds, fund),
                    name_in(&accounts, account),
                    Cell::Money(budgeted),
                    Cell::Money(actual),
                    Cell::Money(budgeted - actual),
                    Cell::percent(percent_used(actual, budgeted)),
                ];
                let extra = Record::default()
                    .with("fiscalYearId", Cell::int(year))
                    .with("mentorProgramId", Cell::Int(program.into()))
                    .with("fundId", Cell::int(fund))
                    .with("expenseAccountId", Cell::int(account));
                (row, extra)
            })
            .collect();
        rows.sort_by(|(x, _), (y, _)| {
            compare(&x[0], &y[0])
                .then_with(|| compare(&x[1], &y[1]))
                .then_with(|| compare(&x[2], &y[2]))
                .then_with(|| compare(&x[3], &y[3]))
        });
        Ok(rows)
    }

    fn totals(rows: &[Row]) -> Option<Row> {
        one_fiscal_year(rows, 0).then(|| {
            let budgeted = sum_column(rows, 4);
            let actual = sum_column(rows, 5);
            vec![
                Cell::Empty,
                Cell::Empty,
                Cell::Empty,
                Cell::Empty,
                Cell::Money(budgeted),
                Cell::Money(actual),
                Cell::Money(sum_column(rows, 6)),
                Cell::percent(percent_used(actual, budgeted)),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_used_has_one_decimal_and_needs_a_budget() {
        assert_eq!(percent_used(12_345, 100_000), Some(12.3));
        assert_eq!(percent_used(2, 3), Some(66.7));
        assert_eq!(percent_used(500, 0), None);
        assert_eq!(percent_used(150, 100), Some(150.0));
    }
}

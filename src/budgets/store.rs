//! Budget queries. Callers pass a connection or a transaction.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Expr, ExprTrait},
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};

use super::{
    dto::BudgetLineDto,
    rules::{self, KnownIds, LineKey},
};
use crate::{
    entities::{budget_line, expense_account, fund, mentor_program},
    error::{ApiError, ApiResult},
    money::Money,
};

/// The entity type of a budget line's activity and audit entries.
pub const LINE_ENTITY: &str = "budget-line";

/// Approved cents per line key of a fiscal year.
pub type ApprovedByLine = HashMap<(i32, i32, i32), i64>;

/// Sum of the approved amounts of the payment requests charged to each line
/// (program × fund × expense account) in `fiscal_year_id`: live requests in Approved,
/// ReadyForProcessing and Processed. Lines without any are absent (read as zero).
/// The query lives with the payment requests, which own the columns it reads.
pub async fn approved_by_line(
    db: &impl ConnectionTrait,
    fiscal_year_id: i32,
) -> ApiResult<ApprovedByLine> {
    crate::payment_requests::store::facts::approved_by_line(db, fiscal_year_id).await
}

/// Approved cents of one line key, zero when nothing is charged to it.
pub fn approved_of(approved: &ApprovedByLine, line: &budget_line::Model) -> i64 {
    approved
        .get(&(line.mentor_program_id, line.fund_id, line.expense_account_id))
        .copied()
        .unwrap_or(0)
}

pub async fn lines_of_year(
    db: &impl ConnectionTrait,
    fiscal_year_id: i32,
) -> ApiResult<Vec<budget_line::Model>> {
    Ok(budget_line::Entity::find()
        .filter(budget_line::Column::FiscalYearId.eq(fiscal_year_id))
        .order_by_asc(budget_line::Column::MentorProgramId)
        .order_by_asc(budget_line::Column::FundId)
        .order_by_asc(budget_line::Column::ExpenseAccountId)
        .all(db)
        .await?)
}

/// Every line of every year (the budget list sums them per year).
pub async fn all_lines(db: &impl ConnectionTrait) -> ApiResult<Vec<budget_line::Model>> {
    Ok(budget_line::Entity::find().all(db).await?)
}

pub async fn get_line(db: &impl ConnectionTrait, id: i32) -> ApiResult<budget_line::Model> {
    budget_line::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ApiError::not_found("The budget line"))
}

pub fn line_dto(line: budget_line::Model, approved: i64) -> BudgetLineDto {
    BudgetLineDto {
        id: line.id,
        mentor_program_id: line.mentor_program_id,
        fund_id: line.fund_id,
        expense_account_id: line.expense_account_id,
        budgeted: Money(line.amount_cents),
        approved: Money(approved),
        remaining: Money(rules::remaining(line.amount_cents, approved)),
        version: line.version,
    }
}

/// Which of the ids the lines name exist.
pub async fn known_ids(db: &impl ConnectionTrait, keys: &[LineKey]) -> ApiResult<KnownIds> {
    let mps: Vec<i32> = keys.iter().map(|k| k.mentor_program_id).collect();
    let funds: Vec<i32> = keys.iter().map(|k| k.fund_id).collect();
    let eas: Vec<i32> = keys.iter().map(|k| k.expense_account_id).collect();
    Ok(KnownIds {
        mentor_programs: mentor_program::Entity::find()
            .select_only()
            .column(mentor_program::Column::Id)
            .filter(mentor_program::Column::Id.is_in(mps))
            .into_tuple::<i32>()
            .all(db)
            .await?
            .into_iter()
            .collect(),
        funds: fund::Entity::find()
            .select_only()
            .column(fund::Column::Id)
            .filter(fund::Column::Id.is_in(funds))
            .into_tuple::<i32>()
            .all(db)
            .await?
            .into_iter()
            .collect(),
        expense_accounts: expense_account::Entity::find()
            .select_only()
            .column(expense_account::Column::Id)
            .filter(expense_account::Column::Id.is_in(eas))
            .into_tuple::<i32>()
            .all(db)
            .await?
            .into_iter()
            .collect(),
    })
}

// ---- writes, each in the caller's transaction ----

/// A line's amount set; with a `version`, only while the line is still at it (one of two
/// edits based on the same version wins). False when nothing changed.
pub async fn set_amount(
    txn: &impl ConnectionTrait,
    id: i32,
    cents: i64,
    version: Option<i32>,
) -> ApiResult<bool> {
    let mut update = budget_line::Entity::update_many()
        .col_expr(budget_line::Column::AmountCents, Expr::value(cents))
        .col_expr(budget_line::Column::Version, Expr::col(budget_line::Column::Version).add(1))
        .col_expr(budget_line::Column::UpdatedAt, Expr::value(crate::clock::now()))
        .filter(budget_line::Column::Id.eq(id));
    if let Some(version) = version {
        update = update.filter(budget_line::Column::Version.eq(version));
    }
    Ok(update.exec(txn).await?.rows_affected == 1)
}

/// A new line of a year; its id. A line made meanwhile by another save is a 409.
pub async fn insert_line(
    txn: &impl ConnectionTrait,
    fiscal_year_id: i32,
    key: &LineKey,
    cents: i64,
    now: DateTime<Utc>,
) -> ApiResult<i32> {
    let created = budget_line::ActiveModel {
        fiscal_year_id: Set(fiscal_year_id),
        mentor_program_id: Set(key.mentor_program_id),
        fund_id: Set(key.fund_id),
        expense_account_id: Set(key.expense_account_id),
        amount_cents: Set(cents),
        version: Set(1),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await
    .map_err(|e| {
        ApiError::unique_or_internal(
            e,
            "The budget was changed at the same time. Reload and try again.",
        )
    })?;
    Ok(created.id)
}

/// A year's lines the caller's scope may see (a Coordinator: its programs' lines only).
pub async fn detail(
    db: &impl sea_orm::ConnectionTrait,
    scope: &crate::auth::scope::Scope,
    fiscal_year_id: i32,
) -> ApiResult<super::dto::BudgetDetailDto> {
    let year = crate::settings::store::get_fiscal_year(db, fiscal_year_id).await?;
    let approved = approved_by_line(db, fiscal_year_id).await?;
    let lines = lines_of_year(db, fiscal_year_id)
        .await?
        .into_iter()
        .filter(|l| scope.allows_program(l.mentor_program_id))
        .map(|l| {
            let a = approved_of(&approved, &l);
            line_dto(l, a)
        })
        .collect();
    Ok(super::dto::BudgetDetailDto {
        fiscal_year: crate::settings::store::fiscal_year_dto(db, year).await?,
        lines,
    })
}

//! Budgets: one per fiscal year, made of lines per mentor program × fund × expense
//! account with an amount in cents. The budget itself is its fiscal year (no row of its own).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(BudgetLines::Table)
                .col(pk_auto(BudgetLines::Id))
                .col(integer(BudgetLines::FiscalYearId))
                .col(integer(BudgetLines::MentorProgramId))
                .col(integer(BudgetLines::FundId))
                .col(integer(BudgetLines::ExpenseAccountId))
                .col(big_integer(BudgetLines::AmountCents))
                .col(integer(BudgetLines::Version).default(1))
                .col(timestamp_with_time_zone(BudgetLines::CreatedAt))
                .col(timestamp_with_time_zone(BudgetLines::UpdatedAt))
                .foreign_key(ForeignKey::create().from(BudgetLines::Table, BudgetLines::FiscalYearId).to(Alias::new("fiscal_years"), Alias::new("id")))
                .foreign_key(
                    ForeignKey::create().from(BudgetLines::Table, BudgetLines::MentorProgramId).to(Alias::new("mentor_programs"), Alias::new("id")),
                )
                .foreign_key(ForeignKey::create().from(BudgetLines::Table, BudgetLines::FundId).to(Alias::new("funds"), Alias::new("id")))
                .foreign_key(
                    ForeignKey::create().from(BudgetLines::Table, BudgetLines::ExpenseAccountId).to(Alias::new("expense_accounts"), Alias::new("id")),
                )
                .to_owned(),
        )
        .await?;
        // One line per key and year; also the index behind "lines of a year".
        m.create_index(
            Index::create()
                .name("ux_budget_lines_key")
                .table(BudgetLines::Table)
                .col(BudgetLines::FiscalYearId)
                .col(BudgetLines::MentorProgramId)
                .col(BudgetLines::FundId)
                .col(BudgetLines::ExpenseAccountId)
                .unique()
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum BudgetLines {
    Table,
    Id,
    FiscalYearId,
    MentorProgramId,
    FundId,
    ExpenseAccountId,
    AmountCents,
    Version,
    CreatedAt,
    UpdatedAt,
}

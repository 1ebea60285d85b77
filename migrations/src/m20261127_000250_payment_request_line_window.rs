//! Per budget line, in approval order: actual vs budget sums a date window one line at a
//! time, each a seek and a walk over that line's approvals in the window, instead of
//! sorting every approval of the window by line (a quarter's 103,000 approvals: 0.12 s →
//! 0.03 s). SQLite only, as the other window indexes: PostgreSQL groups with a hash.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() != DatabaseBackend::Sqlite {
            return Ok(());
        }
        m.get_connection()
            .execute_unprepared(
                r#"CREATE INDEX "ix_payment_requests_line_approved" ON "payment_requests" ("fiscal_year_id",
                "mentor_program_id", "fund_id", "expense_account_id", "approved_at", "status", "deleted_at", "approved_cents")"#,
            )
            .await
            .map(|_| ())
    }
}

//! Indexes on the kept report totals (000110) in the order each grouped report sums them,
//! holding every column it reads: the sums then walk one index in group order, instead of
//! the key's index, a row lookup per kept row and a sort (actual vs budget's lines 4.4 ms →
//! 1.9 ms for 4,158 kept rows; docs/benchmarks.md).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEXES: [(&str, &[&str]); 3] = [
    // kept::by_line (actual vs budget): per program × fund × account.
    ("ix_report_totals_by_line", &["mentor_program_id", "fund_id", "expense_account_id", "approval_hour", "fiscal_year_id", "approved_count", "approved_cents"]),
    // kept::by_account (approvals by accounts): per fund × account.
    ("ix_report_totals_by_account", &["fund_id", "expense_account_id", "approval_hour", "fiscal_year_id", "mentor_program_id", "approved_count", "approved_cents"]),
    // kept::by_form (approvals by request type): per form × approval hour.
    (
        "ix_report_totals_by_form",
        &["form_type", "approval_hour", "mentor_program_id", "fiscal_year_id", "submitted_count", "approved_count", "approved_cents", "days_sum", "days_count"],
    ),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for (name, columns) in INDEXES {
            let mut index = Index::create();
            index.name(name).table(Alias::new("payment_request_report_totals"));
            for c in columns {
                index.col(Alias::new(*c));
            }
            m.create_index(index).await?;
        }
        Ok(())
    }
}

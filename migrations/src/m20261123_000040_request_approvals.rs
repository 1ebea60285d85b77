//! One row per approval of a payment request, as the activity log recorded it (id = the
//! log entry's id): the all-approvals report and the payee list read and filter these
//! columns (code, fund, account, fiscal year, amounts at that approval) with indexes,
//! instead of digging them out of the log's JSON on every call. A trigger on the log
//! fills it in the same transaction as the approval, so no write path can forget it;
//! approvals logged before this migration are copied once. The two dialects say the
//! same thing.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const COLUMNS: &str = "id, payment_request_id, approved_at, approver_user_id, approval_code_id, fund_id, expense_account_id, \
     fiscal_year_id, requested_cents, approved_cents, comment";

/// The values of one log row `r` (`NEW` in the trigger, the table in the backfill).
fn sqlite_values(r: &str) -> String {
    format!(
        "{r}.id, {r}.entity_id, {r}.created_at, {r}.actor_user_id, json_extract({r}.data, '$.approvalCodeId'), \
         json_extract({r}.data, '$.fundId'), json_extract({r}.data, '$.expenseAccountId'), json_extract({r}.data, '$.fiscalYearId'), \
         CAST(ROUND(json_extract({r}.data, '$.requestedAmount') * 100) AS INTEGER), \
         CAST(ROUND(json_extract({r}.data, '$.approvedAmount') * 100) AS INTEGER), {r}.comment"
    )
}

fn postgres_values(r: &str) -> String {
    format!(
        "{r}.id, {r}.entity_id, {r}.created_at, {r}.actor_user_id, ({r}.data::jsonb->>'approvalCodeId')::integer, \
         ({r}.data::jsonb->>'fundId')::integer, ({r}.data::jsonb->>'expenseAccountId')::integer, ({r}.data::jsonb->>'fiscalYearId')::integer, \
         ROUND(({r}.data::jsonb->>'requestedAmount')::numeric * 100)::bigint, \
         ROUND(({r}.data::jsonb->>'approvedAmount')::numeric * 100)::bigint, {r}.comment"
    )
}

const IS_APPROVAL: &str = "entity_type = 'payment_request' AND action = 'approved'";

fn statements(backend: DatabaseBackend) -> Vec<String> {
    let backfill = |values: String| format!("INSERT INTO request_approvals ({COLUMNS}) SELECT {values} FROM activity_log l WHERE l.{IS_APPROVAL}");
    match backend {
        DatabaseBackend::Postgres => vec![
            backfill(postgres_values("l")),
            format!(
                "CREATE FUNCTION request_approvals_from_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF NEW.entity_type = 'payment_request' AND NEW.action = 'approved' THEN \
                 INSERT INTO request_approvals ({COLUMNS}) VALUES ({}); END IF; RETURN NULL; END $$",
                postgres_values("NEW")
            ),
            "CREATE TRIGGER request_approvals_from_log AFTER INSERT ON activity_log FOR EACH ROW EXECUTE FUNCTION request_approvals_from_log()".to_owned(),
        ],
        _ => vec![
            backfill(sqlite_values("l")),
            format!(
                "CREATE TRIGGER request_approvals_from_log AFTER INSERT ON activity_log \
                 WHEN NEW.entity_type = 'payment_request' AND NEW.action = 'approved' \
                 BEGIN INSERT INTO request_approvals ({COLUMNS}) VALUES ({}); END",
                sqlite_values("NEW")
            ),
        ],
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Approvals::Table)
                .col(integer(Approvals::Id).primary_key())
                .col(integer(Approvals::PaymentRequestId))
                .col(timestamp_with_time_zone(Approvals::ApprovedAt))
                .col(integer_null(Approvals::ApproverUserId))
                .col(integer_null(Approvals::ApprovalCodeId))
                .col(integer_null(Approvals::FundId))
                .col(integer_null(Approvals::ExpenseAccountId))
                .col(integer_null(Approvals::FiscalYearId))
                .col(big_integer_null(Approvals::RequestedCents))
                .col(big_integer_null(Approvals::ApprovedCents))
                .col(text_null(Approvals::Comment))
                .to_owned(),
        )
        .await?;
        for (name, cols) in [
            ("ix_request_approvals_approved_at", vec![Approvals::ApprovedAt, Approvals::Id]),
            ("ix_request_approvals_request", vec![Approvals::PaymentRequestId]),
            ("ix_request_approvals_year", vec![Approvals::FiscalYearId, Approvals::ApprovedAt]),
        ] {
            let mut index = Index::create();
            index.name(name).table(Approvals::Table);
            for c in cols {
                index.col(c);
            }
            m.create_index(index.to_owned()).await?;
        }
        let db = m.get_connection();
        for sql in statements(m.get_database_backend()) {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Approvals {
    #[sea_orm(iden = "request_approvals")]
    Table,
    Id,
    PaymentRequestId,
    ApprovedAt,
    ApproverUserId,
    ApprovalCodeId,
    FundId,
    ExpenseAccountId,
    FiscalYearId,
    RequestedCents,
    ApprovedCents,
    Comment,
}

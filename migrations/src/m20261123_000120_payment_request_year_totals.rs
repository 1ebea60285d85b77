//! Per program × fiscal year × status totals of the live payment requests (count,
//! requested, approved), kept by triggers like 000031's (which has no year). The
//! reimbursements report for one fiscal year then reads a few rows for its count and
//! totals instead of summing every charged request of the year (0.67 + 0.6 s at a
//! million; docs/benchmarks.md "Reports"). A request without a year is kept under year 0,
//! so the key has no NULL (a primary key on both dialects).

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const BACKFILL: &str = "INSERT INTO payment_request_year_totals (mentor_program_id, fiscal_year_id, status, request_count, requested_cents, approved_cents) \
     SELECT mentor_program_id, COALESCE(fiscal_year_id, 0), status, COUNT(*), SUM(requested_cents), COALESCE(SUM(approved_cents), 0) \
     FROM payment_requests WHERE deleted_at IS NULL GROUP BY mentor_program_id, COALESCE(fiscal_year_id, 0), status";

/// Columns whose change moves a request between totals.
const WATCHED: &str = "OLD.status IS NOT NEW.status OR OLD.mentor_program_id IS NOT NEW.mentor_program_id OR OLD.fiscal_year_id IS NOT NEW.fiscal_year_id \
     OR OLD.requested_cents IS NOT NEW.requested_cents OR OLD.approved_cents IS NOT NEW.approved_cents \
     OR OLD.deleted_at IS NOT NEW.deleted_at";

fn sqlite_add(row: &str) -> String {
    format!(
        "INSERT INTO payment_request_year_totals (mentor_program_id, fiscal_year_id, status, request_count, requested_cents, approved_cents) \
         SELECT {row}.mentor_program_id, COALESCE({row}.fiscal_year_id, 0), {row}.status, 1, {row}.requested_cents, COALESCE({row}.approved_cents, 0) WHERE {row}.deleted_at IS NULL \
         ON CONFLICT (mentor_program_id, fiscal_year_id, status) DO UPDATE SET request_count = request_count + 1, \
         requested_cents = requested_cents + excluded.requested_cents, approved_cents = approved_cents + excluded.approved_cents;"
    )
}

fn sqlite_remove(row: &str) -> String {
    format!(
        "UPDATE payment_request_year_totals SET request_count = request_count - 1, requested_cents = requested_cents - {row}.requested_cents, \
         approved_cents = approved_cents - COALESCE({row}.approved_cents, 0) \
         WHERE {row}.deleted_at IS NULL AND mentor_program_id = {row}.mentor_program_id \
         AND fiscal_year_id = COALESCE({row}.fiscal_year_id, 0) AND status = {row}.status;"
    )
}

fn sqlite_statements() -> Vec<String> {
    vec![
        format!("CREATE TRIGGER payment_request_year_totals_insert AFTER INSERT ON payment_requests BEGIN {} END", sqlite_add("NEW")),
        format!(
            "CREATE TRIGGER payment_request_year_totals_update AFTER UPDATE ON payment_requests WHEN {WATCHED} BEGIN {} {} END",
            sqlite_remove("OLD"),
            sqlite_add("NEW")
        ),
        format!("CREATE TRIGGER payment_request_year_totals_delete AFTER DELETE ON payment_requests BEGIN {} END", sqlite_remove("OLD")),
    ]
}

/// PostgreSQL: one function for the three events. Both rows of a move are locked in one
/// fixed order first, so two opposite moves at once (approve / move back) cannot deadlock.
const POSTGRES_FUNCTION: &str = r#"
CREATE FUNCTION payment_request_year_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  add_new boolean := false;
  remove_old boolean := false;
BEGIN
  -- OLD and NEW are only read where the event has them.
  IF TG_OP <> 'DELETE' THEN add_new := NEW.deleted_at IS NULL; END IF;
  IF TG_OP <> 'INSERT' THEN remove_old := OLD.deleted_at IS NULL; END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NOT (OLD.status IS DISTINCT FROM NEW.status OR OLD.mentor_program_id IS DISTINCT FROM NEW.mentor_program_id
        OR OLD.fiscal_year_id IS DISTINCT FROM NEW.fiscal_year_id
        OR OLD.requested_cents IS DISTINCT FROM NEW.requested_cents OR OLD.approved_cents IS DISTINCT FROM NEW.approved_cents
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF add_new THEN
    INSERT INTO payment_request_year_totals (mentor_program_id, fiscal_year_id, status, request_count, requested_cents, approved_cents)
      VALUES (NEW.mentor_program_id, COALESCE(NEW.fiscal_year_id, 0), NEW.status, 0, 0, 0) ON CONFLICT (mentor_program_id, fiscal_year_id, status) DO NOTHING;
  END IF;
  IF add_new AND remove_old THEN
    PERFORM 1 FROM payment_request_year_totals
      WHERE (mentor_program_id, fiscal_year_id, status) IN ((OLD.mentor_program_id, COALESCE(OLD.fiscal_year_id, 0), OLD.status),
        (NEW.mentor_program_id, COALESCE(NEW.fiscal_year_id, 0), NEW.status))
      ORDER BY mentor_program_id, fiscal_year_id, status FOR UPDATE;
  END IF;
  IF remove_old THEN
    UPDATE payment_request_year_totals SET request_count = request_count - 1, requested_cents = requested_cents - OLD.requested_cents,
      approved_cents = approved_cents - COALESCE(OLD.approved_cents, 0)
      WHERE mentor_program_id = OLD.mentor_program_id AND fiscal_year_id = COALESCE(OLD.fiscal_year_id, 0) AND status = OLD.status;
  END IF;
  IF add_new THEN
    UPDATE payment_request_year_totals SET request_count = request_count + 1, requested_cents = requested_cents + NEW.requested_cents,
      approved_cents = approved_cents + COALESCE(NEW.approved_cents, 0)
      WHERE mentor_program_id = NEW.mentor_program_id AND fiscal_year_id = COALESCE(NEW.fiscal_year_id, 0) AND status = NEW.status;
  END IF;
  RETURN NULL;
END $$"#;

const POSTGRES_TRIGGER: &str = "CREATE TRIGGER payment_request_year_totals AFTER INSERT OR UPDATE OR DELETE ON payment_requests \
     FOR EACH ROW EXECUTE FUNCTION payment_request_year_totals_apply()";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Totals::Table)
                .col(integer(Totals::MentorProgramId))
                .col(integer(Totals::FiscalYearId))
                .col(string_len(Totals::Status, 24))
                .col(big_integer(Totals::RequestCount))
                .col(big_integer(Totals::RequestedCents))
                .col(big_integer(Totals::ApprovedCents))
                .primary_key(Index::create().col(Totals::MentorProgramId).col(Totals::FiscalYearId).col(Totals::Status))
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        db.execute_unprepared(BACKFILL).await?;
        let statements = match m.get_database_backend() {
            DatabaseBackend::Postgres => vec![POSTGRES_FUNCTION.to_owned(), POSTGRES_TRIGGER.to_owned()],
            _ => sqlite_statements(),
        };
        for sql in statements {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Totals {
    #[sea_orm(iden = "payment_request_year_totals")]
    Table,
    MentorProgramId,
    FiscalYearId,
    Status,
    RequestCount,
    RequestedCents,
    ApprovedCents,
}

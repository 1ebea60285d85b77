//! Per program × status totals of the live payment requests (count, requested, approved),
//! kept by triggers in the same transaction as every change to `payment_requests`. The
//! summary and the `totalCount` of program/status pages then read a few rows instead of
//! counting up to a million (docs/benchmarks-requests.md). Triggers rather than
//! application code, so that no write path (bulk moves, seeding, future reports) can
//! forget them; the two dialects below say the same thing.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const BACKFILL: &str = "INSERT INTO payment_request_totals (mentor_program_id, status, request_count, requested_cents, approved_cents) \
     SELECT mentor_program_id, status, COUNT(*), SUM(requested_cents), COALESCE(SUM(approved_cents), 0) \
     FROM payment_requests WHERE deleted_at IS NULL GROUP BY mentor_program_id, status";

/// Columns whose change moves a request between totals.
const WATCHED: &str = "OLD.status IS NOT NEW.status OR OLD.mentor_program_id IS NOT NEW.mentor_program_id \
     OR OLD.requested_cents IS NOT NEW.requested_cents OR OLD.approved_cents IS NOT NEW.approved_cents \
     OR OLD.deleted_at IS NOT NEW.deleted_at";

fn sqlite_add(row: &str) -> String {
    format!(
        "INSERT INTO payment_request_totals (mentor_program_id, status, request_count, requested_cents, approved_cents) \
         SELECT {row}.mentor_program_id, {row}.status, 1, {row}.requested_cents, COALESCE({row}.approved_cents, 0) WHERE {row}.deleted_at IS NULL \
         ON CONFLICT (mentor_program_id, status) DO UPDATE SET request_count = request_count + 1, \
         requested_cents = requested_cents + excluded.requested_cents, approved_cents = approved_cents + excluded.approved_cents;"
    )
}

fn sqlite_remove(row: &str) -> String {
    format!(
        "UPDATE payment_request_totals SET request_count = request_count - 1, requested_cents = requested_cents - {row}.requested_cents, \
         approved_cents = approved_cents - COALESCE({row}.approved_cents, 0) \
         WHERE {row}.deleted_at IS NULL AND mentor_program_id = {row}.mentor_program_id AND status = {row}.status;"
    )
}

fn sqlite_statements() -> Vec<String> {
    vec![
        format!("CREATE TRIGGER payment_request_totals_insert AFTER INSERT ON payment_requests BEGIN {} END", sqlite_add("NEW")),
        format!(
            "CREATE TRIGGER payment_request_totals_update AFTER UPDATE ON payment_requests WHEN {WATCHED} BEGIN {} {} END",
            sqlite_remove("OLD"),
            sqlite_add("NEW")
        ),
        format!("CREATE TRIGGER payment_request_totals_delete AFTER DELETE ON payment_requests BEGIN {} END", sqlite_remove("OLD")),
    ]
}

/// PostgreSQL: one function for the three events. Both rows of a move are locked in one
/// fixed order first, so two opposite moves at once (approve / move back) cannot deadlock.
const POSTGRES_FUNCTION: &str = r#"
CREATE FUNCTION payment_request_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  add_new boolean := false;
  remove_old boolean := false;
BEGIN
  -- OLD and NEW are only read where the event has them.
  IF TG_OP <> 'DELETE' THEN add_new := NEW.deleted_at IS NULL; END IF;
  IF TG_OP <> 'INSERT' THEN remove_old := OLD.deleted_at IS NULL; END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NOT (OLD.status IS DISTINCT FROM NEW.status OR OLD.mentor_program_id IS DISTINCT FROM NEW.mentor_program_id
        OR OLD.requested_cents IS DISTINCT FROM NEW.requested_cents OR OLD.approved_cents IS DISTINCT FROM NEW.approved_cents
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF add_new THEN
    INSERT INTO payment_request_totals (mentor_program_id, status, request_count, requested_cents, approved_cents)
      VALUES (NEW.mentor_program_id, NEW.status, 0, 0, 0) ON CONFLICT (mentor_program_id, status) DO NOTHING;
  END IF;
  IF add_new AND remove_old THEN
    PERFORM 1 FROM payment_request_totals
      WHERE (mentor_program_id, status) IN ((OLD.mentor_program_id, OLD.status), (NEW.mentor_program_id, NEW.status))
      ORDER BY mentor_program_id, status FOR UPDATE;
  END IF;
  IF remove_old THEN
    UPDATE payment_request_totals SET request_count = request_count - 1, requested_cents = requested_cents - OLD.requested_cents,
      approved_cents = approved_cents - COALESCE(OLD.approved_cents, 0)
      WHERE mentor_program_id = OLD.mentor_program_id AND status = OLD.status;
  END IF;
  IF add_new THEN
    UPDATE payment_request_totals SET request_count = request_count + 1, requested_cents = requested_cents + NEW.requested_cents,
      approved_cents = approved_cents + COALESCE(NEW.approved_cents, 0)
      WHERE mentor_program_id = NEW.mentor_program_id AND status = NEW.status;
  END IF;
  RETURN NULL;
END $$"#;

const POSTGRES_TRIGGER: &str = "CREATE TRIGGER payment_request_totals AFTER INSERT OR UPDATE OR DELETE ON payment_requests \
     FOR EACH ROW EXECUTE FUNCTION payment_request_totals_apply()";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Totals::Table)
                .col(integer(Totals::MentorProgramId))
                .col(string_len(Totals::Status, 24))
                .col(big_integer(Totals::RequestCount))
                .col(big_integer(Totals::RequestedCents))
                .col(big_integer(Totals::ApprovedCents))
                .primary_key(Index::create().col(Totals::MentorProgramId).col(Totals::Status))
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
    #[sea_orm(iden = "payment_request_totals")]
    Table,
    MentorProgramId,
    Status,
    RequestCount,
    RequestedCents,
    ApprovedCents,
}

//! Per program × fiscal year × fund × account totals of the charged live requests (count and
//! approved cents), kept by triggers like 000120's. Actual vs budget and approvals by
//! accounts need no approval hour or form, yet summed 000110's rows (4,158 at a million
//! requests, 1.7 ms a call: most of actual vs budget's time); these are 192 there.
//! A missing year, fund or account is kept as 0, so the key has no NULL.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const KEY: &str = "mentor_program_id, fiscal_year_id, fund_id, expense_account_id";

/// Whether row `r` (NEW or OLD) is a live charged request.
fn charged(r: &str) -> String {
    format!("{r}.deleted_at IS NULL AND {r}.approved_at IS NOT NULL AND {r}.status IN ('Approved', 'ReadyForProcessing', 'Processed')")
}

/// The key of row `r`, column by column in KEY order.
fn key_of(r: &str) -> [String; 4] {
    [
        format!("{r}.mentor_program_id"),
        format!("COALESCE({r}.fiscal_year_id, 0)"),
        format!("COALESCE({r}.fund_id, 0)"),
        format!("COALESCE({r}.expense_account_id, 0)"),
    ]
}

fn key_match(r: &str) -> String {
    KEY.split(", ").zip(key_of(r)).map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(" AND ")
}

const BACKFILL: &str = "INSERT INTO payment_request_line_totals (mentor_program_id, fiscal_year_id, fund_id, expense_account_id, approved_count, approved_cents) \
     SELECT mentor_program_id, COALESCE(fiscal_year_id, 0), COALESCE(fund_id, 0), COALESCE(expense_account_id, 0), COUNT(*), COALESCE(SUM(approved_cents), 0) \
     FROM payment_requests WHERE deleted_at IS NULL AND approved_at IS NOT NULL AND status IN ('Approved', 'ReadyForProcessing', 'Processed') \
     GROUP BY mentor_program_id, COALESCE(fiscal_year_id, 0), COALESCE(fund_id, 0), COALESCE(expense_account_id, 0)";

/// Columns whose change moves a request between totals.
const WATCHED: [&str; 8] = ["status", "mentor_program_id", "fiscal_year_id", "fund_id", "expense_account_id", "approved_at", "approved_cents", "deleted_at"];

fn subtract(r: &str) -> String {
    format!(
        "UPDATE payment_request_line_totals SET approved_count = approved_count - 1, approved_cents = approved_cents - COALESCE({r}.approved_cents, 0) WHERE {}",
        key_match(r)
    )
}

fn add(r: &str) -> String {
    format!(
        "UPDATE payment_request_line_totals SET approved_count = approved_count + 1, approved_cents = approved_cents + COALESCE({r}.approved_cents, 0) WHERE {}",
        key_match(r)
    )
}

fn sqlite_add(r: &str) -> String {
    format!(
        "INSERT INTO payment_request_line_totals ({KEY}, approved_count, approved_cents) SELECT {}, 1, COALESCE({r}.approved_cents, 0) WHERE {} \
         ON CONFLICT ({KEY}) DO UPDATE SET approved_count = approved_count + 1, approved_cents = approved_cents + excluded.approved_cents;",
        key_of(r).join(", "),
        charged(r)
    )
}

fn sqlite_remove(r: &str) -> String {
    format!("{} AND {};", subtract(r), charged(r))
}

fn sqlite_statements() -> Vec<String> {
    let watched = WATCHED.iter().map(|c| format!("OLD.{c} IS NOT NEW.{c}")).collect::<Vec<_>>().join(" OR ");
    vec![
        format!("CREATE TRIGGER payment_request_line_totals_insert AFTER INSERT ON payment_requests BEGIN {} END", sqlite_add("NEW")),
        format!(
            "CREATE TRIGGER payment_request_line_totals_update AFTER UPDATE ON payment_requests WHEN {watched} BEGIN {} {} END",
            sqlite_remove("OLD"),
            sqlite_add("NEW")
        ),
        format!("CREATE TRIGGER payment_request_line_totals_delete AFTER DELETE ON payment_requests BEGIN {} END", sqlite_remove("OLD")),
    ]
}

/// PostgreSQL: one function for the three events; both rows of a move are locked in one
/// fixed order first (as 000120), so two opposite moves at once cannot deadlock.
fn postgres_function() -> String {
    let changed = WATCHED.iter().map(|c| format!("OLD.{c} IS DISTINCT FROM NEW.{c}")).collect::<Vec<_>>().join(" OR ");
    format!(
        r#"
CREATE FUNCTION payment_request_line_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  add_new boolean := false;
  remove_old boolean := false;
BEGIN
  IF TG_OP <> 'DELETE' THEN add_new := {new_charged}; END IF;
  IF TG_OP <> 'INSERT' THEN remove_old := {old_charged}; END IF;
  IF TG_OP = 'UPDATE' AND NOT ({changed}) THEN
    RETURN NULL;
  END IF;
  IF add_new THEN
    INSERT INTO payment_request_line_totals ({KEY}, approved_count, approved_cents)
      VALUES ({new_key}, 0, 0) ON CONFLICT ({KEY}) DO NOTHING;
  END IF;
  IF add_new AND remove_old THEN
    PERFORM 1 FROM payment_request_line_totals WHERE ({KEY}) IN (({old_key}), ({new_key})) ORDER BY {KEY} FOR UPDATE;
  END IF;
  IF remove_old THEN
    {subtract};
  END IF;
  IF add_new THEN
    {add};
  END IF;
  RETURN NULL;
END $$"#,
        new_charged = charged("NEW"),
        old_charged = charged("OLD"),
        new_key = key_of("NEW").join(", "),
        old_key = key_of("OLD").join(", "),
        subtract = subtract("OLD"),
        add = add("NEW"),
    )
}

const POSTGRES_TRIGGER: &str = "CREATE TRIGGER payment_request_line_totals AFTER INSERT OR UPDATE OR DELETE ON payment_requests \
     FOR EACH ROW EXECUTE FUNCTION payment_request_line_totals_apply()";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Totals::Table)
                .col(integer(Totals::MentorProgramId))
                .col(integer(Totals::FiscalYearId))
                .col(integer(Totals::FundId))
                .col(integer(Totals::ExpenseAccountId))
                .col(big_integer(Totals::ApprovedCount))
                .col(big_integer(Totals::ApprovedCents))
                .primary_key(Index::create().col(Totals::MentorProgramId).col(Totals::FiscalYearId).col(Totals::FundId).col(Totals::ExpenseAccountId))
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        db.execute_unprepared(BACKFILL).await?;
        let statements = match m.get_database_backend() {
            DatabaseBackend::Postgres => vec![postgres_function(), POSTGRES_TRIGGER.to_owned()],
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
    #[sea_orm(iden = "payment_request_line_totals")]
    Table,
    MentorProgramId,
    FiscalYearId,
    FundId,
    ExpenseAccountId,
    ApprovedCount,
    ApprovedCents,
}

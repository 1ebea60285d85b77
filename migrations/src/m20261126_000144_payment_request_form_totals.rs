//! Per program × fiscal year × form × approval hour totals of the live requests (submitted;
//! charged count and cents; days from submission to the UTC day of approval), kept by
//! triggers like 000142's. Approvals by request type needs neither the fund nor the account,
//! yet summed 000110's rows (4,158 at a million requests, a third of its time at 32 clients);
//! these are 168 there. The figures and the hour (−1: not charged) are 000110's, so the
//! report moves days to the caller's zone the same way. A missing year is kept as 0.
//! 000110's table is read by nothing else now (000142 has the per-line sums): it goes, with
//! its triggers and 000141's indexes, so no request write keeps it any more.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const KEY: &str = "mentor_program_id, fiscal_year_id, form_type, approval_hour";
const FIGURES: [&str; 5] = ["submitted_count", "approved_count", "approved_cents", "days_count", "days_sum"];

/// Columns whose change moves a request between totals.
const WATCHED: [&str; 8] = ["status", "mentor_program_id", "fiscal_year_id", "form_type", "approved_at", "submitted_on", "approved_cents", "deleted_at"];

/// The key of row `r` (NEW, OLD or a table alias), column by column in KEY order.
fn key_of(backend: DatabaseBackend, r: &str) -> [String; 4] {
    let hour = match backend {
        DatabaseBackend::Postgres => format!("CAST(EXTRACT(HOUR FROM {r}.approved_at AT TIME ZONE 'UTC') AS INTEGER)"),
        _ => format!("CAST(strftime('%H', {r}.approved_at) AS INTEGER)"),
    };
    [
        format!("{r}.mentor_program_id"),
        format!("COALESCE({r}.fiscal_year_id, 0)"),
        format!("{r}.form_type"),
        format!("CASE WHEN {} THEN {hour} ELSE -1 END", charged(r)),
    ]
}

fn charged(r: &str) -> String {
    format!("({r}.status IN ('Approved', 'ReadyForProcessing', 'Processed') AND {r}.approved_at IS NOT NULL)")
}

/// The figures of row `r`, in FIGURES order.
fn figures_of(backend: DatabaseBackend, r: &str) -> [String; 5] {
    let days = match backend {
        DatabaseBackend::Postgres => format!("CAST((({r}.approved_at AT TIME ZONE 'UTC')::date - {r}.submitted_on) AS BIGINT)"),
        _ => format!("CAST(julianday(date({r}.approved_at)) - julianday({r}.submitted_on) AS INTEGER)"),
    };
    let charged = charged(r);
    let dated = format!("({charged} AND {r}.submitted_on IS NOT NULL)");
    [
        format!("CASE WHEN {r}.submitted_on IS NOT NULL THEN 1 ELSE 0 END"),
        format!("CASE WHEN {charged} THEN 1 ELSE 0 END"),
        format!("CASE WHEN {charged} THEN COALESCE({r}.approved_cents, 0) ELSE 0 END"),
        format!("CASE WHEN {dated} THEN 1 ELSE 0 END"),
        format!("CASE WHEN {dated} THEN {days} ELSE 0 END"),
    ]
}

fn key_match(backend: DatabaseBackend, r: &str) -> String {
    KEY.split(", ").zip(key_of(backend, r)).map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(" AND ")
}

/// `UPDATE … SET figure = figure <sign> value …` for the key of row `r`.
fn apply(backend: DatabaseBackend, r: &str, sign: &str) -> String {
    let set = FIGURES.iter().zip(figures_of(backend, r)).map(|(f, v)| format!("{f} = {f} {sign} {v}")).collect::<Vec<_>>().join(", ");
    format!("UPDATE payment_request_form_totals SET {set} WHERE {}", key_match(backend, r))
}

fn backfill(backend: DatabaseBackend) -> String {
    let key = key_of(backend, "pr").join(", ");
    let sums = figures_of(backend, "pr").map(|f| format!("SUM({f})")).join(", ");
    format!(
        "INSERT INTO payment_request_form_totals ({KEY}, {}) SELECT {key}, {sums} FROM payment_requests pr WHERE pr.deleted_at IS NULL GROUP BY {key}",
        FIGURES.join(", ")
    )
}

fn sqlite_add(r: &str) -> String {
    let s = DatabaseBackend::Sqlite;
    let excluded = FIGURES.iter().map(|f| format!("{f} = {f} + excluded.{f}")).collect::<Vec<_>>().join(", ");
    format!(
        "INSERT INTO payment_request_form_totals ({KEY}, {}) SELECT {}, {} WHERE {r}.deleted_at IS NULL \
         ON CONFLICT ({KEY}) DO UPDATE SET {excluded};",
        FIGURES.join(", "),
        key_of(s, r).join(", "),
        figures_of(s, r).join(", ")
    )
}

fn sqlite_remove(r: &str) -> String {
    format!("{} AND {r}.deleted_at IS NULL;", apply(DatabaseBackend::Sqlite, r, "-"))
}

fn sqlite_statements() -> Vec<String> {
    let watched = WATCHED.iter().map(|c| format!("OLD.{c} IS NOT NEW.{c}")).collect::<Vec<_>>().join(" OR ");
    vec![
        format!("CREATE TRIGGER payment_request_form_totals_insert AFTER INSERT ON payment_requests BEGIN {} END", sqlite_add("NEW")),
        format!(
            "CREATE TRIGGER payment_request_form_totals_update AFTER UPDATE ON payment_requests WHEN {watched} BEGIN {} {} END",
            sqlite_remove("OLD"),
            sqlite_add("NEW")
        ),
        format!("CREATE TRIGGER payment_request_form_totals_delete AFTER DELETE ON payment_requests BEGIN {} END", sqlite_remove("OLD")),
    ]
}

/// PostgreSQL: one function for the three events; both rows of a move are locked in one
/// fixed order first (as 000120), so two opposite moves at once cannot deadlock.
fn postgres_function() -> String {
    let p = DatabaseBackend::Postgres;
    let changed = WATCHED.iter().map(|c| format!("OLD.{c} IS DISTINCT FROM NEW.{c}")).collect::<Vec<_>>().join(" OR ");
    let zeros = FIGURES.map(|_| "0").join(", ");
    format!(
        r#"
CREATE FUNCTION payment_request_form_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  add_new boolean := false;
  remove_old boolean := false;
BEGIN
  IF TG_OP <> 'DELETE' THEN add_new := NEW.deleted_at IS NULL; END IF;
  IF TG_OP <> 'INSERT' THEN remove_old := OLD.deleted_at IS NULL; END IF;
  IF TG_OP = 'UPDATE' AND NOT ({changed}) THEN
    RETURN NULL;
  END IF;
  IF add_new THEN
    INSERT INTO payment_request_form_totals ({KEY}, {figures}) VALUES ({new_key}, {zeros}) ON CONFLICT ({KEY}) DO NOTHING;
  END IF;
  IF add_new AND remove_old THEN
    PERFORM 1 FROM payment_request_form_totals WHERE ({KEY}) IN (({old_key}), ({new_key})) ORDER BY {KEY} FOR UPDATE;
  END IF;
  IF remove_old THEN
    {remove};
  END IF;
  IF add_new THEN
    {add};
  END IF;
  RETURN NULL;
END $$"#,
        figures = FIGURES.join(", "),
        new_key = key_of(p, "NEW").join(", "),
        old_key = key_of(p, "OLD").join(", "),
        remove = apply(p, "OLD", "-"),
        add = apply(p, "NEW", "+"),
    )
}

/// 000110's triggers (its table is dropped after them, with its indexes).
const OLD_TRIGGERS_SQLITE: [&str; 3] = [
    "DROP TRIGGER payment_request_report_totals_insert",
    "DROP TRIGGER payment_request_report_totals_update",
    "DROP TRIGGER payment_request_report_totals_delete",
];
const OLD_TRIGGERS_POSTGRES: [&str; 2] =
    ["DROP TRIGGER payment_request_report_totals ON payment_requests", "DROP FUNCTION payment_request_report_totals_apply()"];

const POSTGRES_TRIGGER: &str = "CREATE TRIGGER payment_request_form_totals AFTER INSERT OR UPDATE OR DELETE ON payment_requests \
     FOR EACH ROW EXECUTE FUNCTION payment_request_form_totals_apply()";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Totals::Table)
                .col(integer(Totals::MentorProgramId))
                .col(integer(Totals::FiscalYearId))
                .col(string_len(Totals::FormType, 8))
                .col(integer(Totals::ApprovalHour))
                .col(big_integer(Totals::SubmittedCount))
                .col(big_integer(Totals::ApprovedCount))
                .col(big_integer(Totals::ApprovedCents))
                .col(big_integer(Totals::DaysCount))
                .col(big_integer(Totals::DaysSum))
                .primary_key(Index::create().col(Totals::MentorProgramId).col(Totals::FiscalYearId).col(Totals::FormType).col(Totals::ApprovalHour))
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        let backend = m.get_database_backend();
        db.execute_unprepared(&backfill(backend)).await?;
        let (statements, old) = match backend {
            DatabaseBackend::Postgres => (vec![postgres_function(), POSTGRES_TRIGGER.to_owned()], &OLD_TRIGGERS_POSTGRES[..]),
            _ => (sqlite_statements(), &OLD_TRIGGERS_SQLITE[..]),
        };
        for sql in statements.iter().map(String::as_str).chain(old.iter().copied()) {
            db.execute_unprepared(sql).await?;
        }
        m.drop_table(Table::drop().table(Alias::new("payment_request_report_totals")).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Totals {
    #[sea_orm(iden = "payment_request_form_totals")]
    Table,
    MentorProgramId,
    FiscalYearId,
    FormType,
    ApprovalHour,
    SubmittedCount,
    ApprovedCount,
    ApprovedCents,
    DaysCount,
    DaysSum,
}

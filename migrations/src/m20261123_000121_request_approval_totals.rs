//! Per program × fiscal year (of the approval) × form totals of the approvals of live
//! requests (count, requested and approved cents at each approval), kept by triggers in the
//! transaction of every change, like 000031's. The all-approvals report then counts and
//! totals a program, a year or everything from a few rows instead of joining every approval
//! to its request (1.2 s at 550,000 approvals; docs/benchmarks.md "Reports"). An approval
//! belongs to its request's program and form and counts while the request is live, so a
//! request that is deleted or moved takes its approvals along. A missing year is kept as 0.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const TABLE: &str = "request_approval_totals";
const COLUMNS: &str = "mentor_program_id, fiscal_year_id, form_type, approval_count, requested_cents, approved_cents";
const KEY: &str = "mentor_program_id, fiscal_year_id, form_type";

/// Adds the signed figures a SELECT yields to their keys.
fn upsert(select: &str) -> String {
    format!(
        "INSERT INTO {TABLE} ({COLUMNS}) {select} ON CONFLICT ({KEY}) DO UPDATE SET \
         approval_count = {TABLE}.approval_count + excluded.approval_count, \
         requested_cents = {TABLE}.requested_cents + excluded.requested_cents, \
         approved_cents = {TABLE}.approved_cents + excluded.approved_cents"
    )
}

/// The approval `ap` (NEW or OLD of request_approvals) counted `sign` times under its live request.
fn one_approval(ap: &str, sign: &str) -> String {
    upsert(&format!(
        "SELECT pr.mentor_program_id, COALESCE({ap}.fiscal_year_id, 0), pr.form_type, {sign}1, \
         {sign}COALESCE({ap}.requested_cents, 0), {sign}COALESCE({ap}.approved_cents, 0) \
         FROM payment_requests pr WHERE pr.id = {ap}.payment_request_id AND pr.deleted_at IS NULL"
    ))
}

/// Every approval of request `r` (NEW or OLD of payment_requests) counted `sign` times
/// under `r`'s program and form, if `r` is live.
fn request_approvals(r: &str, sign: &str) -> String {
    upsert(&format!(
        "SELECT {r}.mentor_program_id, COALESCE(ap.fiscal_year_id, 0), {r}.form_type, {sign}COUNT(*), \
         {sign}COALESCE(SUM(ap.requested_cents), 0), {sign}COALESCE(SUM(ap.approved_cents), 0) \
         FROM request_approvals ap WHERE ap.payment_request_id = {r}.id AND {r}.deleted_at IS NULL \
         GROUP BY COALESCE(ap.fiscal_year_id, 0)"
    ))
}

const BACKFILL: &str = "SELECT pr.mentor_program_id, COALESCE(ap.fiscal_year_id, 0), pr.form_type, COUNT(*), \
     COALESCE(SUM(ap.requested_cents), 0), COALESCE(SUM(ap.approved_cents), 0) \
     FROM request_approvals ap JOIN payment_requests pr ON pr.id = ap.payment_request_id \
     WHERE pr.deleted_at IS NULL GROUP BY pr.mentor_program_id, COALESCE(ap.fiscal_year_id, 0), pr.form_type";

/// Request columns that move its approvals between totals.
const MOVED_SQLITE: &str = "OLD.deleted_at IS NOT NEW.deleted_at OR OLD.mentor_program_id IS NOT NEW.mentor_program_id \
     OR OLD.form_type IS NOT NEW.form_type";
const MOVED_POSTGRES: &str = "OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.mentor_program_id IS DISTINCT FROM NEW.mentor_program_id \
     OR OLD.form_type IS DISTINCT FROM NEW.form_type";

fn statements(backend: DatabaseBackend) -> Vec<String> {
    let mut out = vec![format!("INSERT INTO {TABLE} ({COLUMNS}) {BACKFILL}")];
    match backend {
        DatabaseBackend::Postgres => {
            out.push(format!(
                "CREATE FUNCTION request_approval_totals_of_approval() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF TG_OP <> 'INSERT' THEN {}; END IF; IF TG_OP <> 'DELETE' THEN {}; END IF; RETURN NULL; END $$",
                one_approval("OLD", "-"),
                one_approval("NEW", "")
            ));
            out.push(
                "CREATE TRIGGER request_approval_totals_of_approval AFTER INSERT OR UPDATE OR DELETE ON request_approvals \
                 FOR EACH ROW EXECUTE FUNCTION request_approval_totals_of_approval()"
                    .to_owned(),
            );
            out.push(format!(
                "CREATE FUNCTION request_approval_totals_of_request() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF TG_OP = 'DELETE' THEN {}; ELSIF {MOVED_POSTGRES} THEN {}; {}; END IF; RETURN NULL; END $$",
                request_approvals("OLD", "-"),
                request_approvals("OLD", "-"),
                request_approvals("NEW", "")
            ));
            out.push(
                "CREATE TRIGGER request_approval_totals_of_request AFTER UPDATE OR DELETE ON payment_requests \
                 FOR EACH ROW EXECUTE FUNCTION request_approval_totals_of_request()"
                    .to_owned(),
            );
        }
        _ => {
            out.push(format!("CREATE TRIGGER request_approval_totals_insert AFTER INSERT ON request_approvals BEGIN {}; END", one_approval("NEW", "")));
            out.push(format!("CREATE TRIGGER request_approval_totals_delete AFTER DELETE ON request_approvals BEGIN {}; END", one_approval("OLD", "-")));
            out.push(format!(
                "CREATE TRIGGER request_approval_totals_update AFTER UPDATE ON request_approvals BEGIN {}; {}; END",
                one_approval("OLD", "-"),
                one_approval("NEW", "")
            ));
            out.push(format!(
                "CREATE TRIGGER request_approval_totals_request_update AFTER UPDATE ON payment_requests WHEN {MOVED_SQLITE} BEGIN {}; {}; END",
                request_approvals("OLD", "-"),
                request_approvals("NEW", "")
            ));
            out.push(format!(
                "CREATE TRIGGER request_approval_totals_request_delete AFTER DELETE ON payment_requests BEGIN {}; END",
                request_approvals("OLD", "-")
            ));
        }
    }
    out
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Totals::Table)
                .col(integer(Totals::MentorProgramId))
                .col(integer(Totals::FiscalYearId))
                .col(string_len(Totals::FormType, 8))
                .col(big_integer(Totals::ApprovalCount))
                .col(big_integer(Totals::RequestedCents))
                .col(big_integer(Totals::ApprovedCents))
                .primary_key(Index::create().col(Totals::MentorProgramId).col(Totals::FiscalYearId).col(Totals::FormType))
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        for sql in statements(m.get_database_backend()) {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Totals {
    #[sea_orm(iden = "request_approval_totals")]
    Table,
    MentorProgramId,
    FiscalYearId,
    FormType,
    ApprovalCount,
    RequestedCents,
    ApprovedCents,
}

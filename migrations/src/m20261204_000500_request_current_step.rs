//! Each request notes the role and place of its current approval step (`current_step_role`,
//! `current_step_index`; NULL while none is current), kept by triggers on its steps.
//!
//! "Waiting for you" walks the submitted requests in the list's order up to its count's bound
//! and asked each one's steps two things: is the current step for one of her roles, and did
//! she (or the person she stands in for) take an earlier one. Two probes per match, a hundred
//! matches per call: about half of the call's time at a million requests. With the note, the
//! first question is a column of the index the walk reads, and the second is asked only past
//! the first step (a chain is copied afresh at every submission, so at its first step nobody
//! has taken any); the steps' index for it covers the columns it reads.
//!
//! Triggers rather than application code, so that no write of the steps (an action, the seed,
//! the upgrade's default chains, an UPDATE by hand) leaves the note behind; the two dialects
//! below say the same thing.
//!
//! The walk's index takes a new name, as the indexes it replaces did: a pooled connection
//! whose cached schema predates the DROP would still see the old name as taken.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The note of the requests `WHERE` picks, read from their steps.
fn note(which: &str) -> String {
    let current = |column: &str| {
        format!(
            "(SELECT s.{column} FROM request_steps s WHERE s.payment_request_id = payment_requests.id \
             AND s.state = 'current' ORDER BY s.step_index LIMIT 1)"
        )
    };
    format!(
        "UPDATE payment_requests SET current_step_role = {}, current_step_index = {} WHERE {which}",
        current("role"),
        current("step_index")
    )
}

/// The step columns the note reads: a reminder's date changes none of them.
const READ: &str = "state, role, step_index, payment_request_id";

fn sqlite_statements() -> Vec<String> {
    [
        ("insert", "INSERT".to_owned(), "id = NEW.payment_request_id"),
        ("update", format!("UPDATE OF {READ}"), "id IN (OLD.payment_request_id, NEW.payment_request_id)"),
        ("delete", "DELETE".to_owned(), "id = OLD.payment_request_id"),
    ]
    .into_iter()
    .map(|(name, event, which)| {
        format!(
            "CREATE TRIGGER request_current_step_{name} AFTER {event} ON request_steps BEGIN {}; END",
            note(which)
        )
    })
    .collect()
}

fn postgres_statements() -> Vec<String> {
    vec![
        format!(
            "CREATE FUNCTION request_current_step() RETURNS trigger LANGUAGE plpgsql AS $$ \
             DECLARE ids integer[]; BEGIN \
             IF TG_OP = 'INSERT' THEN ids := ARRAY[NEW.payment_request_id]; \
             ELSIF TG_OP = 'DELETE' THEN ids := ARRAY[OLD.payment_request_id]; \
             ELSE ids := ARRAY[OLD.payment_request_id, NEW.payment_request_id]; END IF; \
             {}; RETURN NULL; END $$",
            note("id = ANY(ids)")
        ),
        format!(
            "CREATE TRIGGER request_current_step AFTER INSERT OR UPDATE OF {READ} OR DELETE \
             ON request_steps FOR EACH ROW EXECUTE FUNCTION request_current_step()"
        ),
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use PaymentRequests as P;
        use RequestSteps as S;
        m.alter_table(
            Table::alter().table(P::Table).add_column(string_null(P::CurrentStepRole)).to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter().table(P::Table).add_column(integer_null(P::CurrentStepIndex)).to_owned(),
        )
        .await?;
        let db = m.get_connection();
        let triggers = match m.get_database_backend() {
            DatabaseBackend::Postgres => postgres_statements(),
            _ => sqlite_statements(),
        };
        for sql in triggers {
            db.execute_unprepared(&sql).await?;
        }
        db.execute_unprepared(&note(
            "id IN (SELECT payment_request_id FROM request_steps WHERE state = 'current')",
        ))
        .await?;

        for (table, name) in [
            ("payment_requests", "ix_payment_requests_program_order"),
            ("request_steps", "request_steps_current_role"),
        ] {
            m.drop_index(Index::drop().if_exists().name(name).table(Alias::new(table)).to_owned())
                .await?;
        }
        m.create_index(
            Index::create()
                .name("ix_payment_requests_program_queue")
                .table(P::Table)
                .col(P::MentorProgramId)
                .col(P::DeletedAt)
                .col(P::Status)
                .col(P::SubmittedOn)
                .col(P::Id)
                .col(P::FormType)
                .col(P::CreatedBy)
                .col(P::SubmittedBy)
                .col(P::CurrentStepRole)
                .col(P::CurrentStepIndex)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_request_steps_taken")
                .table(S::Table)
                .col(S::PaymentRequestId)
                .col(S::ByUserId)
                .col(S::OnBehalfOf)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum PaymentRequests {
    Table,
    MentorProgramId,
    DeletedAt,
    Status,
    SubmittedOn,
    Id,
    FormType,
    CreatedBy,
    SubmittedBy,
    CurrentStepRole,
    CurrentStepIndex,
}

#[derive(DeriveIden)]
enum RequestSteps {
    Table,
    PaymentRequestId,
    ByUserId,
    OnBehalfOf,
}

//! Approval chains: each form's rule (its steps, kept as one JSON list per form), the chain
//! copied into a request at submission (one row per step), the programs a user approves in
//! besides those she coordinates, and `program:readall` for the Administrator role.
//! Every form starts with the one Administrator step, and requests already submitted get
//! that one-step chain, so the workflow after the upgrade is the one before it.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

const FORMS: [&str; 14] =
    ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13", "F14"];
const DEFAULT_RULE: &str = r#"[{"name":"Approval","role":"Administrator","fromAmount":0}]"#;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(ApprovalRules::Table)
                .col(string(ApprovalRules::FormType).primary_key())
                .col(text(ApprovalRules::Steps))
                .col(timestamp_with_time_zone_null(ApprovalRules::UpdatedAt))
                .to_owned(),
        )
        .await?;
        let mut seed = Query::insert()
            .into_table(ApprovalRules::Table)
            .columns([ApprovalRules::FormType, ApprovalRules::Steps])
            .to_owned();
        for form in FORMS {
            seed.values_panic([form.into(), DEFAULT_RULE.into()]);
        }
        m.exec_stmt(seed).await?;

        m.create_table(
            Table::create()
                .table(RequestSteps::Table)
                .col(pk_auto(RequestSteps::Id))
                .col(integer(RequestSteps::PaymentRequestId))
                .col(integer(RequestSteps::StepIndex))
                .col(string(RequestSteps::Name))
                .col(string(RequestSteps::Role))
                .col(big_integer(RequestSteps::FromCents))
                // `done`, `current` or `waiting`.
                .col(string(RequestSteps::State))
                .col(integer_null(RequestSteps::ByUserId))
                .col(timestamp_with_time_zone_null(RequestSteps::At))
                .col(integer_null(RequestSteps::OnBehalfOf))
                .col(big_integer_null(RequestSteps::ApprovedCents))
                // When the step became current: what reminders count from.
                .col(timestamp_with_time_zone_null(RequestSteps::BeganAt))
                .foreign_key(
                    ForeignKey::create()
                        .from(RequestSteps::Table, RequestSteps::PaymentRequestId)
                        .to(PaymentRequests::Table, PaymentRequests::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("request_steps_request")
                .table(RequestSteps::Table)
                .col(RequestSteps::PaymentRequestId)
                .col(RequestSteps::StepIndex)
                .unique()
                .to_owned(),
        )
        .await?;
        // "Waiting for me": the current steps of the caller's roles, newest request first.
        m.create_index(
            Index::create()
                .name("request_steps_current_role")
                .table(RequestSteps::Table)
                .col(RequestSteps::State)
                .col(RequestSteps::Role)
                .col(RequestSteps::PaymentRequestId)
                .to_owned(),
        )
        .await?;
        m.get_connection()
            .execute_unprepared(
                "INSERT INTO request_steps \
                 (payment_request_id, step_index, name, role, from_cents, state, began_at) \
                 SELECT id, 0, 'Approval', 'Administrator', 0, 'current', updated_at \
                 FROM payment_requests WHERE status = 'Submitted'",
            )
            .await?;

        m.create_table(
            Table::create()
                .table(UserPrograms::Table)
                .col(integer(UserPrograms::UserId))
                .col(integer(UserPrograms::MentorProgramId))
                .primary_key(
                    Index::create().col(UserPrograms::UserId).col(UserPrograms::MentorProgramId),
                )
                .foreign_key(
                    ForeignKey::create()
                        .from(UserPrograms::Table, UserPrograms::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .from(UserPrograms::Table, UserPrograms::MentorProgramId)
                        .to(MentorPrograms::Table, MentorPrograms::Id),
                )
                .to_owned(),
        )
        .await?;
        m.get_connection()
            .execute_unprepared(
                "INSERT INTO role_permissions (role_id, permission) \
                 SELECT id, 'program:readall' FROM roles WHERE name = 'Administrator'",
            )
            .await?;
        Ok(())
    }
}

#[derive(DeriveIden)]
enum ApprovalRules {
    Table,
    FormType,
    Steps,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum RequestSteps {
    Table,
    Id,
    PaymentRequestId,
    StepIndex,
    Name,
    Role,
    FromCents,
    State,
    ByUserId,
    At,
    OnBehalfOf,
    ApprovedCents,
    BeganAt,
}

#[derive(DeriveIden)]
enum UserPrograms {
    Table,
    UserId,
    MentorProgramId,
}

#[derive(DeriveIden)]
enum PaymentRequests {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum MentorPrograms {
    Table,
    Id,
}

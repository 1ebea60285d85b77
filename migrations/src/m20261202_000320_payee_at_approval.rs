//! Approval copies the payee (name, address, e-mail) into the request: the office pays whom
//! it approved, not whoever the participant record names by the time the vendor payment is
//! made. Requests approved before this copy existed take the payee as it stands now.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters a table one column at a time.
        for column in [Requests::PayeeName, Requests::PayeeAddress, Requests::PayeeEmail] {
            m.alter_table(
                Table::alter().table(Requests::Table).add_column(text_null(column)).to_owned(),
            )
            .await?;
        }
        // The vendor of an F9 that names one, else the participant (payment_requests::payee).
        let vendor = |key: &str| match m.get_database_backend() {
            DatabaseBackend::Postgres => format!("NULLIF(TRIM(r.details::json ->> '{key}'), '')"),
            _ => format!("NULLIF(TRIM(json_extract(r.details, '$.{key}')), '')"),
        };
        let (name, address) = (vendor("vendorName"), vendor("vendorAddress"));
        let sql = format!(
            "UPDATE payment_requests AS r SET \
             payee_name = CASE WHEN r.form_type = 'F9' AND {name} IS NOT NULL THEN {name} ELSE p.full_name END, \
             payee_address = CASE WHEN r.form_type = 'F9' AND {name} IS NOT NULL THEN {address} ELSE p.address END, \
             payee_email = CASE WHEN r.form_type = 'F9' AND {name} IS NOT NULL THEN NULL ELSE p.email END \
             FROM participants AS p WHERE p.id = r.participant_id AND r.approved_at IS NOT NULL"
        );
        m.get_connection().execute_unprepared(&sql).await.map(|_| ())
    }
}

#[derive(DeriveIden)]
enum Requests {
    #[sea_orm(iden = "payment_requests")]
    Table,
    PayeeName,
    PayeeAddress,
    PayeeEmail,
}

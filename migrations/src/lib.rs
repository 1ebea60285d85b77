//! Forward-only, portable (SQLite and PostgreSQL) schema migrations, applied on start.

pub use sea_orm_migration::prelude::*;

mod m20261121_000001_identity;
mod m20261121_000020_payment_requests;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(m20261121_000001_identity::Migration), Box::new(m20261121_000020_payment_requests::Migration)]
    }
}

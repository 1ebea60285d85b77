//! `participants.sort_name` becomes the folded name (lower case without accents, as the
//! trigram index folds it): a search with many matches walks the sort index with LIKE on
//! it and finds what the index finds, and "Ávila" sorts with "Avila". Names stored before
//! were only lower-cased; only those with non-ASCII letters differ and are rewritten.

use sea_orm_migration::{
    prelude::*,
    sea_orm::{Statement, TransactionTrait},
};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// `participants::rules::fold` as it was when this migration was written (a migration keeps
/// doing what it did; a test in the server checks the two still agree).
pub fn fold(text: &str) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization};
    text.nfd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // One transaction: one commit (and sync) for every rewritten name, not one each.
        let txn = m.get_connection().begin().await?;
        let rows = txn.query_all_raw(Statement::from_string(m.get_database_backend(), "SELECT id, full_name, sort_name FROM participants")).await?;
        for row in rows {
            let (id, full, sorted): (i32, String, String) = (row.try_get("", "id")?, row.try_get("", "full_name")?, row.try_get("", "sort_name")?);
            let folded = fold(&full);
            if folded != sorted {
                let update = Query::update()
                    .table(Alias::new("participants"))
                    .value(Alias::new("sort_name"), folded)
                    .and_where(Expr::col(Alias::new("id")).eq(id))
                    .to_owned();
                txn.execute(&update).await?;
            }
        }
        txn.commit().await
    }
}

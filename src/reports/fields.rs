//! A result row as the reports read it, from either reader: sea-orm's `QueryResult` (views,
//! PostgreSQL exports) or a row of the SQLite export reader (`db::sqlite_speed`), so each
//! report has one row mapping for both.

use sea_orm::{QueryResult, TryGetable};

use crate::{
    db::sqlite_speed::rows::{Batch, FromSqlite},
    error::ApiResult,
};

/// A value both readers can decode.
pub trait Field: TryGetable + FromSqlite {}

impl<T: TryGetable + FromSqlite> Field for T {}

/// Named columns of a result row.
pub trait Fields {
    fn field<T: Field>(&self, key: &str) -> ApiResult<T>;
}

impl Fields for QueryResult {
    fn field<T: Field>(&self, key: &str) -> ApiResult<T> {
        Ok(self.try_get::<T>("", key)?)
    }
}

/// The column `key` of `r`.
pub fn get<T: Field>(r: &impl Fields, key: &str) -> ApiResult<T> {
    r.field(key)
}

/// A row of either reader; what a report's row mapping is given.
pub enum DbRow<'a> {
    Orm(&'a QueryResult),
    /// Row `.1` of a batch the SQLite export reader copied out.
    Sqlite(&'a Batch, usize),
}

impl Fields for DbRow<'_> {
    fn field<T: Field>(&self, key: &str) -> ApiResult<T> {
        match self {
            DbRow::Orm(r) => r.field(key),
            DbRow::Sqlite(batch, row) => batch.field(*row, key),
        }
    }
}

//! A result row as the reports read it, from either reader: sea-orm's `QueryResult` (views,
//! PostgreSQL exports) or a raw SQLite row (SQLite exports, `export::sqlite`), so each report
//! has one row mapping for both.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicUsize, Ordering::Relaxed},
        Arc,
    },
};

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::types::{FromSql, FromSqlResult, ValueRef};
use sea_orm::{QueryResult, TryGetable};

use crate::error::{ApiError, ApiResult};

/// A value both readers can decode.
pub trait Field: TryGetable {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self>;
}

macro_rules! as_rusqlite_reads {
    ($($t:ty),*) => {$(
        impl Field for $t {
            fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
                FromSql::column_result(v)
            }
        }
    )*};
}
as_rusqlite_reads!(i32, i64, f64, bool, String);

// Dates and moments are stored as `2025-07-04` and RFC 3339 text (sqlx's encoding): read
// with chrono's own parsers for those, not rusqlite's, which parses a strftime pattern
// again for every cell (a tenth of a large export's reading).
impl Field for NaiveDate {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
        v.as_str()?.parse().or_else(|_| FromSql::column_result(v))
    }
}

impl Field for DateTime<Utc> {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
        DateTime::parse_from_rfc3339(v.as_str()?)
            .map(|t| t.to_utc())
            .or_else(|_| FromSql::column_result(v))
    }
}

impl<T: Field> Field for Option<T>
where
    Option<T>: TryGetable,
{
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
        match v {
            ValueRef::Null => Ok(None),
            v => T::from_sqlite(v).map(Some),
        }
    }
}

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
            DbRow::Sqlite(batch, row) => {
                let names = &batch.names;
                let i = names
                    .index(key)
                    .ok_or_else(|| ApiError::Internal(format!("database: no column {key}")))?;
                let value = batch.value(*row, i);
                let value = match (names.lists.get(i).and_then(Option::as_ref), value) {
                    // An id of a named column: its name, or none for a row that is gone
                    // (as the join would give).
                    (Some(list), ValueRef::Integer(id)) => {
                        list.get(&id).map_or(ValueRef::Null, |name| ValueRef::Text(name.as_bytes()))
                    }
                    _ => value,
                };
                T::from_sqlite(value)
                    .map_err(|e| ApiError::Internal(format!("database: column {key}: {e}")))
            }
        }
    }
}

/// A statement's column names, looked up by the mappings once per cell: they read the
/// columns nearly in select order, so the one after the last found is tried first. A
/// column of ids may come with the names to read in their place (`export::sqlite`).
pub struct Names {
    names: Vec<String>,
    lists: Vec<Option<HashMap<i64, String>>>,
    /// Atomic only to be shared with the batches; one thread maps them at a time.
    next: AtomicUsize,
}

impl Names {
    /// `stmt`'s columns; those in `lists` (by name) read as the names of their ids.
    pub fn of(
        stmt: &rusqlite::Statement<'_>,
        mut lists: HashMap<String, HashMap<i64, String>>,
    ) -> Self {
        let names: Vec<String> = stmt.column_names().into_iter().map(str::to_owned).collect();
        let lists = names.iter().map(|n| lists.remove(n)).collect();
        Self { names, lists, next: AtomicUsize::new(0) }
    }

    fn index(&self, key: &str) -> Option<usize> {
        let guess = self.next.load(Relaxed);
        let i = if self.names.get(guess).is_some_and(|n| n == key) {
            guess
        } else {
            self.names.iter().position(|n| n == key)?
        };
        self.next.store(i + 1, Relaxed);
        Some(i)
    }
}

/// A value as SQLite gave it; text and blobs as a range of the batch's bytes.
#[derive(Clone, Copy)]
enum Raw {
    Null,
    Integer(i64),
    Real(f64),
    Text(usize, usize),
    Blob(usize, usize),
}

/// Rows of a statement copied into one buffer, no allocation per cell: the SQLite export
/// reader's hand-over to the thread that maps them (`export::Rows::for_each`).
pub struct Batch {
    names: Arc<Names>,
    cells: Vec<Raw>,
    bytes: Vec<u8>,
}

impl Batch {
    /// Room for `rows` rows of `bytes` bytes of text, so filling it grows nothing.
    pub fn new(names: Arc<Names>, rows: usize, bytes: usize) -> Self {
        Self {
            cells: Vec::with_capacity(rows * names.names.len()),
            bytes: Vec::with_capacity(bytes),
            names,
        }
    }

    /// The bytes of text its rows hold.
    pub fn text_bytes(&self) -> usize {
        self.bytes.len()
    }

    pub fn len(&self) -> usize {
        self.cells.len() / self.names.names.len().max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Copies `row`, whose statement's columns are the batch's names.
    pub fn push(&mut self, row: &rusqlite::Row<'_>) -> rusqlite::Result<()> {
        for i in 0..self.names.names.len() {
            let mut range = |b: &[u8]| {
                let start = self.bytes.len();
                self.bytes.extend_from_slice(b);
                (start, self.bytes.len())
            };
            let raw = match row.get_ref(i)? {
                ValueRef::Null => Raw::Null,
                ValueRef::Integer(v) => Raw::Integer(v),
                ValueRef::Real(v) => Raw::Real(v),
                ValueRef::Text(t) => {
                    let (s, e) = range(t);
                    Raw::Text(s, e)
                }
                ValueRef::Blob(b) => {
                    let (s, e) = range(b);
                    Raw::Blob(s, e)
                }
            };
            self.cells.push(raw);
        }
        Ok(())
    }

    /// Its rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = DbRow<'_>> {
        (0..self.len()).map(move |i| DbRow::Sqlite(self, i))
    }

    fn value(&self, row: usize, column: usize) -> ValueRef<'_> {
        match self.cells[row * self.names.names.len() + column] {
            Raw::Null => ValueRef::Null,
            Raw::Integer(v) => ValueRef::Integer(v),
            Raw::Real(v) => ValueRef::Real(v),
            Raw::Text(s, e) => ValueRef::Text(&self.bytes[s..e]),
            Raw::Blob(s, e) => ValueRef::Blob(&self.bytes[s..e]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_rows_read_by_name_in_any_order() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let mut stmt = conn
            .prepare("SELECT 7 AS id, 'Ana' AS payee, NULL AS fund, '2026-01-02T08:05:00+00:00' AS at, '2026-01-02' AS day, '2026-01-02 08:05:00' AS plain_at, 3 AS fund_id, 9 AS code_id")
            .unwrap();
        let names = Names::of(
            &stmt,
            HashMap::from([
                ("fund_id".to_owned(), HashMap::from([(3, "General".to_owned())])),
                ("code_id".to_owned(), HashMap::new()),
            ]),
        );
        let mut batch = Batch::new(Arc::new(names), 1, 0);
        let mut rows = stmt.query([]).unwrap();
        batch.push(rows.next().unwrap().unwrap()).unwrap();
        let r = batch.rows().next().unwrap();
        assert_eq!(get::<Option<String>>(&r, "fund").unwrap(), None);
        assert_eq!(get::<i32>(&r, "id").unwrap(), 7);
        assert_eq!(get::<String>(&r, "payee").unwrap(), "Ana");
        assert_eq!(
            get::<DateTime<Utc>>(&r, "at").unwrap().to_rfc3339(),
            "2026-01-02T08:05:00+00:00"
        );
        assert_eq!(get::<Option<NaiveDate>>(&r, "day").unwrap().unwrap().to_string(), "2026-01-02");
        assert_eq!(get::<Option<NaiveDate>>(&r, "fund").unwrap(), None);
        // Another stored form of a moment still reads (rusqlite's parser behind ours).
        assert_eq!(
            get::<DateTime<Utc>>(&r, "plain_at").unwrap().to_rfc3339(),
            "2026-01-02T08:05:00+00:00"
        );
        assert!(get::<i32>(&r, "nope").is_err());
        // A named column reads as the name of its id.
        assert_eq!(get::<Option<String>>(&r, "fund_id").unwrap().as_deref(), Some("General"));
        assert_eq!(
            get::<Option<String>>(&r, "code_id").unwrap(),
            None,
            "an id whose row is gone names nothing, as a join"
        );
        // A wrong type is an error, not a zero.
        assert!(get::<i64>(&r, "payee").is_err());
    }

    #[test]
    fn a_batch_keeps_its_rows_apart() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let mut stmt = conn.prepare("SELECT column1 AS id, column2 AS name, column3 AS amount FROM (VALUES (1, 'Ana', 1.5), (2, NULL, 2.5), (3, 'Bo', NULL))").unwrap();
        let mut batch = Batch::new(Arc::new(Names::of(&stmt, HashMap::new())), 1, 0);
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            batch.push(row).unwrap();
        }
        assert_eq!(batch.len(), 3);
        let read: Vec<(i64, Option<String>, Option<f64>)> = batch
            .rows()
            .map(|r| (get(&r, "id").unwrap(), get(&r, "name").unwrap(), get(&r, "amount").unwrap()))
            .collect();
        assert_eq!(
            read,
            [
                (1, Some("Ana".into()), Some(1.5)),
                (2, None, Some(2.5)),
                (3, Some("Bo".into()), None)
            ]
        );
    }
}

//! Rows as the SQLite export reader hands them over: copied into one buffer per batch, no
//! allocation per cell, read by column name. Each kind of value decodes from SQLite's storage
//! here (`FromSqlite`); `reports::fields` puts it beside sea-orm's decoding, so a report's one
//! row mapping reads either.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicUsize, Ordering::Relaxed},
        Arc,
    },
};

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::types::{FromSql, FromSqlResult, ValueRef};

use crate::error::{ApiError, ApiResult};

/// A value decoded from a SQLite cell.
pub trait FromSqlite: Sized {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self>;
}

macro_rules! as_rusqlite_reads {
    ($($t:ty),*) => {$(
        impl FromSqlite for $t {
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
impl FromSqlite for NaiveDate {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
        v.as_str()?.parse().or_else(|_| FromSql::column_result(v))
    }
}

impl FromSqlite for DateTime<Utc> {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
        DateTime::parse_from_rfc3339(v.as_str()?)
            .map(|t| t.to_utc())
            .or_else(|_| FromSql::column_result(v))
    }
}

impl<T: FromSqlite> FromSqlite for Option<T> {
    fn from_sqlite(v: ValueRef<'_>) -> FromSqlResult<Self> {
        match v {
            ValueRef::Null => Ok(None),
            v => T::from_sqlite(v).map(Some),
        }
    }
}

/// A statement's column names, looked up by the mappings once per cell: they read the
/// columns nearly in select order, so the one after the last found is tried first. A
/// column of ids may come with the names to read in their place (`reader::Read`).
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

/// Rows of a statement copied into one buffer: the reader's hand-over to the thread that
/// maps them.
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

    /// The column `key` of row `row`; a column of ids named by the reader reads as the
    /// name of its id, or none for a row that is gone (as the join would give).
    pub fn field<T: FromSqlite>(&self, row: usize, key: &str) -> ApiResult<T> {
        let names = &self.names;
        let i = names
            .index(key)
            .ok_or_else(|| ApiError::Internal(format!("database: no column {key}")))?;
        let value = match (names.lists.get(i).and_then(Option::as_ref), self.value(row, i)) {
            (Some(list), ValueRef::Integer(id)) => {
                list.get(&id).map_or(ValueRef::Null, |name| ValueRef::Text(name.as_bytes()))
            }
            (_, value) => value,
        };
        T::from_sqlite(value)
            .map_err(|e| ApiError::Internal(format!("database: column {key}: {e}")))
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
        let get = |key| batch.field::<Option<String>>(0, key).unwrap();
        assert_eq!(get("fund"), None);
        assert_eq!(batch.field::<i32>(0, "id").unwrap(), 7);
        assert_eq!(batch.field::<String>(0, "payee").unwrap(), "Ana");
        assert_eq!(
            batch.field::<DateTime<Utc>>(0, "at").unwrap().to_rfc3339(),
            "2026-01-02T08:05:00+00:00"
        );
        assert_eq!(
            batch.field::<Option<NaiveDate>>(0, "day").unwrap().unwrap().to_string(),
            "2026-01-02"
        );
        assert_eq!(batch.field::<Option<NaiveDate>>(0, "fund").unwrap(), None);
        // Another stored form of a moment still reads (rusqlite's parser behind ours).
        assert_eq!(
            batch.field::<DateTime<Utc>>(0, "plain_at").unwrap().to_rfc3339(),
            "2026-01-02T08:05:00+00:00"
        );
        assert!(batch.field::<i32>(0, "nope").is_err());
        // A named column reads as the name of its id.
        assert_eq!(get("fund_id").as_deref(), Some("General"));
        assert_eq!(get("code_id"), None, "an id whose row is gone names nothing, as a join");
        // A wrong type is an error, not a zero.
        assert!(batch.field::<i64>(0, "payee").is_err());
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
        let read: Vec<(i64, Option<String>, Option<f64>)> = (0..batch.len())
            .map(|i| {
                (
                    batch.field(i, "id").unwrap(),
                    batch.field(i, "name").unwrap(),
                    batch.field(i, "amount").unwrap(),
                )
            })
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

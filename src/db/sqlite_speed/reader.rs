//! The SQLite export reader. sqlx steps a statement on a worker thread of its own, copies
//! every value of every row and hands each row over, waking the receiver per row
//! (docs/decisions-reports.md, "Streaming"). Here a thread of the export's own steps the
//! statement on a read-only connection of its own (WAL: it reads one snapshot and never waits
//! for a writer) and hands the rows on in batches, copied out as they are, to be mapped on a
//! second thread while the caller writes on a third (`Read::for_each`). Reference names are
//! read first, in the same snapshot, and put in place of their ids.

use std::{
    collections::HashMap,
    path::PathBuf,
    sync::{mpsc::sync_channel, Arc},
    time::Duration,
};

use rusqlite::{types::Value as Sql, OpenFlags};
use sea_orm::{
    sea_query::{SelectStatement, SqliteQueryBuilder, Value},
    DatabaseConnection, DbBackend,
};

use super::rows::{Batch, Names};

/// A statement as SQLite text and bound values; None for a value this reader does not
/// bind as sqlx does.
fn built(select: &SelectStatement) -> Option<(String, Vec<Sql>)> {
    let (sql, values) = select.build(SqliteQueryBuilder);
    Some((sql, values.0.into_iter().map(bind).collect::<Option<_>>()?))
}

/// One statement to read from the SQLite file.
pub struct Read {
    path: PathBuf,
    sql: String,
    values: Vec<Sql>,
    /// A result column holding ids, and the statement of its table's `id, name`.
    names: Vec<(String, String, Vec<Sql>)>,
}

impl Read {
    /// `select` on the file behind `db`, the id columns of `names` named; None for
    /// PostgreSQL, a database in memory, or a value this reader does not bind as sqlx does
    /// (the caller then streams through sqlx).
    pub fn new(
        db: &DatabaseConnection,
        select: &SelectStatement,
        names: &[(&str, SelectStatement)],
    ) -> Option<Self> {
        if db.get_database_backend() != DbBackend::Sqlite {
            return None;
        }
        let path = db.get_sqlite_connection_pool().connect_options().get_filename().to_owned();
        if !path.is_file() {
            return None;
        }
        let (sql, values) = built(select)?;
        let names = names
            .iter()
            .map(|(column, q)| built(q).map(|(sql, values)| ((*column).to_owned(), sql, values)))
            .collect::<Option<_>>()?;
        Some(Self { path, sql, values, names })
    }

    /// Three stages on three threads: SQLite's stepping (its B-tree searches are most of an
    /// export), `map` of each row (for some reports, parsing each request's form), and `each`
    /// on this one, in order. The export then takes about the longest of them rather than
    /// their sum. Rows cross in batches of `batch`, so the hand-offs cost nothing per row. The
    /// first error, of any stage, stops all three.
    pub fn for_each<R: Send>(
        self,
        batch: usize,
        mut map: impl FnMut(&Batch, usize) -> anyhow::Result<R> + Send,
        mut each: impl FnMut(R) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        std::thread::scope(|s| {
            let (raw_tx, raw_rx) = sync_channel::<anyhow::Result<Batch>>(4);
            let (tx, rx) = sync_channel::<anyhow::Result<Vec<R>>>(4);
            s.spawn(move || {
                // Fails only when the mapping stopped (an error, or the client went away).
                let read = self.run(batch, |b| Ok(raw_tx.send(Ok(b))?));
                if let Err(e) = read {
                    let _ = raw_tx.send(Err(e));
                }
            });
            s.spawn(move || {
                for b in raw_rx {
                    let rows = b.and_then(|b| (0..b.len()).map(|i| map(&b, i)).collect());
                    let stop = rows.is_err();
                    if tx.send(rows).is_err() || stop {
                        return;
                    }
                }
            });
            for rows in rx {
                rows?.into_iter().try_for_each(&mut each)?;
            }
            Ok(())
        })
    }

    /// Steps the statement on this thread, handing its rows to `each` in batches of up to
    /// `batch` rows; an error stops it.
    fn run(
        self,
        batch: usize,
        mut each: impl FnMut(Batch) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let mut conn = rusqlite::Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(10))?;
        // No `mmap_size`: pages read in place from a mapping count in the process's resident
        // size while it lasts (the whole 900 MB file for a large export, and 130 MiB more at
        // the peak of the ten-minute soak). Reading them through SQLite's own 2 MB cache costs
        // a 100,000-row CSV about a third more time (docs/decisions-memory.md).
        // The names and the rows from one snapshot, as the joins would read them.
        let snapshot = conn.transaction()?;
        let mut lists = HashMap::new();
        for (column, sql, values) in self.names {
            let mut list = HashMap::new();
            let mut stmt = snapshot.prepare(&sql)?;
            let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
            while let Some(r) = rows.next()? {
                if let Some(name) = r.get::<_, Option<String>>(1)? {
                    list.insert(r.get::<_, i64>(0)?, name);
                }
            }
            lists.insert(column, list);
        }
        let mut stmt = snapshot.prepare(&self.sql)?;
        let columns = Arc::new(Names::of(&stmt, lists));
        let mut rows = stmt.query(rusqlite::params_from_iter(self.values))?;
        let mut next = Batch::new(columns.clone(), batch, 0);
        while let Some(row) = rows.next()? {
            next.push(row)?;
            if next.len() == batch {
                // The next batch about as large as this one.
                let room = next.text_bytes() + next.text_bytes() / 8;
                each(std::mem::replace(&mut next, Batch::new(columns.clone(), batch, room)))?;
            }
        }
        if !next.is_empty() {
            each(next)?;
        }
        Ok(())
    }
}

/// A value bound as sea-query-sqlx and sqlx-sqlite's encoders bind it: dates and moments
/// are stored as text and compared as text, so their text must be the same. None for a
/// kind the reports never bind.
fn bind(v: Value) -> Option<Sql> {
    use chrono::SecondsFormat::AutoSi;
    let int = |i: Option<i64>| i.map_or(Sql::Null, Sql::Integer);
    let text = |t: Option<String>| t.map_or(Sql::Null, Sql::Text);
    Some(match v {
        Value::Bool(b) => int(b.map(i64::from)),
        Value::TinyInt(i) => int(i.map(i64::from)),
        Value::SmallInt(i) => int(i.map(i64::from)),
        Value::Int(i) => int(i.map(i64::from)),
        Value::BigInt(i) => int(i),
        Value::TinyUnsigned(i) => int(i.map(i64::from)),
        Value::SmallUnsigned(i) => int(i.map(i64::from)),
        Value::Unsigned(i) => int(i.map(i64::from)),
        Value::BigUnsigned(i) => int(i.map(i64::try_from).transpose().ok()?),
        Value::Float(f) => f.map_or(Sql::Null, |f| Sql::Real(f.into())),
        Value::Double(f) => f.map_or(Sql::Null, Sql::Real),
        Value::String(s) => text(s),
        Value::Char(c) => text(c.map(String::from)),
        Value::Bytes(b) => b.map_or(Sql::Null, Sql::Blob),
        Value::ChronoDate(d) => text(d.map(|d| d.format("%F").to_string())),
        Value::ChronoDateTime(t) => text(t.map(|t| t.format("%F %T%.f").to_string())),
        Value::ChronoDateTimeUtc(t) => text(t.map(|t| t.to_rfc3339_opts(AutoSi, false))),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeZone, Utc};

    use super::*;

    /// The text of each kind as sqlx-sqlite encodes it (its chrono encoders), which is what
    /// the stored columns hold and are compared with.
    #[test]
    fn values_bind_as_sqlx_binds_them() {
        let at = Utc.with_ymd_and_hms(2025, 7, 4, 15, 0, 0).unwrap();
        assert_eq!(
            bind(Value::ChronoDateTimeUtc(Some(at))),
            Some(Sql::Text("2025-07-04T15:00:00+00:00".into()))
        );
        assert_eq!(
            bind(Value::ChronoDate(NaiveDate::from_ymd_opt(2025, 7, 4))),
            Some(Sql::Text("2025-07-04".into()))
        );
        assert_eq!(bind(Value::Int(Some(-3))), Some(Sql::Integer(-3)));
        assert_eq!(bind(Value::Bool(Some(true))), Some(Sql::Integer(1)));
        assert_eq!(bind(Value::String(None)), Some(Sql::Null));
        assert_eq!(bind(Value::BigUnsigned(Some(u64::MAX))), None);
    }
}

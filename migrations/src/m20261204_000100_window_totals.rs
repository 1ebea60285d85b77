//! Kept figures that answer a date window, beside 000142's totals (which have no time but
//! the approval's hour of the day):
//! - per submitted day × program × fiscal year × form, the requests submitted that day
//!   (approvals by request type, "submitted in range": by `submitted_on`);
//! - per approval hour × program × fiscal year × form, the charged count, cents and days to
//!   approval (in UTC days; the hour of the day moves them to the caller's zone);
//! - per approval hour × program × fiscal year × fund × account, the charged count and cents
//!   (approvals by accounts).
//!
//! The approval hour is whole hours since 1970-01-01 00:00 UTC, so a window of local days in
//! a zone a whole number of hours from UTC is a range of it. The time leads each key: a
//! window is one walk over its rows (tables without rowid on SQLite, the key holding them).
//! Only the requests a table counts have a row there (submitted, or charged), so no key holds
//! a placeholder time. Kept by triggers in the transaction of every change, written as 000142's.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

fn charged(r: &str) -> String {
    format!("({r}.status IN ('Approved', 'ReadyForProcessing', 'Processed') AND {r}.approved_at IS NOT NULL)")
}

fn approval_hour(backend: DatabaseBackend, r: &str) -> String {
    match backend {
        DatabaseBackend::Postgres => {
            format!("CAST(FLOOR(EXTRACT(EPOCH FROM {r}.approved_at) / 3600) AS INTEGER)")
        }
        _ => format!("(CAST(strftime('%s', {r}.approved_at) AS INTEGER) / 3600)"),
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Integer,
    Text,
    Date,
}

/// A key column: its name, its kind, its value for row `r`.
type KeyColumn = (&'static str, Kind, String);

struct Kept {
    table: &'static str,
    /// Request columns whose change moves a request between totals.
    watched: &'static [&'static str],
    /// Whether row `r` (live) is counted here at all.
    counted: fn(&str) -> String,
    key: fn(DatabaseBackend, &str) -> Vec<KeyColumn>,
    /// Figure columns (BIGINT) and their value for row `r`; a counted request adds them to its key.
    figures: fn(DatabaseBackend, &str) -> Vec<(&'static str, String)>,
}

const KEPT: [Kept; 3] = [
    Kept {
        table: "payment_request_form_days",
        watched: &[
            "mentor_program_id",
            "fiscal_year_id",
            "form_type",
            "submitted_on",
            "deleted_at",
        ],
        counted: |r| format!("{r}.submitted_on IS NOT NULL"),
        key: |_, r| {
            vec![
                ("submitted_on", Kind::Date, format!("{r}.submitted_on")),
                ("mentor_program_id", Kind::Integer, format!("{r}.mentor_program_id")),
                ("fiscal_year_id", Kind::Integer, format!("COALESCE({r}.fiscal_year_id, 0)")),
                ("form_type", Kind::Text, format!("{r}.form_type")),
            ]
        },
        figures: |_, _| vec![("submitted_count", "1".to_owned())],
    },
    Kept {
        table: "payment_request_form_hours",
        watched: &[
            "status",
            "mentor_program_id",
            "fiscal_year_id",
            "form_type",
            "approved_at",
            "submitted_on",
            "approved_cents",
            "deleted_at",
        ],
        counted: charged,
        key: |backend, r| {
            vec![
                ("approval_hour", Kind::Integer, approval_hour(backend, r)),
                ("mentor_program_id", Kind::Integer, format!("{r}.mentor_program_id")),
                ("fiscal_year_id", Kind::Integer, format!("COALESCE({r}.fiscal_year_id, 0)")),
                ("form_type", Kind::Text, format!("{r}.form_type")),
            ]
        },
        figures: |backend, r| {
            let days = match backend {
                DatabaseBackend::Postgres => format!("CAST((({r}.approved_at AT TIME ZONE 'UTC')::date - {r}.submitted_on) AS BIGINT)"),
                _ => format!("CAST(julianday(date({r}.approved_at)) - julianday({r}.submitted_on) AS INTEGER)"),
            };
            let dated = format!("{r}.submitted_on IS NOT NULL");
            vec![
                ("approved_count", "1".to_owned()),
                ("approved_cents", format!("COALESCE({r}.approved_cents, 0)")),
                ("days_count", format!("CASE WHEN {dated} THEN 1 ELSE 0 END")),
                ("days_sum", format!("CASE WHEN {dated} THEN {days} ELSE 0 END")),
            ]
        },
    },
    Kept {
        table: "payment_request_line_hours",
        watched: &[
            "status",
            "mentor_program_id",
            "fiscal_year_id",
            "fund_id",
            "expense_account_id",
            "approved_at",
            "approved_cents",
            "deleted_at",
        ],
        counted: charged,
        key: |backend, r| {
            vec![
                ("approval_hour", Kind::Integer, approval_hour(backend, r)),
                ("mentor_program_id", Kind::Integer, format!("{r}.mentor_program_id")),
                ("fiscal_year_id", Kind::Integer, format!("COALESCE({r}.fiscal_year_id, 0)")),
                ("fund_id", Kind::Integer, format!("COALESCE({r}.fund_id, 0)")),
                (
                    "expense_account_id",
                    Kind::Integer,
                    format!("COALESCE({r}.expense_account_id, 0)"),
                ),
            ]
        },
        figures: |_, r| {
            vec![
                ("approved_count", "1".to_owned()),
                ("approved_cents", format!("COALESCE({r}.approved_cents, 0)")),
            ]
        },
    },
];

fn join<T>(items: impl IntoIterator<Item = T>, f: impl Fn(T) -> String, separator: &str) -> String {
    items.into_iter().map(f).collect::<Vec<_>>().join(separator)
}

impl Kept {
    fn key_columns(&self) -> String {
        join((self.key)(DatabaseBackend::Sqlite, "r"), |(c, _, _)| c.to_owned(), ", ")
    }

    fn figure_columns(&self) -> String {
        join((self.figures)(DatabaseBackend::Sqlite, "r"), |(c, _)| c.to_owned(), ", ")
    }

    fn key_values(&self, backend: DatabaseBackend, r: &str) -> String {
        join((self.key)(backend, r), |(_, _, v)| v, ", ")
    }

    fn figure_values(&self, backend: DatabaseBackend, r: &str) -> String {
        join((self.figures)(backend, r), |(_, v)| v, ", ")
    }

    /// Live and counted here.
    fn kept(&self, r: &str) -> String {
        format!("{r}.deleted_at IS NULL AND {}", (self.counted)(r))
    }

    /// `UPDATE … SET figure = figure <sign> value, …` on the key of row `r`.
    fn apply(&self, backend: DatabaseBackend, r: &str, sign: &str) -> String {
        format!(
            "UPDATE {} SET {} WHERE {}",
            self.table,
            join((self.figures)(backend, r), |(c, v)| format!("{c} = {c} {sign} {v}"), ", "),
            join((self.key)(backend, r), |(c, _, v)| format!("{c} = {v}"), " AND ")
        )
    }

    fn create(&self, backend: DatabaseBackend) -> TableCreateStatement {
        let mut t = Table::create();
        let mut pk = Index::create();
        t.table(Alias::new(self.table));
        for (c, kind, _) in (self.key)(backend, "r") {
            let mut column = ColumnDef::new(Alias::new(c));
            column.not_null();
            match kind {
                Kind::Text => column.string_len(8),
                Kind::Integer => column.integer(),
                Kind::Date => column.date(),
            };
            t.col(column);
            pk.col(Alias::new(c));
        }
        for (c, _) in (self.figures)(backend, "r") {
            t.col(ColumnDef::new(Alias::new(c)).big_integer().not_null());
        }
        t.primary_key(&mut pk);
        if backend == DatabaseBackend::Sqlite {
            // The rows live in the key's order: a window's walk reads its figures in place.
            t.extra("WITHOUT ROWID");
        }
        t.to_owned()
    }

    /// Every counted live request once, grouped by key.
    fn backfill(&self, backend: DatabaseBackend) -> String {
        let key = self.key_values(backend, "pr");
        format!(
            "INSERT INTO {} ({}, {}) SELECT {key}, {} FROM payment_requests pr WHERE {} GROUP BY {key}",
            self.table,
            self.key_columns(),
            self.figure_columns(),
            join((self.figures)(backend, "pr"), |(_, v)| format!("SUM({v})"), ", "),
            self.kept("pr"),
        )
    }

    fn sqlite(&self) -> Vec<String> {
        let (t, s) = (self.table, DatabaseBackend::Sqlite);
        let add = |r: &str| {
            format!(
                "INSERT INTO {t} ({}, {}) SELECT {}, {} WHERE {} ON CONFLICT ({}) DO UPDATE SET {};",
                self.key_columns(),
                self.figure_columns(),
                self.key_values(s, r),
                self.figure_values(s, r),
                self.kept(r),
                self.key_columns(),
                join((self.figures)(s, r), |(c, _)| format!("{c} = {c} + excluded.{c}"), ", ")
            )
        };
        let remove = |r: &str| format!("{} AND {};", self.apply(s, r, "-"), self.kept(r));
        let watched = join(self.watched, |c| format!("OLD.{c} IS NOT NEW.{c}"), " OR ");
        vec![
            format!("CREATE TRIGGER {t}_insert AFTER INSERT ON payment_requests BEGIN {} END", add("NEW")),
            format!("CREATE TRIGGER {t}_update AFTER UPDATE ON payment_requests WHEN {watched} BEGIN {} {} END", remove("OLD"), add("NEW")),
            format!("CREATE TRIGGER {t}_delete AFTER DELETE ON payment_requests BEGIN {} END", remove("OLD")),
        ]
    }

    /// One function for the three events; both rows of a move are locked in one fixed order
    /// first (as 000142), so two opposite moves at once cannot deadlock.
    fn postgres(&self) -> Vec<String> {
        let (t, p) = (self.table, DatabaseBackend::Postgres);
        let changed = join(self.watched, |c| format!("OLD.{c} IS DISTINCT FROM NEW.{c}"), " OR ");
        let (key, new_key, old_key) =
            (self.key_columns(), self.key_values(p, "NEW"), self.key_values(p, "OLD"));
        let zeros = join((self.figures)(p, "NEW"), |_| "0".to_owned(), ", ");
        vec![
            format!(
                r#"
CREATE FUNCTION {t}_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  add_new boolean := false;
  remove_old boolean := false;
BEGIN
  IF TG_OP <> 'DELETE' THEN add_new := {kept_new}; END IF;
  IF TG_OP <> 'INSERT' THEN remove_old := {kept_old}; END IF;
  IF TG_OP = 'UPDATE' AND NOT ({changed}) THEN
    RETURN NULL;
  END IF;
  IF add_new THEN
    INSERT INTO {t} ({key}, {figures}) VALUES ({new_key}, {zeros}) ON CONFLICT ({key}) DO NOTHING;
  END IF;
  IF add_new AND remove_old THEN
    PERFORM 1 FROM {t} WHERE ({key}) IN (({old_key}), ({new_key})) ORDER BY {key} FOR UPDATE;
  END IF;
  IF remove_old THEN
    {remove};
  END IF;
  IF add_new THEN
    {add};
  END IF;
  RETURN NULL;
END $$"#,
                kept_new = self.kept("NEW"),
                kept_old = self.kept("OLD"),
                figures = self.figure_columns(),
                remove = self.apply(p, "OLD", "-"),
                add = self.apply(p, "NEW", "+"),
            ),
            format!("CREATE TRIGGER {t} AFTER INSERT OR UPDATE OR DELETE ON payment_requests FOR EACH ROW EXECUTE FUNCTION {t}_apply()"),
        ]
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        let backend = m.get_database_backend();
        for kept in &KEPT {
            m.create_table(kept.create(backend)).await?;
            db.execute_unprepared(&kept.backfill(backend)).await?;
            let triggers = match backend {
                DatabaseBackend::Postgres => kept.postgres(),
                _ => kept.sqlite(),
            };
            for sql in triggers {
                db.execute_unprepared(&sql).await?;
            }
        }
        Ok(())
    }
}

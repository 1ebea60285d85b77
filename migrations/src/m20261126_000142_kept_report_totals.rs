//! The grouped reports' kept totals, one table per report shape, replacing 000110's one
//! table for all (program × year × form × fund × account × approval hour: 4,158 rows at a
//! million requests, summed on every page, most of those reports' time at 32 clients):
//! - per program × fiscal year × fund × account, charged count and cents (actual vs budget,
//!   approvals by accounts): 192 rows there with a charged request;
//! - per program × fiscal year × form × approval hour, 000110's figures (approvals by request
//!   type; the hour moves the days to the caller's zone, −1 is "not charged"): 168 rows.
//!
//! Kept by triggers in the transaction of every change, as 000110. Missing ids are kept as
//! 0 so the keys have no NULL. 000110's triggers and table go.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

fn charged(r: &str) -> String {
    format!("({r}.status IN ('Approved', 'ReadyForProcessing', 'Processed') AND {r}.approved_at IS NOT NULL)")
}

/// A key column: its name, whether it is text (else an integer), its value for row `r`.
type KeyColumn = (&'static str, bool, String);

struct Kept {
    table: &'static str,
    /// Request columns whose change moves a request between totals.
    watched: &'static [&'static str],
    key: fn(DatabaseBackend, &str) -> Vec<KeyColumn>,
    /// Figure columns (BIGINT) and their value for row `r`; a live request adds them to its key.
    figures: fn(DatabaseBackend, &str) -> Vec<(&'static str, String)>,
}

const KEPT: [Kept; 2] = [
    Kept {
        table: "payment_request_line_totals",
        watched: &["status", "mentor_program_id", "fiscal_year_id", "fund_id", "expense_account_id", "approved_at", "approved_cents", "deleted_at"],
        key: |_, r| {
            vec![
                ("mentor_program_id", false, format!("{r}.mentor_program_id")),
                ("fiscal_year_id", false, format!("COALESCE({r}.fiscal_year_id, 0)")),
                ("fund_id", false, format!("COALESCE({r}.fund_id, 0)")),
                ("expense_account_id", false, format!("COALESCE({r}.expense_account_id, 0)")),
            ]
        },
        figures: |_, r| {
            let charged = charged(r);
            vec![
                ("approved_count", format!("CASE WHEN {charged} THEN 1 ELSE 0 END")),
                ("approved_cents", format!("CASE WHEN {charged} THEN COALESCE({r}.approved_cents, 0) ELSE 0 END")),
            ]
        },
    },
    Kept {
        table: "payment_request_form_totals",
        watched: &["status", "mentor_program_id", "fiscal_year_id", "form_type", "approved_at", "submitted_on", "approved_cents", "deleted_at"],
        key: |backend, r| {
            let hour = match backend {
                DatabaseBackend::Postgres => format!("CAST(EXTRACT(HOUR FROM {r}.approved_at AT TIME ZONE 'UTC') AS INTEGER)"),
                _ => format!("CAST(strftime('%H', {r}.approved_at) AS INTEGER)"),
            };
            vec![
                ("mentor_program_id", false, format!("{r}.mentor_program_id")),
                ("fiscal_year_id", false, format!("COALESCE({r}.fiscal_year_id, 0)")),
                ("form_type", true, format!("{r}.form_type")),
                ("approval_hour", false, format!("CASE WHEN {} THEN {hour} ELSE -1 END", charged(r))),
            ]
        },
        figures: |backend, r| {
            let days = match backend {
                DatabaseBackend::Postgres => format!("CAST((({r}.approved_at AT TIME ZONE 'UTC')::date - {r}.submitted_on) AS BIGINT)"),
                _ => format!("CAST(julianday(date({r}.approved_at)) - julianday({r}.submitted_on) AS INTEGER)"),
            };
            let charged = charged(r);
            let dated = format!("({charged} AND {r}.submitted_on IS NOT NULL)");
            vec![
                ("submitted_count", format!("CASE WHEN {r}.submitted_on IS NOT NULL THEN 1 ELSE 0 END")),
                ("approved_count", format!("CASE WHEN {charged} THEN 1 ELSE 0 END")),
                ("approved_cents", format!("CASE WHEN {charged} THEN COALESCE({r}.approved_cents, 0) ELSE 0 END")),
                ("days_count", format!("CASE WHEN {dated} THEN 1 ELSE 0 END")),
                ("days_sum", format!("CASE WHEN {dated} THEN {days} ELSE 0 END")),
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

    /// `UPDATE … SET figure = figure <sign> value, …` on the key of row `r`.
    fn apply(&self, backend: DatabaseBackend, r: &str, sign: &str) -> String {
        format!(
            "UPDATE {} SET {} WHERE {}",
            self.table,
            join((self.figures)(backend, r), |(c, v)| format!("{c} = {c} {sign} {v}"), ", "),
            join((self.key)(backend, r), |(c, _, v)| format!("{c} = {v}"), " AND ")
        )
    }

    fn create(&self) -> TableCreateStatement {
        let mut t = Table::create();
        let mut pk = Index::create();
        t.table(Alias::new(self.table));
        for (c, text, _) in (self.key)(DatabaseBackend::Sqlite, "r") {
            let mut column = ColumnDef::new(Alias::new(c));
            column.not_null();
            if text {
                column.string_len(8);
            } else {
                column.integer();
            }
            t.col(column);
            pk.col(Alias::new(c));
        }
        for (c, _) in (self.figures)(DatabaseBackend::Sqlite, "r") {
            t.col(ColumnDef::new(Alias::new(c)).big_integer().not_null());
        }
        t.primary_key(&mut pk).to_owned()
    }

    /// Every live request once, grouped by key.
    fn backfill(&self, backend: DatabaseBackend) -> String {
        let key = self.key_values(backend, "pr");
        format!(
            "INSERT INTO {} ({}, {}) SELECT {key}, {} FROM payment_requests pr WHERE pr.deleted_at IS NULL GROUP BY {key}",
            self.table,
            self.key_columns(),
            self.figure_columns(),
            join((self.figures)(backend, "pr"), |(_, v)| format!("SUM({v})"), ", ")
        )
    }

    fn sqlite(&self) -> Vec<String> {
        let (t, s) = (self.table, DatabaseBackend::Sqlite);
        let add = |r: &str| {
            format!(
                "INSERT INTO {t} ({}, {}) SELECT {}, {} WHERE {r}.deleted_at IS NULL ON CONFLICT ({}) DO UPDATE SET {};",
                self.key_columns(),
                self.figure_columns(),
                self.key_values(s, r),
                self.figure_values(s, r),
                self.key_columns(),
                join((self.figures)(s, r), |(c, _)| format!("{c} = {c} + excluded.{c}"), ", ")
            )
        };
        let remove = |r: &str| format!("{} AND {r}.deleted_at IS NULL;", self.apply(s, r, "-"));
        let watched = join(self.watched, |c| format!("OLD.{c} IS NOT NEW.{c}"), " OR ");
        vec![
            format!("CREATE TRIGGER {t}_insert AFTER INSERT ON payment_requests BEGIN {} END", add("NEW")),
            format!("CREATE TRIGGER {t}_update AFTER UPDATE ON payment_requests WHEN {watched} BEGIN {} {} END", remove("OLD"), add("NEW")),
            format!("CREATE TRIGGER {t}_delete AFTER DELETE ON payment_requests BEGIN {} END", remove("OLD")),
        ]
    }

    /// One function for the three events; both rows of a move are locked in one fixed order
    /// first (as 000110), so two opposite moves at once cannot deadlock.
    fn postgres(&self) -> Vec<String> {
        let (t, p) = (self.table, DatabaseBackend::Postgres);
        let changed = join(self.watched, |c| format!("OLD.{c} IS DISTINCT FROM NEW.{c}"), " OR ");
        let (key, new_key, old_key) = (self.key_columns(), self.key_values(p, "NEW"), self.key_values(p, "OLD"));
        let zeros = join((self.figures)(p, "NEW"), |_| "0".to_owned(), ", ");
        vec![
            format!(
                r#"
CREATE FUNCTION {t}_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  add_new boolean := false;
  remove_old boolean := false;
BEGIN
  IF TG_OP <> 'DELETE' THEN add_new := NEW.deleted_at IS NULL; END IF;
  IF TG_OP <> 'INSERT' THEN remove_old := OLD.deleted_at IS NULL; END IF;
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
                figures = self.figure_columns(),
                remove = self.apply(p, "OLD", "-"),
                add = self.apply(p, "NEW", "+"),
            ),
            format!("CREATE TRIGGER {t} AFTER INSERT OR UPDATE OR DELETE ON payment_requests FOR EACH ROW EXECUTE FUNCTION {t}_apply()"),
        ]
    }
}

/// 000110's triggers; its table is dropped after them.
const SUPERSEDED_SQLITE: [&str; 3] = [
    "DROP TRIGGER payment_request_report_totals_insert",
    "DROP TRIGGER payment_request_report_totals_update",
    "DROP TRIGGER payment_request_report_totals_delete",
];
const SUPERSEDED_POSTGRES: [&str; 2] =
    ["DROP TRIGGER payment_request_report_totals ON payment_requests", "DROP FUNCTION payment_request_report_totals_apply()"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        let backend = m.get_database_backend();
        for kept in &KEPT {
            m.create_table(kept.create()).await?;
            db.execute_unprepared(&kept.backfill(backend)).await?;
            let triggers = match backend {
                DatabaseBackend::Postgres => kept.postgres(),
                _ => kept.sqlite(),
            };
            for sql in triggers {
                db.execute_unprepared(&sql).await?;
            }
        }
        let superseded: &[&str] = match backend {
            DatabaseBackend::Postgres => &SUPERSEDED_POSTGRES,
            _ => &SUPERSEDED_SQLITE,
        };
        for sql in superseded {
            db.execute_unprepared(sql).await?;
        }
        m.drop_table(Table::drop().table(Alias::new("payment_request_report_totals")).to_owned()).await
    }
}

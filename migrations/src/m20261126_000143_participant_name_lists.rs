//! Each participant's names of its programs and reference links ("A; B", sorted, NULL for
//! none) kept on its row by triggers, so no write path can forget them (as 000031). The
//! participants report printed them with five correlated subqueries per row: 2 s of SQLite
//! for a 100,000-row export (docs/benchmarks.md); now it reads one row per participant.
//! A list changes with its link rows and with a rename of a name it holds.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

struct List {
    /// The column on `participants`.
    column: &'static str,
    /// The link table, its column naming the referenced row, and that row's table.
    link: &'static str,
    reference: &'static str,
    names: &'static str,
    /// Whether links are soft-deleted (participations): only live ones count.
    soft_deleted: bool,
}

const LISTS: [List; 5] = [
    List { column: "program_names", link: "participations", reference: "mentor_program_id", names: "mentor_programs", soft_deleted: true },
    List { column: "workplace_setting_names", link: "participant_workplace_settings", reference: "workplace_setting_id", names: "workplace_settings", soft_deleted: false },
    List { column: "language_names", link: "participant_languages", reference: "language_id", names: "languages", soft_deleted: false },
    List { column: "education_level_names", link: "participant_education_levels", reference: "education_level_id", names: "education_levels", soft_deleted: false },
    List { column: "permit_level_names", link: "participant_permit_levels", reference: "permit_level_id", names: "permit_levels", soft_deleted: false },
];

impl List {
    /// The sorted distinct names of participant `id` (an expression), as the report printed them.
    fn names_of(&self, backend: DatabaseBackend, id: &str) -> String {
        let live = if self.soft_deleted { " AND x.deleted_at IS NULL" } else { "" };
        let from = format!("{} x JOIN {} n ON n.id = x.{} WHERE x.participant_id = {id}{live}", self.link, self.names, self.reference);
        match backend {
            DatabaseBackend::Postgres => format!("(SELECT string_agg(DISTINCT n.name, '; ' ORDER BY n.name) FROM {from})"),
            _ => format!("(SELECT group_concat(name, '; ') FROM (SELECT DISTINCT n.name AS name FROM {from} ORDER BY n.name))"),
        }
    }

    fn refresh(&self, backend: DatabaseBackend, id: &str) -> String {
        format!("UPDATE participants SET {} = {} WHERE id = {id};", self.column, self.names_of(backend, id))
    }

    /// Every participant linked to the renamed row NEW.
    fn refresh_renamed(&self, backend: DatabaseBackend) -> String {
        format!(
            "UPDATE participants SET {} = {} WHERE id IN (SELECT participant_id FROM {} WHERE {} = NEW.id);",
            self.column,
            self.names_of(backend, "participants.id"),
            self.link,
            self.reference
        )
    }

    /// The link columns whose change moves a name.
    fn watched(&self) -> String {
        let mut columns = vec!["participant_id", self.reference];
        if self.soft_deleted {
            columns.push("deleted_at");
        }
        columns.join(", ")
    }

    fn sqlite(&self) -> Vec<String> {
        let (c, link, s) = (self.column, self.link, DatabaseBackend::Sqlite);
        vec![
            format!("CREATE TRIGGER {c}_insert AFTER INSERT ON {link} BEGIN {} END", self.refresh(s, "NEW.participant_id")),
            format!(
                "CREATE TRIGGER {c}_update AFTER UPDATE OF {} ON {link} BEGIN {} {} END",
                self.watched(),
                self.refresh(s, "OLD.participant_id"),
                self.refresh(s, "NEW.participant_id")
            ),
            format!("CREATE TRIGGER {c}_delete AFTER DELETE ON {link} BEGIN {} END", self.refresh(s, "OLD.participant_id")),
            format!("CREATE TRIGGER {c}_rename AFTER UPDATE OF name ON {} BEGIN {} END", self.names, self.refresh_renamed(s)),
        ]
    }

    /// PostgreSQL: the participant row is locked before its list is read again, and each
    /// statement of a function reads a fresh snapshot (READ COMMITTED), so two link changes
    /// at once cannot each miss the other's name.
    fn postgres(&self) -> Vec<String> {
        let (c, link, p) = (self.column, self.link, DatabaseBackend::Postgres);
        let lock = |id: &str| format!("PERFORM 1 FROM participants WHERE id = {id} FOR NO KEY UPDATE;");
        vec![
            format!(
                "CREATE FUNCTION {c}_refresh() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                   IF TG_OP <> 'INSERT' THEN {} {} END IF; \
                   IF TG_OP <> 'DELETE' THEN {} {} END IF; \
                   RETURN NULL; END $$",
                lock("OLD.participant_id"),
                self.refresh(p, "OLD.participant_id"),
                lock("NEW.participant_id"),
                self.refresh(p, "NEW.participant_id"),
            ),
            format!(
                "CREATE TRIGGER {c}_refresh AFTER INSERT OR DELETE OR UPDATE OF {} ON {link} FOR EACH ROW EXECUTE FUNCTION {c}_refresh()",
                self.watched()
            ),
            format!("CREATE FUNCTION {c}_rename() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {} RETURN NULL; END $$", self.refresh_renamed(p)),
            format!(
                "CREATE TRIGGER {c}_rename AFTER UPDATE OF name ON {} FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION {c}_rename()",
                self.names
            ),
        ]
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        let backend = m.get_database_backend();
        for list in &LISTS {
            m.alter_table(Table::alter().table(Alias::new("participants")).add_column(ColumnDef::new(Alias::new(list.column)).text().null()).to_owned())
                .await?;
            db.execute_unprepared(&format!("UPDATE participants SET {} = {}", list.column, list.names_of(backend, "participants.id"))).await?;
            let statements = match backend {
                DatabaseBackend::Postgres => list.postgres(),
                _ => list.sqlite(),
            };
            for sql in statements {
                db.execute_unprepared(&sql).await?;
            }
        }
        Ok(())
    }
}

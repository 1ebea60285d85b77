//! Index pinning: SQLite keeps no planner statistics, so for a few statement shapes it picks a
//! worse index than the one that holds exactly the rows asked for. The caller names that index
//! (a `PageIndex`); on SQLite it is written into the generated SQL with `INDEXED BY`, on
//! PostgreSQL (which plans from statistics) the statement runs as sea-orm built it.

use sea_orm::{
    ConnectionTrait, DbBackend, DbErr, EntityTrait, FromQueryResult, QueryTrait, Select,
};

/// The index SQLite must walk for a page's inner id select, the first
/// `IN (SELECT "table"."id" FROM "table"` of the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageIndex {
    pub table: &'static str,
    pub index: &'static str,
}

impl PageIndex {
    /// `sql` with `INDEXED BY` after the inner id select's table; unchanged if the shape is
    /// not found (the same rows, the planner's own plan).
    fn pinned(self, sql: &str) -> String {
        let inner = format!(r#"IN (SELECT "{t}"."id" FROM "{t}""#, t = self.table);
        match sql.find(&inner) {
            Some(at) => {
                let (head, tail) = sql.split_at(at + inner.len());
                format!(r#"{head} INDEXED BY "{}"{tail}"#, self.index)
            }
            None => sql.to_owned(),
        }
    }
}

/// The rows of `select` as `M`, on SQLite through `index` when one is given.
pub async fn all<E, M>(
    db: &impl ConnectionTrait,
    select: Select<E>,
    index: Option<PageIndex>,
) -> Result<Vec<M>, DbErr>
where
    E: EntityTrait,
    M: FromQueryResult,
{
    match index {
        Some(index) if db.get_database_backend() == DbBackend::Sqlite => {
            let mut stmt = select.build(DbBackend::Sqlite);
            stmt.sql = index.pinned(&stmt.sql);
            E::find().from_raw_sql(stmt).into_model::<M>().all(db).await
        }
        _ => select.into_model::<M>().all(db).await,
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{ColumnTrait, QueryFilter, QuerySelect};

    use super::*;
    use crate::entities::payment_request as pr;

    #[test]
    fn the_pin_lands_on_the_inner_id_select() {
        // The shape of a list page: ids chosen by the filter, then their rows.
        let ids = pr::Entity::find()
            .select_only()
            .column(pr::Column::Id)
            .filter(pr::Column::MentorProgramId.eq(3))
            .limit(25)
            .into_query();
        let sql =
            pr::Entity::find().filter(pr::Column::Id.in_subquery(ids)).build(DbBackend::Sqlite).sql;
        let index =
            PageIndex { table: "payment_requests", index: "ix_payment_requests_program_queue" };
        let pinned = index.pinned(&sql);
        assert_eq!(pinned.matches("INDEXED BY").count(), 1, "{pinned}");
        assert!(
            pinned.contains(r#"IN (SELECT "payment_requests"."id" FROM "payment_requests" INDEXED BY "ix_payment_requests_program_queue" WHERE"#),
            "{pinned}"
        );
        assert_eq!(index.pinned("SELECT 1"), "SELECT 1");
    }
}

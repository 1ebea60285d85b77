//! The trail as a file (`GET /audit-log/retrieve`): the list's rows and filters, every
//! entry at once, through the shared export writers; each entry in the screen's words.

use actix_web::HttpResponse;
use sea_orm::DatabaseConnection;

use super::{dto::AuditQuery, queries, words};
use crate::reports::export::{respond, Cell, Column, Format, Kind, Meta, Row, Rows};
use crate::reports::query::generated_by;
use crate::{auth::CurrentUser, entities::audit_log, error::ApiResult};

/// Entries read, and their records named, at a time: memory stays flat however long the
/// trail is, and the names cost a few queries per batch.
const BATCH: u64 = 500;

/// Every entry the filters select, newest first, as a file in `format` (streamed), its
/// times in the caller's local time.
pub async fn file(
    db: &DatabaseConnection,
    me: &CurrentUser,
    q: &AuditQuery,
    format: Format,
    minutes_offset: i32,
) -> ApiResult<HttpResponse> {
    let meta = Meta {
        file_stem: "audit-log".into(),
        title: "Audit trail".into(),
        filters: filters_in_words(db, q).await?,
        generated_by: generated_by(me),
        generated_at: crate::clock::now(),
        minutes_offset,
    };
    let (tx, rows) = Rows::channel();
    let (db, q) = (db.clone(), q.clone());
    actix_web::rt::spawn(async move {
        let mut before = None;
        loop {
            let read = match queries::older(&db, &q, before, BATCH).await {
                Ok(entries) => words::names(&db, &entries).await.map(|n| (entries, n)),
                Err(e) => Err(e),
            };
            let (entries, names) = match read {
                Ok(read) => read,
                Err(e) => {
                    let _ = tx.send(Err(e)).await;
                    return;
                }
            };
            let full = entries.len() as u64 == BATCH;
            before = entries.last().map(|e| e.id);
            for e in entries {
                // The receiver is gone when the client went away: stop reading.
                if tx.send(Ok(row(e, &names))).await.is_err() {
                    return;
                }
            }
            if !full {
                return;
            }
        }
    });
    Ok(respond(format, meta, columns(), rows, None))
}

pub fn columns() -> Vec<Column> {
    vec![
        Column::new("id", "Entry", Kind::Int),
        Column::new("at", "When", Kind::Timestamp),
        Column::new("actor", "Who", Kind::Text),
        Column::new("ip", "From address", Kind::Text),
        Column::new("record", "Record", Kind::Text),
        Column::new("action", "What happened", Kind::Text),
        Column::new("changes", "Changes", Kind::Text),
    ]
}

/// One entry as a row of the file, in the words the screen shows.
pub fn row(e: audit_log::Model, names: &words::Names) -> Row {
    let parse = |t: &Option<String>| t.as_deref().and_then(|t| serde_json::from_str(t).ok());
    let changes = names.changes(&parse(&e.before), &parse(&e.after));
    let actor = match (e.actor_name.filter(|n| !n.is_empty()), e.actor_email) {
        (Some(name), Some(email)) => Some(format!("{name} <{email}>")),
        (name, email) => name.or(email),
    };
    vec![
        Cell::Int(e.id.into()),
        Cell::Timestamp(e.at),
        Cell::text(actor),
        Cell::text(e.ip),
        Cell::Text(names.record(&e.entity_type, e.entity_id)),
        Cell::Text(words::label(&e.action)),
        Cell::Text(words::lines(&changes)),
    ]
}

/// The filters of a file in words, for its heading: the record by its name, the user by hers,
/// the action and the days as the entries say them.
async fn filters_in_words(
    db: &DatabaseConnection,
    q: &AuditQuery,
) -> ApiResult<Vec<(String, String)>> {
    let record = q.entity_type.as_deref().map(|t| (t, q.entity_id));
    let names = words::of_filters(db, record, q.actor_id).await?;
    let mut out = Vec::new();
    let mut add = |label: &str, value: Option<String>| {
        if let Some(v) = value {
            out.push((label.to_owned(), v));
        }
    };
    add("Record", record.map(|(t, id)| names.record(t, id)));
    if record.is_none() {
        add("Record", q.entity_id.map(|id| format!("#{id}")));
    }
    add("Who", q.actor_id.map(|id| names.user(id)));
    add("What happened", q.action.as_deref().map(words::label));
    add("From", q.from.map(crate::text::day));
    add("To", q.to.map(crate::text::day));
    Ok(out)
}

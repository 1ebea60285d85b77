//! The trail as a file (`GET /audit-log/retrieve`): the list's rows and filters, every
//! entry at once, through the shared export writers; each change written out in words.

use actix_web::HttpResponse;
use sea_orm::DatabaseConnection;
use serde_json::Value;

use super::{dto::AuditQuery, queries};
use crate::reports::export::{respond, Cell, Column, Format, Kind, Meta, Row, Rows};
use crate::reports::query::generated_by;
use crate::{auth::CurrentUser, entities::audit_log, error::ApiResult};

/// Every entry the filters select, newest first, as a file in `format` (streamed), its
/// times in the caller's local time.
pub fn file(
    db: &DatabaseConnection,
    me: &CurrentUser,
    q: &AuditQuery,
    format: Format,
    minutes_offset: i32,
) -> HttpResponse {
    let meta = Meta {
        file_stem: "audit-log".into(),
        title: "Audit trail".into(),
        filters: filters_in_words(q),
        generated_by: generated_by(me),
        generated_at: crate::clock::now(),
        minutes_offset,
    };
    let rows = Rows::from_query(db.clone(), queries::all(q), |r| entry_of(r).map(row));
    respond(format, meta, columns(), rows, None)
}

pub fn columns() -> Vec<Column> {
    vec![
        Column::new("id", "Entry", Kind::Int),
        Column::new("at", "When", Kind::Timestamp),
        Column::new("actor", "Who", Kind::Text),
        Column::new("ip", "From address", Kind::Text),
        Column::new("entityType", "Record", Kind::Text),
        Column::new("entityId", "Record id", Kind::Int),
        Column::new("action", "What happened", Kind::Text),
        Column::new("changes", "Changes", Kind::Text),
    ]
}

/// One entry as a row of the file.
pub fn row(e: audit_log::Model) -> Row {
    let parse =
        |t: Option<String>| -> Option<Value> { t.and_then(|t| serde_json::from_str(&t).ok()) };
    let actor = match (e.actor_name.filter(|n| !n.is_empty()), e.actor_email) {
        (Some(name), Some(email)) => Some(format!("{name} <{email}>")),
        (name, email) => name.or(email),
    };
    vec![
        Cell::Int(e.id.into()),
        Cell::Timestamp(e.at),
        Cell::text(actor),
        Cell::text(e.ip),
        Cell::Text(e.entity_type),
        Cell::int(e.entity_id),
        Cell::Text(e.action),
        Cell::Text(changes_in_words(&parse(e.before), &parse(e.after))),
    ]
}

/// A field's name as a reader reads it: `firstName` → "First name", `fiscalYearId` →
/// "Fiscal year", `languageIds` → "Languages" (as the screen names them).
pub fn label(name: &str) -> String {
    let bare = match (name.strip_suffix("Ids"), name.strip_suffix("Id")) {
        (Some(stem), _) if !stem.is_empty() => format!("{stem}s"),
        (_, Some(stem)) if !stem.is_empty() => stem.to_owned(),
        _ => name.to_owned(),
    };
    let mut words = String::new();
    let mut previous: Option<char> = None;
    for c in bare.chars() {
        match c {
            '_' | '-' => words.push(' '),
            c if c.is_uppercase()
                && previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()) =>
            {
                words.push(' ');
                words.extend(c.to_lowercase());
            }
            c => words.extend(c.to_lowercase()),
        }
        previous = Some(c);
    }
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// A value as a reader reads it: text as it is, nothing as a dash, a list by commas.
fn word(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "—".to_owned(),
        Some(Value::String(s)) if s.is_empty() => "—".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) if items.is_empty() => "—".to_owned(),
        Some(Value::Array(items)) => {
            items.iter().map(|i| word(Some(i))).collect::<Vec<_>>().join(", ")
        }
        Some(other) => other.to_string(),
    }
}

/// The fields an entry changed, one line each: `Field: before → after`. A creation's
/// fields read `field: value`, as do a deletion's (it says what was removed).
pub fn changes_in_words(before: &Option<Value>, after: &Option<Value>) -> String {
    let fields = |v: &Option<Value>| match v {
        Some(Value::Object(map)) => Some(map.clone()),
        _ => None,
    };
    match (fields(before), fields(after)) {
        (Some(b), Some(a)) => {
            let names = b.keys().chain(a.keys().filter(|k| !b.contains_key(*k)));
            names
                .map(|k| format!("{}: {} → {}", label(k), word(b.get(k)), word(a.get(k))))
                .collect::<Vec<_>>()
                .join("\n")
        }
        (None, Some(only)) | (Some(only), None) => only
            .iter()
            .map(|(k, v)| format!("{}: {}", label(k), word(Some(v))))
            .collect::<Vec<_>>()
            .join("\n"),
        (None, None) => String::new(),
    }
}

/// The filters of an export, in words, for its heading.
pub fn filters_in_words(q: &AuditQuery) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |label: &str, value: Option<String>| {
        if let Some(v) = value {
            out.push((label.to_owned(), v));
        }
    };
    add("Record", q.entity_type.clone());
    add("Record id", q.entity_id.map(|id| id.to_string()));
    add("User id", q.actor_id.map(|id| id.to_string()));
    add("What happened", q.action.clone());
    add("From", q.from.map(|d| d.to_string()));
    add("To", q.to.map(|d| d.to_string()));
    out
}

/// A result row of the export's statement as an entry.
pub fn entry_of(r: &sea_orm::QueryResult) -> ApiResult<audit_log::Model> {
    use sea_orm::FromQueryResult;
    Ok(audit_log::Model::from_query_result(r, "")?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn changes_read_as_words_one_field_a_line() {
        let before = Some(json!({"phone": "1", "languageIds": [1], "district": null}));
        let after = Some(json!({"phone": "2", "languageIds": [1, 3], "district": 7}));
        assert_eq!(
            changes_in_words(&before, &after),
            "District: — → 7\nLanguages: 1 → 1, 3\nPhone: 1 → 2"
        );
        assert_eq!(changes_in_words(&None, &Some(json!({"name": "Ann"}))), "Name: Ann");
        assert_eq!(changes_in_words(&Some(json!({"amount": 1.5})), &None), "Amount: 1.5");
        assert_eq!(label("fiscalYearId"), "Fiscal year");
        assert_eq!(label("firstName"), "First name");
        assert_eq!(label("id"), "Id");
        assert_eq!(changes_in_words(&None, &None), "");
    }
}

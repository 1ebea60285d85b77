//! An entry in words, as the screen and every file show it: the records its fields and its
//! own id name, read for a page of entries in one query per kind (stored history is never
//! rewritten), statuses and forms by their one label, and each change as before → after.

use std::collections::{HashMap, HashSet};

use sea_orm::{
    sea_query::{Alias, Expr, ExprTrait, Query},
    ConnectionTrait, QueryResult,
};
use serde_json::Value;

use crate::entities::{
    audit_log,
    codes::{FormType, ParticipantRole, ParticipantStatus, Status},
};
use crate::error::ApiResult;

/// What an id names, and so where its name is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// A table of the reference shape (`id, name, code`), or fiscal years (no code).
    Table(&'static str),
    Participant,
    Participation,
    User,
    Role,
    Request,
    VendorPayment,
}

/// A reference list by its key (`fund`, `expenseAccount`): the one table of lists.
fn list(key: &str) -> Option<Kind> {
    crate::reference::lists::LISTS
        .iter()
        .find(|l| l.key == key)
        .and_then(|l| l.table())
        .map(Kind::Table)
}

/// The kind a record type or a field's stem names (`fundId` → `fund`).
fn kind_of(stem: &str) -> Option<Kind> {
    Some(match stem {
        "participant" => Kind::Participant,
        "participation" => Kind::Participation,
        "user" | "standInUser" | "identityUser" => Kind::User,
        "role" => Kind::Role,
        "request" | "paymentRequest" | "payment_request" => Kind::Request,
        "vendorPaymentReport" | "vendor-payment" => Kind::VendorPayment,
        "fiscalYear" | "sourceFiscalYear" | "fiscal-year" => Kind::Table("fiscal_years"),
        other => return list(other),
    })
}

/// A field that names records: its kind, or files (named by their ids, which are text).
enum Named {
    Records(Kind),
    Files,
}

fn named_by(field: &str) -> Option<Named> {
    if matches!(field, "fileId" | "fileIds") {
        return Some(Named::Files);
    }
    let stem = field.strip_suffix("Ids").or_else(|| field.strip_suffix("Id"))?;
    kind_of(stem).map(Named::Records)
}

/// The names of the records a page of entries names.
#[derive(Debug, Default)]
pub struct Names {
    records: HashMap<(Kind, i32), String>,
    files: HashMap<String, String>,
}

#[derive(Default)]
struct Wanted {
    records: HashMap<Kind, HashSet<i32>>,
    files: HashSet<String>,
}

impl Wanted {
    fn record(&mut self, entity_type: &str, id: Option<i32>) {
        if let (Some(kind), Some(id)) = (kind_of(entity_type), id) {
            self.records.entry(kind).or_default().insert(id);
        }
    }

    fn value(&mut self, field: &str, v: &Value) {
        match (named_by(field), v) {
            (Some(Named::Records(k)), Value::Number(_) | Value::Array(_)) => {
                let ids = self.records.entry(k).or_default();
                for n in std::iter::once(v).chain(v.as_array().into_iter().flatten()) {
                    ids.extend(n.as_i64().and_then(|n| i32::try_from(n).ok()));
                }
            }
            (Some(Named::Files), Value::String(id)) => {
                self.files.insert(id.clone());
            }
            (Some(Named::Files), Value::Array(ids)) => {
                self.files.extend(ids.iter().filter_map(|i| i.as_str().map(str::to_owned)));
            }
            (_, Value::Object(map)) => map.iter().for_each(|(k, v)| self.value(k, v)),
            (_, Value::Array(items)) => items.iter().for_each(|i| self.value(field, i)),
            _ => {}
        }
    }
}

fn parse(t: &Option<String>) -> Option<Value> {
    t.as_deref().and_then(|t| serde_json::from_str(t).ok())
}

fn a(s: &str) -> Alias {
    Alias::new(s)
}

/// `(id, words)` of `ids` in `table`: `columns` read, `words` made of a row.
async fn read(
    db: &impl ConnectionTrait,
    table: &str,
    columns: &[&str],
    ids: Vec<sea_orm::Value>,
) -> ApiResult<Vec<QueryResult>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = Query::select();
    q.from(a(table)).column(a("id")).columns(columns.iter().map(|c| a(c)));
    q.and_where(Expr::col(a("id")).is_in(ids));
    Ok(db.query_all(&q).await?)
}

fn text(r: &QueryResult, column: &str) -> String {
    r.try_get::<Option<String>>("", column).ok().flatten().unwrap_or_default()
}

/// Reads the names of every record `entries` name, in one query per kind (participations
/// first: they name their participant and program).
pub async fn names(db: &impl ConnectionTrait, entries: &[audit_log::Model]) -> ApiResult<Names> {
    let mut wanted = Wanted::default();
    for e in entries {
        wanted.record(&e.entity_type, e.entity_id);
        for side in [parse(&e.before), parse(&e.after)].into_iter().flatten() {
            wanted.value("", &side);
        }
    }
    resolve(db, wanted).await
}

/// The names a list's or file's filters call for: the record filtered on and the user.
pub async fn of_filters(
    db: &impl ConnectionTrait,
    record: Option<(&str, Option<i32>)>,
    user: Option<i32>,
) -> ApiResult<Names> {
    let mut wanted = Wanted::default();
    if let Some((entity_type, id)) = record {
        wanted.record(entity_type, id);
    }
    wanted.record("user", user);
    resolve(db, wanted).await
}

async fn resolve(db: &impl ConnectionTrait, mut wanted: Wanted) -> ApiResult<Names> {
    let ints = |ids: Option<HashSet<i32>>| -> Vec<sea_orm::Value> {
        ids.unwrap_or_default().into_iter().map(Into::into).collect()
    };
    let mut names = Names::default();
    let participations = wanted.records.remove(&Kind::Participation);
    let mut links = Vec::new();
    let columns = ["participant_id", "mentor_program_id"];
    for r in read(db, "participations", &columns, ints(participations)).await? {
        let id = |c: &str| r.try_get::<i32>("", c).ok();
        if let (Some(id), Some(p), Some(m)) = (id("id"), id(columns[0]), id(columns[1])) {
            wanted.records.entry(Kind::Participant).or_default().insert(p);
            wanted.records.entry(Kind::Table("mentor_programs")).or_default().insert(m);
            links.push((id, p, m));
        }
    }
    for (kind, ids) in std::mem::take(&mut wanted.records) {
        let (table, columns): (&str, &[&str]) = match kind {
            Kind::Table("fiscal_years") => ("fiscal_years", &["name"]),
            Kind::Table(t) => (t, &["name", "code"]),
            Kind::Participant => ("participants", &["full_name"]),
            Kind::User => ("users", &["first_name", "last_name"]),
            Kind::Role => ("roles", &["name"]),
            Kind::Request => ("payment_requests", &["form_type"]),
            Kind::Participation | Kind::VendorPayment => continue,
        };
        for r in read(db, table, columns, ints(Some(ids))).await? {
            let Ok(id) = r.try_get::<i32>("", "id") else { continue };
            let words = match kind {
                Kind::Table(_) => {
                    let (name, code) = (text(&r, "name"), text(&r, "code"));
                    if code.is_empty() || code == name {
                        name
                    } else {
                        format!("{code} {name}")
                    }
                }
                Kind::User => format!("{} {}", text(&r, "first_name"), text(&r, "last_name")),
                Kind::Request => crate::text::request_ref(&text(&r, "form_type"), id.into()),
                _ => text(&r, columns[0]),
            };
            names.records.insert((kind, id), words.trim().to_owned());
        }
    }
    for (id, p, m) in links {
        let of = |k: Kind, i: i32| names.records.get(&(k, i)).cloned().unwrap_or_default();
        let words =
            format!("{}, {}", of(Kind::Participant, p), of(Kind::Table("mentor_programs"), m));
        names.records.insert((Kind::Participation, id), words);
    }
    let files = wanted.files.into_iter().map(Into::into).collect();
    for r in read(db, "uploaded_files", &["file_name"], files).await? {
        names.files.insert(text(&r, "id"), text(&r, "file_name"));
    }
    Ok(names)
}

/// One changed field in words; `before` absent on a creation, `after` on a deletion.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct FieldChange {
    /// The field's name as the entry keeps it (`fundId`).
    pub field: String,
    /// The field in words ("Fund").
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// A field's name as a reader reads it: `firstName` → "First name", `fiscalYearId` →
/// "Fiscal year", `languageIds` → "Languages", `payment_request` → "Payment request".
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

/// A code in words where the field holds one of the closed sets.
fn code_words(field: &str, code: &str) -> Option<String> {
    match field {
        "status" | "fromStatus" | "toStatus" => Status::parse(code)
            .map(|s| s.label())
            .or_else(|| ParticipantStatus::parse(code).map(|s| s.label()))
            .map(str::to_owned),
        "role" | "roleCode" => ParticipantRole::parse(code).map(|r| r.label().to_owned()),
        "formType" | "paymentRequestType" => FormType::parse(code).map(|f| f.name().to_owned()),
        _ => None,
    }
}

impl Names {
    /// The record an entry is about: "Payment request F2 #601", "Fund 1000 General fund",
    /// "Participant Ada Lovelace"; a record no longer there reads "… #4 (removed)".
    pub fn record(&self, entity_type: &str, id: Option<i32>) -> String {
        let kind = label(entity_type);
        let Some(id) = id else { return kind };
        match kind_of(entity_type) {
            Some(Kind::VendorPayment) | None => format!("{kind} #{id}"),
            Some(k) => format!("{kind} {}", self.of(k, id)),
        }
    }

    /// A user by her name.
    pub fn user(&self, id: i32) -> String {
        self.of(Kind::User, id)
    }

    fn of(&self, kind: Kind, id: i32) -> String {
        self.records.get(&(kind, id)).cloned().unwrap_or_else(|| format!("#{id} (removed)"))
    }

    /// A value as a reader reads it: nothing as a dash, yes/no, records and files by their
    /// names, codes and days in words, lists by commas, nested records as "Field: value".
    pub fn value(&self, field: &str, v: &Value) -> String {
        let named = named_by(field);
        match (v, &named) {
            (Value::Null, _) => "—".to_owned(),
            (Value::String(s), _) if s.is_empty() => "—".to_owned(),
            (Value::Array(items), _) if items.is_empty() => "—".to_owned(),
            (Value::Bool(b), _) => if *b { "Yes" } else { "No" }.to_owned(),
            (Value::Number(n), Some(Named::Records(k))) => match n.as_i64() {
                Some(id) if *k == Kind::VendorPayment => format!("Vendor payment #{id}"),
                Some(id) => i32::try_from(id).map_or_else(|_| n.to_string(), |id| self.of(*k, id)),
                None => n.to_string(),
            },
            (Value::String(id), Some(Named::Files)) => {
                self.files.get(id).cloned().unwrap_or_else(|| "a removed file".to_owned())
            }
            (Value::String(s), _) => code_words(field, s).unwrap_or_else(|| day(s)),
            (Value::Array(items), _) => {
                let joiner = if items[0].is_object() { "; " } else { ", " };
                items.iter().map(|i| self.value(field, i)).collect::<Vec<_>>().join(joiner)
            }
            (Value::Object(map), _) => map
                .iter()
                .map(|(k, v)| format!("{}: {}", label(k), self.value(k, v)))
                .collect::<Vec<_>>()
                .join(", "),
            (Value::Number(n), _) => n.to_string(),
        }
    }

    /// The fields an entry changed, in the order the trail keeps them, each before → after.
    pub fn changes(&self, before: &Option<Value>, after: &Option<Value>) -> Vec<FieldChange> {
        let fields = |v: &Option<Value>| match v {
            Some(Value::Object(map)) => Some(map.clone()),
            _ => None,
        };
        let (b, a) = (fields(before), fields(after));
        let empty = serde_json::Map::new();
        let (bk, ak) = (b.as_ref().unwrap_or(&empty), a.as_ref().unwrap_or(&empty));
        let names = bk.keys().chain(ak.keys().filter(|k| !bk.contains_key(*k)));
        let side = |m: &Option<serde_json::Map<String, Value>>, k: &str| {
            m.as_ref().map(|m| self.value(k, m.get(k).unwrap_or(&Value::Null)))
        };
        names
            .map(|k| FieldChange {
                field: k.clone(),
                label: label(k),
                before: side(&b, k),
                after: side(&a, k),
            })
            .collect()
    }
}

/// A calendar day as the screens show it ("Nov 3, 2025"); any other text as it is.
fn day(s: &str) -> String {
    match chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        Ok(d) if s.len() == 10 => crate::text::day(d),
        _ => s.to_owned(),
    }
}

/// The changes as the files write them: one line each, `Field: before → after`, or
/// `Field: value` for a creation's or a deletion's fields.
pub fn lines(changes: &[FieldChange]) -> String {
    changes
        .iter()
        .map(|c| match (&c.before, &c.after) {
            (Some(b), Some(a)) => format!("{}: {b} → {a}", c.label),
            (Some(v), None) | (None, Some(v)) => format!("{}: {v}", c.label),
            (None, None) => c.label.clone(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names() -> Names {
        let mut n = Names::default();
        n.records.insert((Kind::Table("funds"), 4), "General fund".into());
        n.records.insert((Kind::Table("expense_accounts"), 2), "5110 Travel".into());
        n.records.insert((Kind::Table("languages"), 1), "English".into());
        n.records.insert((Kind::Request, 601), "F2 #601".into());
        n.files.insert("0b7e".into(), "receipt.pdf".into());
        n
    }

    #[test]
    fn changes_read_as_words_one_field_a_line() {
        let n = names();
        let before = Some(json!({"fundId": null, "languageIds": [1], "status": "Submitted"}));
        let after =
            Some(json!({"fundId": 4, "languageIds": [1, 7], "status": "ReadyForProcessing"}));
        assert_eq!(
            lines(&n.changes(&before, &after)),
            "Fund: — → General fund\nLanguages: English → English, #7 (removed)\n\
             Status: Submitted → Ready for processing"
        );
        let after = Some(
            json!({"expenseAccountId": 2, "fileIds": ["0b7e"], "activityStart": "2025-11-03", "isActive": true, "formType": "F1"}),
        );
        assert_eq!(
            lines(&n.changes(&None, &after)),
            "Activity start: Nov 3, 2025\nExpense account: 5110 Travel\nFiles: receipt.pdf\nForm type: Placement stipend\nIs active: Yes"
        );
        assert_eq!(lines(&n.changes(&Some(json!({"amount": 1.5})), &None)), "Amount: 1.5");
        assert_eq!(
            n.value("items", &json!([{"fundId": 4}, {"fundId": 9}])),
            "Fund: General fund; Fund: #9 (removed)"
        );
        assert_eq!(lines(&n.changes(&None, &None)), "");
    }

    #[test]
    fn records_and_fields_are_named_in_words() {
        let n = names();
        assert_eq!(n.record("payment_request", Some(601)), "Payment request F2 #601");
        assert_eq!(n.record("fund", Some(4)), "Fund General fund");
        assert_eq!(n.record("participant", Some(3)), "Participant #3 (removed)");
        assert_eq!(n.record("vendor-payment", Some(2)), "Vendor payment #2");
        assert_eq!(n.record("setting", None), "Setting");
        assert_eq!(label("fiscalYearId"), "Fiscal year");
        assert_eq!(label("firstName"), "First name");
        assert_eq!(label("sign-in-failed"), "Sign in failed");
    }
}

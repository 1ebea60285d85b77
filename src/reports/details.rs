//! A form's `details` as report columns, read from the one place the forms are defined
//! (`forms`): the field list and types come from each details struct's
//! OpenAPI schema (required fields in declared order, then the optional ones), values
//! from the stored details. Reference ids print the item's name; lists print one line
//! per entry.

use std::collections::HashMap;

use sea_orm::ConnectionTrait;
use utoipa::openapi::{schema::SchemaType, RefOr, Schema, Type};

use super::{
    export::{Cell, Column, Kind},
    query::names_by_id,
};
use crate::{
    error::ApiResult,
    forms::{Details, FormType, Reference},
    money::{format_hundredths, parse_hundredths},
    text::day,
};

/// What a details field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Money,
    /// Hours, miles, units: two decimals.
    Quantity,
    Date,
    Int,
    /// An id into a reference list: printed as the item's name.
    Reference,
    Text,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub key: String,
    pub kind: FieldKind,
}

fn kind_of(key: &str, schema: &RefOr<Schema>) -> FieldKind {
    match schema {
        RefOr::Ref(r) if r.ref_location.ends_with("/Money") => FieldKind::Money,
        RefOr::Ref(r) if r.ref_location.ends_with("/Hundredths") => FieldKind::Quantity,
        RefOr::Ref(_) => FieldKind::Text,
        RefOr::T(Schema::OneOf(one)) => one
            .items
            .iter()
            .map(|s| kind_of(key, s))
            .find(|k| *k != FieldKind::Text)
            .unwrap_or(FieldKind::Text),
        RefOr::T(Schema::Object(o)) => {
            let ty = match &o.schema_type {
                SchemaType::Type(t) => Some(t.clone()),
                SchemaType::Array(ts) => ts.iter().find(|t| **t != Type::Null).cloned(),
                SchemaType::AnyValue => None,
            };
            let is_date = matches!(
                &o.format,
                Some(utoipa::openapi::SchemaFormat::KnownFormat(
                    utoipa::openapi::KnownFormat::Date
                ))
            );
            match ty {
                Some(Type::String) if is_date => FieldKind::Date,
                Some(Type::Integer) if key.ends_with("Id") => FieldKind::Reference,
                Some(Type::Integer) => FieldKind::Int,
                Some(Type::Number) => FieldKind::Quantity,
                _ => FieldKind::Text,
            }
        }
        RefOr::T(_) => FieldKind::Text,
    }
}

/// The details fields of `form`: required ones in declared order, then the others.
pub fn fields(form: FormType) -> Vec<Field> {
    let RefOr::T(Schema::Object(o)) = form.details_schema() else { return vec![] };
    let mut keys: Vec<String> = o.required.clone();
    keys.extend(o.properties.keys().filter(|k| !o.required.contains(k)).cloned());
    keys.into_iter()
        .filter_map(|key| {
            let kind = kind_of(&key, o.properties.get(&key)?);
            Some(Field { key, kind })
        })
        .collect()
}

/// The details field that lists a request's receipts: files print their names under "Receipts".
pub const RECEIPTS: &str = "fileIds";

/// Whether `form` keeps receipts (its files print their names).
pub fn has_receipts(form: FormType) -> bool {
    fields(form).iter().any(|f| f.key == RECEIPTS)
}

/// `placementStartDate` -> "Placement start date"; a reference id loses its "Id"; the
/// receipts' ids are "Receipts" (their names are printed).
pub fn header(field: &Field) -> String {
    if field.key == RECEIPTS {
        return "Receipts".to_owned();
    }
    let key = if field.kind == FieldKind::Reference {
        field.key.trim_end_matches("Id")
    } else {
        &field.key
    };
    let mut out = String::new();
    for (i, c) in key.chars().enumerate() {
        if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else if i == 0 {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn columns(form: FormType) -> Vec<Column> {
    fields(form)
        .iter()
        .map(|f| {
            let kind = match f.kind {
                FieldKind::Money => Kind::Money,
                FieldKind::Quantity => Kind::Number,
                FieldKind::Date => Kind::Date,
                FieldKind::Int => Kind::Int,
                FieldKind::Reference | FieldKind::Text => Kind::Text,
            };
            Column::owned(format!("details.{}", f.key), header(f), kind)
        })
        .collect()
}

/// Names of every reference list a form may point into, and (`with_files`) of the receipts
/// attached to requests, loaded once per export.
pub struct ReferenceNames {
    lists: HashMap<&'static str, HashMap<i32, String>>,
    files: HashMap<String, String>,
}

impl ReferenceNames {
    pub async fn load(db: &impl ConnectionTrait, with_files: bool) -> ApiResult<ReferenceNames> {
        let tables = Reference::ALL.map(Reference::table);
        let lists = tables.into_iter().zip(names_by_id(db, tables).await?).collect();
        let mut files = HashMap::new();
        if with_files {
            use crate::entities::uploaded_file as file;
            use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};
            let rows: Vec<(String, String)> = file::Entity::find()
                .select_only()
                .columns([file::Column::Id, file::Column::FileName])
                .filter(file::Column::PaymentRequestId.is_not_null())
                .filter(file::Column::DeletedAt.is_null())
                .into_tuple()
                .all(db)
                .await?;
            files.extend(rows);
        }
        Ok(ReferenceNames { lists, files })
    }

    /// A receipt by its file name; a file no longer kept reads as such, never as its id.
    fn file(&self, id: &str) -> String {
        self.files.get(id).cloned().unwrap_or_else(|| "(file removed)".to_owned())
    }

    fn name(&self, list: Reference, id: i32) -> String {
        self.lists
            .get(list.table())
            .and_then(|m| m.get(&id))
            .cloned()
            .unwrap_or_else(|| format!("#{id}"))
    }
}

/// The list fields, one line per entry, in words.
fn list_lines(details: &Details, key: &str) -> Option<String> {
    let lines: Vec<String> = match (details, key) {
        (Details::F2(d), "items") => d
            .items
            .iter()
            .map(|i| format!("{} {} {}", day(i.date), i.description, i.amount))
            .collect(),
        (Details::F3(d), "trips") => d
            .trips
            .iter()
            .map(|t| {
                format!(
                    "{} {} to {} {} mi",
                    day(t.date),
                    t.from,
                    t.to,
                    format_hundredths(t.miles.0)
                )
            })
            .collect(),
        (Details::F12(d), "days") => d
            .days
            .iter()
            .map(|m| {
                let meals: Vec<&str> =
                    [(m.breakfast, "breakfast"), (m.lunch, "lunch"), (m.dinner, "dinner")]
                        .into_iter()
                        .filter(|(on, _)| *on)
                        .map(|(_, n)| n)
                        .collect();
                format!("{} {}", day(m.date), meals.join(", "))
            })
            .collect(),
        _ => return None,
    };
    Some(lines.join("\n"))
}

fn plain(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => if *b { "Yes" } else { "No" }.to_owned(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => items.iter().map(plain).collect::<Vec<_>>().join("\n"),
        Value::Object(map) => {
            map.iter().map(|(k, v)| format!("{k} {}", plain(v))).collect::<Vec<_>>().join(", ")
        }
    }
}

/// The details cells of one stored request, in `fields` order.
pub fn cells(
    form: FormType,
    stored: &str,
    fields: &[Field],
    names: &ReferenceNames,
) -> ApiResult<Vec<Cell>> {
    let details = Details::from_stored(form, stored)?;
    let value = serde_json::to_value(&details)
        .map_err(|e| crate::error::ApiError::Internal(format!("details: {e}")))?;
    let references = details.references();
    Ok(fields
        .iter()
        .map(|f| {
            let v = value.get(&f.key).unwrap_or(&serde_json::Value::Null);
            if v.is_null() {
                return Cell::Empty;
            }
            if f.key == RECEIPTS {
                let files: Vec<String> =
                    details.file_ids().iter().map(|id| names.file(id)).collect();
                return if files.is_empty() { Cell::Empty } else { Cell::Text(files.join("\n")) };
            }
            if let Some(lines) = list_lines(&details, &f.key) {
                return Cell::Text(lines);
            }
            match f.kind {
                FieldKind::Money => parse_hundredths(&v.to_string())
                    .map_or_else(|_| Cell::Text(plain(v)), Cell::Money),
                FieldKind::Quantity => {
                    v.as_f64().map_or_else(|| Cell::Text(plain(v)), Cell::Number)
                }
                FieldKind::Date => v
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .map_or_else(|| Cell::Text(plain(v)), Cell::Date),
                FieldKind::Int => v.as_i64().map_or_else(|| Cell::Text(plain(v)), Cell::Int),
                FieldKind::Reference => {
                    match references.iter().find(|(name, _, _)| *name == f.key) {
                        Some((_, list, id)) => Cell::Text(names.name(*list, *id)),
                        None => Cell::Text(plain(v)),
                    }
                }
                FieldKind::Text => Cell::Text(plain(v)),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_from_the_form_definitions() {
        let f1 = fields(FormType::F1);
        let keys: Vec<&str> = f1.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "collegeId",
                "menteeName",
                "courseCode",
                "placementStartDate",
                "placementEndDate",
                "hours"
            ]
        );
        let kinds: Vec<FieldKind> = f1.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            [
                FieldKind::Reference,
                FieldKind::Text,
                FieldKind::Text,
                FieldKind::Date,
                FieldKind::Date,
                FieldKind::Quantity
            ]
        );
        assert_eq!(header(&f1[0]), "College");
        assert_eq!(header(&f1[3]), "Placement start date");
        let f9 = fields(FormType::F9);
        assert_eq!(f9.last().map(|f| (f.key.as_str(), f.kind)), Some(("amount", FieldKind::Money)));
        // Optional fields come last.
        let f3: Vec<String> = fields(FormType::F3).into_iter().map(|f| f.key).collect();
        assert_eq!(f3, ["travelPurposeId", "transitTypeId", "trips", "mileageRate"]);
        for form in FormType::ALL {
            assert!(!fields(form).is_empty(), "{form:?}");
        }
    }

    #[test]
    fn values_print_in_words() {
        let names = ReferenceNames {
            lists: HashMap::from([(
                "colleges",
                HashMap::from([(4, "Foothill College".to_owned())]),
            )]),
            files: HashMap::from([("0b7e".to_owned(), "taxi receipt.pdf".to_owned())]),
        };
        let stored = r#"{"collegeId":4,"menteeName":"=cmd","courseCode":"CD 10","placementStartDate":"2026-01-05","placementEndDate":"2026-03-01","hours":12.5}"#;
        let f1 = cells(FormType::F1, stored, &fields(FormType::F1), &names).unwrap();
        assert_eq!(f1[0], Cell::Text("Foothill College".into()));
        assert_eq!(f1[1], Cell::Text("=cmd".into()));
        assert_eq!(f1[3], Cell::Date("2026-01-05".parse().unwrap()));
        assert_eq!(f1[5], Cell::Number(12.5));
        let f2 = r#"{"items":[{"date":"2026-01-05","description":"Books","amount":12.5},{"date":"2026-01-06","description":"Paper","amount":3}],"fileIds":["0b7e","gone"]}"#;
        let f2_fields = fields(FormType::F2);
        let f2 = cells(FormType::F2, f2, &f2_fields, &names).unwrap();
        assert_eq!(f2[0], Cell::Text("Jan 5, 2026 Books 12.50\nJan 6, 2026 Paper 3.00".into()));
        // Receipts by their names, under "Receipts", never their ids.
        let at = f2_fields.iter().position(|f| f.key == RECEIPTS).unwrap();
        assert_eq!(header(&f2_fields[at]), "Receipts");
        assert_eq!(f2[at], Cell::Text("taxi receipt.pdf\n(file removed)".into()));
        assert!(has_receipts(FormType::F2));
        assert!(!has_receipts(FormType::F1));
    }
}

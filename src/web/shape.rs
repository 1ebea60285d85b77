//! A body checked against the schema the OpenAPI document gives its Rust type, before serde
//! reads it: serde alone takes `[null]` for an object (a struct reads from a list of its
//! fields in order), which the document does not allow.
//!
//! Only where lists and objects may stand is checked here, through `$ref`, properties,
//! items, map values and `oneOf`/`anyOf`/`allOf`: serde refuses a text or a number of the
//! wrong kind itself, in the field's own words, and ranges, lengths and rules stay with the
//! parsers and the rules after them.

use std::{
    any::TypeId,
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
};

use serde_json::{Map, Value};
use utoipa::{openapi::RefOr, ToSchema};

use crate::error::{ApiError, Checks};

/// The documented shape of `T`: its schema and the named schemas it refers to.
pub struct Shape {
    root: Value,
    named: Map<String, Value>,
}

impl Shape {
    /// The shape of `T`, built once per type (a body type's schema does not change).
    pub fn of<T: ToSchema + 'static>() -> Arc<Shape> {
        static BUILT: OnceLock<Mutex<HashMap<TypeId, Arc<Shape>>>> = OnceLock::new();
        let built = BUILT.get_or_init(Mutex::default);
        let mut built = built.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        built.entry(TypeId::of::<T>()).or_insert_with(|| Arc::new(Self::build::<T>())).clone()
    }

    fn build<T: ToSchema>() -> Self {
        let mut deps: Vec<(String, RefOr<utoipa::openapi::schema::Schema>)> = Vec::new();
        T::schemas(&mut deps);
        let named = deps
            .into_iter()
            .filter_map(|(name, schema)| Some((name, serde_json::to_value(schema).ok()?)))
            .collect();
        let root = serde_json::to_value(T::schema()).unwrap_or(Value::Bool(true));
        Self { root, named }
    }

    /// Every value whose kind differs from the document, as a 400 naming its field.
    pub fn check(&self, value: &Value) -> Result<(), ApiError> {
        let mut errors = Checks::default();
        if let Some((path, message)) = self.mismatch(&self.root, value, ".", 0) {
            errors.add(if path == "." { "body".to_owned() } else { path }, message);
        }
        errors.finish()
    }

    /// The first place `value` is not of the kind `schema` documents, with what it must be.
    fn mismatch(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        depth: usize,
    ) -> Option<(String, &'static str)> {
        // Schemas refer to themselves at most through a few levels of a body.
        if depth > 64 {
            return None;
        }
        let Value::Object(schema) = schema else { return None };
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let name = target.rsplit('/').next().unwrap_or_default();
            return self.named.get(name).and_then(|s| self.mismatch(s, value, path, depth + 1));
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(choices)) = schema.get(key) {
                let first = choices.iter().map(|c| self.mismatch(c, value, path, depth + 1));
                let mut misses = Vec::new();
                for miss in first {
                    match miss {
                        None => return None,
                        Some(m) => misses.push(m),
                    }
                }
                // The deepest complaint says most (a field of the right object, not "object").
                return misses.into_iter().max_by_key(|(p, _)| p.len());
            }
        }
        if let Some(Value::Array(parts)) = schema.get("allOf") {
            if let Some(miss) = parts.iter().find_map(|p| self.mismatch(p, value, path, depth + 1))
            {
                return Some(miss);
            }
        }
        if let Some(kinds) = schema.get("type") {
            let allowed = |kind: &str| match kinds {
                Value::String(k) => k == kind,
                Value::Array(ks) => ks.iter().any(|k| k == kind),
                _ => true,
            };
            // A list or an object where the document has none; a text or a number of the
            // wrong kind serde refuses itself, in the field's own words.
            let fits = match value {
                Value::Array(_) => allowed("array"),
                Value::Object(_) => allowed("object"),
                _ => true,
            };
            if !fits {
                return Some((path.to_owned(), kind_message(kinds)));
            }
        }
        match value {
            Value::Object(fields) => {
                let properties = schema.get("properties").and_then(Value::as_object);
                let others = schema.get("additionalProperties");
                fields.iter().find_map(|(key, field)| {
                    let at = join(path, key);
                    match properties.and_then(|p| p.get(key)).or(others) {
                        Some(s) => self.mismatch(s, field, &at, depth + 1),
                        None => None,
                    }
                })
            }
            Value::Array(items) => {
                let item_schema = schema.get("items")?;
                items.iter().enumerate().find_map(|(i, item)| {
                    let at = if path == "." { format!("[{i}]") } else { format!("{path}[{i}]") };
                    self.mismatch(item_schema, item, &at, depth + 1)
                })
            }
            _ => None,
        }
    }
}

fn kind_message(kinds: &Value) -> &'static str {
    let first = match kinds {
        Value::String(k) => k.as_str(),
        Value::Array(ks) => {
            ks.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("")
        }
        _ => "",
    };
    match first {
        "object" => "must be a JSON object",
        "array" => "must be a list",
        "string" => "must be text",
        "integer" => "must be a whole number",
        "number" => "must be a number",
        "boolean" => "must be true or false",
        _ => "is not of the documented type",
    }
}

fn join(path: &str, key: &str) -> String {
    if path == "." {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, ToSchema)]
    #[allow(dead_code)]
    struct Inner {
        count: i32,
        note: Option<String>,
    }

    #[derive(Deserialize, ToSchema)]
    #[allow(dead_code)]
    struct Outer {
        password: Option<String>,
        inner: Option<Inner>,
        items: Vec<Inner>,
    }

    fn field_of(result: Result<(), ApiError>) -> Vec<String> {
        match result {
            Err(ApiError::BadRequest { errors, .. }) => errors.into_keys().collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_list_is_not_an_object() {
        let shape = Shape::of::<Outer>();
        assert_eq!(field_of(shape.check(&serde_json::json!([null]))), ["body"]);
        assert_eq!(field_of(shape.check(&serde_json::json!({"items": [[1, null]]}))), ["items[0]"]);
        assert_eq!(
            field_of(shape.check(&serde_json::json!({"items": [], "inner": [3]}))),
            ["inner"]
        );
    }

    #[test]
    fn documented_kinds_pass() {
        let shape = Shape::of::<Outer>();
        for ok in [
            serde_json::json!({"items": []}),
            serde_json::json!({"password": null, "inner": null, "items": [{"count": 3.0}]}),
            serde_json::json!({"inner": {"count": 1, "note": "x"}, "items": []}),
            // Unknown keys and missing fields are serde's to name.
            serde_json::json!({"other": [1]}),
        ] {
            assert!(shape.check(&ok).is_ok(), "{ok}");
        }
        assert_eq!(
            field_of(shape.check(&serde_json::json!({"items": [{"count": [1]}]}))),
            ["items[0].count"]
        );
    }
}

//! What an entry may hold: the changed fields only, and never a secret.

use serde_json::{Map, Value};

/// Field names that never reach the trail, at any depth: passwords, their hashes, tokens
/// and secrets. Compared without case, `_` or `-`, so `password_hash`, `passwordHash` and
/// `refresh-token` are all caught; a name that merely contains one (`resetTokenSent`) is too.
const SECRET_WORDS: &[&str] = &["password", "hash", "token", "secret"];

fn is_secret(name: &str) -> bool {
    let folded: String =
        name.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    SECRET_WORDS.iter().any(|w| folded.contains(w))
}

/// `v` without any secret field, at any depth.
pub fn without_secrets(v: Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| !is_secret(k))
                .map(|(k, v)| (k, without_secrets(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_secrets).collect()),
        other => other,
    }
}

/// Fields every write moves on its own (a row's version and stamps): not a change anyone made.
const BOOKKEEPING: &[&str] = &["version", "createdAt", "updatedAt", "createdBy", "updatedBy"];

/// The fields that differ between two objects, as (before, after); a field missing on one
/// side is `null` there, and bookkeeping fields are left out. Non-objects are compared
/// whole. Nothing changed: two `null`s.
pub fn changed(before: &Value, after: &Value) -> (Value, Value) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let (mut was, mut is) = (Map::new(), Map::new());
            let keys = b.keys().chain(a.keys().filter(|k| !b.contains_key(*k)));
            for key in keys.filter(|k| !BOOKKEEPING.contains(&k.as_str())) {
                let (old, new) =
                    (b.get(key).unwrap_or(&Value::Null), a.get(key).unwrap_or(&Value::Null));
                if old != new {
                    was.insert(key.clone(), old.clone());
                    is.insert(key.clone(), new.clone());
                }
            }
            if was.is_empty() {
                (Value::Null, Value::Null)
            } else {
                (Value::Object(was), Value::Object(is))
            }
        }
        (b, a) if b == a => (Value::Null, Value::Null),
        (b, a) => (b.clone(), a.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_dropped_at_every_depth() {
        let v = json!({
            "email": "a@example.org",
            "password": "hunter2hunter2",
            "password_hash": "$argon2id$...",
            "passwordHash": "x",
            "refreshToken": "r",
            "Access-Token": "t",
            "jwtSecret": "s",
            "user": {"firstName": "Ann", "token": "t", "items": [{"hash": "h", "kept": 1}]},
        });
        assert_eq!(
            without_secrets(v),
            json!({"email": "a@example.org", "user": {"firstName": "Ann", "items": [{"kept": 1}]}})
        );
    }

    #[test]
    fn only_changed_fields_are_kept() {
        let before = json!({"firstName": "Ann", "phone": "1", "email": "a@x.org", "version": 1});
        let after = json!({"firstName": "Ann", "phone": "2", "address": "Main St", "version": 2});
        assert_eq!(
            changed(&before, &after),
            (
                json!({"phone": "1", "email": "a@x.org", "address": null}),
                json!({"phone": "2", "email": null, "address": "Main St"})
            )
        );
        assert_eq!(changed(&before, &before), (Value::Null, Value::Null));
        assert_eq!(changed(&json!(1), &json!(2)), (json!(1), json!(2)));
    }
}

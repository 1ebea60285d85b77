//! The hash chain, pure: each entry's hash is SHA-256 over the previous entry's hash (hex;
//! empty before the first entry) followed by the canonical JSON of the entry as the API shows
//! it. Canonical: object keys sorted, no whitespace, so the same entry always hashes alike
//! whatever order its fields were built in.

use chrono::SecondsFormat;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use crate::entities::audit_log;

/// The JSON text of `v` with every object's keys sorted.
pub fn canonical(v: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                let mut out = Map::new();
                for k in keys {
                    out.insert(k.clone(), sorted(&map[k]));
                }
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(v).to_string()
}

/// Timestamps as the trail keeps them: UTC, microseconds (what both databases store exactly).
pub fn timestamp(at: &chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// The entry as the API shows it (and as its hash covers it). `None` when its stored
/// before/after text is not JSON: that row was edited outside the application.
pub fn entry_json(e: &audit_log::Model) -> Option<Value> {
    let parse = |text: &Option<String>| match text {
        None => Some(Value::Null),
        Some(t) => serde_json::from_str::<Value>(t).ok(),
    };
    let actor = if e.actor_id.is_none() && e.actor_email.is_none() {
        Value::Null
    } else {
        json!({"id": e.actor_id, "email": e.actor_email, "fullName": e.actor_name})
    };
    Some(json!({
        "id": e.id,
        "at": timestamp(&e.at),
        "actor": actor,
        "ip": e.ip,
        "entityType": e.entity_type,
        "entityId": e.entity_id,
        "action": e.action,
        "before": parse(&e.before)?,
        "after": parse(&e.after)?,
    }))
}

/// The hash `e` must carry when the entry before it carries `previous`.
pub fn hash(previous: &str, e: &audit_log::Model) -> Option<String> {
    let mut digest = Sha256::new();
    digest.update(previous.as_bytes());
    digest.update(canonical(&entry_json(e)?).as_bytes());
    Some(hex::encode(digest.finalize()))
}

/// Walks the trail in id order and remembers the first entry that breaks the chain: a
/// wrong hash (edited), a missing id (deleted) or a stored before/after that is not JSON.
#[derive(Debug, Default)]
pub struct Verifier {
    previous: String,
    last_id: i32,
    pub entries: u64,
    pub first_broken: Option<i32>,
}

impl Verifier {
    pub fn check(&mut self, e: &audit_log::Model) {
        self.entries += 1;
        if self.first_broken.is_none() {
            let in_sequence = e.id == self.last_id + 1;
            if !in_sequence || hash(&self.previous, e).as_deref() != Some(e.hash.as_str()) {
                self.first_broken = Some(e.id);
            }
        }
        self.previous = e.hash.clone();
        self.last_id = e.id;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i32, previous: &str, after: &str) -> audit_log::Model {
        let mut e = audit_log::Model {
            id,
            at: chrono::DateTime::parse_from_rfc3339("2026-01-02T03:04:05.123456Z").unwrap().into(),
            actor_id: Some(7),
            actor_email: Some("a@example.org".into()),
            actor_name: Some("Ann Example".into()),
            ip: Some("127.0.0.1".into()),
            entity_type: "participant".into(),
            entity_id: Some(3),
            action: "updated".into(),
            before: Some(r#"{"phone":null}"#.into()),
            after: Some(after.into()),
            hash: String::new(),
        };
        e.hash = hash(previous, &e).unwrap();
        e
    }

    fn chain(n: i32) -> Vec<audit_log::Model> {
        let mut out: Vec<audit_log::Model> = Vec::new();
        for id in 1..=n {
            let previous = out.last().map(|e| e.hash.clone()).unwrap_or_default();
            out.push(entry(id, &previous, &format!(r#"{{"phone":"{id}"}}"#)));
        }
        out
    }

    fn verify(entries: &[audit_log::Model]) -> Verifier {
        let mut v = Verifier::default();
        entries.iter().for_each(|e| v.check(e));
        v
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v = json!({"b": 1, "a": {"d": [{"z": 1, "y": 2}], "c": null}});
        assert_eq!(canonical(&v), r#"{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}"#);
    }

    #[test]
    fn an_intact_chain_verifies() {
        let v = verify(&chain(5));
        assert_eq!((v.entries, v.first_broken), (5, None));
    }

    #[test]
    fn an_edited_entry_is_named() {
        let mut entries = chain(5);
        entries[2].after = Some(r#"{"phone":"999"}"#.into());
        assert_eq!(verify(&entries).first_broken, Some(3));
        let mut entries = chain(5);
        entries[3].actor_email = Some("someone.else@example.org".into());
        assert_eq!(verify(&entries).first_broken, Some(4));
    }

    #[test]
    fn a_deleted_entry_breaks_the_chain_where_it_was() {
        let mut entries = chain(5);
        entries.remove(1);
        assert_eq!(verify(&entries).first_broken, Some(3));
    }

    #[test]
    fn a_rehashed_edit_still_breaks_the_next_link() {
        let mut entries = chain(4);
        entries[1] = entry(2, &entries[0].hash, r#"{"phone":"forged"}"#);
        assert_eq!(verify(&entries).first_broken, Some(3));
    }

    #[test]
    fn stored_text_that_is_not_json_is_broken() {
        let mut entries = chain(2);
        entries[0].before = Some("{not json".into());
        assert_eq!(verify(&entries).first_broken, Some(1));
    }
}

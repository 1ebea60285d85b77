//! A request as mails name it: its form, payee and amount, read for many requests at once.

use std::collections::{BTreeSet, HashMap};

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::events::RequestFacts;
use crate::{
    entities::{participant, payment_request as pr},
    error::ApiResult,
};

/// Rows read per statement (bound parameters stay well under SQLite's limit).
pub const CHUNK: usize = 500;

/// The request as a mail names it: form, payee, and the approved amount once there is one.
pub fn facts(r: &pr::Model, payee: String) -> RequestFacts {
    RequestFacts {
        id: r.id,
        form: r.form_type,
        payee,
        amount_cents: r.approved_cents.unwrap_or(r.requested_cents),
    }
}

/// Payees' names by participant id.
pub async fn payees(
    db: &impl ConnectionTrait,
    ids: BTreeSet<i32>,
) -> ApiResult<HashMap<i32, String>> {
    let ids: Vec<i32> = ids.into_iter().collect();
    let mut names = HashMap::new();
    for chunk in ids.chunks(CHUNK) {
        for p in participant::Entity::find()
            .filter(participant::Column::Id.is_in(chunk.to_vec()))
            .all(db)
            .await?
        {
            names.insert(p.id, format!("{} {}", p.first_name, p.last_name));
        }
    }
    Ok(names)
}

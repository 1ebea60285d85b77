//! A request as mails name it: its form, payee and amount, read for many requests at once.

use std::collections::{BTreeSet, HashMap};

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::events::RequestFacts;
use crate::{
    entities::{participant, payment_request as pr, request_step},
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

/// The approval chains of requests `ids`, each in order, by request id.
pub async fn chains(
    db: &impl ConnectionTrait,
    ids: &[i32],
) -> ApiResult<HashMap<i32, Vec<request_step::Model>>> {
    use sea_orm::QueryOrder;
    let mut chains: HashMap<i32, Vec<request_step::Model>> = HashMap::new();
    for chunk in ids.chunks(CHUNK) {
        for s in request_step::Entity::find()
            .filter(request_step::Column::PaymentRequestId.is_in(chunk.to_vec()))
            .order_by_asc(request_step::Column::PaymentRequestId)
            .order_by_asc(request_step::Column::StepIndex)
            .all(db)
            .await?
        {
            chains.entry(s.payment_request_id).or_default().push(s);
        }
    }
    Ok(chains)
}

/// The step of `chain` now current.
pub fn current(chain: &[request_step::Model]) -> Option<&request_step::Model> {
    chain.iter().find(|s| s.state == CURRENT)
}

/// How a current step is stored (`payment_requests::chain::StepState`).
pub const CURRENT: &str = "current";

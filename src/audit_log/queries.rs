//! Reads of the trail: newest first, narrowed by the filters, each served by an index.

use std::collections::HashMap;

use chrono::{Duration, NaiveTime};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Select,
};

use super::dto::{AuditQuery, Parents, BUDGET_LINE, PARTICIPATION, REQUEST};
use crate::{
    entities::{audit_log, codes::FormType, payment_request},
    error::ApiResult,
    web::{count_at_most, Count, Paging},
};

fn filtered(q: &AuditQuery) -> Select<audit_log::Entity> {
    let mut select = audit_log::Entity::find();
    if let Some(t) = &q.entity_type {
        select = select.filter(audit_log::Column::EntityType.eq(t.as_str()));
    }
    if let Some(id) = q.entity_id {
        select = select.filter(audit_log::Column::EntityId.eq(id));
    }
    if let Some(id) = q.actor_id {
        select = select.filter(audit_log::Column::ActorId.eq(id));
    }
    if let Some(a) = &q.action {
        select = select.filter(audit_log::Column::Action.eq(a.as_str()));
    }
    if let Some(from) = q.from {
        select = select.filter(audit_log::Column::At.gte(from.and_time(NaiveTime::MIN).and_utc()));
    }
    if let Some(to) = q.to {
        let next = (to + Duration::days(1)).and_time(NaiveTime::MIN).and_utc();
        select = select.filter(audit_log::Column::At.lt(next));
    }
    select
}

fn unfiltered(q: &AuditQuery) -> bool {
    q.entity_type.is_none()
        && q.entity_id.is_none()
        && q.actor_id.is_none()
        && q.action.is_none()
        && q.from.is_none()
        && q.to.is_none()
}

/// One page, newest first, and how many match.
pub async fn page(
    db: &impl ConnectionTrait,
    q: &AuditQuery,
    paging: Paging,
) -> ApiResult<(Vec<audit_log::Model>, Count)> {
    let items = filtered(q)
        .order_by_desc(audit_log::Column::Id)
        .offset(paging.offset())
        .limit(paging.size)
        .all(db)
        .await?;
    // Ids run without gaps from 1, so the whole trail's size is its last id: no count.
    let count = if unfiltered(q) {
        let last = audit_log::Entity::find()
            .select_only()
            .column(audit_log::Column::Id)
            .order_by_desc(audit_log::Column::Id)
            .into_tuple::<i32>()
            .one(db)
            .await?;
        Count::exact(last.unwrap_or(0) as u64)
    } else {
        count_at_most(db, filtered(q), paging.count_limit()).await?
    };
    Ok((items, count))
}

/// The next `n` entries the filters select older than entry `before` (from the newest
/// without it), newest first: an export reads the trail in these, by the id index.
pub async fn older(
    db: &impl ConnectionTrait,
    q: &AuditQuery,
    before: Option<i32>,
    n: u64,
) -> ApiResult<Vec<audit_log::Model>> {
    let mut select = filtered(q);
    if let Some(id) = before {
        select = select.filter(audit_log::Column::Id.lt(id));
    }
    Ok(select.order_by_desc(audit_log::Column::Id).limit(n).all(db).await?)
}

/// The ids of the records of `kind` among `entries`.
fn ids_of(entries: &[audit_log::Model], kind: &str) -> Vec<i32> {
    entries.iter().filter(|e| e.entity_type == kind).filter_map(|e| e.entity_id).collect()
}

/// `(id, parent)` pairs of `E` for `ids`: one query, none without ids.
async fn pairs<E, P>(
    db: &impl ConnectionTrait,
    ids: Vec<i32>,
    (id, parent): (E::Column, E::Column),
) -> ApiResult<HashMap<i32, P>>
where
    E: EntityTrait,
    P: sea_orm::TryGetable + Eq,
    (i32, P): sea_orm::TryGetableMany,
{
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = E::find()
        .select_only()
        .column(id)
        .column(parent)
        .filter(id.is_in(ids))
        .into_tuple::<(i32, P)>()
        .all(db)
        .await?;
    Ok(rows.into_iter().collect())
}

/// What the records named among `entries` need for their pages (`Parents`).
pub async fn parents(
    db: &impl ConnectionTrait,
    entries: &[audit_log::Model],
) -> ApiResult<Parents> {
    use crate::entities::{budget_line, participation};
    Ok(Parents {
        forms: pairs::<payment_request::Entity, FormType>(
            db,
            ids_of(entries, REQUEST),
            (payment_request::Column::Id, payment_request::Column::FormType),
        )
        .await?,
        participants: pairs::<participation::Entity, i32>(
            db,
            ids_of(entries, PARTICIPATION),
            (participation::Column::Id, participation::Column::ParticipantId),
        )
        .await?,
        years: pairs::<budget_line::Entity, i32>(
            db,
            ids_of(entries, BUDGET_LINE),
            (budget_line::Column::Id, budget_line::Column::FiscalYearId),
        )
        .await?,
    })
}

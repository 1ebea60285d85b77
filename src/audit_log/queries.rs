//! Reads of the trail: newest first, narrowed by the filters, each served by an index.

use std::collections::HashMap;

use chrono::{Duration, NaiveTime};
use sea_orm::{
    sea_query::SelectStatement, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, QueryTrait, Select,
};

use super::dto::{AuditQuery, REQUEST};
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

/// Every entry the filters select, newest first (the list's order), as one statement for
/// an export to stream.
pub fn all(q: &AuditQuery) -> SelectStatement {
    filtered(q).order_by_desc(audit_log::Column::Id).into_query()
}

/// The form of each payment request among `entries` (a link to a request names its form).
pub async fn request_forms(
    db: &impl ConnectionTrait,
    entries: &[audit_log::Model],
) -> ApiResult<HashMap<i32, FormType>> {
    let ids: Vec<i32> =
        entries.iter().filter(|e| e.entity_type == REQUEST).filter_map(|e| e.entity_id).collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(payment_request::Entity::find()
        .select_only()
        .column(payment_request::Column::Id)
        .column(payment_request::Column::FormType)
        .filter(payment_request::Column::Id.is_in(ids))
        .into_tuple::<(i32, FormType)>()
        .all(db)
        .await?
        .into_iter()
        .collect())
}

//! Every action that changes a stored reference list, one function each, owning its
//! transaction: the codes and links are checked inside it and the item's activity entry is
//! written there (`note_item`) before the commit.

use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::{json, Value};

use super::{
    dto::RefItem,
    lists::RefList,
    rules::{ItemChange, NewItem},
    store,
};
use crate::{
    activity,
    auth::CurrentUser,
    error::{ApiError, ApiResult},
};

/// The activity entry of one item of `list`, with its fields before and after (null where
/// it did not exist).
async fn note_item(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    (list, id): (&RefList, i32),
    action: &str,
    (before, after): (&Value, &Value),
    data: Value,
) -> ApiResult<()> {
    activity::note_change(txn, (list.key, id), action, &me.into(), (before, after), data).await
}

/// Linked colleges must exist (422 naming `collegeIds`).
async fn check_colleges(txn: &impl ConnectionTrait, ids: &[i32]) -> ApiResult<()> {
    let missing = store::missing_ids(txn, "colleges", ids).await?;
    if missing.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = missing.iter().map(i32::to_string).collect();
    Err(ApiError::rule("collegeIds", format!("unknown college id(s): {}", ids.join(", "))))
}

/// The item as stored now (after the commit).
async fn reread(
    db: &DatabaseConnection,
    list: &RefList,
    table: &str,
    id: i32,
) -> ApiResult<RefItem> {
    store::get(db, table, list.filter, id).await?.ok_or_else(|| ApiError::not_found("The item"))
}

/// A new item of `list` (stored in `table`).
pub async fn create(
    db: &DatabaseConnection,
    me: &CurrentUser,
    (list, table): (&RefList, &str),
    item: &NewItem,
) -> ApiResult<RefItem> {
    let conflict = format!("An item with the code '{}' already exists.", item.code);
    let txn = crate::db::write(db).await?;
    if store::code_taken(&txn, table, &item.code).await? {
        return Err(ApiError::Conflict(conflict));
    }
    check_colleges(&txn, &item.college_ids).await?;
    let id = store::insert(&txn, table, item, &conflict).await?;
    store::link_colleges(&txn, id, &item.college_ids).await?;
    let data = json!({
        "name": item.name, "code": item.code,
        "collegeIds": item.college_ids, "paymentRequestType": item.payment_request_type,
    });
    note_item(&txn, me, (list, id), "created", (&Value::Null, &data), data.clone()).await?;
    txn.commit().await?;
    reread(db, list, table, id).await
}

/// Rename, (de)activate, and for programs relink colleges.
pub async fn update(
    db: &DatabaseConnection,
    me: &CurrentUser,
    (list, table): (&RefList, &str),
    id: i32,
    change: &ItemChange,
) -> ApiResult<RefItem> {
    let txn = crate::db::write(db).await?;
    let before = store::get(&txn, table, list.filter, id)
        .await?
        .ok_or_else(|| ApiError::not_found("The item"))?;
    let colleges_before = match change.college_ids {
        Some(_) => Some(store::colleges_of(&txn, id).await?),
        None => None,
    };
    if let Some(ids) = &change.college_ids {
        check_colleges(&txn, ids).await?;
    }
    if !store::update(&txn, table, id, change).await? {
        return Err(ApiError::not_found("The item"));
    }
    if let Some(ids) = &change.college_ids {
        store::replace_colleges(&txn, id, ids).await?;
    }
    let action = match change.is_active {
        Some(false) if before.is_active => "deactivated",
        Some(true) if !before.is_active => "reactivated",
        _ => "updated",
    };
    let data = json!({
        "name": {"before": before.name, "after": change.name.as_deref().unwrap_or(&before.name)},
        "isActive": {"before": before.is_active, "after": change.is_active.unwrap_or(before.is_active)},
        "collegeIds": colleges_before.as_ref().map(|b| json!({"before": b, "after": change.college_ids})),
    });
    // The fields that may change, as they were and are; the colleges only when relinked.
    let mut was = json!({"name": before.name, "isActive": before.is_active});
    let mut is = json!({
        "name": change.name.as_deref().unwrap_or(&before.name),
        "isActive": change.is_active.unwrap_or(before.is_active),
    });
    if let (Some(b), Some(a)) = (&colleges_before, &change.college_ids) {
        let set = |ids: &[i32]| ids.iter().copied().collect::<std::collections::BTreeSet<_>>();
        was["collegeIds"] = json!(set(b));
        is["collegeIds"] = json!(set(a));
    }
    note_item(&txn, me, (list, id), action, (&was, &is), data).await?;
    txn.commit().await?;
    reread(db, list, table, id).await
}

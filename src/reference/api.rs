//! The two generic handlers every reference list is served by.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{
    dto::{MyPrograms, RefCreate, RefItem, RefQuery, RefUpdate},
    lists::{Filter, RefList, Source},
    rules, store,
};
use crate::{
    activity,
    auth::CurrentUser,
    error::{ApiError, ApiResult},
    state::AppState,
};

pub async fn list_items(
    list: &'static RefList,
    state: web::Data<AppState>,
    _me: CurrentUser,
    q: RefQuery,
) -> ApiResult<web::Json<Vec<RefItem>>> {
    let table = match list.source {
        Source::Fixed(items) => return Ok(web::Json(items())),
        Source::Table(table) => table,
    };
    let mut filter = store::ListFilter::default();
    match list.filter {
        Filter::NameContains => {
            filter.name_pattern = q
                .query
                .as_deref()
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(rules::contains_pattern);
        }
        Filter::MentorProgram => filter.mentor_program_id = q.mentorprogramid,
        Filter::PaymentRequestType => {
            filter.payment_request_type = rules::type_filter(q.paymentrequesttype.as_deref())?
        }
        Filter::None => {}
    }
    Ok(web::Json(store::list(&state.db, table, list.filter, &filter).await?))
}

pub async fn create_item(
    list: &'static RefList,
    state: web::Data<AppState>,
    me: CurrentUser,
    body: RefCreate,
) -> ApiResult<HttpResponse> {
    let (Some(_permission), Some(table)) = (list.create, list.table()) else {
        return Err(ApiError::Internal(format!("{} is not creatable", list.path)));
    };
    let item = rules::check_create(list, &body)?;
    let conflict = format!("An item with the code '{}' already exists.", item.code);
    let txn = crate::db::write(&state.db).await?;
    if store::code_taken(&txn, table, &item.code).await? {
        return Err(ApiError::Conflict(conflict));
    }
    let missing = store::missing_ids(&txn, "colleges", &item.college_ids).await?;
    if !missing.is_empty() {
        let ids: Vec<String> = missing.iter().map(i32::to_string).collect();
        return Err(ApiError::rule(
            "collegeIds",
            format!("unknown college id(s): {}", ids.join(", ")),
        ));
    }
    let id = store::insert(&txn, table, &item, &conflict).await?;
    store::link_colleges(&txn, id, &item.college_ids).await?;
    activity::record(
        &txn,
        activity::Entry {
            entity_type: list.key,
            entity_id: id,
            action: "created",
            actor_user_id: Some(me.id()),
            data: Some(json!({
                "name": item.name, "code": item.code,
                "collegeIds": item.college_ids, "paymentRequestType": item.payment_request_type,
            })),
            ..Default::default()
        },
    )
    .await?;
    txn.commit().await?;
    let created = store::get(&state.db, table, list.filter, id)
        .await?
        .ok_or_else(|| ApiError::not_found("The item"))?;
    Ok(HttpResponse::Created().json(created))
}

/// `PUT /{list}/{id}`: rename, (de)activate, and for programs relink colleges. Beyond SPEC;
/// the list's create permission guards it (docs/decisions-reference.md).
pub async fn update_item(
    list: &'static RefList,
    state: web::Data<AppState>,
    me: CurrentUser,
    id: i32,
    body: RefUpdate,
) -> ApiResult<web::Json<RefItem>> {
    let (Some(_permission), Some(table)) = (list.create, list.table()) else {
        return Err(ApiError::Internal(format!("{} is not editable", list.path)));
    };
    let change = rules::check_update(list, &body)?;
    let txn = crate::db::write(&state.db).await?;
    let before = store::get(&txn, table, list.filter, id)
        .await?
        .ok_or_else(|| ApiError::not_found("The item"))?;
    let colleges_before = match change.college_ids {
        Some(_) => Some(store::colleges_of(&txn, id).await?),
        None => None,
    };
    if let Some(ids) = &change.college_ids {
        let missing = store::missing_ids(&txn, "colleges", ids).await?;
        if !missing.is_empty() {
            let ids: Vec<String> = missing.iter().map(i32::to_string).collect();
            return Err(ApiError::rule(
                "collegeIds",
                format!("unknown college id(s): {}", ids.join(", ")),
            ));
        }
    }
    if !store::update(&txn, table, id, &change).await? {
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
    activity::record(
        &txn,
        activity::Entry {
            entity_type: list.key,
            entity_id: id,
            action,
            actor_user_id: Some(me.id()),
            data: Some(json!({
                "name": {"before": before.name, "after": change.name.as_deref().unwrap_or(&before.name)},
                "isActive": {"before": before.is_active, "after": change.is_active.unwrap_or(before.is_active)},
                "collegeIds": colleges_before.map(|b| json!({"before": b, "after": change.college_ids})),
            })),
            ..Default::default()
        },
    )
    .await?;
    txn.commit().await?;
    let after = store::get(&state.db, table, list.filter, id)
        .await?
        .ok_or_else(|| ApiError::not_found("The item"))?;
    Ok(web::Json(after))
}

/// `GET /mentor-programs/mine`: any signed-in user may ask about its own scope.
#[utoipa::path(get, path = "/api/v1/mentor-programs/mine", tag = "reference", security(("bearer" = [])),
    responses((status = 200, body = MyPrograms), (status = 401, body = crate::error::ProblemBody)))]
pub async fn my_programs(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<MyPrograms>> {
    let scope = crate::auth::scope::scope_of(&state.db, &me).await?;
    Ok(web::Json(MyPrograms {
        all: scope.is_all(),
        linked_to_participant: me.user.participant_id.is_some(),
        mentor_program_ids: scope.program_ids().unwrap_or_default(),
    }))
}

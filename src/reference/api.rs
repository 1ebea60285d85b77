//! The two generic handlers every reference list is served by.

use actix_web::{web, HttpResponse};
use sea_orm::TransactionTrait;
use serde_json::json;

use super::{
    dto::{RefCreate, RefItem, RefQuery},
    lists::{Access, Filter, RefList, Source},
    rules, store,
};
use crate::{
    activity,
    auth::CurrentUser,
    error::{ApiError, ApiResult},
    state::AppState,
};

fn authorize(access: Access, me: &CurrentUser) -> ApiResult<()> {
    match access {
        Access::SignedIn => Ok(()),
        Access::Needs(p) => me.require(p),
    }
}

pub async fn list_items(list: &'static RefList, state: web::Data<AppState>, me: CurrentUser, q: RefQuery) -> ApiResult<web::Json<Vec<RefItem>>> {
    authorize(list.read, &me)?;
    let table = match list.source {
        Source::Fixed(items) => return Ok(web::Json(items())),
        Source::Table(table) => table,
    };
    let mut filter = store::ListFilter::default();
    match list.filter {
        Filter::NameContains => {
            filter.name_pattern = q.query.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(rules::contains_pattern);
        }
        Filter::MentorProgram => filter.mentor_program_id = q.mentorprogramid,
        Filter::PaymentRequestType => filter.payment_request_type = rules::type_filter(q.paymentrequesttype.as_deref())?,
        Filter::None => {}
    }
    Ok(web::Json(store::list(&state.db, table, list.filter, &filter).await?))
}

pub async fn create_item(list: &'static RefList, state: web::Data<AppState>, me: CurrentUser, body: RefCreate) -> ApiResult<HttpResponse> {
    let (Some(permission), Some(table)) = (list.create, list.table()) else {
        return Err(ApiError::Internal(format!("{} is not creatable", list.path)));
    };
    me.require(permission)?;
    let item = rules::check_create(list, &body)?;
    let conflict = format!("An item with the code '{}' already exists.", item.code);
    let txn = state.db.begin().await?;
    if store::code_taken(&txn, table, &item.code).await? {
        return Err(ApiError::Conflict(conflict));
    }
    let missing = store::missing_ids(&txn, "colleges", &item.college_ids).await?;
    if !missing.is_empty() {
        let ids: Vec<String> = missing.iter().map(i32::to_string).collect();
        return Err(ApiError::rule("collegeIds", format!("unknown college id(s): {}", ids.join(", "))));
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
    let created = store::get(&state.db, table, list.filter, id).await?.ok_or_else(|| ApiError::not_found("The item"))?;
    Ok(HttpResponse::Created().json(created))
}

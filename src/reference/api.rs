//! The two generic handlers every reference list is served by.

use actix_web::{web, HttpResponse};

use super::{
    commands,
    dto::{MyPrograms, RefCreate, RefItem, RefQuery, RefUpdate},
    lists::{Filter, RefList, Source},
    rules, store,
};
use crate::{
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
    let created = commands::create(&state.db, &me, (list, table), &item).await?;
    Ok(HttpResponse::Created().json(created))
}

/// `PUT /{list}/{id}`: rename, (de)activate, and for programs relink colleges;
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
    Ok(web::Json(commands::update(&state.db, &me, (list, table), id, &change).await?))
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

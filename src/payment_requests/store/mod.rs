//! Payment request storage, by what it serves: finding a request in scope (here), the
//! facts the checks read (`facts`), the list and its totals (`list`), the writes of the
//! commands (`writes`) and receipts (`files`). Callers pass a connection or a transaction.

pub mod facts;
pub mod files;
pub mod list;
pub mod rules;
pub mod steps;
pub mod writes;

use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::forms::FormType;
use crate::{
    activity,
    auth::scope::Scope,
    entities::{activity_log, payment_request as pr},
    error::{ApiError, ApiResult},
    routes::ScopeFuture,
};

pub use crate::entities::payment_request::ENTITY_TYPE as ENTITY;

/// A live request of `form` with `id` the caller's scope may see; 404 otherwise (an
/// unknown id, a deleted request, another form type and another program look the same).
pub async fn find_visible(
    db: &impl ConnectionTrait,
    scope: &Scope,
    form: FormType,
    id: i32,
) -> ApiResult<pr::Model> {
    Some(visible_by_id(db, scope, id).await?)
        .filter(|r| r.form_type == form)
        .ok_or_else(|| ApiError::not_found("The payment request"))
}

/// The route table's scope rule for a request's routes (`routes::Routes::scope`): a request
/// outside the caller's programs is a 404, before the body is read; the handler finds the
/// row (of its form type) itself.
pub fn in_scope<'a>(db: &'a DatabaseConnection, scope: &'a Scope, id: i32) -> ScopeFuture<'a> {
    Box::pin(async move { visible_by_id(db, scope, id).await.map(drop) })
}

/// A live request in a program of `scope`, whatever its form type (404 otherwise).
pub async fn visible_by_id(
    db: &impl ConnectionTrait,
    scope: &Scope,
    id: i32,
) -> ApiResult<pr::Model> {
    pr::Entity::find_by_id(id)
        .filter(pr::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .filter(|r| scope.allows_program(r.mentor_program_id))
        .ok_or_else(|| ApiError::not_found("The payment request"))
}

pub async fn activity(
    db: &impl ConnectionTrait,
    request_id: i32,
) -> ApiResult<Vec<activity_log::Model>> {
    Ok(activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq(ENTITY))
        .filter(activity_log::Column::EntityId.eq(request_id))
        .order_by_desc(activity_log::Column::CreatedAt)
        .order_by_desc(activity_log::Column::Id)
        .all(db)
        .await?)
}

/// The vendor payment report a request was paid in, if any.
pub async fn paid_in(db: &impl ConnectionTrait, request_id: i32) -> ApiResult<Option<i32>> {
    use crate::entities::vendor_payment_report_row as paid;
    Ok(paid::Entity::find()
        .select_only()
        .column(paid::Column::ReportId)
        .filter(paid::Column::PaymentRequestId.eq(request_id))
        .into_tuple()
        .one(db)
        .await?)
}

/// The form type named in a path; an unknown one is a 404 like an unknown route.
pub fn form_of(text: &str) -> ApiResult<FormType> {
    FormType::parse(text).ok_or_else(|| ApiError::not_found("The form type"))
}

/// A 409 for a row that moved on since the caller read it.
pub fn stale() -> ApiError {
    ApiError::Stale(
        "The request was changed by someone else meanwhile; reload it and try again.".into(),
    )
}

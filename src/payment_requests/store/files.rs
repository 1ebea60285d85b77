//! Receipts: announced uploads, their claim, the files a request holds, and the
//! clean-up of those never attached.

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::Expr, ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use crate::{entities::uploaded_file, error::ApiResult};

pub async fn files_of(
    db: &impl ConnectionTrait,
    request_id: i32,
) -> ApiResult<Vec<uploaded_file::Model>> {
    Ok(uploaded_file::Entity::find()
        .filter(uploaded_file::Column::PaymentRequestId.eq(request_id))
        .filter(uploaded_file::Column::DeletedAt.is_null())
        .order_by_asc(uploaded_file::Column::CreatedAt)
        .all(db)
        .await?)
}

/// How many live receipts the request of the enclosing row holds: a column of the list's
/// rows, each read through the files' request index (a test checks SQLite's plan), so a page
/// costs no read of its own for them.
pub fn receipt_count() -> Expr {
    use crate::entities::payment_request as pr;
    use sea_orm::sea_query::{ExprTrait, Query};
    use uploaded_file::Column as C;
    let count = Query::select()
        // PostgreSQL's COUNT is a bigint already; the cast keeps SQLite's the same type.
        .expr(Expr::cust("CAST(COUNT(*) AS BIGINT)"))
        .from(uploaded_file::Entity)
        .and_where(
            Expr::col((uploaded_file::Entity, C::PaymentRequestId))
                .equals((pr::Entity, pr::Column::Id)),
        )
        .and_where(Expr::col((uploaded_file::Entity, C::DeletedAt)).is_null())
        .to_owned();
    Expr::SubQuery(None, Box::new(count.into()))
}

pub async fn files_by_ids(
    db: &impl ConnectionTrait,
    ids: &[String],
) -> ApiResult<Vec<uploaded_file::Model>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    Ok(uploaded_file::Entity::find()
        .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
        .all(db)
        .await?)
}

/// Points the listed receipts at the request and frees the ones no longer listed.
pub async fn attach_files(
    db: &impl ConnectionTrait,
    request_id: i32,
    ids: &[String],
) -> ApiResult<Vec<String>> {
    let current = files_of(db, request_id).await?;
    let dropped: Vec<String> =
        current.iter().filter(|f| !ids.contains(&f.id)).map(|f| f.id.clone()).collect();
    drop_files(db, &dropped).await?;
    if !ids.is_empty() {
        uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::PaymentRequestId, Expr::value(request_id))
            .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
            .exec(db)
            .await?;
    }
    Ok(dropped)
}

/// Receipts no longer on a request: marked deleted (their bytes go after the commit).
pub async fn drop_files(db: &impl ConnectionTrait, ids: &[String]) -> ApiResult<()> {
    if !ids.is_empty() {
        uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::DeletedAt, Expr::value(crate::clock::now()))
            .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
            .exec(db)
            .await?;
    }
    Ok(())
}

/// Removes files announced more than a day ago and never attached to a request (a form
/// left without saving), and their bytes. Each row is claimed with a conditional update,
/// so a file being attached at the same moment is never taken. Returns how many went.
pub async fn purge_unattached(
    db: &impl ConnectionTrait,
    files: &crate::file_store::FileStore,
    now: DateTime<Utc>,
) -> ApiResult<usize> {
    let cutoff =
        now - chrono::Duration::hours(crate::payment_requests::receipts::UNATTACHED_GRACE_HOURS);
    let unattached = || {
        uploaded_file::Entity::find()
            .filter(uploaded_file::Column::PaymentRequestId.is_null())
            .filter(uploaded_file::Column::DeletedAt.is_null())
    };
    let stale = unattached().filter(uploaded_file::Column::CreatedAt.lt(cutoff)).all(db).await?;
    let mut removed = 0;
    for f in stale {
        let claimed = uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::DeletedAt, sea_orm::sea_query::Expr::value(now))
            .filter(uploaded_file::Column::Id.eq(&f.id))
            .filter(uploaded_file::Column::PaymentRequestId.is_null())
            .filter(uploaded_file::Column::DeletedAt.is_null())
            .exec(db)
            .await?;
        if claimed.rows_affected == 1 {
            if f.uploaded_at.is_some() {
                files.remove(&f.id).await;
            }
            removed += 1;
        }
    }
    Ok(removed)
}

/// A receipt announced by `by`, to be uploaded before `expires_at` (`at`: now, expiry).
pub async fn announce_file(
    txn: &impl ConnectionTrait,
    id: &str,
    file_name: String,
    content_type: &str,
    size: i64,
    by: i32,
    (now, expires_at): (DateTime<Utc>, DateTime<Utc>),
) -> ApiResult<()> {
    uploaded_file::Entity::insert(uploaded_file::ActiveModel {
        id: Set(id.to_owned()),
        file_name: Set(file_name),
        content_type: Set(content_type.to_owned()),
        size: Set(size),
        created_by: Set(by),
        created_at: Set(now),
        expires_at: Set(expires_at),
        uploaded_at: Set(None),
        payment_request_id: Set(None),
        deleted_at: Set(None),
    })
    .exec_without_returning(txn)
    .await?;
    Ok(())
}

/// Bytes of receipts `by` holds that no request uses yet: uploaded, or announced with a
/// URL still valid at `now` (an announced slot can still be filled, so it counts).
pub async fn unattached_bytes(
    txn: &impl ConnectionTrait,
    by: i32,
    now: DateTime<Utc>,
) -> ApiResult<i64> {
    use uploaded_file::Column as C;
    let total: Option<i64> = uploaded_file::Entity::find()
        .select_only()
        // PostgreSQL's SUM of a bigint is a numeric: cast back so both read an integer.
        .expr(Expr::cust("CAST(COALESCE(SUM(size), 0) AS BIGINT)"))
        .filter(C::CreatedBy.eq(by))
        .filter(C::PaymentRequestId.is_null())
        .filter(C::DeletedAt.is_null())
        .filter(Condition::any().add(C::UploadedAt.is_not_null()).add(C::ExpiresAt.gt(now)))
        .into_tuple()
        .one(txn)
        .await?;
    Ok(total.unwrap_or(0))
}

/// Marks a receipt uploaded at `at`, once: false when its URL was used already.
pub async fn claim_upload(
    db: &impl ConnectionTrait,
    id: &str,
    at: DateTime<Utc>,
) -> ApiResult<bool> {
    let done = uploaded_file::Entity::update_many()
        .col_expr(uploaded_file::Column::UploadedAt, Expr::value(at))
        .filter(uploaded_file::Column::Id.eq(id))
        .filter(uploaded_file::Column::UploadedAt.is_null())
        .exec(db)
        .await?;
    Ok(done.rows_affected == 1)
}

/// Gives a claimed upload URL back (its bytes could not be stored), so the browser can retry.
pub async fn release_upload(db: &impl ConnectionTrait, id: &str) -> ApiResult<()> {
    uploaded_file::Entity::update_many()
        .col_expr(uploaded_file::Column::UploadedAt, Expr::value(Option::<DateTime<Utc>>::None))
        .filter(uploaded_file::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

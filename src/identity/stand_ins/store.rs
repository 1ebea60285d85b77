//! Reading and writing time away.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use sea_orm::{
    sea_query::{Expr, ExprTrait, Func, Query},
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};

use super::rules::Window;
use crate::{
    auth::Permission,
    entities::{out_of_office as ooo, role_permission, user, user_role},
    error::ApiResult,
};

pub fn window(m: &ooo::Model) -> Window {
    Window { from: m.from_day, to: m.to_day }
}

/// `user`'s time away, ended or not.
pub async fn of(db: &impl ConnectionTrait, user: i32) -> ApiResult<Option<ooo::Model>> {
    Ok(ooo::Entity::find_by_id(user).one(db).await?)
}

/// The windows in which `stand_in` stands in for someone, not ended by `today`.
pub async fn naming(
    db: &impl ConnectionTrait,
    stand_in: i32,
    today: NaiveDate,
) -> ApiResult<Vec<ooo::Model>> {
    Ok(ooo::Entity::find()
        .filter(ooo::Column::StandInUserId.eq(stand_in))
        .filter(ooo::Column::ToDay.gte(today))
        .all(db)
        .await?)
}

pub async fn save(db: &impl ConnectionTrait, row: ooo::Model) -> ApiResult<()> {
    let active = ooo::ActiveModel {
        user_id: Set(row.user_id),
        from_day: Set(row.from_day),
        to_day: Set(row.to_day),
        stand_in_user_id: Set(row.stand_in_user_id),
        updated_at: Set(row.updated_at),
    };
    ooo::Entity::insert(active)
        .on_conflict(
            sea_orm::sea_query::OnConflict::column(ooo::Column::UserId)
                .update_columns([
                    ooo::Column::FromDay,
                    ooo::Column::ToDay,
                    ooo::Column::StandInUserId,
                    ooo::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec(db)
        .await?;
    Ok(())
}

pub async fn delete(db: &impl ConnectionTrait, user: i32) -> ApiResult<()> {
    ooo::Entity::delete_by_id(user).exec(db).await?;
    Ok(())
}

/// Users holding `permission` through any of their roles.
pub fn holding(permission: Permission) -> Condition {
    Condition::all().add(
        user::Column::Id.in_subquery(
            Query::select()
                .column(user_role::Column::UserId)
                .from(user_role::Entity)
                .and_where(
                    user_role::Column::RoleId.in_subquery(
                        Query::select()
                            .column(role_permission::Column::RoleId)
                            .from(role_permission::Entity)
                            .and_where(role_permission::Column::Permission.eq(permission.code()))
                            .to_owned(),
                    ),
                )
                .to_owned(),
        ),
    )
}

/// Up to `limit` active users who approve, other than `except`, whose name or e-mail holds
/// `search` (case-insensitive), by name.
pub async fn candidates(
    db: &impl ConnectionTrait,
    except: i32,
    search: &str,
    limit: u64,
) -> ApiResult<Vec<user::Model>> {
    let mut select = user::Entity::find()
        .filter(user::Column::IsActive.eq(true))
        .filter(user::Column::Id.ne(except))
        .filter(holding(Permission::RequestApprove));
    let part = search.trim().to_lowercase();
    if !part.is_empty() {
        let like = |c: user::Column| {
            Expr::expr(Func::lower(Expr::col(c))).like(format!("%{}%", escape_like(&part)))
        };
        select = select.filter(
            Condition::any()
                .add(like(user::Column::FirstName))
                .add(like(user::Column::LastName))
                .add(like(user::Column::Email)),
        );
    }
    Ok(select
        .order_by_asc(user::Column::FirstName)
        .order_by_asc(user::Column::LastName)
        .order_by_asc(user::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// `%` and `_` typed by a person would be patterns: they are left out of the search.
fn escape_like(text: &str) -> String {
    text.chars().filter(|c| !matches!(c, '%' | '_' | '\\')).collect()
}

/// The absent people `stand_in` stands in for on `day`.
pub async fn absent_for(
    db: &impl ConnectionTrait,
    stand_in: i32,
    day: NaiveDate,
) -> ApiResult<BTreeSet<i32>> {
    Ok(ooo::Entity::find()
        .filter(ooo::Column::StandInUserId.eq(stand_in))
        .filter(ooo::Column::FromDay.lte(day))
        .filter(ooo::Column::ToDay.gte(day))
        .all(db)
        .await?
        .into_iter()
        .map(|m| m.user_id)
        .collect())
}

//! Whom a user stands in for today: the absent people whose time away names her. While it
//! lasts she may take the approval steps they could, in the programs they see, as herself
//! and on their behalf; her own scope gains theirs so she can open what she approves.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::{
    load_principal,
    scope::{own_scope, Scope},
    CurrentUser, Permission,
};
use crate::{
    entities::{general_setting, out_of_office as ooo, user},
    error::ApiResult,
};

/// The office's day now, in its time zone.
pub async fn office_today(db: &impl ConnectionTrait) -> ApiResult<chrono::NaiveDate> {
    let zone = general_setting::Entity::find().one(db).await?.map(|g| g.time_zone);
    Ok(crate::clock::today_in(zone.as_deref().unwrap_or("UTC")))
}

/// One absent person, with what she could do.
#[derive(Debug, Clone)]
pub struct Absent {
    pub principal: CurrentUser,
    pub scope: Scope,
}

/// The active absent people `me` stands in for today (none when she does not approve).
pub async fn standing_in(db: &impl ConnectionTrait, me: &CurrentUser) -> ApiResult<Vec<Absent>> {
    if !me.has(Permission::RequestApprove) {
        return Ok(Vec::new());
    }
    let today = office_today(db).await?;
    let ids: Vec<i32> = ooo::Entity::find()
        .filter(ooo::Column::StandInUserId.eq(me.id()))
        .filter(ooo::Column::FromDay.lte(today))
        .filter(ooo::Column::ToDay.gte(today))
        .all(db)
        .await?
        .into_iter()
        .map(|m| m.user_id)
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for u in user::Entity::find()
        .filter(user::Column::Id.is_in(ids))
        .filter(user::Column::IsActive.eq(true))
        .all(db)
        .await?
    {
        let principal = load_principal(db, u).await?;
        let scope = own_scope(db, &principal).await?;
        out.push(Absent { principal, scope });
    }
    Ok(out)
}

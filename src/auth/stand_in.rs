//! The office's calendar day, which time away is counted in.

use sea_orm::{ConnectionTrait, EntityTrait};

use crate::{entities::general_setting, error::ApiResult};

/// The office's day now, in its time zone.
pub async fn office_today(db: &impl ConnectionTrait) -> ApiResult<chrono::NaiveDate> {
    let zone = general_setting::Entity::find().one(db).await?.map(|g| g.time_zone);
    Ok(crate::clock::today_in(zone.as_deref().unwrap_or("UTC")))
}

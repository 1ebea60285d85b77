//! What an import reads: the reference lists' active items, the fiscal years, the office's
//! date format, and the live participants its e-mails name. The template reads the same lists.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::rules::{Item, Lists};
use crate::{
    auth::scope::Scope,
    entities::participant,
    error::ApiResult,
    participants::{dto::ParticipantDto, store},
    reference::{self, lists::Filter, store::ListFilter},
    settings,
};

/// Active items of a reference table, in the list's order.
async fn active(db: &impl ConnectionTrait, table: &str) -> ApiResult<Vec<Item>> {
    let items = reference::store::list(db, table, Filter::None, &ListFilter::default()).await?;
    Ok(items
        .into_iter()
        .filter(|i| i.is_active)
        .map(|i| Item { id: i.id, name: i.name, code: i.code })
        .collect())
}

pub async fn lists(db: &impl ConnectionTrait) -> ApiResult<Lists> {
    Ok(Lists {
        caucus_regions: active(db, "caucus_regions").await?,
        workplace_settings: active(db, "workplace_settings").await?,
        languages: active(db, "languages").await?,
        education_levels: active(db, "education_levels").await?,
        permit_levels: active(db, "permit_levels").await?,
        mentor_programs: active(db, "mentor_programs").await?,
        colleges: active(db, "colleges").await?,
        fiscal_years: settings::store::fiscal_years(db)
            .await?
            .into_iter()
            .map(|y| (Item { id: y.id, name: y.name, code: None }, y.start_date))
            .collect(),
        date_format: settings::store::date_format(db).await?,
    })
}

/// The live participants with these (lower-case) e-mails, with all their participations.
pub async fn existing(
    db: &impl ConnectionTrait,
    emails: &[String],
) -> ApiResult<HashMap<String, ParticipantDto>> {
    let mut out = HashMap::new();
    // Bounded IN lists: PostgreSQL and SQLite both take far more, but a statement stays small.
    for chunk in emails.chunks(500) {
        let select = participant::Entity::find()
            .filter(participant::Column::Email.is_in(chunk.to_vec()))
            .filter(participant::Column::DeletedAt.is_null());
        for p in store::dtos(db, select, &Scope::All).await? {
            out.insert(p.email.clone(), p);
        }
    }
    Ok(out)
}

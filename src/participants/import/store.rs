//! What an import reads: the reference lists by name, and the live participants its
//! e-mails name.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::rules::{key, Names};
use crate::{
    auth::scope::Scope,
    entities::participant,
    error::ApiResult,
    participants::{dto::ParticipantDto, store},
    reference::{self, lists::Filter, store::ListFilter},
    settings,
};

/// Active items of a reference table by folded name; the first one when two fold alike.
async fn by_name(db: &impl ConnectionTrait, table: &str) -> ApiResult<HashMap<String, i32>> {
    let items = reference::store::list(db, table, Filter::None, &ListFilter::default()).await?;
    let mut out = HashMap::new();
    for item in items.into_iter().filter(|i| i.is_active) {
        out.entry(key(&item.name)).or_insert(item.id);
    }
    Ok(out)
}

pub async fn names(db: &impl ConnectionTrait) -> ApiResult<Names> {
    Ok(Names {
        caucus_regions: by_name(db, "caucus_regions").await?,
        workplace_settings: by_name(db, "workplace_settings").await?,
        languages: by_name(db, "languages").await?,
        education_levels: by_name(db, "education_levels").await?,
        permit_levels: by_name(db, "permit_levels").await?,
        mentor_programs: by_name(db, "mentor_programs").await?,
        colleges: by_name(db, "colleges").await?,
        fiscal_years: settings::store::fiscal_years(db)
            .await?
            .into_iter()
            .map(|y| (key(&y.name), (y.id, y.start_date)))
            .collect(),
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

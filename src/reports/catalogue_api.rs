//! `GET /reports`: the reports the caller may read, for the /reports screen's cards.

use actix_web::web;

use super::catalogue::{entry, Catalogue, CatalogueEntry};
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
};

#[utoipa::path(get, path = "/api/v1/reports", tag = "reports", security(("bearer" = [])),
    responses((status = 200, description = "The reports the caller may read, in display order", body = Vec<CatalogueEntry>),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody, description = "Without report:read")))]
pub async fn list(
    me: CurrentUser,
    catalogue: web::Data<Catalogue>,
) -> ApiResult<web::Json<Vec<CatalogueEntry>>> {
    Ok(web::Json(
        catalogue
            .0
            .iter()
            .filter(|(info, _)| me.has(info.permission))
            .map(|(info, cols)| entry(info, cols.clone()))
            .collect(),
    ))
}

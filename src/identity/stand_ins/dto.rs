//! Wire shapes of time away and stand-ins, camelCase.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::settings::dto::UserRefDto;

/// Time away and who stands in meanwhile.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutOfOfficeRequest {
    /// First day away, `YYYY-MM-DD`, in the office's calendar.
    #[serde(deserialize_with = "crate::web::date")]
    pub from: NaiveDate,
    /// Last day away (included), not before `from` and not already passed.
    #[serde(deserialize_with = "crate::web::date")]
    pub to: NaiveDate,
    /// An active user who approves requests, is someone else and is not away herself then.
    #[schema(minimum = 1)]
    pub stand_in_user_id: i32,
}

/// Time away as saved.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutOfOfficeDto {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub stand_in: UserRefDto,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct CandidatesQuery {
    /// Part of the name or e-mail, case-insensitive; empty lists the first ones by name.
    #[param(rename = "Search", max_length = 100)]
    pub search: Option<String>,
}

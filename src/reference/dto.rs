//! Wire shapes of the reference lists: one item shape for every list.

use sea_orm::FromQueryResult;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// One entry of any reference list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, FromQueryResult)]
#[serde(rename_all = "camelCase")]
pub struct RefItem {
    pub id: i32,
    pub name: String,
    /// Present where the list has codes (programs, funds, accounts, approval codes, permit levels, enums).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    pub is_active: bool,
    /// Approval codes only: the form type (`F1`..`F14`) the code is valid for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_request_type: Option<String>,
}

/// Filters; each list honours the one it declares and ignores the others.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct RefQuery {
    /// Caucus regions: part of the name, case-insensitive.
    pub query: Option<String>,
    /// Colleges: only this program's colleges.
    #[param(rename = "MentorProgramId")]
    pub mentorprogramid: Option<i32>,
    /// Approval codes: only codes of this form type (`F1`..`F14`).
    #[param(rename = "PaymentRequestType")]
    pub paymentrequesttype: Option<String>,
}

/// `POST` body of the editable lists.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefCreate {
    pub name: String,
    /// Unique within the list (409 when taken).
    pub code: String,
    /// Mentor programs only: the colleges the program works with.
    pub college_ids: Option<Vec<i32>>,
    /// Approval codes only (required there): `F1`..`F14`.
    #[schema(value_type = Option<crate::payment_requests::forms::FormType>)]
    pub payment_request_type: Option<String>,
}

//! Wire shapes of the reference lists: one item shape for every list.

use sea_orm::FromQueryResult;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// One entry of any reference list.
#[derive(Debug, Clone, Serialize, ToSchema, FromQueryResult)]
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
    /// Payment request form types only: what the form asks and how the server treats it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[sea_orm(skip)]
    pub form: Option<crate::forms::FormRules>,
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
    #[schema(value_type = Option<crate::forms::FormType>)]
    pub payment_request_type: Option<String>,
}

/// `PUT /{list}/{id}` body of the editable lists (rename and deactivate).
/// Every field is optional; what is left out stays as it is. The code never changes, since
/// old requests, exports and budgets name it.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefUpdate {
    pub name: Option<String>,
    /// `false` takes the item out of pickers and new approvals; old records keep it.
    pub is_active: Option<bool>,
    /// Mentor programs only: the program's colleges, replacing the ones it had.
    pub college_ids: Option<Vec<i32>>,
}

/// `GET /mentor-programs/mine`: the programs the caller works in (its coordinator scope), so
/// screens offer only those and can say why a list is empty.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyPrograms {
    /// Administrators: every program (`mentorProgramIds` is then empty).
    pub all: bool,
    /// The login is linked to a participant (without a link a non-Administrator sees nothing).
    pub linked_to_participant: bool,
    /// The programs where the linked participant is a Coordinator.
    pub mentor_program_ids: Vec<i32>,
}

//! Wire shapes of the participant calls, camelCase.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[allow(unused_imports)] // named by the OpenAPI attributes only
use crate::{
    error::ApiError,
    reference::fixed::{DistrictSetType, ParticipantRole, ParticipantStatus},
};
#[allow(unused_imports)]
use crate::{forms::FormType, web::paged};

/// `POST /participants` and `PUT /participants/{id}` body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParticipantBody {
    #[schema(min_length = 1, max_length = 100)]
    pub first_name: String,
    #[schema(min_length = 1, max_length = 100)]
    pub last_name: String,
    /// Unique among live participants (409).
    #[schema(
        max_length = 254,
        pattern = r"^[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[^@\s\u0000-\u001F\u007F-\u009F]+@[^@.\s\u0000-\u001F\u007F-\u009F][^@\s\u0000-\u001F\u007F-\u009F]*\.[^@\s\u0000-\u001F\u007F-\u009F]*[^@.\s\u0000-\u001F\u007F-\u009F][\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$"
    )]
    pub email: String,
    /// At least 7 digits; digits, spaces and + - ( ) . x.
    #[schema(
        max_length = 30,
        pattern = r"^[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$|^[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[ +\-().x]*([0-9][ +\-().x]*){7,}[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$"
    )]
    pub phone: Option<String>,
    #[schema(max_length = 500)]
    pub address: Option<String>,
    /// `Active`, `Inactive` or `Pending`.
    #[schema(value_type = ParticipantStatus)]
    pub status: String,
    /// `Mentor`, `DirectorMentor`, `Coordinator` or `Administrator`.
    #[schema(value_type = ParticipantRole)]
    pub role_code: String,
    /// `Assembly`, `Senate` or `Congressional`; given together with `districtId`.
    #[schema(value_type = Option<DistrictSetType>)]
    pub district_set_type: Option<String>,
    /// California district number within the set (1-80, 1-40, 1-52).
    #[schema(minimum = 1, maximum = 80)]
    pub district_id: Option<i32>,
    #[schema(value_type = Option<crate::web::Id>)]
    pub caucus_region_id: Option<i32>,
    #[serde(default)]
    #[schema(value_type = Vec<crate::web::Id>)]
    pub workplace_setting_ids: Vec<i32>,
    #[serde(default)]
    #[schema(value_type = Vec<crate::web::Id>)]
    pub language_ids: Vec<i32>,
    #[serde(default)]
    #[schema(value_type = Vec<crate::web::Id>)]
    pub education_level_ids: Vec<i32>,
    #[serde(default)]
    #[schema(value_type = Vec<crate::web::Id>)]
    pub permit_level_ids: Vec<i32>,
    /// POST only: participations created with the participant. A Coordinator must give
    /// at least one, in a program it coordinates.
    pub participations: Option<Vec<ParticipationBody>>,
    /// PUT only (required there): the version the edit is based on; stale is 409.
    pub version: Option<i32>,
}

/// What `GET /participants/{id}` returns besides the body's fields: a PUT ignores them
/// (participations change through their own routes).
impl crate::web::Representation for ParticipantBody {
    const READ_ONLY: &'static [&'static str] =
        &["id", "fullName", "participations", "identityUserId", "createdAt", "updatedAt"];
}

impl crate::web::Representation for ParticipationBody {
    const READ_ONLY: &'static [&'static str] = &["id", "participantId"];
}

/// `POST /participants/{id}/participations` and PUT body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParticipationBody {
    #[schema(value_type = crate::web::Id)]
    pub mentor_program_id: i32,
    /// A fiscal year id (settings area); positive.
    #[schema(value_type = crate::web::Id)]
    pub fiscal_year_id: i32,
    /// The participant's role in this program (same values as the participant's roleCode).
    #[schema(value_type = ParticipantRole)]
    pub role_code: String,
    #[schema(value_type = Option<crate::web::Id>)]
    pub college_id: Option<i32>,
    /// `YYYY-MM-DD`
    #[serde(deserialize_with = "crate::web::date")]
    pub start_date: NaiveDate,
    #[serde(default, deserialize_with = "crate::web::opt_date")]
    pub end_date: Option<NaiveDate>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParticipationDto {
    pub id: i32,
    pub participant_id: i32,
    pub mentor_program_id: i32,
    pub fiscal_year_id: i32,
    #[schema(value_type = ParticipantRole)]
    pub role_code: String,
    pub college_id: Option<i32>,
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParticipantDto {
    pub id: i32,
    pub first_name: String,
    pub last_name: String,
    pub full_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub address: Option<String>,
    #[schema(value_type = ParticipantStatus)]
    pub status: String,
    #[schema(value_type = ParticipantRole)]
    pub role_code: String,
    #[schema(value_type = Option<DistrictSetType>)]
    pub district_set_type: Option<String>,
    pub district_id: Option<i32>,
    pub caucus_region_id: Option<i32>,
    pub workplace_setting_ids: Vec<i32>,
    pub language_ids: Vec<i32>,
    pub education_level_ids: Vec<i32>,
    pub permit_level_ids: Vec<i32>,
    /// Live participations.
    pub participations: Vec<ParticipationDto>,
    /// The id of the participant's sign-in (Coordinator login), if it has one.
    pub identity_user_id: Option<i32>,
    pub version: i32,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

paged! {
    #[derive(Debug, Default, Deserialize, IntoParams)]
    #[serde(rename_all = "lowercase")]
    #[into_params(parameter_in = Query)]
    pub struct ParticipantsQuery {
        /// Participants with a live participation in this program.
        #[param(rename = "MentorProgramId")]
        pub mentorprogramid: Option<i32>,
        #[param(rename = "RoleCode", value_type = Option<ParticipantRole>)]
        pub rolecode: Option<String>,
        /// Part of the full name, case- and accent-insensitive.
        #[param(rename = "FullName")]
        pub fullname: Option<String>,
        /// Part of the e-mail address, case- and accent-insensitive.
        #[param(rename = "Email")]
        pub email: Option<String>,
        #[param(rename = "Status", value_type = Option<ParticipantStatus>)]
        pub status: Option<String>,
        #[param(rename = "DistrictSetType", value_type = Option<DistrictSetType>)]
        pub districtsettype: Option<String>,
        #[param(rename = "DistrictId")]
        pub districtid: Option<i32>,
        /// Any of these (repeated or comma-separated).
        #[serde(default, deserialize_with = "crate::web::list")]
        #[param(rename = "WorkplaceSettingIds", value_type = Vec<crate::web::Id>)]
        pub workplacesettingids: Vec<i32>,
        #[serde(default, deserialize_with = "crate::web::list")]
        #[param(rename = "LanguageIds", value_type = Vec<crate::web::Id>)]
        pub languageids: Vec<i32>,
        #[serde(default, deserialize_with = "crate::web::list")]
        #[param(rename = "EducationLevelIds", value_type = Vec<crate::web::Id>)]
        pub educationlevelids: Vec<i32>,
        #[serde(default, deserialize_with = "crate::web::list")]
        #[param(rename = "PermitLevelIds", value_type = Vec<crate::web::Id>)]
        pub permitlevelids: Vec<i32>,
        /// `fullName` (default), `email`, `status`, `roleCode` or `updatedAt`.
        #[param(rename = "SortBy", value_type = Option<SortBy>)]
        pub sortby: Option<String>,
        #[param(rename = "SortDescending")]
        pub sortdescending: Option<bool>,
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct ParticipantListQuery {
    #[param(rename = "MentorProgramId")]
    pub mentorprogramid: Option<i32>,
    /// The request being edited (accepted; used once payment requests exist).
    #[param(rename = "FormId")]
    pub formid: Option<i32>,
    /// `F1`..`F14` (checked).
    #[param(rename = "FormType", value_type = Option<FormType>)]
    pub formtype: Option<String>,
    /// Role in the program: `Mentor`, `DirectorMentor`, `Coordinator`, `Administrator`.
    #[param(rename = "RoleType", value_type = Option<ParticipantRole>)]
    pub roletype: Option<String>,
    /// Include deleted participants and participations.
    #[param(rename = "ShowDeleted")]
    pub showdeleted: Option<bool>,
    #[serde(default, deserialize_with = "crate::web::list")]
    #[param(rename = "ParticipationIds")]
    pub participationids: Vec<i32>,
}

/// One participation with its participant's name, for payee pickers.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParticipantListItem {
    pub participation_id: i32,
    pub participant_id: i32,
    pub full_name: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// The participant's status: pickers mark the inactive ones.
    #[schema(value_type = ParticipantStatus)]
    pub status: String,
    pub mentor_program_id: i32,
    pub fiscal_year_id: i32,
    #[schema(value_type = ParticipantRole)]
    pub role_code: String,
    pub college_id: Option<i32>,
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
    /// The participant or the participation is deleted (only with ShowDeleted=true).
    pub is_deleted: bool,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IdentityUserBody {
    /// Optional: without it, a set-password link is e-mailed.
    #[schema(min_length = 12, max_length = 256)]
    pub password: Option<String>,
}

/// `SortBy` of the participant list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    #[default]
    FullName,
    Email,
    Status,
    RoleCode,
    UpdatedAt,
}

impl SortBy {
    const NAMES: [(&'static str, SortBy); 5] = [
        ("fullName", Self::FullName),
        ("email", Self::Email),
        ("status", Self::Status),
        ("roleCode", Self::RoleCode),
        ("updatedAt", Self::UpdatedAt),
    ];

    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
            return Ok(Self::default());
        };
        Self::NAMES
            .into_iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(raw))
            .map(|(_, s)| s)
            .ok_or_else(|| {
                ApiError::bad_field(
                    "SortBy",
                    "must be one of fullName, email, status, roleCode, updatedAt",
                )
            })
    }
}

impl utoipa::PartialSchema for SortBy {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(Self::NAMES.iter().map(|(name, _)| *name))
    }
}

impl utoipa::ToSchema for SortBy {}

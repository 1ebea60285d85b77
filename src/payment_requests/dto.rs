//! Wire shapes of the payment request calls, camelCase.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    approval::{Issue, Proposal},
    receipts::FileAnnouncement,
    workflow::{Action, Status},
};
use crate::forms::{Details, FormType, MealRates};
use crate::money::Money;
use crate::web::paged;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequestDto {
    pub id: i32,
    pub form_type: FormType,
    pub form_status: Status,
    pub participation_id: i32,
    /// The payee (the participation's participant).
    pub payee_id: i32,
    pub mentor_program_id: i32,
    pub description: Option<String>,
    pub requested_amount: Money,
    /// Null until approved.
    pub approved_amount: Option<Money>,
    pub approval_code_id: Option<i32>,
    pub fund_id: Option<i32>,
    pub expense_account_id: Option<i32>,
    /// The fiscal year covering `submittedOn`, charged on approval.
    pub fiscal_year_id: Option<i32>,
    /// Date of the first submission.
    pub submitted_on: Option<NaiveDate>,
    pub placement_end_date: Option<NaiveDate>,
    pub approved_at: Option<DateTime<Utc>>,
    pub approved_by: Option<i32>,
    pub version: i32,
    pub created_at: DateTime<Utc>,
    pub created_by: Option<i32>,
    pub updated_at: DateTime<Utc>,
    pub updated_by: Option<i32>,
    pub details: Details,
    /// F2 only: the receipts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<FileDto>>,
    /// Processed requests: the vendor payment report (history entry) they were paid in.
    pub vendor_payment_report_id: Option<i32>,
    /// What the caller may do now.
    pub available_actions: Vec<Action>,
    /// The approval chain; null for a draft never submitted and for a request approved
    /// before chains.
    pub approval: Option<ApprovalDto>,
    /// Set while the fiscal year the request charges is closed: which year, and what that
    /// means for the request, in words (`availableActions` already leaves out what it refuses).
    pub closed_year: Option<ClosedYearNote>,
}

/// A closed fiscal year, as a request's page explains it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClosedYearNote {
    pub fiscal_year_id: i32,
    pub name: String,
    pub message: String,
}

/// A row of the request list (no details).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequestListItem {
    pub id: i32,
    pub form_type: FormType,
    pub form_status: Status,
    pub participation_id: i32,
    pub payee_id: i32,
    pub mentor_program_id: i32,
    pub description: Option<String>,
    pub requested_amount: Money,
    pub approved_amount: Option<Money>,
    pub submitted_on: Option<NaiveDate>,
    pub placement_end_date: Option<NaiveDate>,
    pub approved_at: Option<DateTime<Utc>>,
    pub version: i32,
    pub updated_at: DateTime<Utc>,
    /// How many receipts the request holds (0 for a form without receipts).
    pub receipt_count: i64,
    pub available_actions: Vec<Action>,
}

/// Body of create; `details` is the form's typed details (see the F1..F14 schemas).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WriteRequest {
    /// Required on PUT: the version the edit is based on.
    #[serde(default)]
    pub version: Option<i32>,
    pub participation_id: i32,
    /// Optional; when sent it must be the participation's program.
    #[serde(default)]
    pub mentor_program_id: Option<i32>,
    #[serde(default)]
    pub description: Option<String>,
    /// Entered forms only (F1, F4–F8, F13, F14); computed elsewhere and then ignored.
    #[serde(default)]
    pub requested_amount: Option<Money>,
    #[serde(default)]
    pub fund_id: Option<i32>,
    #[serde(default)]
    pub expense_account_id: Option<i32>,
    /// The form's details (the schema of the path's form type; another form's is a 422).
    #[schema(value_type = Details)]
    pub details: serde_json::Value,
}

/// What `GET /payment-requests/{formType}/{id}` returns besides the body's fields: a PUT
/// ignores them (status, approval and audit fields change through their own actions).
impl crate::web::Representation for WriteRequest {
    const READ_ONLY: &'static [&'static str] = &[
        "id",
        "formType",
        "formStatus",
        "payeeId",
        "approvedAmount",
        "approvalCodeId",
        "fiscalYearId",
        "submittedOn",
        "placementEndDate",
        "approvedAt",
        "approvedBy",
        "createdAt",
        "createdBy",
        "updatedAt",
        "updatedBy",
        "files",
        "availableActions",
        "vendorPaymentReportId",
        "approval",
        "closedYear",
    ];
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReasonBody {
    #[schema(min_length = 1, max_length = 2000)]
    pub reason: String,
}

/// The approve body: `comment` and `acknowledgeWarnings` are accepted (the UI sends one body
/// to both) and play no part in the assessment.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApproveValidateBody {
    pub approved_amount: Money,
    pub approval_code_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
    #[serde(default)]
    #[allow(dead_code)]
    pub comment: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    pub acknowledge_warnings: bool,
    /// The step (0-based) the approver means, as `approve/validate` answered it; when the
    /// request moved on meanwhile, a 409. Left out: the step current now.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 4)]
    pub step: Option<u8>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApproveBody {
    pub approved_amount: Money,
    pub approval_code_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default)]
    pub acknowledge_warnings: bool,
    /// The step (0-based) the approver means, as `approve/validate` answered it; when the
    /// request moved on meanwhile (another approver took it), a 409. Left out: the step
    /// current when the call arrives.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 4)]
    pub step: Option<u8>,
}

/// The approver's choice in either approve body.
macro_rules! proposal_of {
    ($body:ty) => {
        impl $body {
            pub fn proposal(&self) -> Proposal {
                Proposal {
                    approved_amount: self.approved_amount,
                    approval_code_id: self.approval_code_id,
                    fund_id: self.fund_id,
                    expense_account_id: self.expense_account_id,
                }
            }
        }
    };
}
proposal_of!(ApproveValidateBody);
proposal_of!(ApproveBody);

#[derive(Debug, Serialize, ToSchema)]
pub struct ValidationResult {
    pub errors: Vec<Issue>,
    pub warnings: Vec<Issue>,
}

/// `approve/validate`'s answer: the verdict, and the step an approval would take.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApprovalValidation {
    pub errors: Vec<Issue>,
    pub warnings: Vec<Issue>,
    /// The step an approval now takes.
    pub step: StepInfo,
    /// Whether it is the last step: approving it approves the request.
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// One step of a request's chain, as `approve/validate` names it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StepInfo {
    pub name: String,
    pub role: String,
    /// 0-based.
    pub index: usize,
    pub count: usize,
}

/// A request's approval chain, copied from its form's rule at submission.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ApprovalDto {
    pub steps: Vec<ApprovalStepDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalStepDto {
    pub name: String,
    pub role: String,
    pub state: crate::payment_requests::chain::StepState,
    /// Who took it (a stand-in acting for someone: the stand-in).
    pub by: Option<UserRefDto>,
    pub at: Option<DateTime<Utc>>,
    /// Whom a stand-in took it for.
    pub on_behalf_of: Option<UserRefDto>,
    pub approved_amount: Option<Money>,
}

pub use crate::settings::dto::UserRefDto;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchBody {
    #[schema(min_items = 1, max_items = 1000)]
    pub ids: Vec<i32>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchResult {
    pub moved: Vec<i32>,
}

paged! {
    #[derive(Debug, Default, Deserialize, IntoParams)]
    #[serde(rename_all = "lowercase")]
    #[into_params(parameter_in = Query)]
    pub struct ListQuery {
        #[param(rename = "MentorProgramId")]
        pub mentorprogramid: Option<i32>,
        #[param(rename = "ParticipationId")]
        pub participationid: Option<i32>,
        /// One or more statuses (repeated or comma-separated).
        #[param(rename = "FormStatus", value_type = Vec<Status>)]
        #[serde(default, deserialize_with = "crate::web::list")]
        pub formstatus: Vec<String>,
        /// One or more form types.
        #[param(rename = "FormType", value_type = Vec<FormType>)]
        #[serde(default, deserialize_with = "crate::web::list")]
        pub formtype: Vec<String>,
        /// Approved on or after (UTC date).
        #[param(rename = "ApprovedStart")]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub approvedstart: Option<NaiveDate>,
        /// Approved on or before (UTC date).
        #[param(rename = "ApprovedEnd")]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub approvedend: Option<NaiveDate>,
        /// Charged to this fiscal year (set on submission).
        #[param(rename = "FiscalYearId")]
        pub fiscalyearid: Option<i32>,
        /// Placement ending on or before this date.
        #[param(rename = "PlacementEndDate")]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub placementenddate: Option<NaiveDate>,
        #[param(rename = "IsSubmittedOnSortedAscending")]
        pub issubmittedonsortedascending: Option<bool>,
        #[param(rename = "IsPlacementEndDateSortedAscending")]
        pub isplacementenddatesortedascending: Option<bool>,
        #[param(rename = "IsApprovedAmountSortedAscending")]
        pub isapprovedamountsortedascending: Option<bool>,
        /// Only the requests whose current approval step the caller may take.
        #[param(rename = "WaitingForMe")]
        pub waitingforme: Option<bool>,
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct SummaryQuery {
    #[param(rename = "mentorProgramId")]
    pub mentorprogramid: Option<i32>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusSummary {
    pub form_status: Status,
    pub count: i64,
    pub requested_amount: Money,
    pub approved_amount: Money,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    #[param(rename = "PaymentRequestId")]
    pub paymentrequestid: i32,
    #[param(rename = "PaymentRequestType", value_type = FormType)]
    pub paymentrequesttype: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityEntryDto {
    pub id: i32,
    pub action: String,
    pub actor_user_id: Option<i32>,
    pub actor_name: Option<String>,
    pub from_status: Option<String>,
    pub to_status: Option<String>,
    pub comment: Option<String>,
    /// Amounts and changed fields.
    #[schema(value_type = Object)]
    pub data: Option<serde_json::Value>,
    pub created_at: DateTime<Utc>,
}

/// The rates the server applies to F3 and F12 now, so a form can show its amount while it is
/// filled in by someone who may not read the settings (a coordinator).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentRates {
    /// Per mile (F3).
    pub mileage_rate: Money,
    /// Per meal (F12).
    pub meal_rates: MealRates,
}

// ---- F2 receipts ----

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateUploadUrls {
    #[schema(min_items = 1, max_items = 20)]
    pub files: Vec<FileAnnouncement>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadUrl {
    pub file_id: String,
    /// PUT the bytes here with the announced Content-Type; usable once, until `expiresAt`.
    pub upload_url: String,
    pub expires_at: DateTime<Utc>,
}

/// A receipt as listed on an F2 request.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileDto {
    pub id: String,
    pub file_name: String,
    pub content_type: String,
    pub size: i64,
}

impl From<crate::entities::uploaded_file::Model> for FileDto {
    fn from(f: crate::entities::uploaded_file::Model) -> Self {
        Self { id: f.id, file_name: f.file_name, content_type: f.content_type, size: f.size }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct UploadQuery {
    pub expires: i64,
    #[param(min_length = 1)]
    pub signature: String,
}

/// A form's approval rule: the steps a request of that form goes through, by amount.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRuleDto {
    pub form_type: crate::forms::FormType,
    pub steps: Vec<super::chain::RuleStep>,
}

/// The steps of a rule as `PUT` takes them: 1 to 5, the first from 0, names unique, each
/// role one that holds `request:approve`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalRuleBody {
    #[schema(min_items = 1, max_items = 5)]
    pub steps: Vec<super::chain::RuleStep>,
}

/// A rule to try and the requested amount to try it on.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TryApprovalRuleBody {
    #[schema(min_items = 1, max_items = 5)]
    pub steps: Vec<super::chain::RuleStep>,
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub amount: Money,
}

/// The steps of the rule that apply to the amount tried, in order.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TriedApprovalRule {
    pub steps: Vec<super::chain::RuleStep>,
}

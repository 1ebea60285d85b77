//! The only list of permissions, and the default grants of the built-in roles. Wire codes
//! are lower-case `resource:action`.

use serde::Serialize;
use utoipa::ToSchema;

macro_rules! permissions {
    ($($variant:ident => $code:literal,)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Permission { $($variant,)* }

        impl Permission {
            pub const ALL: &'static [Permission] = &[$(Permission::$variant,)*];

            pub const fn code(self) -> &'static str {
                match self { $(Permission::$variant => $code,)* }
            }
        }
    };
}

permissions! {
    RoleCreate => "role:create",
    RoleEdit => "role:edit",
    RoleRead => "role:read",
    RoleDelete => "role:delete",
    UserCreate => "user:create",
    UserEdit => "user:edit",
    UserRead => "user:read",
    UserDelete => "user:delete",
    ParticipantCreate => "participant:create",
    ParticipantEdit => "participant:edit",
    ParticipantRead => "participant:read",
    ParticipantDelete => "participant:delete",
    PermissionRead => "permission:read",
    CoordinatorCreate => "coordinator:create",
    SettingEdit => "setting:edit",
    SettingRead => "setting:read",
    SettingViewMenu => "setting:viewmenu",
    BudgetEdit => "budget:edit",
    BudgetRead => "budget:read",
    VendorRead => "vendor:read",
    MentorProgramRead => "mentorprogram:read",
    MentorProgramCreate => "mentorprogram:create",
    ProgramReadAll => "program:readall",
    FundRead => "fund:read",
    FundCreate => "fund:create",
    ExpenseAccountRead => "expenseaccount:read",
    ExpenseAccountCreate => "expenseaccount:create",
    CollegeRead => "college:read",
    RequestRead => "request:read",
    RequestCreate => "request:create",
    RequestDelete => "request:delete",
    RequestSubmit => "request:submit",
    RequestMoveBackToDraft => "request:movebacktodraft",
    RequestSendForRevision => "request:sendforrevision",
    RequestApprove => "request:approve",
    RequestMoveBackToSubmitted => "request:movebacktosubmitted",
    RequestMoveToReadyForProcessing => "request:movetoreadyforprocessing",
    RequestEdit => "request:edit",
    LogRead => "log:read",
    InstitutionRead => "institution:read",
    WorkplaceSettingRead => "workplacesetting:read",
    JobCategoryRead => "jobcategory:read",
    TravelPurposeRead => "travelpurpose:read",
    TransitTypeRead => "transittype:read",
    TrainingTypeRead => "trainingtype:read",
    CaucusRegionRead => "caucusregion:read",
    ReportRead => "report:read",
    ReportGenerateVendorPayment => "report:generatevendorpayment",
    ReportSendEmail => "report:sendemail",
    ReportReadVendorPaymentsHistory => "report:readvendorpaymentshistory",
    ReportReadReimbursement => "report:readreimbursement",
    ReportReadParticipants => "report:readparticipants",
    ReportReadApprovalByAccount => "report:readapprovalbyaccount",
    ReportReadApprovalsByRequestType => "report:readapprovalsbyrequesttype",
    ReportReadAllApprovals => "report:readallapprovals",
    ReportReadActualVsBudget => "report:readactualvsbudget",
    ReportReadHistoricalBonuses => "report:readhistoricalbonuses",
    ReportReadPaymentRequestsByType => "report:readpaymentrequestsbytype",
    AuditRead => "audit:read",
}

pub const ADMINISTRATOR: &str = "Administrator";
pub const COORDINATOR: &str = "Coordinator";

impl Permission {
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|p| p.code().eq_ignore_ascii_case(code))
    }

    pub fn resource(self) -> &'static str {
        self.code().split_once(':').map_or("", |(resource, _)| resource)
    }

    pub fn action(self) -> &'static str {
        self.code().split_once(':').map_or("", |(_, action)| action)
    }
}

/// The codes as an OpenAPI enum (roles and user details carry them as text).
impl utoipa::PartialSchema for Permission {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(Self::ALL.iter().map(|p| p.code()))
    }
}

impl ToSchema for Permission {}

/// What a new Coordinator role is granted: participant create/edit/read, request
/// read/create/edit/delete/submit, log read, report read/readparticipants/readreimbursement,
/// budget read and every reference-list read. The office may change it afterwards.
pub const COORDINATOR_DEFAULTS: &[Permission] = {
    use Permission::*;
    &[
        ParticipantCreate,
        ParticipantEdit,
        ParticipantRead,
        RequestRead,
        RequestCreate,
        RequestEdit,
        RequestDelete,
        RequestSubmit,
        LogRead,
        ReportRead,
        ReportReadParticipants,
        ReportReadReimbursement,
        BudgetRead,
        MentorProgramRead,
        FundRead,
        ExpenseAccountRead,
        CollegeRead,
        InstitutionRead,
        WorkplaceSettingRead,
        JobCategoryRead,
        TravelPurposeRead,
        TransitTypeRead,
        TrainingTypeRead,
        CaucusRegionRead,
    ]
};

/// A permission as `GET /identity/permissions` lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PermissionInfo {
    /// `resource:action`
    #[schema(value_type = Permission)]
    pub code: &'static str,
    pub resource: &'static str,
    pub action: &'static str,
    /// Whether the caller may give it to a role (she holds it herself).
    pub grantable: bool,
}

impl From<Permission> for PermissionInfo {
    fn from(p: Permission) -> Self {
        Self { code: p.code(), resource: p.resource(), action: p.action(), grantable: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn there_are_59_unique_lower_case_codes() {
        assert_eq!(Permission::ALL.len(), 59);
        let codes: HashSet<_> = Permission::ALL.iter().map(|p| p.code()).collect();
        assert_eq!(codes.len(), 59);
        for code in codes {
            assert_eq!(code, code.to_ascii_lowercase());
            let (resource, action) = code.split_once(':').unwrap();
            assert!(!resource.is_empty() && !action.is_empty());
        }
    }

    #[test]
    fn codes_round_trip() {
        for p in Permission::ALL {
            assert_eq!(Permission::from_code(p.code()), Some(*p));
        }
        assert_eq!(Permission::from_code("Participant:Read"), Some(Permission::ParticipantRead));
        assert_eq!(Permission::from_code("participant:fly"), None);
    }

    #[test]
    fn coordinators_cannot_approve_or_administer() {
        for p in [
            Permission::RequestApprove,
            Permission::RequestMoveToReadyForProcessing,
            Permission::SettingViewMenu,
            Permission::UserCreate,
            Permission::RoleEdit,
            Permission::ReportGenerateVendorPayment,
        ] {
            assert!(!COORDINATOR_DEFAULTS.contains(&p), "{p:?}");
        }
        assert!(COORDINATOR_DEFAULTS.contains(&Permission::RequestSubmit));
    }
}

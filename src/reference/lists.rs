//! Every reference list of the API, described once. The generic handlers, queries and
//! OpenAPI paths (api.rs, store.rs, openapi.rs) read this table; adding a list is one entry.

use crate::auth::Permission;

use super::fixed;

/// Who may read a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Any signed-in user (lists that have no permission of their own).
    SignedIn,
    Needs(Permission),
}

impl From<Access> for crate::routes::Access {
    fn from(a: Access) -> Self {
        match a {
            Access::SignedIn => Self::SignedIn,
            Access::Needs(p) => Self::Needs(p),
        }
    }
}

/// Where the items come from.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// A table of the common reference shape (migration m20261121_000002_reference).
    Table(&'static str),
    /// A fixed enumeration defined in code (form types, participant enums).
    Fixed(fn() -> Vec<super::dto::RefItem>),
}

/// The one optional filter a list understands besides none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    None,
    /// `query`: name contains, case-insensitive.
    NameContains,
    /// `MentorProgramId`: only that program's colleges.
    MentorProgram,
    /// `PaymentRequestType`: `F1`..`F14`.
    PaymentRequestType,
}

/// What a `POST` must carry besides `name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    None,
    /// Mentor programs: optional `collegeIds`.
    CollegeIds,
    /// Approval codes: required `paymentRequestType`.
    PaymentRequestType,
}

#[derive(Debug, Clone, Copy)]
pub struct RefList {
    /// Path under /api/v1.
    pub path: &'static str,
    /// Activity-log entity type of created items, and OpenAPI operation id stem.
    pub key: &'static str,
    pub title: &'static str,
    pub source: Source,
    pub read: Access,
    /// Lists staff may add to with `POST`, with the permission it needs.
    pub create: Option<Permission>,
    pub filter: Filter,
    pub extra: Extra,
}

impl RefList {
    pub fn table(&self) -> Option<&'static str> {
        match self.source {
            Source::Table(t) => Some(t),
            Source::Fixed(_) => None,
        }
    }
}

/// A list read from `source`, unfiltered, that nobody adds to (the struct update changes that).
const fn list(
    path: &'static str,
    key: &'static str,
    title: &'static str,
    source: Source,
    read: Access,
) -> RefList {
    RefList {
        path,
        key,
        title,
        source,
        read,
        create: None,
        filter: Filter::None,
        extra: Extra::None,
    }
}

const fn table(
    path: &'static str,
    key: &'static str,
    title: &'static str,
    name: &'static str,
    read: Access,
) -> RefList {
    list(path, key, title, Source::Table(name), read)
}

const fn fixed(
    path: &'static str,
    key: &'static str,
    title: &'static str,
    items: fn() -> Vec<super::dto::RefItem>,
    read: Access,
) -> RefList {
    list(path, key, title, Source::Fixed(items), read)
}

use Access::*;
use Permission as P;

pub static LISTS: &[RefList] = &[
    RefList {
        filter: Filter::NameContains,
        ..table(
            "/caucus-regions",
            "caucusRegion",
            "Caucus regions",
            "caucus_regions",
            Needs(P::CaucusRegionRead),
        )
    },
    RefList {
        filter: Filter::MentorProgram,
        ..table("/colleges", "college", "Colleges", "colleges", Needs(P::CollegeRead))
    },
    table("/education-levels", "educationLevel", "Education levels", "education_levels", SignedIn),
    table("/languages", "language", "Languages", "languages", SignedIn),
    table(
        "/permit-levels",
        "permitLevel",
        "Child Development Permit levels",
        "permit_levels",
        SignedIn,
    ),
    table(
        "/workplace-settings",
        "workplaceSetting",
        "Workplace settings",
        "workplace_settings",
        Needs(P::WorkplaceSettingRead),
    ),
    RefList {
        create: Some(P::ExpenseAccountCreate),
        ..table(
            "/expense-accounts",
            "expenseAccount",
            "Expense accounts",
            "expense_accounts",
            Needs(P::ExpenseAccountRead),
        )
    },
    RefList {
        create: Some(P::FundCreate),
        ..table("/funds", "fund", "Funds", "funds", Needs(P::FundRead))
    },
    RefList {
        create: Some(P::MentorProgramCreate),
        extra: Extra::CollegeIds,
        ..table(
            "/mentor-programs",
            "mentorProgram",
            "Mentor programs",
            "mentor_programs",
            Needs(P::MentorProgramRead),
        )
    },
    RefList {
        create: Some(P::RequestApprove),
        filter: Filter::PaymentRequestType,
        extra: Extra::PaymentRequestType,
        ..table("/approval-codes", "approvalCode", "Approval codes", "approval_codes", SignedIn)
    },
    fixed(
        "/payment-requests/types",
        "paymentRequestType",
        "Payment request form types",
        fixed::payment_request_types,
        SignedIn,
    ),
    table(
        "/payment-requests/institutions",
        "institution",
        "Institutions",
        "institutions",
        Needs(P::InstitutionRead),
    ),
    table(
        "/payment-requests/job-categories",
        "jobCategory",
        "Job categories",
        "job_categories",
        Needs(P::JobCategoryRead),
    ),
    table(
        "/payment-requests/travel-purposes",
        "travelPurpose",
        "Travel purposes",
        "travel_purposes",
        Needs(P::TravelPurposeRead),
    ),
    table(
        "/payment-requests/transit-types",
        "transitType",
        "Transit types",
        "transit_types",
        Needs(P::TransitTypeRead),
    ),
    table(
        "/payment-requests/training-types",
        "trainingType",
        "Training types",
        "training_types",
        Needs(P::TrainingTypeRead),
    ),
    fixed(
        "/participants/roles",
        "participantRole",
        "Participant roles",
        fixed::participant_roles,
        Needs(P::ParticipantRead),
    ),
    fixed(
        "/participants/statuses",
        "participantStatus",
        "Participant statuses",
        fixed::participant_statuses,
        Needs(P::ParticipantRead),
    ),
    // "distric-types" (sic) is the path clients know; it is kept as it is spelled.
    fixed(
        "/participants/distric-types",
        "districtSetType",
        "District set types",
        fixed::district_set_types,
        Needs(P::ParticipantRead),
    ),
];

/// The list stored in `table` (for id checks from other areas).
pub fn by_table(name: &str) -> Option<&'static RefList> {
    LISTS.iter().find(|l| l.table() == Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn paths_and_keys_are_unique() {
        let paths: HashSet<_> = LISTS.iter().map(|l| l.path).collect();
        let keys: HashSet<_> = LISTS.iter().map(|l| l.key).collect();
        assert_eq!(paths.len(), LISTS.len());
        assert_eq!(keys.len(), LISTS.len());
        assert_eq!(LISTS.len(), 19);
    }

    #[test]
    fn only_spec_lists_accept_posts() {
        let creatable: Vec<_> =
            LISTS.iter().filter(|l| l.create.is_some()).map(|l| l.path).collect();
        assert_eq!(
            creatable,
            ["/expense-accounts", "/funds", "/mentor-programs", "/approval-codes"]
        );
        assert!(LISTS.iter().filter(|l| l.create.is_some()).all(|l| l.table().is_some()));
    }

    #[test]
    fn every_spec_read_permission_guards_its_list() {
        for p in [
            P::CaucusRegionRead,
            P::CollegeRead,
            P::MentorProgramRead,
            P::FundRead,
            P::ExpenseAccountRead,
            P::InstitutionRead,
            P::WorkplaceSettingRead,
            P::JobCategoryRead,
            P::TravelPurposeRead,
            P::TransitTypeRead,
            P::TrainingTypeRead,
        ] {
            assert!(LISTS.iter().any(|l| l.read == Needs(p)), "{p:?}");
        }
        assert_eq!(by_table("funds").unwrap().path, "/funds");
        assert!(by_table("nope").is_none());
    }
}

//! Reports (docs/reports-api.md): one module per report (its query, its
//! columns) over one export layer (`export/`) that writes any report's rows as CSV, XLSX
//! or PDF, and a runner that serves views and exports of any report.

pub mod actual_vs_budget;
pub mod all_approvals;
pub mod approvals_by_accounts;
pub mod approvals_by_request_type;
pub mod bonuses;
pub mod by_type;
pub mod catalogue;
pub mod catalogue_api;
pub mod details;
pub mod export;
pub mod fields;
pub mod kept;
pub mod openapi;
pub mod participants;
pub mod query;
pub mod reimbursements;
pub mod requests_details;
pub mod runner;

use crate::{
    auth::Permission,
    routes::{Access, Routes},
};

use self::{
    actual_vs_budget::ActualVsBudget,
    all_approvals::AllApprovals,
    approvals_by_accounts::ApprovalsByAccounts,
    approvals_by_request_type::ApprovalsByRequestType,
    catalogue::ReportInfo,
    export::Column,
    participants::Participants,
    reimbursements::Reimbursements,
    runner::{grouped_retrieve, grouped_view, row_retrieve, row_view, GroupedReport, RowReport},
};

/// The reports of this area, in display order, with their columns (the catalogue adds the
/// cards of areas built on the reports', such as vendor payments: `catalogue::Catalogue`).
pub fn all() -> Vec<(ReportInfo, Vec<Column>)> {
    vec![
        (Reimbursements::INFO, Reimbursements::columns()),
        (Participants::INFO, Participants::columns()),
        (ApprovalsByAccounts::INFO, ApprovalsByAccounts::columns()),
        (ApprovalsByRequestType::INFO, ApprovalsByRequestType::columns()),
        (AllApprovals::INFO, AllApprovals::columns()),
        (ActualVsBudget::INFO, ActualVsBudget::columns()),
        (by_type::INFO, by_type::common_columns()),
        (bonuses::INFO, bonuses::columns()),
    ]
}

/// The reports `configure` serves through the runner (`rows`/`grouped` below): their
/// view and export are documented by `openapi::ReportPaths`; the others carry their
/// own `#[utoipa::path]`.
pub const SERVED_BY_RUNNER: [&str; 6] = [
    Reimbursements::INFO.key,
    Participants::INFO.key,
    ApprovalsByAccounts::INFO.key,
    ApprovalsByRequestType::INFO.key,
    AllApprovals::INFO.key,
    ActualVsBudget::INFO.key,
];

fn grouped<G: GroupedReport>(r: &mut Routes) {
    let access = Access::Needs(G::INFO.permission);
    r.get(G::INFO.path, access, grouped_view::<G>).get(
        format!("{}/retrieve", G::INFO.path),
        access,
        grouped_retrieve::<G>,
    );
}

fn rows<R: RowReport>(r: &mut Routes) {
    let access = Access::Needs(R::INFO.permission);
    r.get(R::INFO.path, access, row_view::<R>).get(
        format!("{}/retrieve", R::INFO.path),
        access,
        row_retrieve::<R>,
    );
}

pub fn configure(r: &mut Routes) {
    r.get("/reports", Access::Needs(Permission::ReportRead), catalogue_api::list);
    // Fixed paths before the views they extend.
    r.get(
        "/reports/participants/emails",
        Access::Needs(Permission::ReportSendEmail),
        participants::emails,
    )
    .get(
        "/reports/payee-list",
        Access::Needs(Permission::ReportReadAllApprovals),
        all_approvals::payee_list,
    )
    .get("/reports/bonuses/list", Access::Needs(bonuses::INFO.permission), bonuses::list)
    .get(
        "/reports/bonuses/{fiscalYearId}/{reportFormat}/retrieve",
        Access::Needs(bonuses::INFO.permission),
        bonuses::retrieve,
    )
    .get(
        "/reports/payment-requests/{paymentRequestType}/{reportFormat}/retrieve",
        Access::Needs(by_type::INFO.permission),
        by_type::retrieve,
    )
    .get(
        "/reports/payment-requests-details/retrieve",
        Access::Needs(Permission::RequestRead),
        requests_details::retrieve,
    );
    rows::<Reimbursements>(r);
    rows::<Participants>(r);
    grouped::<ApprovalsByAccounts>(r);
    grouped::<ApprovalsByRequestType>(r);
    rows::<AllApprovals>(r);
    grouped::<ActualVsBudget>(r);
}

//! Reports (DESIGN §6, docs/reports-api.md): one module per report (its query, its
//! columns) over one export layer (`export/`) that writes any report's rows as CSV, XLSX
//! or PDF, and a runner that serves views and exports of any report.

pub mod actual_vs_budget;
pub mod all_approvals;
pub mod approvals_by_accounts;
pub mod approvals_by_request_type;
pub mod bonuses;
pub mod by_type;
pub mod catalogue;
pub mod details;
pub mod export;
pub mod openapi;
pub mod participants;
pub mod query;
pub mod reimbursements;
pub mod requests_details;
pub mod runner;

use actix_web::web;

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

/// Every report of the catalogue, in display order, with its columns.
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

fn grouped<G: GroupedReport>(cfg: &mut web::ServiceConfig) {
    cfg.route(G::INFO.path, web::get().to(grouped_view::<G>))
        .route(&format!("{}/retrieve", G::INFO.path), web::get().to(grouped_retrieve::<G>));
}

fn rows<R: RowReport>(cfg: &mut web::ServiceConfig) {
    cfg.route(R::INFO.path, web::get().to(row_view::<R>))
        .route(&format!("{}/retrieve", R::INFO.path), web::get().to(row_retrieve::<R>));
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/reports", web::get().to(catalogue::list));
    // Fixed paths before the views they extend.
    cfg.route("/reports/participants/emails", web::get().to(participants::emails))
        .route("/reports/payee-list", web::get().to(all_approvals::payee_list))
        .route("/reports/bonuses/list", web::get().to(bonuses::list))
        .route("/reports/bonuses/{fiscalYearId}/{reportFormat}/retrieve", web::get().to(bonuses::retrieve))
        .route("/reports/payment-requests/{paymentRequestType}/{reportFormat}/retrieve", web::get().to(by_type::retrieve))
        .route("/reports/payment-requests-details/retrieve", web::get().to(requests_details::retrieve));
    rows::<Reimbursements>(cfg);
    rows::<Participants>(cfg);
    grouped::<ApprovalsByAccounts>(cfg);
    grouped::<ApprovalsByRequestType>(cfg);
    rows::<AllApprovals>(cfg);
    grouped::<ActualVsBudget>(cfg);
}

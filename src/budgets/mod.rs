//! Budgets: one per fiscal year, lines per mentor program × fund × expense account.

pub mod api;
pub mod dto;
pub mod rules;
pub mod store;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    // bulk-update before {id}, which would otherwise claim it.
    cfg.route("/budgets", web::get().to(api::list_budgets))
        .route("/budgets/bulk-update", web::put().to(api::bulk_update))
        .route("/budgets/{id}", web::get().to(api::get_budget))
        .route("/budgets/{id}", web::put().to(api::update_line));
}

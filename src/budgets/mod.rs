//! Budgets: one per fiscal year, lines per mentor program × fund × expense account.

pub mod api;
pub mod commands;
pub mod dto;
pub mod rules;
pub mod store;

use crate::{
    auth::Permission as P,
    routes::{Access::Needs, Routes},
};

pub fn configure(r: &mut Routes) {
    // bulk-update before {id}, which would otherwise claim it.
    r.get("/budgets", Needs(P::BudgetRead), api::list_budgets)
        .put("/budgets/bulk-update", Needs(P::BudgetEdit), api::bulk_update)
        .get("/budgets/{id}", Needs(P::BudgetRead), api::get_budget)
        // Asked by whoever may close the year, before she does.
        .get("/budgets/{id}/close-preview", Needs(P::SettingEdit), api::close_preview)
        .put("/budgets/{id}", Needs(P::BudgetEdit), api::update_line)
        .post(
            "/budgets/{fiscalYearId}/copy-from/{sourceFiscalYearId}",
            Needs(P::BudgetEdit),
            api::copy_from,
        )
        // A line of a program outside the caller's scope is a 404 before the body is read
        // (the GET's id is a fiscal year, not scoped).
        .scope_route(actix_web::http::Method::PUT, "/budgets/{id}", "id", api::line_in_scope);
}

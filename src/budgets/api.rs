//! Budget handlers: list with totals, one year's lines, change one line, bulk upsert.

use actix_web::web;
use sea_orm::DatabaseConnection;

use super::{
    commands,
    dto::*,
    rules::{self, LineKey},
    store,
};
use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser,
    },
    entities::codes::Status,
    error::{ApiError, ApiResult, ProblemBody},
    money::Money,
    payment_requests,
    routes::ScopeFuture,
    settings,
    state::AppState,
    web::{Json, Query},
};

#[utoipa::path(get, path = "/api/v1/budgets", tag = "budgets", security(("bearer" = [])), params(BudgetsQuery),
    responses((status = 200, description = "Fiscal years, newest first, with their totals", body = Vec<BudgetSummaryDto>),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_budgets(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<BudgetsQuery>,
) -> ApiResult<web::Json<Vec<BudgetSummaryDto>>> {
    let scope = scope_of(&state.db, &me).await?;
    let years = settings::store::fiscal_years(&state.db).await?;
    let lines: Vec<_> = store::all_lines(&state.db)
        .await?
        .into_iter()
        .filter(|l| scope.allows_program(l.mentor_program_id))
        .collect();
    let mut out = Vec::new();
    for year in years.into_iter().filter(|y| rules::name_matches(&y.name, q.query.as_deref())) {
        let by_line = store::approved_by_line(&state.db, year.id).await?;
        let (budgeted, approved) = rules::totals(
            lines
                .iter()
                .filter(|l| l.fiscal_year_id == year.id)
                .map(|l| (l.amount_cents, store::approved_of(&by_line, l))),
        );
        out.push(BudgetSummaryDto {
            fiscal_year_id: year.id,
            name: year.name,
            start_date: year.start_date,
            end_date: year.end_date,
            budgeted: Money(budgeted),
            approved: Money(approved),
            remaining: Money(rules::remaining(budgeted, approved)),
        });
    }
    Ok(web::Json(out))
}

#[utoipa::path(get, path = "/api/v1/budgets/{id}", tag = "budgets", security(("bearer" = [])),
    params(("id" = i32, Path, description = "The fiscal year id")),
    responses((status = 200, body = BudgetDetailDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_budget(
    state: web::Data<AppState>,
    me: CurrentUser,
    fiscal_year_id: web::Path<i32>,
) -> ApiResult<web::Json<BudgetDetailDto>> {
    let scope = scope_of(&state.db, &me).await?;
    Ok(web::Json(store::detail(&state.db, &scope, fiscal_year_id.into_inner()).await?))
}

/// The route table's scope rule for `PUT /budgets/{id}` (`routes::Routes::scope_route`): a
/// line of a program outside the caller's scope is a 404, before the body is read.
pub fn line_in_scope<'a>(db: &'a DatabaseConnection, scope: &'a Scope, id: i32) -> ScopeFuture<'a> {
    Box::pin(async move {
        match store::get_line(db, id).await {
            Ok(line) if scope.allows_program(line.mentor_program_id) => Ok(()),
            Ok(_) => Err(ApiError::not_found("The budget line")),
            Err(e) => Err(e),
        }
    })
}

#[utoipa::path(put, path = "/api/v1/budgets/{id}", tag = "budgets", security(("bearer" = [])), request_body = UpdateLineRequest,
    params(("id" = i32, Path, description = "Budget line id")),
    responses((status = 200, body = BudgetLineDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, description = "Stale version", body = ProblemBody)))]
pub async fn update_line(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<UpdateLineRequest>,
) -> ApiResult<web::Json<BudgetLineDto>> {
    let id = id.into_inner();
    let amount = rules::check_amount("amount", body.amount)?;
    let (line, approved) = commands::update_line(&state.db, &me, id, amount, body.version).await?;
    Ok(web::Json(store::line_dto(line, approved)))
}

#[utoipa::path(put, path = "/api/v1/budgets/bulk-update", tag = "budgets", security(("bearer" = [])), request_body = BulkUpdateRequest,
    responses((status = 200, description = "The year's budget after the update", body = BudgetDetailDto),
        (status = 400, description = "A bad line (named `lines[i].field`): nothing is changed", body = ProblemBody),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn bulk_update(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<BulkUpdateRequest>,
) -> ApiResult<web::Json<BudgetDetailDto>> {
    let keys: Vec<(LineKey, Money)> = body
        .lines
        .iter()
        .map(|l| {
            (
                LineKey {
                    mentor_program_id: l.mentor_program_id,
                    fund_id: l.fund_id,
                    expense_account_id: l.expense_account_id,
                },
                l.amount,
            )
        })
        .collect();
    Ok(web::Json(commands::bulk_update(&state.db, &me, body.fiscal_year_id, &keys).await?))
}

#[utoipa::path(post, path = "/api/v1/budgets/{fiscalYearId}/copy-from/{sourceFiscalYearId}", tag = "budgets", security(("bearer" = [])),
    request_body = CopyBudgetRequest,
    params(("fiscalYearId" = i32, Path, description = "The empty year to fill"), ("sourceFiscalYearId" = i32, Path, description = "The year whose lines are copied")),
    responses((status = 200, description = "Lines created and their total", body = CopyBudgetResult),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, description = "No such year", body = ProblemBody),
        (status = 409, description = "The target year has lines already, or is closed", body = ProblemBody),
        (status = 422, description = "Source and target are the same year", body = ProblemBody)))]
pub async fn copy_from(
    state: web::Data<AppState>,
    me: CurrentUser,
    ids: web::Path<(i32, i32)>,
    Json(body): Json<CopyBudgetRequest>,
) -> ApiResult<web::Json<CopyBudgetResult>> {
    let percent = rules::check_percent_change(body.percent_change.0)?;
    Ok(web::Json(commands::copy_from(&state.db, &me, ids.into_inner(), percent).await?))
}

#[utoipa::path(get, path = "/api/v1/budgets/{id}/close-preview", tag = "budgets", security(("bearer" = [])),
    params(("id" = i32, Path, description = "The fiscal year id")),
    responses((status = 200, description = "What is still open in the year (in the caller's scope) and what closing does to it", body = ClosePreviewDto),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn close_preview(
    state: web::Data<AppState>,
    me: CurrentUser,
    fiscal_year_id: web::Path<i32>,
) -> ApiResult<web::Json<ClosePreviewDto>> {
    let year = settings::store::get_fiscal_year(&state.db, fiscal_year_id.into_inner()).await?;
    let scope = scope_of(&state.db, &me).await?;
    let counts = payment_requests::store::list::year_counts(&state.db, &scope, year.id).await?;
    let open: Vec<OpenInYear> = Status::ALL
        .into_iter()
        .filter_map(|status| {
            let count = counts.iter().find(|(s, _)| *s == status).map(|(_, n)| *n)?;
            let after_close = rules::after_close(status)?.to_owned();
            let label = status.label().to_owned();
            (count > 0).then_some(OpenInYear { form_status: status, label, count, after_close })
        })
        .collect();
    let open_count = open.iter().map(|o| o.count).sum();
    Ok(web::Json(ClosePreviewDto {
        fiscal_year_id: year.id,
        summary: rules::close_summary(&year.name, open_count),
        name: year.name,
        closed: year.closed_at.is_some(),
        open,
        open_count,
    }))
}

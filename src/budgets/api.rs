//! Budget handlers: list with totals, one year's lines, change one line, bulk upsert.

use std::collections::HashMap;

use actix_web::web;
use chrono::Utc;
use serde_json::json;

use super::{
    dto::*,
    rules::{self, LineKey},
    store,
};
use crate::{
    activity,
    auth::{
        scope::{scope_of, Scope},
        CurrentUser,
    },
    entities::budget_line,
    error::{ApiError, ApiResult, ProblemBody},
    money::Money,
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

/// A year's lines the caller's scope may see (a Coordinator: its programs' lines only).
async fn detail(
    db: &impl sea_orm::ConnectionTrait,
    scope: &Scope,
    fiscal_year_id: i32,
) -> ApiResult<BudgetDetailDto> {
    let year = settings::store::get_fiscal_year(db, fiscal_year_id).await?;
    let approved = store::approved_by_line(db, fiscal_year_id).await?;
    let lines = store::lines_of_year(db, fiscal_year_id)
        .await?
        .into_iter()
        .filter(|l| scope.allows_program(l.mentor_program_id))
        .map(|l| {
            let a = store::approved_of(&approved, &l);
            store::line_dto(l, a)
        })
        .collect();
    Ok(BudgetDetailDto { fiscal_year: settings::store::fiscal_year_dto(year), lines })
}

#[utoipa::path(get, path = "/api/v1/budgets/{id}", tag = "budgets", security(("bearer" = [])),
    params(("id" = i32, Path, description = "The fiscal year id (SPEC: fiscalYearId)")),
    responses((status = 200, body = BudgetDetailDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_budget(
    state: web::Data<AppState>,
    me: CurrentUser,
    fiscal_year_id: web::Path<i32>,
) -> ApiResult<web::Json<BudgetDetailDto>> {
    let scope = scope_of(&state.db, &me).await?;
    Ok(web::Json(detail(&state.db, &scope, fiscal_year_id.into_inner()).await?))
}

/// The route table's scope rule for `PUT /budgets/{id}` (`routes::Routes::scope_route`): a
/// line of a program outside the caller's scope is a 404, before the body is read.
/// Unrestricted callers pass without a query; the handler finds the line itself.
pub fn line_in_scope<'a>(
    state: &'a AppState,
    me: &'a CurrentUser,
    id: i32,
) -> crate::routes::ScopeFuture<'a> {
    Box::pin(async move {
        let scope = scope_of(&state.db, me).await?;
        if scope.is_all() {
            return Ok(());
        }
        match store::get_line(&state.db, id).await {
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
    let scope = scope_of(&state.db, &me).await?;
    let txn = crate::db::write(&state.db).await?;
    let before = store::get_line(&txn, id).await?;
    if !scope.allows_program(before.mentor_program_id) {
        return Err(ApiError::not_found("The budget line"));
    }
    if !store::set_amount(&txn, id, amount, body.version).await? {
        return Err(ApiError::Conflict(format!(
            "The budget line was changed by someone else (version {} is current). Reload and try again.",
            before.version
        )));
    }
    let after = store::get_line(&txn, id).await?;
    activity::record(
        &txn,
        activity::Entry {
            entity_type: "budget-line",
            entity_id: id,
            action: "updated",
            actor_user_id: Some(me.id()),
            data: Some(json!({"fiscalYearId": after.fiscal_year_id, "from": Money(before.amount_cents), "to": Money(after.amount_cents)})),
            ..Default::default()
        },
    )
    .await?;
    let approved = store::approved_by_line(&txn, after.fiscal_year_id).await?;
    txn.commit().await?;
    let a = store::approved_of(&approved, &after);
    Ok(web::Json(store::line_dto(after, a)))
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
    let scope = scope_of(&state.db, &me).await?;
    for (i, (key, _)) in keys.iter().enumerate() {
        scope.require_program(key.mentor_program_id, &format!("lines[{i}].mentorProgramId"))?;
    }
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    match settings::store::get_fiscal_year(&txn, body.fiscal_year_id).await {
        // A body naming an unknown year breaks a rule on stored data (422 naming the field), not a missing resource.
        Err(ApiError::NotFound(_)) => {
            return Err(ApiError::rule(
                "fiscalYearId",
                format!("no fiscal year has id {}", body.fiscal_year_id),
            ));
        }
        other => other?,
    };
    let key_list: Vec<LineKey> = keys.iter().map(|(k, _)| *k).collect();
    let known = store::known_ids(&txn, &key_list).await?;
    let amounts = rules::check_bulk(&keys, &known)?;
    let existing: HashMap<(i32, i32, i32), budget_line::Model> =
        store::lines_of_year(&txn, body.fiscal_year_id)
            .await?
            .into_iter()
            .map(|l| ((l.mentor_program_id, l.fund_id, l.expense_account_id), l))
            .collect();
    // Every line in this one transaction: any failure leaves the budget as it was.
    for (key, cents) in key_list.iter().zip(amounts) {
        let (line_id, from, action) =
            match existing.get(&(key.mentor_program_id, key.fund_id, key.expense_account_id)) {
                Some(line) if line.amount_cents == cents => continue,
                Some(line) => {
                    store::set_amount(&txn, line.id, cents, None).await?;
                    (line.id, Some(Money(line.amount_cents)), "updated")
                }
                None => (
                    store::insert_line(&txn, body.fiscal_year_id, key, cents, now).await?,
                    None,
                    "created",
                ),
            };
        activity::record(
            &txn,
            activity::Entry {
                entity_type: "budget-line",
                entity_id: line_id,
                action,
                actor_user_id: Some(me.id()),
                data: Some(json!({"fiscalYearId": body.fiscal_year_id, "from": from, "to": Money(cents), "bulk": true})),
                ..Default::default()
            },
        )
        .await?;
    }
    let result = detail(&txn, &scope, body.fiscal_year_id).await?;
    txn.commit().await?;
    Ok(web::Json(result))
}

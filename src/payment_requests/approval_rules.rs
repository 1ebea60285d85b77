//! Approval rules: which steps a request of each form goes through, by requested amount.
//! Settings screens edit them; the rule of which steps apply lives in `chain`, and the screen's
//! "try an amount" asks `…/try` rather than repeating it.

use actix_web::web;

use super::{
    chain::{self, RoleFact, RuleStep},
    commands,
    dto::{ApprovalRuleBody, ApprovalRuleDto, TriedApprovalRule, TryApprovalRuleBody},
    store::{self, form_of},
};
use crate::{
    auth::CurrentUser,
    error::{ApiError, ApiResult, ProblemBody},
    forms::FormType,
    state::AppState,
    web::Json,
};

/// `steps` as PUT and try judge them: their shape (400), then the rules against the roles
/// stored (422); trimmed, each role spelt as stored.
async fn checked(db: &sea_orm::DatabaseConnection, steps: &[RuleStep]) -> ApiResult<Vec<RuleStep>> {
    chain::check_shape(steps).finish()?;
    let roles = store::rules::approving_roles(db).await?;
    let fact = |name: &str| match roles.get(&name.to_lowercase()) {
        Some((_, approves)) => RoleFact::Exists { approves: *approves },
        None => RoleFact::Missing,
    };
    chain::check_rules(steps, fact).finish_as("The approval rule breaks a rule.")?;
    Ok(steps
        .iter()
        .map(|s| RuleStep {
            name: s.name.trim().to_owned(),
            role: roles
                .get(&s.role.trim().to_lowercase())
                .map(|(n, _)| n.clone())
                .unwrap_or_default(),
            from_amount: s.from_amount,
        })
        .collect())
}

#[utoipa::path(get, path = "/api/v1/system-settings/approval-rules", tag = "settings", security(("bearer" = [])),
    responses((status = 200, description = "F1 to F14, in order", body = Vec<ApprovalRuleDto>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn get_rules(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<Vec<ApprovalRuleDto>>> {
    let rules = store::rules::approval_rules(&state.db).await?;
    Ok(web::Json(
        rules.into_iter().map(|(form_type, steps)| ApprovalRuleDto { form_type, steps }).collect(),
    ))
}

#[utoipa::path(put, path = "/api/v1/system-settings/approval-rules/{formType}", tag = "settings", security(("bearer" = [])),
    params(("formType" = FormType, Path)), request_body = ApprovalRuleBody,
    responses((status = 200, body = ApprovalRuleDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn put_rule(
    state: web::Data<AppState>,
    me: CurrentUser,
    form: web::Path<String>,
    Json(body): Json<ApprovalRuleBody>,
) -> ApiResult<web::Json<ApprovalRuleDto>> {
    let form = form_of(&form)?;
    let steps = checked(&state.db, &body.steps).await?;
    Ok(web::Json(commands::replace_approval_rule(&state.db, &me, form, steps).await?))
}

#[utoipa::path(post, path = "/api/v1/system-settings/approval-rules/{formType}/try", tag = "settings", security(("bearer" = [])),
    params(("formType" = FormType, Path)), request_body = TryApprovalRuleBody,
    responses((status = 200, body = TriedApprovalRule), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn try_rule(
    state: web::Data<AppState>,
    _me: CurrentUser,
    form: web::Path<String>,
    Json(body): Json<TryApprovalRuleBody>,
) -> ApiResult<web::Json<TriedApprovalRule>> {
    form_of(&form)?;
    if body.amount.cents() < 0 {
        return Err(ApiError::bad_field("amount", "must not be negative"));
    }
    let steps = checked(&state.db, &body.steps).await?;
    Ok(web::Json(TriedApprovalRule { steps: chain::applying(&steps, body.amount) }))
}

//! `POST …/{F}/{id}/submit/validate`: the submitter's dry run. Submitting late is allowed
//! (the approver decides), but the submitter is told before the request goes in, with the
//! same rule the approver's warning comes from (`approval::late_submission`).

use actix_web::web;
use chrono::NaiveDate;

use super::{
    approval::{self, Issue},
    commands::{load_for, Target},
    dto::ValidationResult,
    store,
    workflow::Action,
};
use crate::forms::FormType;
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
};

/// What submitting now would be told; nothing is changed. A first submission counts from
/// today, a resubmission from its first submission date; forms without activity dates (F13,
/// F14) have no window.
pub fn submit_warnings(
    submitted_on: NaiveDate,
    activity_end: Option<NaiveDate>,
    window_days: i32,
) -> Vec<Issue> {
    activity_end
        .and_then(|end| approval::late_submission(submitted_on, end, window_days))
        .into_iter()
        .collect()
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/submit/validate", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = ValidationResult, description = "Warnings to confirm before submitting (errors stay empty: the form's limits answer 422 at submit)"),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn submit_validate(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: web::Path<(String, i32)>,
) -> ApiResult<web::Json<ValidationResult>> {
    let (form, id) = path.into_inner();
    let target = Target { form: store::form_of(&form)?, id };
    let r = load_for(&state.db, &me, target, Action::Submit).await?;
    let limits = store::facts::limits(&state.db, r.form_type).await?;
    let submitted_on = r.submitted_on.unwrap_or_else(crate::clock::today);
    Ok(web::Json(ValidationResult {
        errors: vec![],
        warnings: submit_warnings(submitted_on, r.activity_end, limits.submission_window_days),
    }))
}

//! A create or edit checked against the form, the caller's scope and the stored lists: every
//! problem at once, as a 422 naming the fields.

use sea_orm::ConnectionTrait;

use super::{
    dto::WriteRequest,
    receipts,
    store::{self, writes::Checked},
};
use crate::{
    auth::{scope::Scope, CurrentUser},
    error::{ApiError, ApiResult, Checks},
    forms::{self, Details, FormType},
    reference,
};

pub async fn check_write(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    scope: &Scope,
    form: FormType,
    body: &WriteRequest,
    request_id: Option<i32>,
) -> ApiResult<Checked> {
    // The details' shape depends on the form type in the path, which no schema can tie to
    // the body: a mismatch is a rule (422 naming the field), like the rules after it.
    let mut details = Details::parse(form, &body.details).map_err(|e| match e {
        ApiError::BadRequest { detail, errors } => ApiError::Unprocessable { detail, errors },
        other => other,
    })?;
    let mut errors = Checks::default();
    let participation = store::facts::live_participation(db, body.participation_id).await?;
    let participation = match participation {
        Some(p) if scope.allows_program(p.mentor_program_id) => p,
        Some(p) => {
            scope.require_program(p.mentor_program_id, "participationId")?;
            unreachable!()
        }
        None => {
            return Err(ApiError::rule("participationId", "No live participation has this id."))
        }
    };
    if body.mentor_program_id.is_some_and(|m| m != participation.mentor_program_id) {
        errors.add("mentorProgramId", "must be the participation's mentor program");
    }
    let description = forms::check_description(body.description.as_deref(), &mut errors);
    let rates = store::facts::rates(db).await?;
    let limits = store::facts::limits(db, form).await?;
    let evaluated = match forms::evaluate(&mut details, body.requested_amount, &rates, &limits) {
        Ok(e) => Some(e),
        Err(e) => {
            errors.extend(e);
            None
        }
    };
    for (field, list, id) in details.references() {
        let field = format!("details.{field}");
        reference::store::check_ids(db, &mut errors, &field, list.table(), &[id]).await?;
    }
    if let Some(f) = body.fund_id {
        reference::store::check_ids(db, &mut errors, "fundId", "funds", &[f]).await?;
    }
    if let Some(a) = body.expense_account_id {
        reference::store::check_ids(db, &mut errors, "expenseAccountId", "expense_accounts", &[a])
            .await?;
    }
    let ids = details.file_ids().to_vec();
    if ids.iter().any(|id| !receipts::is_file_id(id)) {
        errors.add("details.fileIds", "must hold file ids from generate-upload-urls");
    } else {
        let found = store::files::files_by_ids(db, &ids).await?;
        errors.extend(receipts::check_attachable(&ids, &found, me.id(), request_id));
    }
    errors.finish_as("The request has invalid fields.")?;
    Ok(Checked {
        participation,
        description,
        details,
        evaluated: evaluated.expect("no errors means evaluated"),
        fund_id: body.fund_id,
        expense_account_id: body.expense_account_id,
    })
}

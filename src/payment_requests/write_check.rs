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
    // A payee not chosen, or no longer there, is said with the form's other problems.
    let participation = match body.participation_id {
        id if id <= 0 => None,
        id => store::facts::live_participation(db, id).await?,
    };
    match &participation {
        Some(p) if !scope.allows_program(p.mentor_program_id) => {
            scope.require_program(p.mentor_program_id, "participationId")?;
        }
        Some(_) => {}
        None if body.participation_id <= 0 => errors.add("participationId", "is required"),
        None => errors.add(
            "participationId",
            "is no longer open for requests (its participation ended or was removed): choose the payee again",
        ),
    }
    if let Some(p) = &participation {
        if body.mentor_program_id.is_some_and(|m| m != p.mentor_program_id) {
            errors.add("mentorProgramId", "must be the participation's mentor program");
        }
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
        participation: participation.expect("no errors means a payee"),
        description,
        details,
        evaluated: evaluated.expect("no errors means evaluated"),
        fund_id: body.fund_id,
        expense_account_id: body.expense_account_id,
    })
}

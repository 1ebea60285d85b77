//! Every action that changes payment requests, one function each. A command owns its
//! transaction: it reads the request inside it (scope: 404, workflow: 409), gathers there what
//! the rules judge, and ends in `save`, the one place that runs a request's guarded update
//! and writes its activity entry. Handlers parse, call one command, and render what it returns.

use chrono::Utc;
use sea_orm::{
    sea_query::Expr, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use serde_json::json;

use super::{
    approval::{self, Proposal, Verdict},
    chain::{self, Via},
    dto::{ApproveBody, UploadUrl, WriteRequest},
    receipts,
    store::{self, writes::Checked},
    workflow::{self, Action, Refusal, Status},
    write_check,
};
use crate::{
    audit,
    auth::{scope::scope_of, CurrentUser},
    entities::payment_request as pr,
    error::{ApiError, ApiResult},
    file_store::FileStore,
    forms::{self, Details, FormType},
    money::Money,
    notifications,
    settings::year_lock::{self, Charge},
};

/// The request a path names: `/payment-requests/{formType}/{id}`.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    pub form: FormType,
    pub id: i32,
}

fn refusal(r: Refusal) -> ApiError {
    match r {
        Refusal::Forbidden(p) => ApiError::missing_permission(p.code()),
        Refusal::WrongStatus { action, status } => ApiError::Conflict(format!(
            "The request is {}; {action:?} is not possible from there.",
            status.as_str()
        )),
    }
}

/// The request `action` is about, read through `db` (a command's transaction, or the
/// connection for a dry run): in the caller's scope (404), in a status the action starts
/// from (409). The route table checked the action's permission (403) before.
pub async fn load_for(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    target: Target,
    action: Action,
) -> ApiResult<pr::Model> {
    let scope = scope_of(db, me).await?;
    let r = store::find_visible(db, &scope, target.form, target.id).await?;
    workflow::check(action, r.status, |p| me.has(p)).map_err(refusal)?;
    Ok(r)
}

/// What one command writes to one request besides its status, version and audit columns:
/// the columns it sets and its activity entry.
struct Change {
    action: Action,
    /// The activity entry's name (`approved`, `file-deleted`, …).
    entry: &'static str,
    columns: Vec<(pr::Column, Expr)>,
    comment: Option<String>,
    data: serde_json::Value,
    /// The request keeps its status (a step of its approval that is not the last).
    stays: bool,
}

impl Change {
    fn new(action: Action, entry: &'static str, data: serde_json::Value) -> Self {
        Change { action, entry, columns: Vec::new(), comment: None, data, stays: false }
    }

    fn set(mut self, column: pr::Column, value: impl Into<Expr>) -> Self {
        self.columns.push((column, value.into()));
        self
    }
}

/// The write of a command on `r` as read in `txn`: one update guarded by the version read
/// and the action's source statuses (someone else's change in between is a 409), the
/// action's target status, and the activity entry.
async fn save(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    r: &pr::Model,
    change: Change,
) -> ApiResult<()> {
    let sources = change.action.sources(|p| me.has(p));
    let mut update = store::writes::guarded(r.id, r.version, &sources);
    let to = change.action.target().filter(|_| !change.stays);
    if let Some(to) = to {
        update = update.col_expr(pr::Column::Status, Expr::value(to));
    }
    for (column, value) in change.columns {
        update = update.col_expr(column, value);
    }
    store::writes::save_guarded(update, crate::clock::now(), me.id(), txn).await?;
    // A deleted request has no status after; an edit keeps its own.
    let after = (change.action != Action::Delete).then_some(to.unwrap_or(r.status));
    if let Some(to) = to.filter(|to| *to != r.status) {
        let chain = current_chain(txn, r.id).await?;
        let may_take = step_takers(&chain, r);
        let moved = (Some(r.status), to);
        notifications::commands::request_moved(
            txn,
            me,
            r.id,
            moved,
            change.comment.as_deref(),
            &may_take,
        )
        .await?;
    }
    // The request as it is now, for its entry's fields (none once deleted).
    let saved = match change.action {
        Action::Delete => None,
        _ => Some(
            pr::Entity::find_by_id(r.id)
                .one(txn)
                .await?
                .ok_or_else(|| ApiError::Internal("the changed request is missing".into()))?,
        ),
    };
    store::writes::log(
        txn,
        &me.into(),
        (r.id, change.entry),
        (Some(r.status), after, change.comment),
        change.data,
        Some((Some(r), saved.as_ref())),
    )
    .await
}

/// Request `id`'s chain as it stands in `txn`.
async fn current_chain(txn: &impl ConnectionTrait, id: i32) -> ApiResult<Vec<chain::TakenStep>> {
    Ok(store::steps::of(txn, id).await?.iter().map(store::steps::taken).collect())
}

/// Which approvers of `r`'s program may take its current step (`chain::may_take`): who hears
/// that it waits. Every approver, for a request without a chain.
fn step_takers<'a>(
    steps: &'a [chain::TakenStep],
    r: &'a pr::Model,
) -> impl Fn(&notifications::recipients::Candidate) -> bool + Sync + 'a {
    move |c| candidate_takes(steps, r, c)
}

/// Whether approver `c` (who holds `request:approve` and sees the request's program) may take
/// the current step of `steps` of `r`; a request with no chain is anyone's.
fn candidate_takes(
    steps: &[chain::TakenStep],
    r: &pr::Model,
    c: &notifications::recipients::Candidate,
) -> bool {
    let request = chain::RequestFacts { created_by: r.created_by, submitted_by: r.submitted_by };
    let actor = chain::Actor {
        id: c.user.id,
        active: c.user.is_active,
        roles: c.roles.clone(),
        approves: true,
        sees_program: true,
    };
    steps.is_empty() || chain::may_take(steps, &actor, &request).is_ok()
}

/// The rule of who may take a request's current step, over its stored chain: what the
/// reminders and the daily digest are handed (`notifications::recipients::StepRule`).
pub fn may_take_current(
    r: &pr::Model,
    steps: &[crate::entities::request_step::Model],
    c: &notifications::recipients::Candidate,
) -> bool {
    let steps: Vec<_> = steps.iter().map(store::steps::taken).collect();
    candidate_takes(&steps, r, c)
}

/// Refuses `charge` while the year a request is (or would be) charged to is closed: the year
/// it names, else the one its submission day falls in (today, for one not yet submitted).
async fn require_open_year(
    db: &impl ConnectionTrait,
    charge: Charge,
    fiscal_year_id: Option<i32>,
    submitted_on: Option<chrono::NaiveDate>,
) -> ApiResult<()> {
    let day = submitted_on.unwrap_or_else(crate::clock::today);
    let year = store::facts::charged_year(db, fiscal_year_id, Some(day)).await?;
    year_lock::check_open(charge, year.as_ref().map(Into::into))
}

/// The request as committed, for the caller to render.
async fn reread(db: &DatabaseConnection, id: i32) -> ApiResult<pr::Model> {
    pr::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ApiError::Internal("the changed request is missing".into()))
}

// ---- create, edit, delete ----

pub async fn create(
    db: &DatabaseConnection,
    me: &CurrentUser,
    form: FormType,
    body: &WriteRequest,
) -> ApiResult<pr::Model> {
    let txn = crate::db::write(db).await?;
    require_open_year(&txn, Charge::CreateRequest, None, None).await?;
    let scope = scope_of(&txn, me).await?;
    let c = write_check::check_write(&txn, me, &scope, form, body, None).await?;
    let id = store::writes::insert_draft(&txn, form, &c, me.id(), crate::clock::now()).await?;
    store::files::attach_files(&txn, id, c.details.file_ids()).await?;
    let created = pr::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::Internal("the new request is missing".into()))?;
    store::writes::log(
        &txn,
        &me.into(),
        (id, "created"),
        (None, Some(Status::Draft), None),
        json!({"requestedAmount": c.evaluated.requested_amount}),
        Some((None, Some(&created))),
    )
    .await?;
    txn.commit().await?;
    reread(db, id).await
}

/// The columns an edit sets from checked input.
fn edited(change: Change, c: &Checked) -> Change {
    let (start, end) = c.evaluated.activity_dates.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    change
        .set(pr::Column::ParticipationId, c.participation.id)
        .set(pr::Column::MentorProgramId, c.participation.mentor_program_id)
        .set(pr::Column::ParticipantId, c.participation.participant_id)
        .set(pr::Column::Description, c.description.clone())
        .set(pr::Column::RequestedCents, c.evaluated.requested_amount.cents())
        .set(pr::Column::FundId, c.fund_id)
        .set(pr::Column::ExpenseAccountId, c.expense_account_id)
        .set(pr::Column::PlacementEndDate, c.evaluated.placement_end_date)
        .set(pr::Column::ActivityStart, start)
        .set(pr::Column::ActivityEnd, end)
        .set(pr::Column::Details, c.details.to_json())
}

/// An edit based on `version` (the one the caller read: a later one is a 409).
pub async fn edit(
    db: &DatabaseConnection,
    files: &FileStore,
    me: &CurrentUser,
    target: Target,
    version: i32,
    body: &WriteRequest,
) -> ApiResult<pr::Model> {
    let txn = crate::db::write(db).await?;
    let r = load_for(&txn, me, target, Action::Edit).await?;
    if r.version != version {
        return Err(store::stale());
    }
    require_open_year(&txn, Charge::EditRequest, r.fiscal_year_id, r.submitted_on).await?;
    let scope = scope_of(&txn, me).await?;
    let c = write_check::check_write(&txn, me, &scope, target.form, body, Some(r.id)).await?;
    let dropped = store::files::attach_files(&txn, r.id, c.details.file_ids()).await?;
    let same_details = serde_json::from_str::<serde_json::Value>(&r.details).ok()
        == serde_json::from_str::<serde_json::Value>(&c.details.to_json()).ok();
    // What is paid, or to whom: after a submission, its editor may no longer approve it.
    let material = r.requested_cents != c.evaluated.requested_amount.cents()
        || r.participation_id != c.participation.id
        || !same_details;
    let data = json!({
        "requestedAmount": {"before": Money(r.requested_cents), "after": c.evaluated.requested_amount},
        "removedFiles": dropped,
        "material": material,
    });
    save(&txn, me, &r, edited(Change::new(Action::Edit, approval::EDITED, data), &c)).await?;
    txn.commit().await?;
    // The receipts' bytes go once their rows are gone for good.
    for f in &dropped {
        files.remove(f).await;
    }
    reread(db, r.id).await
}

/// Soft delete: the row and its history stay.
pub async fn delete(db: &DatabaseConnection, me: &CurrentUser, target: Target) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let r = load_for(&txn, me, target, Action::Delete).await?;
    let change = Change::new(Action::Delete, "deleted", json!({}))
        .set(pr::Column::DeletedAt, crate::clock::now());
    save(&txn, me, &r, change).await?;
    txn.commit().await?;
    Ok(())
}

/// Takes one receipt off an F2 request (an edit of its details).
pub async fn delete_file(
    db: &DatabaseConnection,
    files: &FileStore,
    me: &CurrentUser,
    id: i32,
    file_id: &str,
) -> ApiResult<pr::Model> {
    let txn = crate::db::write(db).await?;
    let r = load_for(&txn, me, Target { form: FormType::F2, id }, Action::Edit).await?;
    require_open_year(&txn, Charge::EditRequest, r.fiscal_year_id, r.submitted_on).await?;
    let file = store::files::files_of(&txn, r.id)
        .await?
        .into_iter()
        .find(|f| f.id == file_id)
        .ok_or_else(|| ApiError::not_found("The file"))?;
    let mut details = Details::from_stored(FormType::F2, &r.details)?;
    if let Details::F2(d) = &mut details {
        d.file_ids.retain(|f| f != &file.id);
    }
    store::files::drop_files(&txn, std::slice::from_ref(&file.id)).await?;
    let data = json!({"fileId": file.id, "fileName": file.file_name});
    let change =
        Change::new(Action::Edit, "file-deleted", data).set(pr::Column::Details, details.to_json());
    save(&txn, me, &r, change).await?;
    txn.commit().await?;
    files.remove(&file.id).await;
    reread(db, r.id).await
}

/// Receipts announced as (name, content type, size): their rows, and the signed single-use
/// URLs their bytes go to.
pub async fn announce_files(
    db: &DatabaseConnection,
    files: &FileStore,
    me: &CurrentUser,
    announced: Vec<(String, &str, i64)>,
) -> ApiResult<Vec<UploadUrl>> {
    let now = crate::clock::now();
    let expires_at = now + chrono::Duration::seconds(receipts::UPLOAD_URL_TTL_SECS);
    let txn = crate::db::write(db).await?;
    let quota_mb = crate::settings::store::general(&txn).await?.unattached_receipt_quota_mb;
    let held = store::files::unattached_bytes(&txn, me.id(), now).await?;
    let asked: i64 = announced.iter().map(|(_, _, size)| size).sum();
    receipts::check_quota(held, asked, quota_mb)?;
    let mut out = Vec::new();
    for (file_name, content_type, size) in announced {
        let id = uuid::Uuid::new_v4().to_string();
        let after =
            json!({"fileId": id, "fileName": file_name, "contentType": content_type, "size": size});
        store::files::announce_file(
            &txn,
            &id,
            file_name,
            content_type,
            size,
            me.id(),
            (now, expires_at),
        )
        .await?;
        audit::record(
            &txn,
            &me.into(),
            audit::Change::new("receipt", None, "announced").after(after),
        )
        .await?;
        let signature = files.sign(&id, expires_at.timestamp());
        out.push(UploadUrl {
            upload_url: format!(
                "/api/v1/fileupload/{id}?expires={}&signature={signature}",
                expires_at.timestamp()
            ),
            file_id: id,
            expires_at,
        });
    }
    txn.commit().await?;
    Ok(out)
}

/// A receipt's bytes were stored through its signed URL (the URL is the credential; the
/// actor is the user who announced the receipt, calling from `ip`).
pub async fn receipt_uploaded(
    db: &DatabaseConnection,
    file: &crate::entities::uploaded_file::Model,
    ip: String,
) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let actor = match crate::identity::store::get_user(&txn, file.created_by).await {
        Ok(u) => audit::Actor::user(&u, Some(ip)),
        Err(_) => audit::Actor::anonymous(Some(ip)),
    };
    let after = json!({"fileId": file.id, "fileName": file.file_name, "size": file.size});
    audit::record(&txn, &actor, audit::Change::new("receipt", None, "uploaded").after(after))
        .await?;
    txn.commit().await?;
    Ok(())
}

// ---- transitions ----

pub async fn submit(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
) -> ApiResult<pr::Model> {
    let txn = crate::db::write(db).await?;
    let r = load_for(&txn, me, target, Action::Submit).await?;
    require_open_year(&txn, Charge::SubmitRequest, r.fiscal_year_id, r.submitted_on).await?;
    store::facts::require_live_participation(&txn, r.participation_id).await?;
    // The limits and rates in force now apply: they may have changed since the draft.
    let mut details = Details::from_stored(r.form_type, &r.details)?;
    let rates = store::facts::rates(&txn).await?;
    let limits = store::facts::limits(&txn, r.form_type).await?;
    let evaluated = forms::evaluate(&mut details, Some(Money(r.requested_cents)), &rates, &limits)
        .map_err(|errors| ApiError::Unprocessable {
            detail: "The request breaks the form's limits.".into(),
            errors,
        })?;
    let submitted_on = r.submitted_on.unwrap_or_else(crate::clock::today);
    let year =
        store::facts::charged_year(&txn, r.fiscal_year_id, Some(submitted_on)).await?.map(|y| y.id);
    let data = json!({
        "requestedAmount": evaluated.requested_amount, "submittedOn": submitted_on, "fiscalYearId": year,
    });
    // The chain is the rule in force now, for the amount submitted; later edits of the rule
    // leave it as it is.
    let rule = store::rules::approval_rule(&txn, r.form_type).await?;
    let steps = chain::applying(&rule, evaluated.requested_amount);
    store::steps::copy(&txn, r.id, &steps, crate::clock::now()).await?;
    let change = Change::new(Action::Submit, approval::SUBMITTED, data)
        .set(pr::Column::SubmittedOn, submitted_on)
        .set(pr::Column::SubmittedBy, me.id())
        .set(pr::Column::FiscalYearId, year)
        .set(pr::Column::RequestedCents, evaluated.requested_amount.cents())
        .set(pr::Column::Details, details.to_json());
    save(&txn, me, &r, change).await?;
    txn.commit().await?;
    reread(db, r.id).await
}

/// A transition that sets nothing but the status (and, moving back, drops the approval).
async fn step(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
    action: Action,
    entry: &'static str,
    comment: Option<String>,
) -> ApiResult<pr::Model> {
    let txn = crate::db::write(db).await?;
    let r = load_for(&txn, me, target, action).await?;
    if let Some(charge) = action.charge() {
        require_open_year(&txn, charge, r.fiscal_year_id, r.submitted_on).await?;
    }
    let mut change =
        Change::new(action, entry, json!({"approvedAmount": r.approved_cents.map(Money)}));
    change.comment = comment;
    if action == Action::MoveBackToSubmitted {
        // The approval no longer stands: nothing is charged until approved again.
        change = change
            .set(pr::Column::ApprovedCents, Option::<i64>::None)
            .set(pr::Column::ApprovedAt, Option::<chrono::DateTime<Utc>>::None)
            .set(pr::Column::ApprovedBy, Option::<i32>::None)
            .set(pr::Column::PayeeName, Option::<String>::None)
            .set(pr::Column::PayeeAddress, Option::<String>::None)
            .set(pr::Column::PayeeEmail, Option::<String>::None);
    }
    match action {
        // Approved again from step 1, along the rule in force now.
        Action::MoveBackToSubmitted => {
            let rule = store::rules::approval_rule(&txn, r.form_type).await?;
            let steps = chain::applying(&rule, Money(r.requested_cents));
            store::steps::copy(&txn, r.id, &steps, crate::clock::now()).await?;
        }
        // Back in the creator's hands: the next submission copies the rule afresh.
        Action::SendForRevision | Action::MoveToDraft => store::steps::reset(&txn, r.id).await?,
        _ => {}
    }
    save(&txn, me, &r, change).await?;
    txn.commit().await?;
    reread(db, r.id).await
}

pub async fn move_to_draft(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
) -> ApiResult<pr::Model> {
    step(db, me, target, Action::MoveToDraft, "moved-to-draft", None).await
}

/// `reason`: checked by the caller (the handler's body rule).
pub async fn send_for_revision(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
    reason: String,
) -> ApiResult<pr::Model> {
    step(db, me, target, Action::SendForRevision, "sent-for-revision", Some(reason)).await
}

pub async fn move_back_to_submitted(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
) -> ApiResult<pr::Model> {
    step(db, me, target, Action::MoveBackToSubmitted, "moved-back-to-submitted", None).await
}

pub async fn move_to_ready_for_processing(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
) -> ApiResult<pr::Model> {
    let entry = "moved-to-ready-for-processing";
    step(db, me, target, Action::MoveToReadyForProcessing, entry, None).await
}

// ---- approval ----

/// The approval rules' verdict on `p` at step `index` of the chain, from what `ground`
/// read: today's rules, and no more than the step before approved.
pub fn assess_approval(
    ground: &store::facts::ApprovalGround,
    p: &Proposal,
    index: usize,
) -> Verdict {
    let mut verdict = approval::assess(p, &ground.facts);
    if let Err(message) = chain::check_amount(&ground.chain, index, p.approved_amount) {
        verdict.errors.push(approval::Issue {
            code: "amountAboveEarlierStep",
            field: Some("approvedAmount"),
            message,
        });
    }
    verdict
}

/// The step of `ground`'s chain the caller (`takers`) takes, and how: the current one, if it is the one she
/// `meant` (409 when another approver took it meanwhile) and hers to take (403 naming the
/// step and its role). Her own request passes here: the approval rules refuse it
/// (`selfApproval`), as they always have.
pub fn step_for(
    ground: &store::facts::ApprovalGround,
    takers: &super::takers::Takers,
    meant: Option<usize>,
) -> ApiResult<(usize, Via)> {
    let steps = &ground.chain;
    let Some(current) = chain::current(steps) else {
        return Err(ApiError::Conflict("The request has no step waiting for approval.".into()));
    };
    if let Some(meant) = meant.filter(|m| *m != current) {
        return Err(ApiError::Conflict(format!(
            "Step {} was taken meanwhile; the request waits at step {} of {} now. Reload it.",
            meant + 1,
            current + 1,
            steps.len()
        )));
    }
    let request = chain::RequestFacts {
        created_by: ground.facts.created_by,
        submitted_by: ground.facts.submitted_by,
    };
    match chain::may_take_as(steps, &takers.me, &takers.absent, &request) {
        Ok(taken) => Ok(taken),
        Err(chain::Refusal::OwnRequest) => Ok((current, Via::Myself)),
        Err(refusal) => Err(ApiError::Forbidden(refusal.message())),
    }
}

/// The step's line in the activity log and the audit trail.
fn step_line(
    ground: &store::facts::ApprovalGround,
    index: usize,
    me: &CurrentUser,
    on_behalf_of: Option<String>,
) -> String {
    let s = &ground.chain[index];
    let behalf = on_behalf_of.map(|name| format!(" on behalf of {name}")).unwrap_or_default();
    format!(
        "Step {} of {}, {}, approved by {} {}{behalf}",
        index + 1,
        ground.chain.len(),
        s.name,
        me.user.first_name,
        me.user.last_name
    )
}

/// The current step the request waits at, read before the approval's transaction: what an
/// approver who names no step means (a step taken while she waited for the write lock is a
/// 409, not the next step).
async fn step_as_called(db: &DatabaseConnection, id: i32) -> ApiResult<Option<usize>> {
    let steps: Vec<_> = store::steps::of(db, id).await?.iter().map(store::steps::taken).collect();
    Ok(chain::current(&steps))
}

pub async fn approve(
    db: &DatabaseConnection,
    me: &CurrentUser,
    target: Target,
    body: &ApproveBody,
) -> ApiResult<pr::Model> {
    let p = body.proposal();
    let meant = match body.step {
        Some(i) => Some(usize::from(i)),
        None => step_as_called(db, target.id).await?,
    };
    let txn = crate::db::write(db).await?;
    let r = load_for(&txn, me, target, Action::Approve).await?;
    let ground = store::facts::approval_ground(&txn, &r, &p, me.id()).await?;
    let takers = super::takers::load(&txn, me, r.mentor_program_id).await?;
    let (index, via) = step_for(&ground, &takers, meant)?;
    year_lock::check_open(Charge::ApproveRequest, ground.year.as_ref().map(Into::into))?;
    let verdict = assess_approval(&ground, &p, index);
    let last = chain::is_final(&ground.chain, index);
    // The budget and the other warnings are the last step's to acknowledge.
    verdict.gate(body.acknowledge_warnings || !last)?;
    let now = crate::clock::now();
    let taking = store::steps::Taking {
        by: me.id(),
        on_behalf_of: via.on_behalf_of(),
        approved: p.approved_amount,
        at: now,
    };
    if !store::steps::take(&txn, r.id, index, &taking).await? {
        return Err(store::stale());
    }
    let year = ground.year.as_ref().map(|y| y.id);
    let step = json!({
        "index": index, "count": ground.chain.len(), "name": ground.chain[index].name,
        "role": ground.chain[index].role, "onBehalfOf": via.on_behalf_of(),
        "line": step_line(&ground, index, me, via.on_behalf_of().and_then(|id| takers.name_of(id))),
    });
    let comment =
        body.comment.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned);
    if !last {
        let data = json!({
            "requestedAmount": Money(r.requested_cents), "approvedAmount": p.approved_amount,
            "approvalCodeId": p.approval_code_id, "fundId": p.fund_id,
            "expenseAccountId": p.expense_account_id, "step": step,
        });
        let mut change = Change::new(Action::Approve, "step-approved", data);
        change.stays = true;
        change.comment = comment;
        save(&txn, me, &r, change).await?;
        let chain = current_chain(&txn, r.id).await?;
        notifications::commands::step_reached(&txn, me, r.id, &step_takers(&chain, &r)).await?;
        txn.commit().await?;
        return reread(db, r.id).await;
    }
    // Paid as approved: a later edit of the participant changes neither payment nor packet.
    let payee = store::facts::payee_now(&txn, &r).await?;
    let data = json!({
        "requestedAmount": Money(r.requested_cents), "approvedAmount": p.approved_amount,
        "approvalCodeId": p.approval_code_id, "fundId": p.fund_id, "expenseAccountId": p.expense_account_id,
        "fiscalYearId": year, "acknowledgedWarnings": verdict.warnings, "step": step,
    });
    let mut change = Change::new(Action::Approve, "approved", data)
        .set(pr::Column::ApprovedCents, p.approved_amount.cents())
        .set(pr::Column::ApprovalCodeId, p.approval_code_id)
        .set(pr::Column::FundId, p.fund_id)
        .set(pr::Column::ExpenseAccountId, p.expense_account_id)
        .set(pr::Column::FiscalYearId, year)
        .set(pr::Column::ApprovedAt, now)
        .set(pr::Column::ApprovedBy, me.id())
        .set(pr::Column::PayeeName, payee.name)
        .set(pr::Column::PayeeAddress, payee.address)
        .set(pr::Column::PayeeEmail, payee.email);
    change.comment = comment;
    save(&txn, me, &r, change).await?;
    txn.commit().await?;
    reread(db, r.id).await
}

// ---- approval rules ----

/// One form's approval rule, replaced by `steps` (checked), audited with before and after.
/// Requests in flight keep the chain they were given at submission.
pub async fn replace_approval_rule(
    db: &DatabaseConnection,
    me: &CurrentUser,
    form: FormType,
    steps: Vec<chain::RuleStep>,
) -> ApiResult<super::dto::ApprovalRuleDto> {
    let txn = crate::db::write(db).await?;
    let before = store::rules::approval_rule(&txn, form).await?;
    store::rules::save_approval_rule(&txn, form, &steps, crate::clock::now()).await?;
    let (was, is) = (json!({"steps": before}), json!({"steps": steps}));
    let data = json!({"formType": form.as_str(), "before": was["steps"], "after": is["steps"]});
    let actor = me.into();
    crate::activity::note_change(
        &txn,
        ("setting", 0),
        "approval-rule-updated",
        &actor,
        (&was, &is),
        data,
    )
    .await?;
    txn.commit().await?;
    Ok(super::dto::ApprovalRuleDto { form_type: form, steps })
}

// ---- many at once ----

/// Moves every named request on to Ready for processing, or none: a request not found, out
/// of scope or not in a status the move starts from is named in the 409.
pub async fn batch_ready_for_processing(
    db: &DatabaseConnection,
    me: &CurrentUser,
    ids: &[i32],
) -> ApiResult<()> {
    let action = Action::MoveToReadyForProcessing;
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let rows = pr::Entity::find()
        .filter(pr::Column::Id.is_in(ids.to_vec()))
        .filter(pr::Column::DeletedAt.is_null())
        .all(&txn)
        .await?;
    let offenders: Vec<String> = ids
        .iter()
        .filter_map(|id| match rows.iter().find(|r| r.id == *id) {
            Some(r) if !scope.allows_program(r.mentor_program_id) => {
                Some(format!("{id} (not found)"))
            }
            Some(r) if workflow::check(action, r.status, |p| me.has(p)).is_err() => {
                Some(format!("{id} ({})", r.status.as_str()))
            }
            Some(_) => None,
            None => Some(format!("{id} (not found)")),
        })
        .collect();
    if !offenders.is_empty() {
        return Err(ApiError::Conflict(format!(
            "Nothing was moved: not Approved (or not found): {}.",
            offenders.join(", ")
        )));
    }
    let (sources, to) = (action.sources(|p| me.has(p)), action.target().expect("a transition"));
    let moved =
        store::writes::move_all(&txn, ids, &sources, to, me.id(), crate::clock::now()).await?;
    if moved != ids.len() as u64 {
        return Err(store::stale());
    }
    notifications::commands::requests_moved(&txn, me, ids, Some(Status::Approved), to, None)
        .await?;
    for r in &rows {
        let entry = "moved-to-ready-for-processing";
        let data = json!({"batch": ids.len()});
        let moved = (Some(r.status), Some(to), None);
        store::writes::log(&txn, &me.into(), (r.id, entry), moved, data, None).await?;
    }
    txn.commit().await?;
    Ok(())
}

//! Payment requests: the 14 forms and their approval workflow.

pub mod api;
pub mod approval;
pub mod approval_rules;
pub mod chain;
pub mod commands;
pub mod dto;
pub mod files;
pub mod payee;
pub mod receipts;
pub mod store;
pub mod submit_check;
pub mod takers;
pub mod view;
pub mod workflow;
pub mod write_check;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};
use workflow::Action;

/// Fixed paths first: `/payment-requests/summary` and friends must not be taken for
/// `/payment-requests/{formType}` (reference registers `/payment-requests/types` earlier).
/// Each transition needs the permission of its workflow action.
pub fn configure(r: &mut Routes) {
    let action = |a: Action| Needs(a.permission());
    r.post(
        "/fileupload/generate-upload-urls",
        AnyOf(&[P::RequestCreate, P::RequestEdit]),
        files::generate_upload_urls,
    )
    // The signed URL is the credential: the browser PUTs the bytes without a token.
    .put("/fileupload/{fileId}", Public, files::upload)
    // The forms' approval rules: settings, kept here with the rules they feed.
    .get("/system-settings/approval-rules", Needs(P::SettingRead), approval_rules::get_rules)
    .put(
        "/system-settings/approval-rules/{formType}",
        Needs(P::SettingEdit),
        approval_rules::put_rule,
    )
    .post(
        "/system-settings/approval-rules/{formType}/try",
        Needs(P::SettingRead),
        approval_rules::try_rule,
    )
    .get("/payment-requests", Needs(P::RequestRead), api::list)
    .get("/payment-requests/summary", Needs(P::RequestRead), api::summary)
    .get("/payment-requests/rates", Needs(P::RequestRead), api::rates)
    .get("/payment-requests/activity-log", AllOf(&[P::LogRead, P::RequestRead]), api::activity_log)
    .post(
        "/payment-requests/move-to-statuses/ready-for-processing/batch",
        action(Action::MoveToReadyForProcessing),
        api::batch_ready_for_processing,
    )
    .get("/payment-requests/F2/{id}/files/{fileId}", Needs(P::RequestRead), api::download_file)
    .get(
        "/payment-requests/F2/{id}/files/{fileId}/preview",
        Needs(P::RequestRead),
        api::preview_file,
    )
    .delete("/payment-requests/F2/{id}/files/{fileId}", action(Action::Edit), api::delete_file)
    .post("/payment-requests/{formType}", Needs(P::RequestCreate), api::create)
    .get("/payment-requests/{formType}/{id}", Needs(P::RequestRead), api::get)
    .put("/payment-requests/{formType}/{id}", action(Action::Edit), api::update)
    .delete("/payment-requests/{formType}/{id}", action(Action::Delete), api::delete)
    .post("/payment-requests/{formType}/{id}/submit", action(Action::Submit), api::submit)
    .post(
        "/payment-requests/{formType}/{id}/submit/validate",
        action(Action::Submit),
        submit_check::submit_validate,
    )
    .post(
        "/payment-requests/{formType}/{id}/move-to-draft",
        action(Action::MoveToDraft),
        api::move_to_draft,
    )
    .post(
        "/payment-requests/{formType}/{id}/send-for-revision",
        action(Action::SendForRevision),
        api::send_for_revision,
    )
    .post(
        "/payment-requests/{formType}/{id}/approve/validate",
        action(Action::Approve),
        api::approve_validate,
    )
    .post("/payment-requests/{formType}/{id}/approve", action(Action::Approve), api::approve)
    .post(
        "/payment-requests/{formType}/{id}/move-back-to-submitted",
        action(Action::MoveBackToSubmitted),
        api::move_back_to_submitted,
    )
    .post(
        "/payment-requests/{formType}/{id}/move-to-ready-for-processing",
        action(Action::MoveToReadyForProcessing),
        api::move_to_ready_for_processing,
    )
    // A request outside the caller's programs is a 404 before any body is read.
    .scope("/payment-requests/{formType}/{id}", "id", store::in_scope)
    .scope("/payment-requests/F2/{id}/", "id", store::in_scope)
    // Money moves here: a client may retry these safely with an Idempotency-Key.
    .idempotent("/payment-requests/{formType}")
    .idempotent("/payment-requests/{formType}/{id}/submit")
    .idempotent("/payment-requests/{formType}/{id}/approve")
    .idempotent("/payment-requests/move-to-statuses/ready-for-processing/batch");
}

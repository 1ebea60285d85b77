//! Payment requests: the 14 forms and their approval workflow (DESIGN §4).

pub mod api;
pub mod approval;
pub mod dto;
pub mod files;
pub mod forms;
pub mod store;
pub mod workflow;

use actix_web::web;

/// Fixed paths first: `/payment-requests/summary` and friends must not be taken for
/// `/payment-requests/{formType}` (reference registers `/payment-requests/types` earlier).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/fileupload/generate-upload-urls", web::post().to(files::generate_upload_urls))
        .route("/fileupload/{fileId}", web::put().to(files::upload))
        .route("/payment-requests", web::get().to(api::list))
        .route("/payment-requests/summary", web::get().to(api::summary))
        .route("/payment-requests/rates", web::get().to(api::rates))
        .route("/payment-requests/activity-log", web::get().to(api::activity_log))
        .route("/payment-requests/move-to-statuses/ready-for-processing/batch", web::post().to(api::batch_ready_for_processing))
        .route("/payment-requests/F2/{id}/files/{fileId}", web::get().to(api::download_file))
        .route("/payment-requests/F2/{id}/files/{fileId}", web::delete().to(api::delete_file))
        .route("/payment-requests/{formType}", web::post().to(api::create))
        .route("/payment-requests/{formType}/{id}", web::get().to(api::get))
        .route("/payment-requests/{formType}/{id}", web::put().to(api::update))
        .route("/payment-requests/{formType}/{id}", web::delete().to(api::delete))
        .route("/payment-requests/{formType}/{id}/submit", web::post().to(api::submit))
        .route("/payment-requests/{formType}/{id}/move-to-draft", web::post().to(api::move_to_draft))
        .route("/payment-requests/{formType}/{id}/send-for-revision", web::post().to(api::send_for_revision))
        .route("/payment-requests/{formType}/{id}/approve/validate", web::post().to(api::approve_validate))
        .route("/payment-requests/{formType}/{id}/approve", web::post().to(api::approve))
        .route("/payment-requests/{formType}/{id}/move-back-to-submitted", web::post().to(api::move_back_to_submitted))
        .route("/payment-requests/{formType}/{id}/move-to-ready-for-processing", web::post().to(api::move_to_ready_for_processing));
}

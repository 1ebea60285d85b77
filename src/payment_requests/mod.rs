//! Payment requests: the 14 forms and their approval workflow (DESIGN §4).

pub mod approval;
pub mod files;
pub mod forms;
pub mod workflow;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/fileupload/generate-upload-urls", web::post().to(files::generate_upload_urls))
        .route("/fileupload/{fileId}", web::put().to(files::upload));
}

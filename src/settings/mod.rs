//! System settings: fiscal years, general settings, form validation limits, the
//! coordinator sign-in block and notification banners.

pub mod banners;
pub mod dto;
pub mod fiscal_years;
pub mod general;
pub mod limits;
pub mod login_block;
pub mod rules;
pub mod store;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/system-settings/fiscal-years")
            .get(fiscal_years::list_fiscal_years)
            .post(fiscal_years::create_fiscal_year),
    )
    .route("/system-settings/general", web::get().to(general::get_general))
    .route("/system-settings/general/{id}", web::put().to(general::update_general))
    .service(web::resource("/system-settings/form-validation-limits").get(limits::get_limits).put(limits::put_limits))
    .service(web::resource("/system-settings/block-coordinator-login").get(login_block::get_block).post(login_block::set_block))
    .service(web::resource("/system-settings/notification-banners").get(banners::get_banners).put(banners::put_banners));
}

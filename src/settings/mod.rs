//! System settings: fiscal years, general settings (with the office's date format), form validation limits, the
//! coordinator sign-in block and notification banners. (The forms' approval rules, under
//! `/system-settings/approval-rules`, are kept by `payment_requests`, whose rules they are.)

pub mod banners;
pub mod commands;
pub mod date_format;
pub mod dto;
pub mod fiscal_years;
pub mod general;
pub mod limits;
pub mod login_block;
pub mod rules;
pub mod security;
pub mod security_policy;
pub mod store;
pub mod year_lock;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};

pub fn configure(r: &mut Routes) {
    r.get("/system-settings/fiscal-years", SignedIn, fiscal_years::list_fiscal_years)
        .post(
            "/system-settings/fiscal-years",
            Needs(P::SettingEdit),
            fiscal_years::create_fiscal_year,
        )
        .post(
            "/system-settings/fiscal-years/{id}/close",
            Needs(P::SettingEdit),
            fiscal_years::close_fiscal_year,
        )
        .post(
            "/system-settings/fiscal-years/{id}/reopen",
            Needs(P::SettingEdit),
            fiscal_years::reopen_fiscal_year,
        )
        .get("/system-settings/general", Needs(P::SettingRead), general::get_general)
        .put("/system-settings/general/{id}", Needs(P::SettingEdit), general::update_general)
        .get("/system-settings/form-validation-limits", Needs(P::SettingRead), limits::get_limits)
        .put("/system-settings/form-validation-limits", Needs(P::SettingEdit), limits::put_limits)
        .get("/system-settings/security", Needs(P::SettingRead), security::get_security)
        .put("/system-settings/security", Needs(P::SettingEdit), security::put_security)
        .get(
            "/system-settings/block-coordinator-login",
            Needs(P::SettingRead),
            login_block::get_block,
        )
        .post(
            "/system-settings/block-coordinator-login",
            Needs(P::SettingEdit),
            login_block::set_block,
        )
        // Every signed-in user reads the active banners; the full list needs setting:read (handler).
        .get("/system-settings/notification-banners", SignedIn, banners::get_banners)
        .put("/system-settings/notification-banners", Needs(P::SettingEdit), banners::put_banners);
}

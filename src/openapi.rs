//! The OpenAPI document of the whole API, served at /api/v1/openapi.json and browsed
//! at /api/docs/ (Swagger UI from the UI build, shipped inside the binary).

use std::sync::OnceLock;

use actix_web::HttpResponse;

use utoipa::{
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    Modify, OpenApi,
};

use crate::packets::PacketPaths;
use crate::vendor_payments::VendorPaymentPaths;
use crate::{
    budgets,
    error::ProblemBody,
    identity, notifications, participants, payment_requests, reference,
    reference::openapi::ReferencePaths,
    reports,
    reports::openapi::{ExportFiles, ReportPaths},
    routes::Routes,
    settings, system,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "MentorPay API", version = "1", description = "Payment requests of the mentor program. Every call but sign-in, refresh, password links and health needs `Authorization: Bearer <accessToken>`."),
    paths(
        system::health,
        reference::api::my_programs,
        identity::session::login,
        identity::session::refresh,
        identity::session::logout,
        identity::factors::login_mfa,
        identity::factors::enroll_totp_at_login,
        identity::factors::confirm_totp_at_login,
        identity::factors::my_factors,
        identity::factors::start_totp,
        identity::factors::confirm_totp,
        identity::factors::remove_totp,
        identity::factors::remove_user_factors,
        identity::passkeys::my_passkeys,
        identity::passkeys::start_registration,
        identity::passkeys::finish_registration,
        identity::passkeys::rename_passkey,
        identity::passkeys::remove_passkey,
        identity::passkeys::start_sign_in,
        identity::passkeys::finish_sign_in,
        identity::sessions::my_sessions,
        identity::sessions::end_my_session,
        identity::sessions::end_my_other_sessions,
        identity::sessions::end_user_sessions,
        identity::stand_ins::api::get_mine,
        identity::stand_ins::api::put_mine,
        identity::stand_ins::api::delete_mine,
        identity::stand_ins::api::get_users,
        identity::stand_ins::api::put_users,
        identity::stand_ins::api::delete_users,
        identity::stand_ins::api::candidates,
        identity::session::reset_password,
        identity::session::validate_reset_token,
        identity::session::set_password,
        identity::sso::api::status,
        identity::sso::api::login,
        identity::sso::api::callback,
        identity::sso::api::exchange,
        identity::sso::api::get_settings,
        identity::sso::api::put_settings,
        identity::management::list_permissions,
        identity::management::list_users,
        identity::management::get_user,
        identity::management::create_user,
        identity::management::resend_invitation,
        identity::management::invitation_terms,
        identity::management::update_user,
        identity::management::delete_user,
        identity::management::list_roles,
        identity::management::get_role,
        identity::management::create_role,
        identity::management::update_role,
        identity::management::delete_role,
        participants::api::list,
        participants::api::get,
        participants::api::create,
        participants::api::update,
        participants::api::delete,
        participants::api::add_participation,
        participants::api::update_participation,
        participants::api::delete_participation,
        participants::api::create_identity_user,
        participants::api::participant_list,
        participants::import::api::import,
        participants::import::api::template,
        notifications::api::get_mine,
        notifications::api::put_mine,
        notifications::api::list_outbox,
        crate::audit_log::api::list,
        crate::audit_log::api::retrieve,
        crate::audit_log::api::verify,
        settings::fiscal_years::list_fiscal_years,
        settings::fiscal_years::create_fiscal_year,
        settings::fiscal_years::close_fiscal_year,
        settings::fiscal_years::reopen_fiscal_year,
        settings::general::get_general,
        settings::general::update_general,
        settings::limits::get_limits,
        settings::limits::put_limits,
        payment_requests::approval_rules::get_rules,
        payment_requests::approval_rules::put_rule,
        payment_requests::approval_rules::try_rule,
        settings::security::get_security,
        settings::security::put_security,
        settings::login_block::get_block,
        settings::login_block::set_block,
        settings::banners::get_banners,
        settings::banners::put_banners,
        budgets::api::list_budgets,
        budgets::api::get_budget,
        budgets::api::update_line,
        budgets::api::bulk_update,
        budgets::api::copy_from,
        budgets::api::close_preview,
        payment_requests::files::generate_upload_urls,
        payment_requests::files::upload,
        payment_requests::api::create,
        payment_requests::api::get,
        payment_requests::api::update,
        payment_requests::api::delete,
        payment_requests::api::submit,
        payment_requests::submit_check::submit_validate,
        payment_requests::api::move_to_draft,
        payment_requests::api::send_for_revision,
        payment_requests::api::approve_validate,
        payment_requests::api::approve,
        payment_requests::api::move_back_to_submitted,
        payment_requests::api::move_to_ready_for_processing,
        payment_requests::api::batch_ready_for_processing,
        payment_requests::api::list,
        payment_requests::api::summary,
        payment_requests::api::rates,
        payment_requests::api::activity_log,
        payment_requests::api::download_file,
        payment_requests::api::preview_file,
        payment_requests::api::delete_file,
        reports::catalogue_api::list,
        reports::participants::emails,
        reports::all_approvals::payee_list,
        reports::bonuses::list,
        reports::bonuses::retrieve,
        reports::by_type::retrieve,
        reports::requests_details::retrieve,
    ),
    components(schemas(ProblemBody, reference::dto::RefItem, reference::dto::RefCreate, reference::dto::RefUpdate, reference::dto::MyPrograms,
        reports::query::ReportPage,
        participants::rules::ParticipantStatus, participants::rules::ParticipantRole, participants::rules::DistrictSetType, participants::dto::SortBy,
        crate::auth::Permission, crate::forms::FormType, payment_requests::workflow::Status, crate::web::Id,
        payment_requests::receipts::AllowedType, crate::money::NonNegativeMoney, crate::web::NonBlank)),
    modifiers(&BearerAuth, &ReferencePaths, &ReportPaths, &VendorPaymentPaths, &PacketPaths, &ExportFiles),
    tags((name = "identity", description = "Sign-in, tokens, users, roles"), (name = "reference", description = "Reference lists (one generic implementation)"), (name = "participants", description = "Participants, participations, Coordinator logins"), (name = "settings", description = "System settings and fiscal years"), (name = "budgets", description = "Budget lines per fiscal year"), (name = "payment-requests", description = "Payment requests F1 to F14, their workflow and receipts"), (name = "system", description = "Health"))
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build(),
            ),
        );
    }
}

/// The document as JSON, generated once. Every operation is completed from the app's route
/// table (routes.rs): who may call it and the statuses the kernel answers (401, 403, 400,
/// 413) before any handler runs.
pub fn json(route_table: impl FnOnce() -> Routes) -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut api = ApiDoc::openapi();
        for spec in route_table().specs() {
            let Some(item) = api.paths.paths.get_mut(&spec.full_path()) else { continue };
            if let Some(op) = crate::routes::operation_mut(item, &spec.method) {
                crate::routes::document(&spec, op);
            }
        }
        let mut doc = serde_json::to_value(api).expect("the OpenAPI document serialises");
        crate::routes::constrain_strings(&mut doc);
        serde_json::to_string_pretty(&doc).expect("the OpenAPI document serialises")
    })
}

/// GET /api/v1/openapi.json: served from memory.
pub fn response(json: &'static str) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(json)
}

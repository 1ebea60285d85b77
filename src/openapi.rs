//! The OpenAPI document of the whole API, served at /api/v1/openapi.json and browsed
//! at /api/docs (Swagger UI shipped inside the binary).

use utoipa::{
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    Modify, OpenApi,
};

use crate::{error::ProblemBody, identity, payment_requests, system};

#[derive(OpenApi)]
#[openapi(
    info(title = "MentorPay API", version = "1", description = "Payment requests of the mentor program. Every call but sign-in, refresh, password links and health needs `Authorization: Bearer <accessToken>`."),
    paths(
        system::health,
        identity::session::login,
        identity::session::refresh,
        identity::session::logout,
        identity::session::reset_password,
        identity::session::validate_reset_token,
        identity::session::set_password,
        identity::management::list_permissions,
        identity::management::list_users,
        identity::management::get_user,
        identity::management::create_user,
        identity::management::update_user,
        identity::management::delete_user,
        identity::management::list_roles,
        identity::management::get_role,
        identity::management::create_role,
        identity::management::update_role,
        identity::management::delete_role,
        payment_requests::files::generate_upload_urls,
        payment_requests::files::upload,
    ),
    components(schemas(ProblemBody)),
    modifiers(&BearerAuth),
    tags((name = "identity", description = "Sign-in, tokens, users, roles"), (name = "system", description = "Health"), (name = "payment-requests", description = "Payment requests F1 to F14, their workflow and receipts"))
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

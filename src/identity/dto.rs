//! Wire shapes of the identity calls, camelCase.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::web::paged;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDetails {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// In order: the first decides administrator status and is the one shown.
    pub roles: Vec<String>,
    /// `resource:action` codes.
    #[schema(value_type = Vec<crate::auth::Permission>)]
    pub permissions: Vec<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    #[schema(inline, value_type = crate::web::Email)]
    pub email: String,
    #[schema(min_length = 1)]
    pub password: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    /// Same value as `accessToken`.
    pub token: String,
    pub access_token: String,
    pub refresh_token: String,
    pub user_details: UserDetails,
    /// Only when the sign-in enrolled a factor: its ten recovery codes, shown this once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_codes: Option<Vec<String>>,
}

/// What a password sign-in answers: the tokens, or the second step it still needs.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoginAnswer {
    SignedIn(LoginResponse),
    SecondStep(MfaRequired),
    EnrolFirst(MfaEnrollmentRequired),
}

/// The password was right and the account holds a second factor: finish with
/// `/identity/login/mfa` or `/identity/login/passkey/...` and `mfaToken` (5 minutes, once).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MfaRequired {
    pub mfa_required: bool,
    pub mfa_token: String,
    /// `totp`, `passkey`, `recovery`: the ways this account may finish.
    pub methods: Vec<String>,
}

/// The password was right but the account's role needs a factor it lacks: `mfaToken` may
/// only enrol one (`/identity/login/enroll/totp`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MfaEnrollmentRequired {
    pub mfa_enrollment_required: bool,
    pub mfa_token: String,
}

/// The second step: a code of the authenticator app, or one recovery code.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MfaLoginRequest {
    #[schema(min_length = 1)]
    pub mfa_token: String,
    #[schema(min_length = 1)]
    pub code: Option<String>,
    #[schema(min_length = 1)]
    pub recovery_code: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MfaTokenRequest {
    #[schema(min_length = 1)]
    pub mfa_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MfaEnrollConfirmRequest {
    #[schema(min_length = 1)]
    pub mfa_token: String,
    #[schema(min_length = 1)]
    pub code: String,
}

/// A new authenticator-app secret, to scan (`qrSvg`, drawn by the server) or type (`secret`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotpEnrolment {
    pub secret: String,
    pub otpauth_uri: String,
    pub qr_svg: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeRequest {
    /// Six digits from the authenticator app.
    #[schema(min_length = 1)]
    pub code: String,
}

/// Ten single-use recovery codes, shown this once (only their hashes are kept).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodesDto {
    pub recovery_codes: Vec<String>,
}

/// The caller's second factor as the user menu shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MfaStatusDto {
    pub totp: bool,
    pub passkeys: u64,
    pub recovery_codes_left: u64,
    /// Whether one of the caller's roles must hold a factor.
    pub required: bool,
}

/// One sign-in of the caller (a refresh-token family).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionDto {
    pub id: String,
    pub started_at: chrono::DateTime<chrono::Utc>,
    /// The last time its tokens were renewed.
    pub last_used_at: chrono::DateTime<chrono::Utc>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    /// The sign-in this call is made with.
    pub current: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefreshRequest {
    /// The (possibly expired) access token.
    pub token: String,
    pub refresh_token: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefreshResponse {
    pub token: String,
    pub refresh_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LogoutRequest {
    pub refresh_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetPasswordRequest {
    #[schema(inline, value_type = crate::web::Email)]
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateResetTokenRequest {
    #[schema(inline, value_type = crate::web::Email)]
    pub email: String,
    pub token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetPasswordRequest {
    #[schema(inline, value_type = crate::web::Email)]
    pub email: String,
    pub token: String,
    /// 12 or more characters.
    #[schema(min_length = 12, max_length = 256)]
    pub password: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDto {
    pub id: i32,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub roles: Vec<String>,
    pub is_active: bool,
    /// Set for the login of a participant (a Coordinator).
    pub participant_id: Option<i32>,
    /// The mentor programs she sees besides those she coordinates (staff who approve).
    pub mentor_program_ids: Vec<i32>,
    /// False while an invited user has not chosen a password yet.
    pub has_password: bool,
    pub last_login_at: Option<chrono::DateTime<chrono::Utc>>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// True when only an Administrator may change this account's e-mail, roles or access
    /// and the caller is not one.
    #[serde(default)]
    pub locked: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateUserRequest {
    #[schema(inline, value_type = crate::web::Email)]
    pub email: String,
    #[schema(min_length = 1, max_length = 100)]
    pub first_name: String,
    #[schema(min_length = 1, max_length = 100)]
    pub last_name: String,
    /// Role names, first one shown and deciding administrator status.
    #[schema(min_items = 1, value_type = Vec<crate::web::NonBlank>)]
    pub roles: Vec<String>,
    /// Optional: without it, a set-password link is e-mailed.
    #[schema(min_length = 12, max_length = 256)]
    pub password: Option<String>,
    /// Mentor programs she sees besides those she coordinates; each one the caller sees.
    #[serde(default)]
    #[schema(value_type = Vec<crate::web::Id>)]
    pub mentor_program_ids: Vec<i32>,
    /// The participant whose login this is: required for a Coordinator (who sees the
    /// programs her participant coordinates), one without a login, among those the caller sees.
    #[schema(value_type = Option<crate::web::Id>)]
    pub participant_id: Option<i32>,
}

/// What an invitation's link promises and whether a relay carries its mail.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationTerms {
    /// How long the set-password link lives, in words ("3 days"): what the mail says.
    pub valid_for: String,
    pub valid_hours: i64,
    /// False when no mail relay is set up: mails only reach the server's log.
    pub relay: bool,
}

/// What became of an invitation.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationSent {
    /// True when it was queued for the mail relay; false when no relay is set up.
    pub emailed: bool,
    pub valid_for: String,
    pub valid_hours: i64,
    /// Only without a relay: the set-password link, for the inviter to hand over herself.
    /// A secret; it is shown this once.
    pub link: Option<String>,
}

/// A user just invited (or invited again), and what became of the invitation (none when
/// a password was set for her).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitedUser {
    #[serde(flatten)]
    pub user: UserDto,
    pub invitation: Option<InvitationSent>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateUserRequest {
    #[schema(inline, value_type = crate::web::Email)]
    pub email: String,
    #[schema(min_length = 1, max_length = 100)]
    pub first_name: String,
    #[schema(min_length = 1, max_length = 100)]
    pub last_name: String,
    #[schema(min_items = 1, value_type = Vec<crate::web::NonBlank>)]
    pub roles: Vec<String>,
    pub is_active: bool,
    /// Mentor programs she sees besides those she coordinates; each one the caller sees.
    /// Left out, they stay as they are.
    #[serde(default)]
    #[schema(value_type = Vec<crate::web::Id>)]
    pub mentor_program_ids: Option<Vec<i32>>,
}

/// What `GET /identity/users/{id}` returns besides the body's fields: a PUT ignores them.
impl crate::web::Representation for UpdateUserRequest {
    const READ_ONLY: &'static [&'static str] =
        &["id", "participantId", "hasPassword", "lastLoginAt", "createdAt", "locked"];
}

/// What `GET /identity/roles/{id}` returns besides the body's fields: a PUT ignores them.
impl crate::web::Representation for RoleRequest {
    const READ_ONLY: &'static [&'static str] = &["id", "isBuiltIn", "grantable"];
}

paged! {
    #[derive(Debug, Deserialize, IntoParams)]
    #[serde(rename_all = "lowercase")]
    #[into_params(parameter_in = Query)]
    pub struct UsersQuery {
        /// Role names (repeated or comma-separated): users holding any of them.
        #[serde(default, deserialize_with = "crate::web::list")]
        #[param(rename = "Roles", value_type = Option<String>)]
        pub roles: Vec<String>,
        /// Part of the e-mail, case-insensitive.
        #[param(rename = "Email")]
        pub email: Option<String>,
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleDto {
    pub id: i32,
    pub name: String,
    #[schema(value_type = Vec<crate::auth::Permission>)]
    pub permissions: Vec<String>,
    pub is_built_in: bool,
    /// Whether the caller may give this role to a person (she holds each of its
    /// permissions; Administrator only to an Administrator): what the screens offer.
    #[serde(default)]
    pub grantable: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleRequest {
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    #[schema(value_type = Vec<crate::auth::Permission>)]
    pub permissions: Vec<String>,
}

// ---- passkeys ----

/// One passkey of the caller, as the security page lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyDto {
    pub id: i32,
    pub name: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub last_used_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// WebAuthn options for the browser (`navigator.credentials.create` or `.get`), binary
/// fields in base64url as the WebAuthn JSON forms have them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyOptions {
    #[schema(value_type = Object)]
    pub public_key: serde_json::Value,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasskeyRegisterRequest {
    /// What the person calls it ("Work laptop"): 1 to 60 characters.
    #[schema(min_length = 1, max_length = 60)]
    pub name: String,
    /// The browser's new credential (`PublicKeyCredential` in its JSON form: base64url).
    #[schema(value_type = CredentialJson)]
    pub credential: serde_json::Value,
}

/// The passkey as kept; when it is the account's first factor, its ten recovery codes,
/// shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyRegistered {
    pub passkey: PasskeyDto,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_codes: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasskeyRenameRequest {
    #[schema(min_length = 1, max_length = 60)]
    pub name: String,
}

/// Removing a passkey is proven by the account's password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasswordRequest {
    #[schema(min_length = 1)]
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasskeyLoginRequest {
    #[schema(min_length = 1)]
    pub mfa_token: String,
    /// The browser's assertion (`PublicKeyCredential` in its JSON form: base64url).
    #[schema(value_type = CredentialJson)]
    pub credential: serde_json::Value,
}

/// The OpenAPI schema of a browser's `PublicKeyCredential` in its JSON form: objects, four
/// deep, of texts (ids, base64url), lists of texts (`transports`), flags and numbers
/// (`extensions`). The relying party checks the rest; a value that is not a credential is a
/// 422.
pub struct CredentialJson;

impl utoipa::PartialSchema for CredentialJson {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::{
            schema::{AdditionalProperties, AnyOfBuilder, Schema},
            ArrayBuilder, ObjectBuilder, RefOr, Type,
        };
        let of = |t: Type| ObjectBuilder::new().schema_type(t);
        let mut level = Schema::Object(of(Type::Object).build());
        for _ in 0..4 {
            let values = AnyOfBuilder::new()
                .item(of(Type::String))
                .item(ArrayBuilder::new().items(of(Type::String)))
                .item(of(Type::Boolean))
                .item(of(Type::Number))
                .item(level);
            let values = AdditionalProperties::RefOr(RefOr::T(Schema::AnyOf(values.build())));
            level = Schema::Object(of(Type::Object).additional_properties(Some(values)).build());
        }
        RefOr::T(level)
    }
}

impl utoipa::ToSchema for CredentialJson {}

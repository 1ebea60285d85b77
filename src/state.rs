//! What every handler can reach: the database, token keys, settings, throttles, mail.

use std::sync::Arc;

use sea_orm::DatabaseConnection;

use crate::{
    auth::{callers::CallerCache, grants::GrantsCache, throttle::LoginThrottle, tokens::TokenKeys},
    config::Config,
    file_store::FileStore,
    mail::Mailer,
    web::heavy::Gates,
};

#[derive(Clone)]
pub struct AppState {
    pub db: DatabaseConnection,
    pub keys: TokenKeys,
    pub config: Arc<Config>,
    pub login_throttle: Arc<LoginThrottle>,
    pub mailer: Mailer,
    /// Receipts (object store) and the key signing their upload URLs.
    pub files: FileStore,
    /// Callers' roles and permissions between calls, checked against the auth version.
    pub grants: Arc<GrantsCache>,
    /// Signed-in callers between calls while nothing writes (SQLite only; auth::callers).
    pub callers: Arc<CallerCache>,
    /// The fiscal years under the same rule: every list page needs them to tell which rows
    /// lie in a closed year (settings::store::fiscal_years_kept).
    pub years: Arc<crate::auth::callers::Kept<Vec<crate::entities::fiscal_year::Model>>>,
    /// The slots report pages and exports take (web::heavy).
    pub heavy: Gates,
}

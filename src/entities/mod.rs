//! sea-orm entities, shared by every area. One file per table.

pub mod activity_log;
pub mod app_setting;
pub mod password_token;
pub mod payment_request;
pub mod refresh_token;
pub mod role;
pub mod role_permission;
pub mod uploaded_file;
pub mod user;
pub mod user_role;

pub type Timestamp = chrono::DateTime<chrono::Utc>;

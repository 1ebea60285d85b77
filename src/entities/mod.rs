//! sea-orm entities, shared by every area. One file per table.

/// The entity of a reference list with its own table: every one has these columns (the
/// shape `src/reference/` reads and edits), and some a few more, given in braces.
macro_rules! reference_entity {
    ($table:tt { $($more:tt)* }) => {
        use sea_orm::entity::prelude::*;

        #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
        #[sea_orm(table_name = $table)]
        pub struct Model {
            #[sea_orm(primary_key)]
            pub id: i32,
            pub name: String,
            pub code: Option<String>,
            pub is_active: bool,
            pub sort_order: i32,
            pub created_at: super::Timestamp,
            $($more)*
        }

        #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
        pub enum Relation {}

        impl ActiveModelBehavior for ActiveModel {}
    };
}

pub mod activity_log;
pub mod app_setting;
pub mod approval_code;
pub mod approval_rule;
pub mod audit_log;
pub mod budget_line;
pub mod codes;
pub mod college;
pub mod coordinator_login_block;
pub mod expense_account;
pub mod fiscal_year;
pub mod form_validation_limit;
pub mod fund;
pub mod general_setting;
pub mod idempotency_key;
pub mod mentor_program;
pub mod mentor_program_college;
pub mod mfa_challenge;
pub mod notification_banner;
pub mod out_of_office;
pub mod outbox_mail;
pub mod participant;
pub mod participation;
pub mod passkey;
pub mod passkey_ceremony;
pub mod password_token;
pub mod payment_request;
pub mod payment_request_total;
pub mod recovery_code;
pub mod refresh_token;
pub mod request_step;
pub mod role;
pub mod role_permission;
pub mod sso_ticket;
pub mod uploaded_file;
pub mod user;
pub mod user_program;
pub mod user_role;
pub mod user_totp;
pub mod vendor_payment_report;
pub mod vendor_payment_report_row;

pub type Timestamp = chrono::DateTime<chrono::Utc>;

use sea_orm::entity::prelude::*;

use super::codes::{FormType, Status};

/// How the activity log and the audit trail name a payment request.
pub const ENTITY_TYPE: &str = "payment_request";

/// One payment request of any form (F1..F14). Soft-deleted rows keep `deleted_at`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payment_requests")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub form_type: FormType,
    pub status: Status,
    pub participation_id: i32,
    pub mentor_program_id: i32,
    pub participant_id: i32,
    pub description: Option<String>,
    pub requested_cents: i64,
    pub approved_cents: Option<i64>,
    pub approval_code_id: Option<i32>,
    pub fund_id: Option<i32>,
    pub expense_account_id: Option<i32>,
    pub fiscal_year_id: Option<i32>,
    pub submitted_on: Option<Date>,
    pub submitted_by: Option<i32>,
    pub approved_at: Option<super::Timestamp>,
    pub approved_by: Option<i32>,
    /// The payee as approved (payment_requests::payee), cleared with the approval.
    pub payee_name: Option<String>,
    pub payee_address: Option<String>,
    pub payee_email: Option<String>,
    pub placement_end_date: Option<Date>,
    pub activity_start: Option<Date>,
    pub activity_end: Option<Date>,
    /// The form's typed details as JSON.
    pub details: String,
    pub version: i32,
    pub created_at: super::Timestamp,
    pub created_by: Option<i32>,
    pub updated_at: super::Timestamp,
    pub updated_by: Option<i32>,
    pub deleted_at: Option<super::Timestamp>,
    /// The role and place of the current approval step, NULL while none is current: kept
    /// from `request_steps` by the database (`db::derived`), read by "Waiting for you".
    pub current_step_role: Option<String>,
    pub current_step_index: Option<i32>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

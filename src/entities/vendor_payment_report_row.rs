use sea_orm::entity::prelude::*;

use super::codes::FormType;

/// A frozen row of a vendor payment report: every shown value copied at generation, so
/// later edits of the request, the payee or the reference lists never change it.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vendor_payment_report_rows")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub report_id: i32,
    /// Order within the report (approval time, then request id).
    pub position: i32,
    /// Unique: a request is paid in at most one report.
    pub payment_request_id: i32,
    /// For coordinator scope only; not shown.
    pub mentor_program_id: i32,
    pub form_type: FormType,
    pub payee: String,
    pub payee_address: Option<String>,
    pub approved_at: super::Timestamp,
    pub approval_code: Option<String>,
    pub fund: Option<String>,
    pub expense_account: Option<String>,
    pub amount_cents: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

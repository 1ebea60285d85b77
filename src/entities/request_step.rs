use sea_orm::entity::prelude::*;

/// One step of the approval chain copied into a request at submission.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "request_steps")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub payment_request_id: i32,
    /// 0-based.
    pub step_index: i32,
    pub name: String,
    pub role: String,
    pub from_cents: i64,
    /// `done`, `current` or `waiting` (`payment_requests::chain::StepState`).
    pub state: String,
    pub by_user_id: Option<i32>,
    pub at: Option<super::Timestamp>,
    pub on_behalf_of: Option<i32>,
    pub approved_cents: Option<i64>,
    pub began_at: Option<super::Timestamp>,
    /// The office's day the step last reminded its approvers (at most one a day).
    pub reminded_on: Option<Date>,
    /// The office's day the step was escalated to every Administrator (once).
    pub escalated_on: Option<Date>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

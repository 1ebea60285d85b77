use sea_orm::entity::prelude::*;

/// Limits of one form type (F1..F14).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "form_validation_limits")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub form_type: String,
    pub max_amount_cents: i64,
    pub submission_window_days: i32,
    pub max_miles_per_trip: Option<i32>,
    pub max_hours: Option<i32>,
    pub max_nights: Option<i32>,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

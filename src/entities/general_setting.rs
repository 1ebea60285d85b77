use sea_orm::entity::prelude::*;

/// The one row of general settings. Rates in cents; token lifetimes NULL until saved.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "general_settings")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub organisation_name: String,
    pub support_email: String,
    pub mileage_rate_cents: i64,
    pub breakfast_cents: i64,
    pub lunch_cents: i64,
    pub dinner_cents: i64,
    pub access_token_ttl_seconds: Option<i32>,
    pub refresh_token_ttl_seconds: Option<i32>,
    /// The daily digest's hour (0-23) in `time_zone` (an IANA name).
    pub digest_hour: i32,
    pub time_zone: String,
    /// Megabytes of receipts one person may hold that no request uses yet.
    pub unattached_receipt_quota_mb: i32,
    /// Whole days an approval step waits before its approvers are reminded (daily).
    pub reminder_days: i32,
    /// Whole days an approval step waits before every Administrator is told (once).
    pub escalation_days: i32,
    /// How the office writes a day in the files it imports (`settings::date_format`).
    pub date_format: String,
    pub version: i32,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

//! Wire shapes of the settings calls, camelCase. Money fields are `Money` (exact, two decimals).

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::money::Money;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FiscalYearRequest {
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// First day, `YYYY-MM-DD`.
    #[serde(deserialize_with = "crate::web::date")]
    pub start_date: NaiveDate,
    /// Last day (inclusive), after `startDate`.
    #[serde(deserialize_with = "crate::web::date")]
    pub end_date: NaiveDate,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FiscalYearDto {
    pub id: i32,
    pub name: String,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    /// When the year was closed; null while it is open.
    pub closed_at: Option<DateTime<Utc>>,
    /// Who closed it; null while it is open.
    pub closed_by: Option<UserRefDto>,
    /// Why it was closed; null while it is open.
    pub close_reason: Option<String>,
}

/// A user named on a record.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserRefDto {
    pub id: i32,
    pub email: String,
    pub full_name: String,
}

/// Closing or reopening a fiscal year.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FiscalYearReasonRequest {
    /// Why; kept with the year (closing) and in the activity log (both).
    #[schema(min_length = 1, max_length = 1000)]
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = MealRateSettings)]
pub struct MealRates {
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub breakfast: Money,
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub lunch: Money,
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub dinner: Money,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneralSettingsDto {
    pub id: i32,
    pub organisation_name: String,
    pub support_email: String,
    /// Per mile (F3).
    pub mileage_rate: Money,
    /// Per meal (F12).
    pub meal_rates: MealRates,
    /// Lifetime of newly issued access tokens (the --access-token-ttl flag until saved here).
    pub access_token_ttl_seconds: i64,
    /// Lifetime of newly started sign-ins (the --refresh-token-ttl flag until saved here).
    pub refresh_token_ttl_seconds: i64,
    /// The hour (0-23) at which users who chose a daily digest get it, in `timeZone`.
    pub digest_hour: i64,
    /// The office's time zone, an IANA name such as `America/Chicago`.
    pub time_zone: String,
    /// Megabytes of receipts one person may hold that no request uses yet (announced or
    /// uploaded, not attached); an upload past it is refused (422).
    pub unattached_receipt_quota_mb: i64,
    /// Whole days an approval step waits before its approvers get a reminder (one a day).
    pub reminder_days: i64,
    /// Whole days an approval step waits before every Administrator is told (once);
    /// more than `reminderDays`.
    pub escalation_days: i64,
    /// How the office writes a day in the files it imports (the participant import);
    /// `YYYY-MM-DD` is read as well whatever the setting.
    #[schema(value_type = crate::settings::date_format::DateFormat)]
    pub date_format: String,
    /// Send it back on PUT; a stale one is a 409.
    pub version: i32,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GeneralSettingsRequest {
    /// Optional; when given it must match the id in the path.
    #[schema(value_type = Option<crate::web::Id>)]
    pub id: Option<i32>,
    #[schema(min_length = 1, max_length = 200)]
    pub organisation_name: String,
    #[schema(inline, value_type = crate::web::Email)]
    pub support_email: String,
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub mileage_rate: Money,
    pub meal_rates: MealRates,
    /// 30 to 86400.
    #[schema(minimum = 30, maximum = 86400)]
    pub access_token_ttl_seconds: i64,
    /// 60 to 2592000, not shorter than the access token's.
    #[schema(minimum = 60, maximum = 2592000)]
    pub refresh_token_ttl_seconds: i64,
    /// 0 to 23; absent keeps the saved hour.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 23)]
    pub digest_hour: Option<i64>,
    /// An IANA time zone name; absent keeps the saved one.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64)]
    pub time_zone: Option<String>,
    /// 1 to 10240; absent keeps the saved quota.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10240)]
    pub unattached_receipt_quota_mb: Option<i64>,
    /// 1 to 60; absent keeps the saved number.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    pub reminder_days: Option<i64>,
    /// 2 to 120, more than `reminderDays`; absent keeps the saved number.
    #[serde(default)]
    #[schema(minimum = 2, maximum = 120)]
    pub escalation_days: Option<i64>,
    /// `MM/DD/YYYY`, `DD/MM/YYYY` or `YYYY-MM-DD` (any other is a 422); absent keeps the saved one.
    #[serde(default)]
    #[schema(value_type = Option<crate::settings::date_format::DateFormat>)]
    pub date_format: Option<String>,
    /// The version the change is based on.
    pub version: i32,
}

/// Limits of one form type. `maxMilesPerTrip` applies to F3 only, `maxHours` to F1, F4,
/// F5, F6 and F10, `maxNights` to F11: required there, absent elsewhere.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormLimitDto {
    /// F1 to F14.
    #[schema(value_type = crate::forms::FormType)]
    pub form_type: String,
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub max_amount: Money,
    /// Days after the activity within which the request must be submitted.
    #[schema(minimum = 0, maximum = 3650)]
    pub submission_window_days: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 100000)]
    pub max_miles_per_trip: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 100000)]
    pub max_hours: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 100000)]
    pub max_nights: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoginBlockDto {
    pub is_blocked: bool,
    /// Shown to Coordinators who try to sign in; required while blocked.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum BannerSeverity {
    Info,
    Warning,
    Error,
}

impl BannerSeverity {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Info => "Info",
            Self::Warning => "Warning",
            Self::Error => "Error",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Info, Self::Warning, Self::Error].into_iter().find(|v| v.as_str() == s)
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BannerDto {
    pub id: i32,
    pub message: String,
    pub severity: BannerSeverity,
    pub starts_at: Option<DateTime<Utc>>,
    pub ends_at: Option<DateTime<Utc>>,
    pub is_active: bool,
}

/// One banner of the list sent on PUT: with `id` it updates that banner, without it adds one.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BannerInput {
    #[serde(default)]
    #[schema(value_type = Option<crate::web::Id>)]
    pub id: Option<i32>,
    #[schema(min_length = 1, max_length = 1000)]
    pub message: String,
    pub severity: BannerSeverity,
    /// Shown from (inclusive); none = already.
    #[serde(default, deserialize_with = "crate::web::opt_datetime")]
    pub starts_at: Option<DateTime<Utc>>,
    /// Shown until (exclusive); none = until switched off.
    #[serde(default, deserialize_with = "crate::web::opt_datetime")]
    pub ends_at: Option<DateTime<Utc>>,
    pub is_active: bool,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct BannersQuery {
    /// Only the banners showing now (any signed-in user may ask for these).
    #[param(rename = "ActiveOnly")]
    pub activeonly: Option<bool>,
}

//! Settings queries, the default rows written on start, and the two reads that sign-in
//! depends on (token lifetimes, the coordinator block). Callers pass a connection or a
//! transaction.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::{
    sea_query::{Expr, ExprTrait, OnConflict},
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, Iterable, PaginatorTrait,
    QueryFilter, QueryOrder, Set,
};

use super::{
    date_format::DateFormat,
    dto::{
        BannerDto, BannerInput, BannerSeverity, FiscalYearDto, FormLimitDto, GeneralSettingsDto,
        LoginBlockDto, MealRates, UserRefDto,
    },
    rules::{self, FORMS},
};
use crate::{
    auth::tokens::TokenKeys,
    entities::{
        coordinator_login_block, fiscal_year, form_validation_limit, general_setting,
        notification_banner, refresh_token, role, user, user_role,
    },
    error::{ApiError, ApiResult},
    money::Money,
};

/// The row id of the single-row tables.
pub const SINGLE_ROW_ID: i32 = 1;

/// Writes the default rows that are missing (first start, or a form type added later).
/// Safe to run by several instances at once: existing rows are never touched.
pub async fn ensure_defaults(db: &impl ConnectionTrait) -> Result<(), sea_orm::DbErr> {
    let now = crate::clock::now();
    if general_setting::Entity::find().count(db).await? == 0 {
        let row = general_setting::ActiveModel {
            id: Set(SINGLE_ROW_ID),
            organisation_name: Set("Mentor Program".into()),
            support_email: Set("support@localhost.localdomain".into()),
            // IRS business mileage rate 2025; per-meal rates of the federal M&IE tables.
            mileage_rate_cents: Set(70),
            breakfast_cents: Set(1_600),
            lunch_cents: Set(1_900),
            dinner_cents: Set(2_800),
            access_token_ttl_seconds: Set(None),
            refresh_token_ttl_seconds: Set(None),
            digest_hour: Set(8),
            time_zone: Set("UTC".into()),
            unattached_receipt_quota_mb: Set(100),
            reminder_days: Set(3),
            escalation_days: Set(7),
            date_format: Set(DateFormat::default().code().into()),
            version: Set(1),
            updated_at: Set(now),
        };
        general_setting::Entity::insert(row)
            .on_conflict_do_nothing_on([general_setting::Column::Id])
            .exec(db)
            .await?;
    }
    let block = coordinator_login_block::ActiveModel {
        id: Set(SINGLE_ROW_ID),
        is_blocked: Set(false),
        message: Set(None),
        updated_at: Set(now),
    };
    coordinator_login_block::Entity::insert(block)
        .on_conflict_do_nothing_on([coordinator_login_block::Column::Id])
        .exec(db)
        .await?;
    let defaults: Vec<rules::LimitValues> = FORMS.iter().map(rules::LimitValues::from).collect();
    form_validation_limit::Entity::insert_many(limit_rows(&defaults, now))
        .on_conflict_do_nothing_on([form_validation_limit::Column::FormType])
        .exec(db)
        .await?;
    Ok(())
}

// ---- fiscal years ----

/// The years as served, with the users who closed them read in one query.
pub async fn fiscal_year_dtos(
    db: &impl ConnectionTrait,
    years: Vec<fiscal_year::Model>,
) -> ApiResult<Vec<FiscalYearDto>> {
    let closers: Vec<i32> = years.iter().filter_map(|y| y.closed_by).collect();
    let users: HashMap<i32, user::Model> = if closers.is_empty() {
        HashMap::new()
    } else {
        user::Entity::find()
            .filter(user::Column::Id.is_in(closers))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect()
    };
    Ok(years
        .into_iter()
        .map(|m| {
            let closed_by = m.closed_by.and_then(|id| users.get(&id)).map(|u| UserRefDto {
                id: u.id,
                email: u.email.clone(),
                full_name: format!("{} {}", u.first_name, u.last_name),
            });
            FiscalYearDto {
                id: m.id,
                name: m.name,
                start_date: m.start_date,
                end_date: m.end_date,
                closed_at: m.closed_at,
                closed_by,
                close_reason: m.close_reason,
            }
        })
        .collect())
}

/// One year as served.
pub async fn fiscal_year_dto(
    db: &impl ConnectionTrait,
    year: fiscal_year::Model,
) -> ApiResult<FiscalYearDto> {
    Ok(fiscal_year_dtos(db, vec![year]).await?.remove(0))
}

/// Newest first.
pub async fn fiscal_years(db: &impl ConnectionTrait) -> ApiResult<Vec<fiscal_year::Model>> {
    Ok(fiscal_year::Entity::find().order_by_desc(fiscal_year::Column::StartDate).all(db).await?)
}

/// [`fiscal_years`] as kept between calls while nothing writes (`AppState::years`).
pub async fn fiscal_years_kept(
    state: &crate::state::AppState,
) -> ApiResult<std::sync::Arc<Vec<fiscal_year::Model>>> {
    let today = crate::clock::today();
    if let Some(years) = state.years.get(&state.callers, today) {
        return Ok(years);
    }
    let ticket = state.callers.ticket(today);
    let years = std::sync::Arc::new(fiscal_years(&state.db).await?);
    state.years.put(&state.callers, ticket, years.clone());
    Ok(years)
}

/// The one lookup of a fiscal year by id.
pub async fn fiscal_year(
    db: &impl ConnectionTrait,
    id: i32,
) -> ApiResult<Option<fiscal_year::Model>> {
    Ok(fiscal_year::Entity::find_by_id(id).one(db).await?)
}

/// A fiscal year the caller names by id: 404 when there is none.
pub async fn get_fiscal_year(db: &impl ConnectionTrait, id: i32) -> ApiResult<fiscal_year::Model> {
    fiscal_year(db, id).await?.ok_or_else(|| ApiError::not_found("The fiscal year"))
}

/// The fiscal year `day` falls in (years never overlap).
pub async fn fiscal_year_covering(
    db: &impl ConnectionTrait,
    day: chrono::NaiveDate,
) -> ApiResult<Option<fiscal_year::Model>> {
    Ok(fiscal_year::Entity::find()
        .filter(fiscal_year::Column::StartDate.lte(day))
        .filter(fiscal_year::Column::EndDate.gte(day))
        .one(db)
        .await?)
}

// ---- general ----

pub async fn general(db: &impl ConnectionTrait) -> ApiResult<general_setting::Model> {
    general_setting::Entity::find()
        .order_by_asc(general_setting::Column::Id)
        .one(db)
        .await?
        .ok_or_else(|| ApiError::Internal("general settings row missing".into()))
}

pub fn general_dto(m: general_setting::Model, keys: &TokenKeys) -> GeneralSettingsDto {
    GeneralSettingsDto {
        id: m.id,
        organisation_name: m.organisation_name,
        support_email: m.support_email,
        mileage_rate: Money(m.mileage_rate_cents),
        meal_rates: MealRates {
            breakfast: Money(m.breakfast_cents),
            lunch: Money(m.lunch_cents),
            dinner: Money(m.dinner_cents),
        },
        access_token_ttl_seconds: rules::effective_ttl(
            m.access_token_ttl_seconds,
            keys.access_ttl_secs,
        ),
        refresh_token_ttl_seconds: rules::effective_ttl(
            m.refresh_token_ttl_seconds,
            keys.refresh_ttl_secs,
        ),
        digest_hour: m.digest_hour.into(),
        time_zone: m.time_zone,
        unattached_receipt_quota_mb: m.unattached_receipt_quota_mb.into(),
        reminder_days: m.reminder_days.into(),
        escalation_days: m.escalation_days.into(),
        date_format: DateFormat::stored(&m.date_format).code().to_owned(),
        version: m.version,
    }
}

/// How the office writes a day in the files it imports.
pub async fn date_format(db: &impl ConnectionTrait) -> ApiResult<DateFormat> {
    Ok(DateFormat::stored(&general(db).await?.date_format))
}

/// Lifetimes (access, refresh) in seconds for tokens issued now: saved settings, else the flags.
pub async fn token_lifetimes(db: &impl ConnectionTrait, keys: &TokenKeys) -> ApiResult<(i64, i64)> {
    let g = general(db).await?;
    Ok((
        rules::effective_ttl(g.access_token_ttl_seconds, keys.access_ttl_secs),
        rules::effective_ttl(g.refresh_token_ttl_seconds, keys.refresh_ttl_secs),
    ))
}

// ---- form validation limits ----

pub fn limit_dto(m: form_validation_limit::Model) -> FormLimitDto {
    FormLimitDto {
        form_type: m.form_type,
        max_amount: Money(m.max_amount_cents),
        submission_window_days: m.submission_window_days.into(),
        max_miles_per_trip: m.max_miles_per_trip.map(i64::from),
        max_hours: m.max_hours.map(i64::from),
        max_nights: m.max_nights.map(i64::from),
    }
}

/// In form order F1..F14.
pub async fn limits(db: &impl ConnectionTrait) -> ApiResult<Vec<form_validation_limit::Model>> {
    let mut rows = form_validation_limit::Entity::find().all(db).await?;
    rows.sort_by_key(|r| {
        FORMS.iter().position(|f| f.form_type == r.form_type).unwrap_or(usize::MAX)
    });
    Ok(rows)
}

// ---- coordinator sign-in block ----

pub async fn login_block(db: &impl ConnectionTrait) -> ApiResult<coordinator_login_block::Model> {
    Ok(coordinator_login_block::Entity::find_by_id(SINGLE_ROW_ID).one(db).await?.unwrap_or(
        coordinator_login_block::Model {
            id: SINGLE_ROW_ID,
            is_blocked: false,
            message: None,
            updated_at: crate::clock::now(),
        },
    ))
}

pub fn login_block_dto(m: coordinator_login_block::Model) -> LoginBlockDto {
    LoginBlockDto { is_blocked: m.is_blocked, message: m.message }
}

/// 403 with the configured message when coordinator sign-in is blocked and `roles` make
/// the user one of those shut out. Called on sign-in and on every refresh.
pub async fn ensure_may_sign_in(db: &impl ConnectionTrait, roles: &[String]) -> ApiResult<()> {
    let block = login_block(db).await?;
    if rules::is_shut_out(block.is_blocked, roles) {
        let message =
            block.message.unwrap_or_else(|| "Coordinator sign-in is currently blocked.".into());
        return Err(ApiError::Forbidden(message));
    }
    Ok(())
}

/// Ends the sign-ins of every user a block shuts out (revokes their live refresh-token
/// families, which the per-call check reads): their access tokens are refused from the next
/// call. Returns how many users had a sign-in ended.
pub async fn end_shut_out_sessions(
    db: &impl ConnectionTrait,
    now: DateTime<Utc>,
) -> ApiResult<u64> {
    let names: HashMap<i32, String> =
        role::Entity::find().all(db).await?.into_iter().map(|r| (r.id, r.name)).collect();
    let mut roles_of: HashMap<i32, Vec<String>> = HashMap::new();
    for ur in user_role::Entity::find().all(db).await? {
        if let Some(name) = names.get(&ur.role_id) {
            roles_of.entry(ur.user_id).or_default().push(name.clone());
        }
    }
    let shut_out: Vec<i32> = roles_of
        .into_iter()
        .filter(|(_, roles)| rules::is_shut_out(true, roles))
        .map(|(id, _)| id)
        .collect();
    if shut_out.is_empty() {
        return Ok(0);
    }
    let live = refresh_token::Entity::find()
        .filter(refresh_token::Column::UserId.is_in(shut_out.clone()))
        .filter(refresh_token::Column::RevokedAt.is_null())
        .all(db)
        .await?;
    let mut ended: Vec<i32> = live.iter().map(|t| t.user_id).collect();
    ended.sort_unstable();
    ended.dedup();
    refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::RevokedAt, Expr::value(now))
        .filter(refresh_token::Column::UserId.is_in(shut_out))
        .filter(refresh_token::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(ended.len() as u64)
}

// ---- banners ----

pub async fn banners(db: &impl ConnectionTrait) -> ApiResult<Vec<notification_banner::Model>> {
    Ok(notification_banner::Entity::find()
        .order_by_asc(notification_banner::Column::Position)
        .order_by_asc(notification_banner::Column::Id)
        .all(db)
        .await?)
}

pub fn banner_dto(m: notification_banner::Model) -> BannerDto {
    BannerDto {
        id: m.id,
        message: m.message,
        // Only the three values are ever written; anything else reads as Info.
        severity: BannerSeverity::parse(&m.severity).unwrap_or(BannerSeverity::Info),
        starts_at: m.starts_at,
        ends_at: m.ends_at,
        is_active: m.is_active,
    }
}

/// The limits of one form type as payment requests enforce them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormLimits {
    /// Canonical code, `F1` to `F14`.
    pub form_type: &'static str,
    pub max_amount: Money,
    pub submission_window_days: i32,
    /// Set for F3.
    pub max_miles_per_trip: Option<i32>,
    /// Set for F1, F4, F5, F6, F10.
    pub max_hours: Option<i32>,
    /// Set for F11.
    pub max_nights: Option<i32>,
}

/// The limits in force for `form_type` (`F3`, case-insensitive); 400 naming `formType`
/// for an unknown type. Pass the transaction the check belongs to.
pub async fn for_form(db: &impl ConnectionTrait, form_type: &str) -> ApiResult<FormLimits> {
    let spec = rules::form_spec(form_type).ok_or_else(|| {
        ApiError::bad_field("formType", format!("unknown form type '{form_type}'"))
    })?;
    let row = form_validation_limit::Entity::find_by_id(spec.form_type).one(db).await?;
    Ok(match row {
        Some(r) => FormLimits {
            form_type: spec.form_type,
            max_amount: Money(r.max_amount_cents),
            submission_window_days: r.submission_window_days,
            max_miles_per_trip: r.max_miles_per_trip,
            max_hours: r.max_hours,
            max_nights: r.max_nights,
        },
        // Rows are written on start; the seeded defaults stand in should one be missing.
        None => FormLimits {
            form_type: spec.form_type,
            max_amount: Money(spec.max_amount_cents),
            submission_window_days: spec.submission_window_days,
            max_miles_per_trip: spec.max_miles_per_trip,
            max_hours: spec.max_hours,
            max_nights: spec.max_nights,
        },
    })
}

// ---- writes of the settings calls, each in the caller's transaction ----

/// The banner list replaced by `banners` in display order (`messages`: their checked texts);
/// banners left out are deleted.
pub async fn replace_banners(
    txn: &impl ConnectionTrait,
    banners: &[BannerInput],
    messages: Vec<String>,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let kept: Vec<i32> = banners.iter().filter_map(|b| b.id).collect();
    notification_banner::Entity::delete_many()
        .filter(notification_banner::Column::Id.is_not_in(kept))
        .exec(txn)
        .await?;
    for (position, (b, message)) in banners.iter().zip(messages).enumerate() {
        let mut row = notification_banner::ActiveModel {
            message: Set(message),
            severity: Set(b.severity.as_str().into()),
            starts_at: Set(b.starts_at),
            ends_at: Set(b.ends_at),
            is_active: Set(b.is_active),
            position: Set(position as i32),
            updated_at: Set(now),
            ..Default::default()
        };
        match b.id {
            Some(id) => {
                row.id = Set(id);
                row.update(txn).await?;
            }
            None => {
                row.insert(txn).await?;
            }
        }
    }
    Ok(())
}

/// A new fiscal year (its range checked by the caller); a taken name is a 409.
pub async fn insert_fiscal_year(
    txn: &impl ConnectionTrait,
    name: &str,
    start_date: NaiveDate,
    end_date: NaiveDate,
) -> ApiResult<fiscal_year::Model> {
    fiscal_year::ActiveModel {
        name: Set(name.to_owned()),
        start_date: Set(start_date),
        end_date: Set(end_date),
        created_at: Set(crate::clock::now()),
        closed_at: Set(None),
        closed_by: Set(None),
        close_reason: Set(None),
        ..Default::default()
    }
    .insert(txn)
    .await
    .map_err(|e| {
        ApiError::unique_or_internal(e, &format!("A fiscal year named {name} already exists."))
    })
}

/// Closes the year (`Some((at, by, reason))`) or reopens it (`None`).
pub async fn set_closed(
    txn: &impl ConnectionTrait,
    id: i32,
    closed: Option<(DateTime<Utc>, i32, String)>,
) -> ApiResult<()> {
    let (at, by, reason) = match closed {
        Some((at, by, reason)) => (Some(at), Some(by), Some(reason)),
        None => (None, None, None),
    };
    fiscal_year::Entity::update_many()
        .col_expr(fiscal_year::Column::ClosedAt, Expr::value(at))
        .col_expr(fiscal_year::Column::ClosedBy, Expr::value(by))
        .col_expr(fiscal_year::Column::CloseReason, Expr::value(reason))
        .filter(fiscal_year::Column::Id.eq(id))
        .exec(txn)
        .await?;
    Ok(())
}

/// The general settings saved if still at `version`; false when someone saved first.
pub async fn save_general(
    txn: &impl ConnectionTrait,
    id: i32,
    version: i32,
    v: &rules::GeneralValues,
) -> ApiResult<bool> {
    // One conditional update: of two saves based on the same version exactly one wins.
    let mut update = general_setting::Entity::update_many();
    if let Some(hour) = v.digest_hour {
        update = update.col_expr(general_setting::Column::DigestHour, Expr::value(hour));
    }
    if let Some(mb) = v.unattached_receipt_quota_mb {
        update =
            update.col_expr(general_setting::Column::UnattachedReceiptQuotaMb, Expr::value(mb));
    }
    if let Some(days) = v.reminder_days {
        update = update.col_expr(general_setting::Column::ReminderDays, Expr::value(days));
    }
    if let Some(days) = v.escalation_days {
        update = update.col_expr(general_setting::Column::EscalationDays, Expr::value(days));
    }
    if let Some(format) = v.date_format {
        update = update.col_expr(general_setting::Column::DateFormat, Expr::value(format.code()));
    }
    if let Some(zone) = &v.time_zone {
        update = update.col_expr(general_setting::Column::TimeZone, Expr::value(zone.clone()));
    }
    let updated = update
        .col_expr(
            general_setting::Column::OrganisationName,
            Expr::value(v.organisation_name.clone()),
        )
        .col_expr(general_setting::Column::SupportEmail, Expr::value(v.support_email.clone()))
        .col_expr(general_setting::Column::MileageRateCents, Expr::value(v.mileage_rate_cents))
        .col_expr(
            general_setting::Column::BreakfastCents,
            Expr::value(v.meal_rates.breakfast.cents()),
        )
        .col_expr(general_setting::Column::LunchCents, Expr::value(v.meal_rates.lunch.cents()))
        .col_expr(general_setting::Column::DinnerCents, Expr::value(v.meal_rates.dinner.cents()))
        .col_expr(
            general_setting::Column::AccessTokenTtlSeconds,
            Expr::value(v.access_token_ttl_seconds),
        )
        .col_expr(
            general_setting::Column::RefreshTokenTtlSeconds,
            Expr::value(v.refresh_token_ttl_seconds),
        )
        .col_expr(
            general_setting::Column::Version,
            Expr::col(general_setting::Column::Version).add(1),
        )
        .col_expr(general_setting::Column::UpdatedAt, Expr::value(crate::clock::now()))
        .filter(general_setting::Column::Id.eq(id))
        .filter(general_setting::Column::Version.eq(version))
        .exec(txn)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Limits as rows of the limits table.
fn limit_rows(
    values: &[rules::LimitValues],
    now: DateTime<Utc>,
) -> impl Iterator<Item = form_validation_limit::ActiveModel> + '_ {
    values.iter().map(move |v| form_validation_limit::ActiveModel {
        form_type: Set(v.form_type.into()),
        max_amount_cents: Set(v.max_amount_cents),
        submission_window_days: Set(v.submission_window_days),
        max_miles_per_trip: Set(v.max_miles_per_trip),
        max_hours: Set(v.max_hours),
        max_nights: Set(v.max_nights),
        updated_at: Set(now),
    })
}

/// Every form's limits saved (one statement; the checked set holds each form once).
pub async fn save_limits(
    txn: &impl ConnectionTrait,
    values: &[rules::LimitValues],
    now: DateTime<Utc>,
) -> ApiResult<()> {
    form_validation_limit::Entity::insert_many(limit_rows(values, now))
        .on_conflict(
            OnConflict::column(form_validation_limit::Column::FormType)
                // A saved form's row takes every new value; only its key stays.
                .update_columns(
                    form_validation_limit::Column::iter()
                        .filter(|c| !matches!(c, form_validation_limit::Column::FormType)),
                )
                .to_owned(),
        )
        .exec(txn)
        .await?;
    Ok(())
}

/// The coordinator sign-in block set (blocked with its message, or lifted).
pub async fn save_login_block(
    txn: &impl ConnectionTrait,
    is_blocked: bool,
    message: Option<String>,
) -> ApiResult<()> {
    let row = coordinator_login_block::ActiveModel {
        id: Set(SINGLE_ROW_ID),
        is_blocked: Set(is_blocked),
        message: Set(message),
        updated_at: Set(crate::clock::now()),
    };
    coordinator_login_block::Entity::insert(row)
        .on_conflict(
            OnConflict::column(coordinator_login_block::Column::Id)
                .update_columns([
                    coordinator_login_block::Column::IsBlocked,
                    coordinator_login_block::Column::Message,
                    coordinator_login_block::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec(txn)
        .await?;
    Ok(())
}

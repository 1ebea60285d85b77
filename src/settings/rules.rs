//! Pure settings rules: fiscal-year ranges, general values, form limits, the coordinator
//! sign-in block and banner windows. No I/O; every rule has its unit tests below.

use chrono::{DateTime, NaiveDate, Utc};

use super::date_format::DateFormat;
use super::dto::{BannerInput, FormLimitDto, GeneralSettingsRequest, MealRates};
use crate::{
    error::{ApiError, Checks},
    forms::FormType,
    money::Money,
};

pub const MAX_ORGANISATION_CHARS: usize = 200;
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// Same ranges as the --access-token-ttl / --refresh-token-ttl flags.
pub const ACCESS_TTL_RANGE: (i64, i64) = (30, 86_400);
pub const REFRESH_TTL_RANGE: (i64, i64) = (60, 2_592_000);
/// Limits above these are typing mistakes, not policy.
pub const MAX_WINDOW_DAYS: i64 = 3650;
pub const MAX_COUNT_LIMIT: i64 = 100_000;

// ---- form types ----

/// A form type, which type-specific limits apply to it, and its seeded defaults (from the form catalogue).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormSpec {
    pub form_type: &'static str,
    pub name: &'static str,
    pub max_amount_cents: i64,
    pub submission_window_days: i32,
    pub max_miles_per_trip: Option<i32>,
    pub max_hours: Option<i32>,
    pub max_nights: Option<i32>,
}

const fn spec(form: FormType) -> FormSpec {
    let limits = form.default_limits();
    FormSpec {
        form_type: form.as_str(),
        name: form.name(),
        max_amount_cents: limits.max_amount.0,
        submission_window_days: limits.submission_window_days,
        max_miles_per_trip: limits.max_miles_per_trip,
        max_hours: limits.max_hours,
        max_nights: limits.max_nights,
    }
}

/// Every form with its default limits, in catalogue order (the catalogue declares them). A
/// limit given as `Some` applies to that form (and is required on save); `None` means the form
/// has no such quantity.
pub const FORMS: [FormSpec; FormType::COUNT] = {
    let mut out = [spec(FormType::F1); FormType::COUNT];
    let mut i = 0;
    while i < FormType::COUNT {
        out[i] = spec(FormType::ALL[i]);
        i += 1;
    }
    out
};

/// The form type for a code (`f3` and `F3` alike).
pub fn form_spec(code: &str) -> Option<&'static FormSpec> {
    FORMS.iter().find(|f| f.form_type.eq_ignore_ascii_case(code.trim()))
}

// ---- shared checks ----

fn money_not_negative(checks: &mut Checks, field: &str, amount: Money) -> i64 {
    if amount.cents() < 0 {
        checks.add(field, "must not be negative");
    }
    amount.cents()
}

fn in_range(checks: &mut Checks, field: &str, value: i64, (min, max): (i64, i64)) -> i32 {
    if !(min..=max).contains(&value) {
        checks.add(field, format!("must be between {min} and {max}"));
    }
    value.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

fn text(checks: &mut Checks, field: &str, raw: &str, max: usize) -> String {
    let value = raw.trim();
    if value.is_empty() {
        checks.add(field, "is required");
    } else if value.chars().count() > max {
        checks.add(field, format!("must be at most {max} characters"));
    }
    value.to_owned()
}

// ---- fiscal years ----

/// A fiscal year's bounds, inclusive on both ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YearRange<'a> {
    pub name: &'a str,
    pub start: NaiveDate,
    pub end: NaiveDate,
}

/// Name present and short enough (400).
pub fn check_fiscal_year_name(raw: &str) -> Result<String, ApiError> {
    let mut checks = Checks::default();
    checks.plain("name", raw);
    let name = text(&mut checks, "name", raw, 100);
    checks.finish()?;
    Ok(name)
}

/// The reason given for closing or reopening a year: required, plain text.
pub fn check_year_reason(raw: &str) -> Result<String, ApiError> {
    let mut checks = Checks::default();
    checks.plain("reason", raw);
    let reason = text(&mut checks, "reason", raw, 1000);
    checks.finish()?;
    Ok(reason)
}

/// Closing a closed year, or reopening an open one, is a 409 naming the year.
pub fn check_close_move(
    closing: bool,
    year: super::year_lock::YearFacts<'_>,
) -> Result<(), ApiError> {
    match (closing, year.closed_at.is_some()) {
        (true, true) => {
            Err(ApiError::Conflict(format!("The fiscal year {} is already closed.", year.name)))
        }
        (false, false) => {
            Err(ApiError::Conflict(format!("The fiscal year {} is not closed.", year.name)))
        }
        _ => Ok(()),
    }
}

/// Start strictly before end, and no day shared with an existing year (422 naming the
/// field whose date falls inside another year; both when the new year encloses one).
pub fn check_fiscal_year_range(
    start: NaiveDate,
    end: NaiveDate,
    existing: &[YearRange<'_>],
) -> Result<(), ApiError> {
    if start >= end {
        return Err(ApiError::rule("endDate", "must be after startDate"));
    }
    let mut errors = Checks::default();
    for other in existing.iter().filter(|o| start <= o.end && o.start <= end) {
        let what =
            format!("overlaps fiscal year {} ({} to {})", other.name, other.start, other.end);
        let start_inside = other.start <= start && start <= other.end;
        let end_inside = other.start <= end && end <= other.end;
        if start_inside || !end_inside {
            errors.add("startDate", what.clone());
        }
        if end_inside || !start_inside {
            errors.add("endDate", what);
        }
    }
    let detail = errors.0.values().flatten().next().cloned().unwrap_or_default();
    errors.finish_as(format!("The fiscal year {detail}."))
}

/// Names are unique regardless of case (409).
pub fn check_fiscal_year_name_free(name: &str, existing: &[YearRange<'_>]) -> Result<(), ApiError> {
    if existing.iter().any(|o| o.name.eq_ignore_ascii_case(name)) {
        return Err(ApiError::Conflict(format!("A fiscal year named {name} already exists.")));
    }
    Ok(())
}

// ---- general ----

/// The quota on receipts not yet attached, in MB: at least one receipt, at most 10 GB.
pub const RECEIPT_QUOTA_MB_RANGE: (i64, i64) = (1, 10_240);

/// Checked general settings, money in cents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneralValues {
    pub organisation_name: String,
    pub support_email: String,
    pub mileage_rate_cents: i64,
    /// As the request gives them, each checked not to be negative.
    pub meal_rates: MealRates,
    pub access_token_ttl_seconds: i32,
    pub refresh_token_ttl_seconds: i32,
    /// None keeps the saved value.
    pub digest_hour: Option<i32>,
    pub time_zone: Option<String>,
    pub unattached_receipt_quota_mb: Option<i32>,
    pub reminder_days: Option<i32>,
    pub escalation_days: Option<i32>,
    pub date_format: Option<DateFormat>,
}

pub fn check_general(body: &GeneralSettingsRequest) -> Result<GeneralValues, ApiError> {
    let mut c = Checks::default();
    c.plain("organisationName", &body.organisation_name);
    let organisation_name =
        text(&mut c, "organisationName", &body.organisation_name, MAX_ORGANISATION_CHARS);
    let support_email = c.email("supportEmail", &body.support_email);
    let mileage_rate_cents = money_not_negative(&mut c, "mileageRate", body.mileage_rate);
    let meal_rates = body.meal_rates;
    for (field, rate) in [
        ("mealRates.breakfast", meal_rates.breakfast),
        ("mealRates.lunch", meal_rates.lunch),
        ("mealRates.dinner", meal_rates.dinner),
    ] {
        money_not_negative(&mut c, field, rate);
    }
    let access =
        in_range(&mut c, "accessTokenTtlSeconds", body.access_token_ttl_seconds, ACCESS_TTL_RANGE);
    let refresh = in_range(
        &mut c,
        "refreshTokenTtlSeconds",
        body.refresh_token_ttl_seconds,
        REFRESH_TTL_RANGE,
    );
    let digest_hour = body.digest_hour.map(|h| in_range(&mut c, "digestHour", h, (0, 23)));
    let unattached_receipt_quota_mb = body
        .unattached_receipt_quota_mb
        .map(|mb| in_range(&mut c, "unattachedReceiptQuotaMb", mb, RECEIPT_QUOTA_MB_RANGE));
    let reminder_days = body.reminder_days.map(|d| in_range(&mut c, "reminderDays", d, (1, 60)));
    let escalation_days =
        body.escalation_days.map(|d| in_range(&mut c, "escalationDays", d, (2, 120)));
    c.finish()?;
    let time_zone = body.time_zone.as_deref().map(time_zone).transpose()?;
    let date_format = body.date_format.as_deref().map(date_format).transpose()?;
    if !lifetimes_agree(body.access_token_ttl_seconds, body.refresh_token_ttl_seconds) {
        return Err(ApiError::rule(
            "refreshTokenTtlSeconds",
            "must not be shorter than accessTokenTtlSeconds",
        ));
    }
    Ok(GeneralValues {
        organisation_name,
        support_email,
        mileage_rate_cents,
        meal_rates,
        access_token_ttl_seconds: access,
        refresh_token_ttl_seconds: refresh,
        digest_hour,
        time_zone,
        unattached_receipt_quota_mb,
        reminder_days,
        escalation_days,
        date_format,
    })
}

/// Administrators hear of a waiting step only after its approvers were reminded: the
/// escalation comes later than the first reminder (the saved value stands for an absent one).
pub fn check_reminders(reminder_days: i32, escalation_days: i32) -> Result<(), ApiError> {
    if escalation_days <= reminder_days {
        return Err(ApiError::rule(
            "escalationDays",
            format!("must be more than the reminder's {reminder_days} days"),
        ));
    }
    Ok(())
}

/// An IANA time zone name, as the time zone database spells it (any text is the right shape;
/// one the database does not know breaks a rule: 422).
fn time_zone(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    match name.parse::<chrono_tz::Tz>() {
        Ok(_) => Ok(name.to_owned()),
        Err(_) => Err(ApiError::rule(
            "timeZone",
            "must be a time zone name such as America/Chicago or UTC",
        )),
    }
}

/// One of the formats the office may choose (a text of another shape breaks a rule: 422).
fn date_format(raw: &str) -> Result<DateFormat, ApiError> {
    DateFormat::parse(raw).ok_or_else(|| {
        ApiError::rule("dateFormat", format!("must be one of {}", DateFormat::codes()))
    })
}

/// A sign-in that ends before its first access token would make refresh pointless: the
/// settings screen and the start-up flags are held to this same rule.
pub fn lifetimes_agree(access_secs: i64, refresh_secs: i64) -> bool {
    refresh_secs >= access_secs
}

/// A saved lifetime wins; until one is saved, the flag's value applies.
pub fn effective_ttl(saved: Option<i32>, flag_default: i64) -> i64 {
    saved.map_or(flag_default, i64::from)
}

// ---- form validation limits ----

/// Checked limits of one form type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitValues {
    pub form_type: &'static str,
    pub max_amount_cents: i64,
    pub submission_window_days: i32,
    pub max_miles_per_trip: Option<i32>,
    pub max_hours: Option<i32>,
    pub max_nights: Option<i32>,
}

impl From<&FormSpec> for LimitValues {
    fn from(f: &FormSpec) -> Self {
        LimitValues {
            form_type: f.form_type,
            max_amount_cents: f.max_amount_cents,
            submission_window_days: f.submission_window_days,
            max_miles_per_trip: f.max_miles_per_trip,
            max_hours: f.max_hours,
            max_nights: f.max_nights,
        }
    }
}

/// `c` collects shape errors (400), `r` the per-form rules (422).
fn type_limit(
    c: &mut Checks,
    r: &mut Checks,
    field: &str,
    applies: bool,
    form: &str,
    value: Option<i64>,
) -> Option<i32> {
    match (applies, value) {
        (true, Some(v)) => Some(in_range(c, field, v, (0, MAX_COUNT_LIMIT))),
        (true, None) => {
            r.add(field, format!("is required for {form}"));
            None
        }
        (false, Some(_)) => {
            r.add(field, format!("does not apply to {form}"));
            None
        }
        (false, None) => None,
    }
}

/// The whole set: every form type exactly once, values non-negative, type-specific limits
/// given exactly where they apply. Fields are named `[i].maxAmount`.
pub fn check_limits(entries: &[FormLimitDto]) -> Result<Vec<LimitValues>, ApiError> {
    let mut c = Checks::default();
    let mut r = Checks::default();
    let mut out: Vec<LimitValues> = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let f = |name: &str| format!("[{i}].{name}");
        let Some(spec) = form_spec(&e.form_type) else {
            c.add(f("formType"), format!("unknown form type '{}' (F1 to F14)", e.form_type));
            continue;
        };
        if out.iter().any(|o| o.form_type == spec.form_type) {
            r.add(f("formType"), format!("{} is listed twice", spec.form_type));
            continue;
        }
        out.push(LimitValues {
            form_type: spec.form_type,
            max_amount_cents: money_not_negative(&mut c, &f("maxAmount"), e.max_amount),
            submission_window_days: in_range(
                &mut c,
                &f("submissionWindowDays"),
                e.submission_window_days,
                (0, MAX_WINDOW_DAYS),
            ),
            max_miles_per_trip: type_limit(
                &mut c,
                &mut r,
                &f("maxMilesPerTrip"),
                spec.max_miles_per_trip.is_some(),
                spec.form_type,
                e.max_miles_per_trip,
            ),
            max_hours: type_limit(
                &mut c,
                &mut r,
                &f("maxHours"),
                spec.max_hours.is_some(),
                spec.form_type,
                e.max_hours,
            ),
            max_nights: type_limit(
                &mut c,
                &mut r,
                &f("maxNights"),
                spec.max_nights.is_some(),
                spec.form_type,
                e.max_nights,
            ),
        });
    }
    let missing: Vec<&str> = FORMS
        .iter()
        .map(|s| s.form_type)
        .filter(|t| !out.iter().any(|o| o.form_type == *t))
        .collect();
    if c.0.is_empty() && r.0.is_empty() && !missing.is_empty() {
        r.add("formType", format!("every form type is required; missing {}", missing.join(", ")));
    }
    c.finish()?;
    r.finish_rules()?;
    out.sort_by_key(|o| FORMS.iter().position(|s| s.form_type == o.form_type));
    Ok(out)
}

// ---- coordinator sign-in block ----

/// A message is required while blocked (it is what Coordinators are shown).
pub fn check_block(is_blocked: bool, message: Option<&str>) -> Result<Option<String>, ApiError> {
    let message = message.map(str::trim).filter(|m| !m.is_empty());
    match message {
        None if is_blocked => {
            Err(ApiError::rule("message", "is required while coordinator login is blocked"))
        }
        Some(m) if m.chars().count() > MAX_MESSAGE_CHARS => Err(ApiError::bad_field(
            "message",
            format!("must be at most {MAX_MESSAGE_CHARS} characters"),
        )),
        m => Ok(m.map(str::to_owned)),
    }
}

/// While blocked, users holding Coordinator and not Administrator cannot sign in, refresh
/// or call: the rule lives with the per-call check in the kernel.
pub use crate::auth::is_shut_out;

// ---- notification banners ----

/// Shown now: switched on and `now` within [startsAt, endsAt) (open ends unbounded).
pub fn is_showing(
    is_active: bool,
    starts_at: Option<DateTime<Utc>>,
    ends_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> bool {
    is_active && starts_at.is_none_or(|s| s <= now) && ends_at.is_none_or(|e| now < e)
}

/// Checked banner list: messages present, windows ordered, ids known and not repeated.
pub fn check_banners(
    entries: &[BannerInput],
    existing_ids: &[i32],
) -> Result<Vec<String>, ApiError> {
    let mut c = Checks::default();
    let mut r = Checks::default();
    let mut seen: Vec<i32> = Vec::new();
    let mut messages = Vec::with_capacity(entries.len());
    for (i, b) in entries.iter().enumerate() {
        messages.push(text(&mut c, &format!("[{i}].message"), &b.message, MAX_MESSAGE_CHARS));
        if let (Some(s), Some(e)) = (b.starts_at, b.ends_at) {
            if e <= s {
                r.add(format!("[{i}].endsAt"), "must be after startsAt");
            }
        }
        if let Some(id) = b.id {
            if !existing_ids.contains(&id) {
                r.add(format!("[{i}].id"), format!("no banner has id {id}"));
            } else if seen.contains(&id) {
                r.add(format!("[{i}].id"), format!("banner {id} is listed twice"));
            }
            seen.push(id);
        }
    }
    c.finish()?;
    r.finish_rules()?;
    Ok(messages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::dto::BannerSeverity;
    use chrono::Duration;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn closing_and_reopening() {
        use crate::settings::year_lock::YearFacts;
        let open = YearFacts { name: "FY 2025-26", closed_at: None };
        let closed = YearFacts { closed_at: Some(chrono::Utc::now()), ..open };
        assert!(check_close_move(true, open).is_ok());
        assert!(check_close_move(false, closed).is_ok());
        for (closing, year, says) in [(true, closed, "already closed"), (false, open, "not closed")]
        {
            match check_close_move(closing, year).unwrap_err() {
                ApiError::Conflict(d) => {
                    assert!(d.contains("FY 2025-26") && d.contains(says), "{d}")
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(check_year_reason("  Books closed  ").unwrap(), "Books closed");
        for bad in ["   ".to_owned(), "x".repeat(1001), "a\u{202e}b".to_owned()] {
            assert_eq!(fields(check_year_reason(&bad).unwrap_err()).1, ["reason"], "{bad:?}");
        }
    }

    fn fields(err: ApiError) -> (u16, Vec<String>) {
        use actix_web::ResponseError;
        let status = err.status_code().as_u16();
        match err {
            ApiError::BadRequest { errors, .. } | ApiError::Unprocessable { errors, .. } => {
                (status, errors.into_keys().collect())
            }
            _ => (status, vec![]),
        }
    }

    #[test]
    fn form_types_are_f1_to_f14_with_their_limits() {
        assert_eq!(FORMS.len(), 14);
        for (i, f) in FORMS.iter().enumerate() {
            assert_eq!(f.form_type, format!("F{}", i + 1));
            assert!(f.max_amount_cents > 0 && f.submission_window_days > 0);
        }
        assert_eq!(form_spec("f3").unwrap().max_miles_per_trip, Some(500));
        assert_eq!(form_spec(" F11 ").unwrap().max_nights, Some(10));
        assert!(form_spec("F15").is_none() && form_spec("").is_none());
        // Only forms whose details carry the quantity have its limit.
        let with = |pick: fn(&FormSpec) -> Option<i32>| {
            FORMS.iter().filter(|f| pick(f).is_some()).map(|f| f.form_type).collect::<Vec<_>>()
        };
        assert_eq!(with(|f| f.max_miles_per_trip), ["F3"]);
        assert_eq!(with(|f| f.max_hours), ["F1", "F4", "F5", "F6", "F10"]);
        assert_eq!(with(|f| f.max_nights), ["F11"]);
    }

    #[test]
    fn fiscal_year_names() {
        assert_eq!(check_fiscal_year_name("  FY 2026-27 ").unwrap(), "FY 2026-27");
        assert_eq!(fields(check_fiscal_year_name(" ").unwrap_err()), (400, vec!["name".into()]));
        assert!(check_fiscal_year_name(&"x".repeat(101)).is_err());
        let existing =
            [YearRange { name: "FY 2025-26", start: d("2025-07-01"), end: d("2026-06-30") }];
        assert_eq!(
            fields(check_fiscal_year_name_free("fy 2025-26", &existing).unwrap_err()).0,
            409
        );
        assert!(check_fiscal_year_name_free("FY 2026-27", &existing).is_ok());
    }

    #[test]
    fn fiscal_year_ranges() {
        let existing =
            [YearRange { name: "FY 2025-26", start: d("2025-07-01"), end: d("2026-06-30") }];
        let check = |s: &str, e: &str| check_fiscal_year_range(d(s), d(e), &existing);
        // Adjacent years are fine, before and after.
        assert!(check("2026-07-01", "2027-06-30").is_ok());
        assert!(check("2024-07-01", "2025-06-30").is_ok());
        // Start must come before end.
        assert_eq!(
            fields(check("2027-06-30", "2026-07-01").unwrap_err()),
            (422, vec!["endDate".into()])
        );
        assert_eq!(
            fields(check("2027-01-01", "2027-01-01").unwrap_err()),
            (422, vec!["endDate".into()])
        );
        // Overlaps name the date that falls inside another year...
        assert_eq!(
            fields(check("2026-06-30", "2027-06-29").unwrap_err()),
            (422, vec!["startDate".into()])
        );
        assert_eq!(
            fields(check("2024-07-01", "2025-07-01").unwrap_err()),
            (422, vec!["endDate".into()])
        );
        assert_eq!(
            fields(check("2025-08-01", "2026-01-01").unwrap_err()),
            (422, vec!["endDate".into(), "startDate".into()])
        );
        // ...and both when the new year encloses an existing one.
        assert_eq!(
            fields(check("2025-01-01", "2027-01-01").unwrap_err()),
            (422, vec!["endDate".into(), "startDate".into()])
        );
        assert!(check_fiscal_year_range(d("2025-01-01"), d("2027-01-01"), &[]).is_ok());
    }

    fn general() -> GeneralSettingsRequest {
        GeneralSettingsRequest {
            id: None,
            organisation_name: " Mentor Program ".into(),
            support_email: "Help@Example.org".into(),
            mileage_rate: Money(70),
            meal_rates: MealRates {
                breakfast: Money(1600),
                lunch: Money(1900),
                dinner: Money(2800),
            },
            access_token_ttl_seconds: 900,
            refresh_token_ttl_seconds: 28_800,
            digest_hour: None,
            unattached_receipt_quota_mb: None,
            reminder_days: None,
            escalation_days: None,
            time_zone: None,
            date_format: None,
            version: 1,
        }
    }

    #[test]
    fn general_values_are_checked() {
        let v = check_general(&general()).unwrap();
        assert_eq!(v.organisation_name, "Mentor Program");
        assert_eq!(v.support_email, "help@example.org");
        assert_eq!(v.mileage_rate_cents, 70);
        assert_eq!(v.meal_rates, general().meal_rates);
        assert_eq!((v.access_token_ttl_seconds, v.refresh_token_ttl_seconds), (900, 28_800));
        // Zero rates are allowed (a program that does not pay meals).
        let zero = GeneralSettingsRequest { mileage_rate: Money(0), ..general() };
        assert!(check_general(&zero).is_ok());

        let bad = GeneralSettingsRequest {
            organisation_name: " ".into(),
            support_email: "nope".into(),
            mileage_rate: Money(-1),
            meal_rates: MealRates { breakfast: Money(-1), lunch: Money(0), dinner: Money(-100) },
            access_token_ttl_seconds: 10,
            refresh_token_ttl_seconds: 3_000_000,
            digest_hour: Some(24),
            time_zone: Some("Mars/Olympus".into()),
            unattached_receipt_quota_mb: Some(0),
            reminder_days: Some(0),
            escalation_days: Some(121),
            date_format: None,
            version: 1,
            id: None,
        };
        let (status, names) = fields(check_general(&bad).unwrap_err());
        assert_eq!(status, 400);
        assert_eq!(
            names,
            [
                "accessTokenTtlSeconds",
                "digestHour",
                "escalationDays",
                "mealRates.breakfast",
                "mealRates.dinner",
                "mileageRate",
                "organisationName",
                "refreshTokenTtlSeconds",
                "reminderDays",
                "supportEmail",
                "unattachedReceiptQuotaMb"
            ]
        );
        // A well-formed name the time zone database does not know breaks a rule.
        let unknown =
            GeneralSettingsRequest { time_zone: Some("Mars/Olympus".into()), ..general() };
        let (status, names) = fields(check_general(&unknown).unwrap_err());
        assert_eq!((status, names.as_slice()), (422, ["timeZone".to_owned()].as_slice()));
        let zoned = GeneralSettingsRequest {
            digest_hour: Some(0),
            time_zone: Some(" America/Chicago ".into()),
            ..general()
        };
        let v = check_general(&zoned).unwrap();
        assert_eq!((v.digest_hour, v.time_zone.as_deref()), (Some(0), Some("America/Chicago")));
        // The date format is one of its closed set (any case), or a rule is broken.
        let format = GeneralSettingsRequest { date_format: Some("dd/mm/yyyy".into()), ..general() };
        assert_eq!(check_general(&format).unwrap().date_format, Some(DateFormat::DayMonthYear));
        let unknown = GeneralSettingsRequest { date_format: Some("M/D/YY".into()), ..general() };
        let (status, names) = fields(check_general(&unknown).unwrap_err());
        assert_eq!((status, names.as_slice()), (422, ["dateFormat".to_owned()].as_slice()));
        let short = GeneralSettingsRequest {
            access_token_ttl_seconds: 3600,
            refresh_token_ttl_seconds: 600,
            ..general()
        };
        assert_eq!(fields(check_general(&short).unwrap_err()).1, ["refreshTokenTtlSeconds"]);
        assert!(check_reminders(3, 7).is_ok());
        assert_eq!(
            fields(check_reminders(7, 7).unwrap_err()),
            (422, vec!["escalationDays".into()])
        );
        // Values beyond i32 are reported, not wrapped.
        let huge = GeneralSettingsRequest { access_token_ttl_seconds: i64::MAX, ..general() };
        assert!(check_general(&huge).is_err());
    }

    #[test]
    fn saved_lifetimes_override_the_flags() {
        assert_eq!(effective_ttl(None, 900), 900);
        assert_eq!(effective_ttl(Some(300), 900), 300);
    }

    fn limit(form: &str) -> FormLimitDto {
        let s = form_spec(form).unwrap();
        FormLimitDto {
            form_type: form.into(),
            max_amount: Money(s.max_amount_cents),
            submission_window_days: s.submission_window_days.into(),
            max_miles_per_trip: s.max_miles_per_trip.map(i64::from),
            max_hours: s.max_hours.map(i64::from),
            max_nights: s.max_nights.map(i64::from),
        }
    }

    fn all_limits() -> Vec<FormLimitDto> {
        FORMS.iter().rev().map(|f| limit(f.form_type)).collect()
    }

    #[test]
    fn a_full_set_of_limits_passes_in_form_order() {
        let out = check_limits(&all_limits()).unwrap();
        assert_eq!(out.len(), 14);
        assert_eq!(out[0].form_type, "F1");
        assert_eq!(out[2].max_miles_per_trip, Some(500));
        // Zero means "nothing allowed", which is a legal policy.
        let mut zero = all_limits();
        zero[0].max_amount = Money(0);
        zero[0].submission_window_days = 0;
        assert!(check_limits(&zero).is_ok());
    }

    #[test]
    fn bad_limits_are_named() {
        let mut l = all_limits();
        l[0].max_amount = Money(-1); // F14
        l[0].submission_window_days = -5;
        l[11].max_miles_per_trip = None; // F3 needs it
        l[11].max_hours = Some(3); // F3 has no hours
        l[3].max_nights = Some(-1); // F11
                                    // Shape first (400: what the document states), then the per-form rules (422).
        let (status, names) = fields(check_limits(&l).unwrap_err());
        assert_eq!(status, 400);
        assert_eq!(names, ["[0].maxAmount", "[0].submissionWindowDays", "[3].maxNights"]);
        let mut l = all_limits();
        l[11].max_miles_per_trip = None; // F3 needs it
        l[11].max_hours = Some(3); // F3 has no hours
        let (status, names) = fields(check_limits(&l).unwrap_err());
        assert_eq!(status, 422);
        assert_eq!(names, ["[11].maxHours", "[11].maxMilesPerTrip"]);

        let mut l = all_limits();
        l[1].form_type = "F99".into();
        assert_eq!(fields(check_limits(&l).unwrap_err()).1, ["[1].formType"]);
        let mut l = all_limits();
        l[1].form_type = "f14".into();
        assert_eq!(fields(check_limits(&l).unwrap_err()).1, ["[1].formType"]);
        let l: Vec<_> = all_limits().into_iter().skip(1).collect();
        assert_eq!(fields(check_limits(&l).unwrap_err()).1, ["formType"]);
        assert!(check_limits(&[]).is_err());
    }

    #[test]
    fn block_message_rules() {
        assert!(check_block(true, None).is_err());
        assert!(check_block(true, Some("   ")).is_err());
        assert!(check_block(true, Some(&"x".repeat(1001))).is_err());
        assert_eq!(
            check_block(true, Some(" Closed for year end. ")).unwrap().as_deref(),
            Some("Closed for year end.")
        );
        assert_eq!(check_block(false, None).unwrap(), None);
        assert_eq!(check_block(false, Some("kept")).unwrap().as_deref(), Some("kept"));
    }

    #[test]
    fn who_is_shut_out() {
        let roles = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(is_shut_out(true, &roles(&["Coordinator"])));
        assert!(is_shut_out(true, &roles(&["Auditor", "Coordinator"])));
        assert!(!is_shut_out(true, &roles(&["Coordinator", "Administrator"])));
        assert!(!is_shut_out(true, &roles(&["Administrator", "Coordinator"])));
        assert!(!is_shut_out(true, &roles(&["Administrator"])));
        assert!(!is_shut_out(true, &roles(&["Auditor"])));
        assert!(!is_shut_out(true, &[]));
        assert!(!is_shut_out(false, &roles(&["Coordinator"])));
    }

    #[test]
    fn banner_windows() {
        let now = Utc::now();
        let h = Duration::hours(1);
        assert!(is_showing(true, None, None, now));
        assert!(!is_showing(false, None, None, now));
        assert!(is_showing(true, Some(now - h), Some(now + h), now));
        assert!(is_showing(true, Some(now), None, now), "start is inclusive");
        assert!(!is_showing(true, None, Some(now), now), "end is exclusive");
        assert!(!is_showing(true, Some(now + h), None, now));
        assert!(!is_showing(true, None, Some(now - h), now));
    }

    fn banner(id: Option<i32>, message: &str) -> BannerInput {
        BannerInput {
            id,
            message: message.into(),
            severity: BannerSeverity::Info,
            starts_at: None,
            ends_at: None,
            is_active: true,
        }
    }

    #[test]
    fn banner_lists() {
        assert_eq!(
            check_banners(&[banner(Some(1), " Hi "), banner(None, "New")], &[1, 2]).unwrap(),
            ["Hi", "New"]
        );
        assert!(check_banners(&[], &[1]).unwrap().is_empty());
        let now = Utc::now();
        let backwards = BannerInput {
            starts_at: Some(now),
            ends_at: Some(now - Duration::hours(1)),
            ..banner(None, "x")
        };
        let (status, names) =
            fields(check_banners(&[banner(None, "ok"), banner(None, "")], &[1]).unwrap_err());
        assert_eq!(status, 400);
        assert_eq!(names, ["[1].message"]);
        // Unknown or repeated ids and a window that ends first are rules (422).
        let (status, names) = fields(
            check_banners(
                &[banner(Some(9), "a"), backwards, banner(Some(1), "b"), banner(Some(1), "c")],
                &[1],
            )
            .unwrap_err(),
        );
        assert_eq!(status, 422);
        assert_eq!(names, ["[0].id", "[1].endsAt", "[3].id"]);
    }
}
